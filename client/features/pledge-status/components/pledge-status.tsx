import { CircleCheck, CircleX, Clock, Send } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { formatLongDate } from '@shared/dates';
import { formatMinor, formatMoney, formatNumber } from '@shared/format';
import { PAYMENT_STATE_LABEL, paymentProgressText } from '@shared/received';
import type { DonorPledgeView } from '@shared/schemas/email';
import { PLEDGE_STATUS_LABEL } from '@shared/schemas/pledge';
import { Badge } from '../../../components/ui/badge';
import { InstructionsActions } from '../../../components/payment/instructions-actions';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Dialog, DialogContent, DialogFooter } from '../../../components/ui/dialog';
import { useCampaignTimeZone } from '../../../lib/campaign-time-zone';
import { useCancelPledge, useMarkSent } from '../api';
import { DeliveryNewsChoice } from './delivery-news';

/** The words: the button, the dialog's title and the confirm. */
const CANT_COMPLETE = 'I can\u2019t complete this pledge';

/**
 * "I can't complete this pledge" with a confirmation: the donor cancels, nothing is owed and no
 * reminder follows. Only while nothing has arrived (the server refuses it after a payment).
 */
function CancelPledge({ id, token }: { id: string; token: string }) {
  const [open, setOpen] = useState(false);
  const cancel = useCancelPledge(id, token);
  return (
    <div id="cant-complete" className="mt-6 border-t border-ink-100 pt-4">
      <Button variant="outline" onClick={() => setOpen(true)}>
        <CircleX className="h-4 w-4" aria-hidden="true" />
        {CANT_COMPLETE}
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent
          title="Cancel this pledge?"
          description="Your pledge will be cancelled: it no longer counts towards the campaign's total, and we will not remind you about it. You can always pledge again."
          className="max-w-md"
        >
          <DialogFooter>
            <Button variant="outline" onClick={() => setOpen(false)}>
              Keep my pledge
            </Button>
            <Button
              variant="destructive"
              disabled={cancel.isPending}
              onClick={() => cancel.mutate(undefined, { onSuccess: () => setOpen(false) })}
            >
              {cancel.isPending ? 'Cancelling…' : 'Yes, cancel my pledge'}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </div>
  );
}

/**
 * The donor's status page (docs/decisions/014-email-outbox.md): where the pledge stands, and how to
 * pay it.
 */
