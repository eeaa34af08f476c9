import * as DialogPrimitive from '@radix-ui/react-dialog';
import { ImagePlus, X } from 'lucide-react';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { UPLOAD_BUTTON_DEFAULT_MAX_BYTES } from '@shared/constants';
import { Button, type ButtonProps } from '../../../components/ui/button';
import { Skeleton } from '../../../components/ui/skeleton';

/** Uppy and its CSS (~60 KB gzipped) load only when an admin opens the upload modal. */
const loadDashboard = () => import('./upload-dashboard');
const UploadDashboard = lazy(loadDashboard);

export interface ImageUploadButtonProps {
  /** Called with the stored image URL (the upload URL without its query string). */
  onComplete: (imageUrl: string) => void;
  maxNumberOfFiles?: number;
  /** Bytes. Product rule: the button's own default is 10 MB; the post and edit forms pass 5 MB. */
  maxFileSize?: number;
  variant?: ButtonProps['variant'];
  className?: string;
  children: ReactNode;
}

function megabytes(bytes: number): string {
  return `${Math.round((bytes / 1_048_576) * 10) / 10} MB`;
}

/**
 * The image upload modal (product rule): opened by this button, images only, no automatic start; it
 * closes on request-close (Escape, the close button, a click outside) or when the upload
 * completes. The Uppy Dashboard sits inline in a nested Radix dialog rather than in Uppy's own
 * DashboardModal: that modal, mounted outside the form dialog, would fight the form dialog's focus
 * trap (focus pulled back out of Uppy) and its outside-click handling (a click in Uppy would close
 * the form); mounted inside it, the form dialog's CSS translate would pin Uppy's fixed overlay to
 * the form. Nested Radix dialogs stack focus, Escape and aria-hidden correctly.
 */
export function ImageUploadButton({
  onComplete,
  maxNumberOfFiles = 1,
  maxFileSize = UPLOAD_BUTTON_DEFAULT_MAX_BYTES,
  variant = 'outline',
  className,
  children,
}: ImageUploadButtonProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        data-testid="button-upload-image"
        variant={variant}
        className={className}
        onClick={() => setOpen(true)}
        // Start fetching Uppy as soon as the admin shows intent.
        onPointerEnter={() => void loadDashboard()}
        onFocus={() => void loadDashboard()}
      >
        <ImagePlus className="h-4 w-4" aria-hidden="true" />
        {children}
      </Button>
      <DialogPrimitive.Root open={open} onOpenChange={setOpen}>
        <DialogPrimitive.Portal>
          {/* Above the form dialog it was opened from (that one sits at z-50). */}
          <DialogPrimitive.Overlay className="fixed inset-0 z-[60] bg-ink-900/50 data-[state=open]:animate-fade-in" />
          <DialogPrimitive.Content className="fixed top-1/2 left-1/2 z-[70] max-h-[94dvh] w-[calc(100vw-1rem)] max-w-3xl -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-4 shadow-2xl focus:outline-none sm:p-6">
            <div className="mb-4 pr-8">
              <DialogPrimitive.Title className="text-xl font-bold text-ink-900">
                Upload Image
              </DialogPrimitive.Title>
              <DialogPrimitive.Description className="mt-1 text-sm text-ink-600">
                Choose one photo of the delivery (PNG, JPEG, WebP or GIF, up to{' '}
                {megabytes(maxFileSize)}), then press Upload.
              </DialogPrimitive.Description>
            </div>
            <Suspense fallback={<Skeleton className="h-[420px] w-full" />}>
              <UploadDashboard
                maxFileSize={maxFileSize}
                maxNumberOfFiles={maxNumberOfFiles}
                onUploaded={onComplete}
                onDone={() => setOpen(false)}
              />
            </Suspense>
            <DialogPrimitive.Close
              className="absolute top-3 right-3 rounded-md p-1.5 text-ink-600 hover:bg-ink-100 focus-visible:ring-3 focus-visible:ring-sun-400 focus-visible:outline-none sm:top-4 sm:right-4"
              aria-label="Close"
            >
              <X className="h-5 w-5" aria-hidden="true" />
            </DialogPrimitive.Close>
          </DialogPrimitive.Content>
        </DialogPrimitive.Portal>
      </DialogPrimitive.Root>
    </>
  );
}
