import { formatDateTime } from '@shared/dates';
import { useCampaignTimeZone } from '../../../lib/campaign-time-zone';
import { BellOff, BellRing } from 'lucide-react';
import { useState } from 'react';
import { formatMoney, formatNumber } from '@shared/format';
import { Button } from '../../../components/ui/button';
import { useAdminAuth } from '../../admin-auth';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { useCampaignReminderPause, useReleaseLapsed, useReminderSettings } from '../api';
import { ConfirmDialog } from './confirm-dialog';

/**
 * Reminders for unpaid pledges: the schedule from the campaign config (read-only), the
 * campaign-wide pause, and the lapsed pledges still counted, with "Release lapsed pledges".
 */
export function RemindersPanel() {
  const timeZone = useCampaignTimeZone();
  const settings = useReminderSettings();
  const pause = useCampaignReminderPause();
  const release = useReleaseLapsed();
  const [confirmOpen, setConfirmOpen] = useState(false);
  const { may } = useAdminAuth();
  if (settings.isLoading) return <Skeleton className="h-28 w-full" />;
  if (!settings.data) return null;
  const { schedule, pausedAt, lapsed } = settings.data;
  const lapsedMoney = [
    lapsed.usd ? formatMoney(lapsed.usd, 'USD') : null,
    lapsed.jmd ? formatMoney(lapsed.jmd, 'JMD') : null,
  ]
    .filter(Boolean)
    .join(' + ');
  return (
    <Card className="p-5" role="region" aria-labelledby="reminders-heading">
      <h2 id="reminders-heading" className="text-xl font-bold text-ink-900">
        Reminders
      </h2>
      <dl className="mt-3 grid gap-2 text-sm sm:grid-cols-[12rem_1fr]">
        <dt className="text-ink-600">Schedule</dt>
        <dd className="text-ink-900">
          {schedule.enabled
            ? `Days ${schedule.days.join(', ')} after the pledge; Lapsed after ${schedule.lapseAfterDays} days`
            : 'Off (campaign config)'}
        </dd>
        <dt className="text-ink-600">Status</dt>
        <dd className="text-ink-900">
          {pausedAt ? `Paused since ${formatDateTime(pausedAt, timeZone)}` : 'Running'}
        </dd>
        <dt className="text-ink-600">Lapsed, still counted</dt>
        <dd className="text-ink-900">
          {lapsed.count === 0
            ? 'None'
            : `${formatNumber(lapsed.count)} pledge${lapsed.count === 1 ? '' : 's'}: ${lapsedMoney} (${formatNumber(lapsed.containers)} meal containers)`}
        </dd>
      </dl>
      <div className="mt-4 flex flex-wrap gap-2">
        {may('PUT', '/api/admin/reminders') ? (
          <Button
            variant="outline"
            disabled={pause.isPending}
            onClick={() => pause.mutate(!pausedAt)}
          >
            {pausedAt ? (
              <BellRing className="h-4 w-4" aria-hidden="true" />
            ) : (
              <BellOff className="h-4 w-4" aria-hidden="true" />
            )}
            {pausedAt ? 'Resume all reminders' : 'Pause all reminders'}
          </Button>
        ) : null}
        {may('POST', '/api/admin/pledges/lapsed/release') ? (
          <Button
            variant="outline"
            disabled={lapsed.count === 0 || release.isPending}
            onClick={() => setConfirmOpen(true)}
          >
            Release lapsed pledges
          </Button>
        ) : null}
      </div>
      <ConfirmDialog
        open={confirmOpen}
        onOpenChange={setConfirmOpen}
        title="Release lapsed pledges?"
        description={`${formatNumber(lapsed.count)} lapsed pledge${lapsed.count === 1 ? '' : 's'} will no longer count in the totals. A payment that still arrives counts again.`}
        confirmLabel="Release"
        pendingLabel="Releasing..."
        pending={release.isPending}
        destructive
        onConfirm={() => release.mutate(undefined, { onSuccess: () => setConfirmOpen(false) })}
      />
    </Card>
  );
}
