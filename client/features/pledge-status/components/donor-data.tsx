import { useMutation } from '@tanstack/react-query';
import { Download, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { SERVER_PAGE_PATHS } from '@shared/pages';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Dialog, DialogClose, DialogContent } from '../../../components/ui/dialog';
import { apiRequest, errorMessage } from '../../../lib/api-client';

/**
 * The donor's rights on their status page (Jamaica's Data Protection Act 2020): download
 * everything held about the pledge, or erase name and e-mail (after a confirmation). The download
 * is a plain link, so it works before (and without) JavaScript.
 */
export function DonorData({ pledgeId, token }: { pledgeId: string; token: string }) {
  const [open, setOpen] = useState(false);
  const erase = useMutation({
    mutationFn: async () =>
      apiRequest('POST', `/api/pledges/${encodeURIComponent(pledgeId)}/erase`, {
        t: token,
        confirm: true,
      }),
    onSuccess: () => setOpen(false),
  });
  const id = encodeURIComponent(pledgeId);
  if (erase.isSuccess)
    return (
      <Card className="mt-8 p-5 sm:p-6">
        <h2 className="text-xl font-bold text-ink-900">Your data</h2>
        <p className="mt-2 text-ink-800" role="status">
          Your name and e-mail address have been erased. The amount and payment reference stay in
          the charity&rsquo;s accounts; this link no longer works.
        </p>
      </Card>
    );
  return (
    <Card className="mt-8 p-5 sm:p-6">
      <h2 className="text-xl font-bold text-ink-900">Your data</h2>
      <p className="mt-2 text-ink-700">
        See everything we hold about this pledge, or erase your name and e-mail address. Read our{' '}
        <a href={SERVER_PAGE_PATHS.privacy} className="font-semibold text-brand-800 underline">
          privacy notice
        </a>
        .
      </p>
      <div className="mt-4 flex flex-col gap-2 sm:flex-row">
        <Button asChild variant="outline">
          <a href={`/api/pledges/${id}/my-data?t=${encodeURIComponent(token)}`} download>
            <Download className="h-4 w-4" aria-hidden="true" />
            Download my data
          </a>
        </Button>
        <Dialog open={open} onOpenChange={setOpen}>
          <Button variant="outline" onClick={() => setOpen(true)}>
            <Trash2 className="h-4 w-4" aria-hidden="true" />
            Erase my personal data
          </Button>
          <DialogContent
            title="Erase your personal data?"
            description="Your name and e-mail address are replaced by “Erased donor” everywhere. The amount, payment reference and payments stay for the charity’s accounts. E-mails not yet sent are cancelled, and this page’s link stops working. This cannot be undone."
          >
            {erase.isError ? (
              <p className="mb-3 text-sm text-red-700" role="alert">
                {errorMessage(erase.error, 'Could not erase your data. Please try again.')}
              </p>
            ) : null}
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <DialogClose asChild>
                <Button variant="outline">Keep my data</Button>
              </DialogClose>
              <Button
                variant="destructive"
                disabled={erase.isPending}
                onClick={() => erase.mutate()}
              >
                {erase.isPending ? 'Erasing…' : 'Erase my data'}
              </Button>
            </div>
          </DialogContent>
        </Dialog>
      </div>
    </Card>
  );
}
