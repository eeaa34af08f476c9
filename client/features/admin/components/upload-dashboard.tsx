import AwsS3 from '@uppy/aws-s3';
import Uppy from '@uppy/core';
import Dashboard from '@uppy/react/dashboard';
import { useEffect, useRef, useState } from 'react';
import { toast } from '../../../components/ui/toast-store';
import { ApiRequestError } from '../../../lib/api-client';
import { useAdminAuth } from '../../admin-auth';
import { completeUpload, imageUrlFromUploadUrl, requestUploadUrl } from '../api';
import '@uppy/core/css/style.min.css';
import '@uppy/dashboard/css/style.min.css';

/** The JSON `message` of a rejected PUT (Uppy keeps the response text as `body`). */
function serverMessage(error: unknown): string | undefined {
  const body = (error as { body?: unknown } | undefined)?.body;
  if (typeof body !== 'string') return undefined;
  try {
    const message = (JSON.parse(body) as { message?: unknown }).message;
    return typeof message === 'string' ? message : undefined;
  } catch {
    return undefined;
  }
}

export interface UploadDashboardProps {
  maxFileSize: number;
  maxNumberOfFiles: number;
  onUploaded: (imageUrl: string) => void;
  onDone: () => void;
}

/**
 * Uppy's Dashboard for one image: a single (non-multipart) PUT of the bytes to the signed URL from
 * POST /api/objects/upload. With object storage that URL is the bucket's, and a post-processing
 * step has the server check and store the image through the completion link
 * (docs/decisions/015-object-storage.md). A fresh Uppy per opening, so a second upload starts clean.
 */
export default function UploadDashboard({
  maxFileSize,
  maxNumberOfFiles,
  onUploaded,
  onDone,
}: UploadDashboardProps) {
  const { handleSessionError } = useAdminAuth();
  // Uppy's listeners are registered once; they read the latest callbacks through this ref.
  const latest = useRef({ onUploaded, onDone, handleSessionError });
  useEffect(() => {
    latest.current = { onUploaded, onDone, handleSessionError };
  });

  const [uppy, setUppy] = useState<Uppy | null>(null);
  useEffect(() => {
    /** Completion links by Uppy file id (object storage only). */
    const completeURLs = new Map<string, string>();
    const instance = new Uppy({
      autoProceed: false,
      restrictions: { maxNumberOfFiles, maxFileSize, allowedFileTypes: ['image/*'] },
    }).use(AwsS3, {
      shouldUseMultipart: false,
      // The key names the file to signRequest, which otherwise does not see it (its size is signed).
      generateObjectKey: (file) => file.id,
      async signRequest(request) {
        let url: string;
        try {
          const links = await requestUploadUrl(instance.getFile(request.key)?.size ?? undefined);
          url = links.uploadURL;
          if (links.completeURL) completeURLs.set(request.key, links.completeURL);
          else completeURLs.delete(request.key);
        } catch (error) {
          if (error instanceof ApiRequestError && error.status === 401) {
            latest.current.handleSessionError(error);
            throw new Error('Authorization required', { cause: error });
          }
          throw error;
        }
        const headers: Record<string, string> = {};
        if ('contentType' in request && request.contentType)
          headers['Content-Type'] = request.contentType;
        return { url, headers };
      },
    });
    instance.on('upload-success', (file, response) => {
      if (file && completeURLs.has(file.id)) return; // stored by the post-processor below
      if (response.uploadURL) latest.current.onUploaded(imageUrlFromUploadUrl(response.uploadURL));
    });
    instance.addPostProcessor(async (fileIDs) => {
      for (const id of fileIDs) {
        const file = instance.getFile(id);
        const link = completeURLs.get(id);
        if (!file || !link || file.error) continue;
        instance.emit('postprocess-progress', file, {
          mode: 'indeterminate',
          message: 'Checking the image…',
        });
        try {
          const { url } = await completeUpload(link);
          instance.emit('postprocess-complete', instance.getFile(id));
          latest.current.onUploaded(url);
        } catch (error) {
          // Marks the file failed (the modal stays open) and shows the server's sentence.
          instance.emit('upload-error', instance.getFile(id), error as Error);
        }
      }
    });
    instance.on('upload-error', (_file, error) => {
      // Uppy's own note says "S3 returned 415"; the server's sentence says what to do.
      toast({
        title: 'Upload failed',
        description: serverMessage(error) ?? 'The image could not be uploaded. Please try again.',
        variant: 'destructive',
      });
    });
    instance.on('complete', (result) => {
      if ((result.successful?.length ?? 0) > 0 && (result.failed?.length ?? 0) === 0)
        latest.current.onDone();
    });
    setUppy(instance);
    return () => instance.destroy();
  }, [maxFileSize, maxNumberOfFiles]);

  if (!uppy) return <div className="h-[420px]" />;
  return (
    <Dashboard
      uppy={uppy}
      width="100%"
      height={420}
      proudlyDisplayPoweredByUppy={false}
      hideProgressAfterFinish
      note="Images only, one file"
    />
  );
}
