import { dayIn } from '@shared/dates';
import type { UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { IMAGE_MAX_BYTES, RECIPIENT_MAX_LENGTH } from '@shared/constants';
import type { updateEditFormSchema } from '@shared/schemas/update';
import { Input } from '../../../components/ui/input';
import { FieldError, Label } from '../../../components/ui/label';
import { ImageUploadButton } from './image-upload-button';

/** The post and edit forms hold the same fields; the edit form's image may stay empty. */
export type UpdateFormValues = z.input<typeof updateEditFormSchema>;

/** Today's date in the campaign's time zone, as the date input's YYYY-MM-DD. */
export function todayYmd(timeZone: string, now = new Date()): string {
  return dayIn(now, timeZone);
}

export function UpdateFormFields({
  form,
  idPrefix,
  currentImageUrl,
  uploadLabel,
  onImageUploaded,
}: {
  form: UseFormReturn<UpdateFormValues>;
  idPrefix: string;
  /** The image to preview: the new upload, else the update's current image. */
  currentImageUrl: string | undefined;
  uploadLabel: string;
  onImageUploaded: (imageUrl: string) => void;
}) {
  const {
    register,
    formState: { errors },
  } = form;
  const id = (name: string) => `${idPrefix}-${name}`;
  return (
    <div className="grid gap-4">
      <div className="grid gap-2">
        <span className="text-sm font-semibold text-ink-800">Delivery Photo</span>
        {currentImageUrl ? (
          // eslint-disable-next-line jsx-a11y/img-redundant-alt -- a preview of the delivery photo the admin uploads: the word is its name on screen
          <img
            src={currentImageUrl}
            alt="Delivery photo preview"
            className="h-44 w-full rounded-xl border border-ink-100 bg-ink-100 object-cover sm:h-52"
          />
        ) : (
          <div className="flex h-44 w-full items-center justify-center rounded-xl border-2 border-dashed border-ink-200 bg-ink-50 p-4 text-center text-sm text-ink-600 sm:h-52">
            No photo yet. Upload one photo of the delivery.
          </div>
        )}
        <ImageUploadButton
          maxNumberOfFiles={1}
          maxFileSize={IMAGE_MAX_BYTES}
          onComplete={onImageUploaded}
          className="justify-self-start"
        >
          {uploadLabel}
        </ImageUploadButton>
        <FieldError id={id('image-error')}>{errors.imageUrl?.message}</FieldError>
      </div>

      <div className="grid gap-1.5">
        <Label htmlFor={id('recipient')}>Recipient</Label>
        <Input
          id={id('recipient')}
          placeholder="e.g. Black River Community Kitchen"
          maxLength={RECIPIENT_MAX_LENGTH}
          aria-invalid={errors.recipient ? true : undefined}
          aria-describedby={errors.recipient ? id('recipient-error') : undefined}
          {...register('recipient')}
        />
        <FieldError id={id('recipient-error')}>{errors.recipient?.message}</FieldError>
      </div>

      <div className="grid gap-4 sm:grid-cols-2">
        <div className="grid gap-1.5">
          <Label htmlFor={id('count')}>Container Count</Label>
          <Input
            id={id('count')}
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            placeholder="1000"
            aria-invalid={errors.containerCount ? true : undefined}
            aria-describedby={errors.containerCount ? id('count-error') : undefined}
            {...register('containerCount', { valueAsNumber: true })}
          />
          <FieldError id={id('count-error')}>{errors.containerCount?.message}</FieldError>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={id('date')}>Delivery Date</Label>
          <Input
            id={id('date')}
            type="date"
            aria-invalid={errors.deliveryDate ? true : undefined}
            aria-describedby={errors.deliveryDate ? id('date-error') : undefined}
            {...register('deliveryDate')}
          />
          <FieldError id={id('date-error')}>{errors.deliveryDate?.message}</FieldError>
        </div>
      </div>
    </div>
  );
}