export function PledgeStatus({
  pledge,
  token,
  paymentDetails,
  onDownload,
  extra,
}: {
  pledge: DonorPledgeView;
  token: string;
  /** The campaign's payment details (the route passes them in: features do not import features). */
  paymentDetails: ReactNode;
  onDownload: () => void;
  /** Shown under the status card: delivery so far, the donor's data. */
  extra?: ReactNode;
}) {
  const markSent = useMarkSent(pledge.id, token);
  // A calendar day in the campaign's time zone (campaign.json's `timeZone`): the same text on the
  // server that renders the page and in the donor's browser that hydrates it.
  const timeZone = useCampaignTimeZone();
  const day = (iso: string) => formatLongDate(iso, timeZone);
  const cancelled = pledge.pledgeStatus === 'cancelled';
  // Over paid is paid too: nothing is owed.
  const paid = pledge.status === 'paid' || pledge.status === 'over-paid';
  const progressText = paymentProgressText({ ...pledge, isPaid: pledge.status !== 'pending' });
  const rows: [string, string][] = [
    ['Amount pledged', formatMoney(pledge.amount, pledge.currency)],
    ['Meal containers', formatNumber(pledge.containers)],
    ['Pledged on', day(pledge.createdAt)],
  ];
  if (pledge.reference) rows.push(['Payment reference', pledge.reference]);
  if (pledge.amountReceived !== null)
    rows.push([
      'Amount received',
      formatMinor(
        pledge.amountReceivedMinor ?? Math.round(pledge.amountReceived * 100),
        pledge.currencyReceived ?? pledge.currency,
      ),
    ]);
  if (pledge.status === 'part-paid')
    rows.push([
      'Still to pay',
      formatMinor(
        pledge.outstandingMinor ?? Math.round(pledge.outstandingAmount * 100),
        pledge.currency,
      ),
    ]);
  if (pledge.status === 'over-paid' && pledge.overpaidMinor)
    rows.push(['Received beyond your pledge', formatMinor(pledge.overpaidMinor, pledge.currency)]);
  if (pledge.paymentConfirmedAt)
    rows.push(['Payment confirmed on', day(pledge.paymentConfirmedAt)]);

  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:py-14">
      <div className="text-center">
        {cancelled ? (
          <CircleX className="mx-auto h-14 w-14 text-ink-600" aria-hidden="true" />
        ) : paid ? (
          <CircleCheck className="mx-auto h-14 w-14 text-brand-700" aria-hidden="true" />
        ) : (
          <Clock className="mx-auto h-14 w-14 text-brand-700" aria-hidden="true" />
        )}
        <h1 className="mt-4 text-3xl font-extrabold tracking-tight text-ink-900 sm:text-4xl">
          Your Pledge Status
        </h1>
        <p className="mx-auto mt-3 max-w-xl text-lg text-ink-700">
          Thank you, {pledge.name}.{' '}
          {cancelled
            ? 'This pledge is cancelled: nothing is owed, and we will not remind you about it.'
            : pledge.status === 'over-paid'
              ? 'Your payment has arrived, and more than you pledged: thank you for your generosity.'
              : paid
                ? 'Your payment has arrived: your gift is turning into meals.'
                : pledge.status === 'part-paid'
                  ? 'Part of your payment has arrived; the rest can follow by the same transfer.'
                  : 'Your pledge is recorded; this page shows when your payment arrives.'}
        </p>
      </div>

      <Card className="mt-8 p-5 sm:p-6">
        <div className="flex flex-wrap items-center gap-3">
          <h2 className="text-xl font-bold text-ink-900">Status</h2>
          <Badge variant={paid ? 'default' : 'secondary'} className="text-sm">
            {cancelled
              ? PLEDGE_STATUS_LABEL.cancelled
              : pledge.pledgeStatus === 'lapsed' || pledge.pledgeStatus === 'released'
                ? PLEDGE_STATUS_LABEL.lapsed
                : PAYMENT_STATE_LABEL[pledge.status]}
          </Badge>
          {progressText && !cancelled ? <span className="text-ink-700">{progressText}</span> : null}
        </div>
        <dl className="mt-4 divide-y divide-ink-100 rounded-xl border border-ink-100">
          {rows.map(([label, value]) => (
            <div key={label} className="grid gap-0.5 px-4 py-2.5 sm:grid-cols-[13rem_1fr] sm:gap-4">
              <dt className="text-sm font-medium text-ink-600">{label}</dt>
              <dd className="font-semibold break-words text-ink-900">{value}</dd>
            </div>
          ))}
        </dl>
        {paid || cancelled ? null : pledge.donorSaysSentAt ? (
          <p className="mt-4 flex gap-2 text-ink-800" role="status">
            <Send className="mt-1 h-4 w-4 shrink-0 text-brand-700" aria-hidden="true" />
            You told us on {day(pledge.donorSaysSentAt)} that you sent the transfer. We will e-mail
            you a receipt when it arrives; bank transfers can take a few working days.
          </p>
        ) : (
          <div className="mt-5 flex flex-col gap-2 sm:flex-row sm:items-center">
            <Button disabled={markSent.isPending} onClick={() => markSent.mutate()}>
              <Send className="h-4 w-4" aria-hidden="true" />
              {markSent.isPending ? 'Saving…' : 'I\u2019ve sent the transfer'}
            </Button>
            <p className="text-sm text-ink-600">Tell us once your bank has sent the money.</p>
          </div>
        )}
        {pledge.status === 'pending' && !cancelled ? (
          <CancelPledge id={pledge.id} token={token} />
        ) : null}
      </Card>

      <DeliveryNewsChoice id={pledge.id} token={token} subscribed={pledge.deliveryNews === true} />

      {extra}

      {paid || cancelled ? null : (
        <>
          <h2 className="mt-10 text-2xl font-bold text-ink-900">How to pay</h2>
          {paymentDetails}
        </>
      )}

      <InstructionsActions onDownload={onDownload} downloadVariant={paid ? 'outline' : 'default'} />
    </div>
  );
}
