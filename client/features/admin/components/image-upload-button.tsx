import { ImagePlus } from 'lucide-react';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { UPLOAD_BUTTON_DEFAULT_MAX_BYTES } from '../../../../shared/constants';
import { Button, type ButtonProps } from '../../../components/ui/button';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { Skeleton } from '../../../components/ui/skeleton';

/** Uppy and its CSS (~60 KB gzipped) load only when an admin opens the upload modal. */
const loadDashboard = () => import('./upload-dashboard');
const UploadDashboard = lazy(loadDashboard);

export interface ImageUploadButtonProps {
  /** Called with the stored image URL (the upload URL without its query string). */
  onComplete: (imageUrl: string) => void;
  maxNumberOfFiles?: number;
  /** Bytes. SPEC 9: the button's own default is 10 MB; the post and edit forms pass 5 MB. */
  maxFileSize?: number;
  variant?: ButtonProps['variant'];
  className?: string;
  children: ReactNode;
}

function megabytes(bytes: number): string {
  return `${Math.round((bytes / 1_048_576) * 10) / 10} MB`;
}

/**
 * The image upload modal (SPEC 2): opened by this button, images only, no automatic start; it
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
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent
          title="Upload Image"
          description={`Choose one photo of the delivery (PNG, JPEG, WebP or GIF, up to ${megabytes(maxFileSize)}), then press Upload.`}
          className="max-w-3xl"
        >
          <Suspense fallback={<Skeleton className="h-[420px] w-full" />}>
            <UploadDashboard
              maxFileSize={maxFileSize}
              maxNumberOfFiles={maxNumberOfFiles}
              onUploaded={onComplete}
              onDone={() => setOpen(false)}
            />
          </Suspense>
        </DialogContent>
      </Dialog>
    </>
  );
}
