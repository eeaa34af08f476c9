import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { notifySubscribersLabel } from '@shared/news';
import { updateFormSchema } from '@shared/schemas/update';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { Label } from '../../../components/ui/label';
import { Dialog, DialogContent, DialogFooter } from '../../../components/ui/dialog';
import { toast } from '../../../components/ui/toast-store';
import { useCampaignTimeZone } from '../../../lib/campaign-time-zone';
import { useNewsSubscribers, usePostUpdate } from '../api';
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
  // An explicit choice each time, off by default: posting never mails anyone by itself.
  const [notify, setNotify] = useState(false);
  const subscribers = useNewsSubscribers(open).data?.count;

  const submit = form.handleSubmit((values) => {
    const input = updateFormSchema.parse(values);
    post.mutate(notify ? { ...input, notifySubscribers: true } : input, {
      onSuccess: () => {
        form.reset(emptyForm(timeZone));
        setNotify(false);
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
          <div className="mt-4 flex items-start gap-3">
            <Checkbox
              id="post-update-notify"
              checked={notify}
              disabled={!subscribers}
              onCheckedChange={(v) => setNotify(v === true)}
              aria-describedby="post-update-notify-hint"
              className="mt-0.5"
            />
            <div className="grid gap-0.5">
              <Label htmlFor="post-update-notify" className="font-medium">
                {subscribers === undefined
                  ? 'Notify subscribers by e-mail'
                  : notifySubscribersLabel(subscribers)}
              </Label>
              <p id="post-update-notify-hint" className="text-xs text-ink-600">
                One e-mail per address, only to donors who asked for delivery news.
              </p>
            </div>
          </div>
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
