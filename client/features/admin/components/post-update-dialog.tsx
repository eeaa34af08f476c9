import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type Resolver } from 'react-hook-form';
import { updateFormSchema } from '@shared/schemas/update';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogFooter } from '../../../components/ui/dialog';
import { toast } from '../../../components/ui/toast-store';
import { useCampaignTimeZone } from '../../../lib/campaign-time-zone';
import { usePostUpdate } from '../api';
import { TOASTS } from '../messages';
import { todayYmd, UpdateFormFields, type UpdateFormValues } from './update-form-fields';

const emptyForm = (timeZone: string): UpdateFormValues => ({
  imageUrl: '',
  recipient: '',
  containerCount: Number.NaN,
  deliveryDate: todayYmd(timeZone),
});

/** "Post Delivery Update": a photo first (Publish stays disabled until it is uploaded), then the details. */
export function PostUpdateDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const timeZone = useCampaignTimeZone();
  const form = useForm<UpdateFormValues>({
    // The post form requires the image the shared field type leaves optional (for editing).
    resolver: zodResolver(updateFormSchema) as unknown as Resolver<UpdateFormValues>,
    defaultValues: emptyForm(timeZone),
  });
  const post = usePostUpdate();
  const imageUrl = form.watch('imageUrl');

  const submit = form.handleSubmit((values) => {
    post.mutate(updateFormSchema.parse(values), {
      onSuccess: () => {
        form.reset(emptyForm(timeZone));
        onOpenChange(false);
      },
    });
  });

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title="Post Delivery Update"
        description="Share a photo of a delivery with the people who made it possible."
      >
        <form onSubmit={submit} noValidate>
          <UpdateFormFields
            form={form}
            idPrefix="post-update"
            currentImageUrl={imageUrl || undefined}
            uploadLabel={imageUrl ? 'Replace Image' : 'Upload Image'}
            onImageUploaded={(url) => {
              form.setValue('imageUrl', url, { shouldValidate: true, shouldDirty: true });
              toast(TOASTS.imageUploadedCreate);
            }}
          />
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={!imageUrl || post.isPending}>
              {post.isPending ? 'Publishing...' : 'Publish Update'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
