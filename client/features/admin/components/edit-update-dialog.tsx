import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  NO_CHANGES_MESSAGE,
  updateEditFormSchema,
  type DeliveryUpdate,
  type UpdateEdit,
} from '@shared/schemas/update';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogFooter } from '../../../components/ui/dialog';
import { FieldError } from '../../../components/ui/label';
import { toast } from '../../../components/ui/toast-store';
import { useEditUpdate } from '../api';
import { TOASTS } from '../messages';
import { UpdateFormFields, type UpdateFormValues } from './update-form-fields';

const valuesOf = (u: DeliveryUpdate): UpdateFormValues => ({
  imageUrl: '',
  recipient: u.recipient,
  containerCount: u.containerCount,
  deliveryDate: u.deliveryDate,
});

/** Product rule: only the changed fields are sent (the image only when a new one was uploaded). */
export function changedFields(
  update: DeliveryUpdate,
  values: { imageUrl?: string; recipient: string; containerCount: number; deliveryDate: string },
): UpdateEdit['updates'] {
  const changes: UpdateEdit['updates'] = {};
  if (values.imageUrl && values.imageUrl !== update.imageUrl) changes.imageUrl = values.imageUrl;
  if (values.recipient !== update.recipient) changes.recipient = values.recipient;
  if (values.containerCount !== update.containerCount)
    changes.containerCount = values.containerCount;
  if (values.deliveryDate !== update.deliveryDate) changes.deliveryDate = values.deliveryDate;
  return changes;
}

/**
 * "Edit Delivery Update" (default export: the home lazy-loads it when an update card's edit
 * button is pressed). The image is optional: the current one stays unless a new one is uploaded.
 */
export default function EditUpdateDialog({
  update,
  open,
  onOpenChange,
}: {
  update: DeliveryUpdate;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const form = useForm<UpdateFormValues>({
    resolver: zodResolver(updateEditFormSchema),
    defaultValues: valuesOf(update),
  });
  const edit = useEditUpdate();
  const [formError, setFormError] = useState<string>();
  const newImageUrl = form.watch('imageUrl');

  // Each opening starts from the update as it is now. Keyed on the id: a background refresh of
  // the list (a new object for the same update) must not wipe what the admin is typing.
  const latest = useRef(update);
  latest.current = update;
  useEffect(() => {
    if (open) {
      form.reset(valuesOf(latest.current));
      setFormError(undefined);
    }
  }, [open, update.id, form]);

  const submit = form.handleSubmit((raw) => {
    const values = updateEditFormSchema.parse(raw);
    const updates = changedFields(update, values);
    if (Object.keys(updates).length === 0) {
      setFormError(NO_CHANGES_MESSAGE);
      return;
    }
    setFormError(undefined);
    edit.mutate({ id: update.id, updates }, { onSuccess: () => onOpenChange(false) });
  });

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title="Edit Delivery Update"
        description={`Change the details of the delivery to ${update.recipient}.`}
      >
        <form onSubmit={submit} noValidate>
          <UpdateFormFields
            form={form}
            idPrefix={`edit-update-${update.id}`}
            currentImageUrl={newImageUrl || update.imageUrl}
            uploadLabel="Change Image"
            onImageUploaded={(url) => {
              form.setValue('imageUrl', url, { shouldDirty: true });
              setFormError(undefined);
              toast(TOASTS.imageUploadedEdit);
            }}
          />
          <div className="mt-4">
            <FieldError>{formError}</FieldError>
          </div>
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={edit.isPending}>
              {edit.isPending ? 'Saving...' : 'Save Changes'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
