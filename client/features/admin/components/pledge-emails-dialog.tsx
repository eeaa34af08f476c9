import { formatDateTime } from '@shared/dates';
import { useCampaignTimeZone } from '../../../lib/campaign-time-zone';
import { formatMoney } from '@shared/format';
import { EMAIL_KIND_LABELS, type AdminEmailMessage } from '@shared/schemas/email';
import type { AdminPledge } from '@shared/schemas/pledge';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogFooter } from '../../../components/ui/dialog';
import { Skeleton } from '../../../components/ui/skeleton';
import {
  usePledgeEmails,
  usePledgeReminderPause,
  usePledgeReminders,
  useResendInstructions,
} from '../api';

/** The pledge's reminders: how many went, the next one due, pause/resume. */
function PledgeRemindersSection({ pledgeId }: { pledgeId: string }) {
  const reminders = usePledgeReminders(pledgeId);
  const timeZone = useCampaignTimeZone();
  const when = (iso: string) => formatDateTime(iso, timeZone);
  const pause = usePledgeReminderPause();
  if (!reminders.data) return null;
  const { sent, nextDueAt, pausedAt } = reminders.data;
  return (
    <section aria-labelledby="pledge-reminders-heading" className="mt-4">
      <h3 id="pledge-reminders-heading" className="font-semibold text-ink-900">
        Reminders
      </h3>
      <p className="mt-1 text-sm text-ink-700">
        {sent.length === 0
          ? 'No reminder sent yet.'
          : `${sent.length} reminder${sent.length === 1 ? '' : 's'} sent (last on ${when(sent[sent.length - 1]!.queuedAt)}).`}{' '}
        {pausedAt
          ? `Paused since ${when(pausedAt)}.`
          : nextDueAt
            ? `Next one due ${when(nextDueAt)}.`
            : 'No further reminder is due.'}
      </p>
      <Button
        size="sm"
        variant="outline"
        className="mt-2"
        disabled={pause.isPending}
        onClick={() => pause.mutate({ id: pledgeId, paused: !pausedAt })}
      >
        {pausedAt ? 'Resume reminders' : 'Pause reminders'}
      </Button>
    </section>
  );
}

function statusText(m: AdminEmailMessage, timeZone: string): string {
  const when = (iso: string) => formatDateTime(iso, timeZone);
  if (m.status === 'sent') return `Sent ${when(m.sentAt!)}`;
  if (m.status === 'failed') return `Not sent: refused for 24 hours (${m.attempts} attempts)`;
  return m.attempts === 0
    ? 'Waiting to be sent'
    : `Waiting: ${m.attempts} attempt${m.attempts === 1 ? '' : 's'} refused, next try ${when(m.nextAttemptAt!)}`;
}

/** Which e-mails a pledge got (docs/decisions/014-email-outbox.md), and "Resend instructions". */
export function PledgeEmailsDialog({
  pledge,
  onOpenChange,
}: {
  pledge: AdminPledge | null;
  onOpenChange: (open: boolean) => void;
}) {
  const emails = usePledgeEmails(pledge?.id);
  const timeZone = useCampaignTimeZone();
  const resend = useResendInstructions();
  return (
    <Dialog open={pledge !== null} onOpenChange={onOpenChange}>
      <DialogContent
        title="E-mails"
        description={
          pledge
            ? `Messages to ${pledge.email} about the pledge of ${formatMoney(pledge.amount, pledge.currency)}.`
            : undefined
        }
      >
        {emails.isLoading ? (
          <Skeleton className="h-16 w-full" />
        ) : emails.isError ? (
          <p className="text-red-700">Could not load the e-mails.</p>
        ) : emails.data && emails.data.length > 0 ? (
          <ul className="divide-y divide-ink-100 rounded-xl border border-ink-100">
            {emails.data.map((m) => (
              <li key={m.id} className="grid gap-1 px-4 py-3">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-semibold text-ink-900">{EMAIL_KIND_LABELS[m.kind]}</span>
                  <Badge
                    variant={
                      m.status === 'sent'
                        ? 'default'
                        : m.status === 'failed'
                          ? 'destructive'
                          : 'secondary'
                    }
                  >
                    {m.status === 'sent' ? 'Sent' : m.status === 'failed' ? 'Failed' : 'Waiting'}
                  </Badge>
                </div>
                <p className="text-sm text-ink-700">{statusText(m, timeZone)}</p>
                {m.lastError && m.status !== 'sent' ? (
                  <p className="text-sm break-words text-ink-600">Last error: {m.lastError}</p>
                ) : null}
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-ink-700">No e-mails for this pledge yet.</p>
        )}
        {pledge ? <PledgeRemindersSection pledgeId={pledge.id} /> : null}
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Close
          </Button>
          <Button
            disabled={!pledge || resend.isPending}
            onClick={() => pledge && resend.mutate(pledge.id)}
          >
            {resend.isPending ? 'Queuing...' : 'Resend instructions'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
