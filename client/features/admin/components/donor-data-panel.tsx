import { formatLongDate } from '@shared/dates';
import { useCampaignTimeZone } from '../../../lib/campaign-time-zone';
import { useState, type FormEvent } from 'react';
import { formatNumber } from '@shared/format';
import { Button } from '../../../components/ui/button';
import { useAdminAuth } from '../../admin-auth';
import { Card } from '../../../components/ui/card';
import { Dialog, DialogClose, DialogContent } from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { useEraseEmail, useRetention } from '../api';

/**
 * Donor data: when the retention rule anonymises every pledge, and the erasure of every
 * pledge of one address (a request by letter). The log keeps which pledges, never the address.
 */
export function DonorDataPanel() {
  const timeZone = useCampaignTimeZone();
  const retention = useRetention();
  const erase = useEraseEmail();
  const [email, setEmail] = useState('');
  const [confirming, setConfirming] = useState(false);
  const canErase = useAdminAuth().may('POST', '/api/admin/privacy/erase');
  const r = retention.data;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (email.trim()) setConfirming(true);
  };
  return (
    <section aria-labelledby="donor-data-heading" className="grid gap-3">
      <h2 id="donor-data-heading" className="text-xl font-bold text-ink-900">
        Donor data
      </h2>
      <Card className="grid gap-4 p-5">
        <p className="text-ink-800" data-testid="retention-date">
          {r?.anonymiseOn
            ? `Names and e-mail addresses of all pledges are anonymised on ${formatLongDate(r.anonymiseOn, timeZone)} (${formatNumber(r.retentionDays ?? 0)} days after the campaign ends). ${formatNumber(r.pledgesWithPersonalData)} pledges still hold them.`
            : r
              ? 'No retention rule is set (privacy in the campaign config).'
              : 'Loading…'}
        </p>
        {canErase ? (
          <form className="flex flex-col gap-2 sm:flex-row sm:items-end" onSubmit={submit}>
            <div className="grid flex-1 gap-1.5">
              <Label htmlFor="erase-email">Erase every pledge of an e-mail address</Label>
              <Input
                id="erase-email"
                type="email"
                autoComplete="off"
                value={email}
                onChange={(e) => setEmail(e.target.value)}
              />
            </div>
            <Button type="submit" variant="outline" disabled={!email.trim()}>
              Erase donor data
            </Button>
          </form>
        ) : null}
      </Card>
      <Dialog open={confirming} onOpenChange={setConfirming}>
        <DialogContent
          title="Erase this donor’s data?"
          description={`The name and e-mail of every pledge made with ${email.trim()} are replaced by “Erased donor”. Amounts, references and payments stay. This cannot be undone.`}
        >
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button
              variant="destructive"
              disabled={erase.isPending}
              onClick={() =>
                erase.mutate(email.trim(), {
                  onSuccess: () => {
                    setConfirming(false);
                    setEmail('');
                    void retention.refetch();
                  },
                })
              }
            >
              {erase.isPending ? 'Erasing…' : 'Erase'}
            </Button>
          </div>
        </DialogContent>
      </Dialog>
    </section>
  );
}
