import { Check, CircleCheck, Copy, Info, Landmark, Link2, Mail } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import type { Campaign } from '@shared/schemas/campaign';
import { InstructionsActions } from '../../../components/payment/instructions-actions';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ShareCampaign } from './share-campaign';
import {
  lastPledgeAmount,
  lastPledgeContainers,
  lastPledgeReference,
} from '../../../lib/last-pledge';
import {
  amountToTransferText,
  confirmationNote,
  paymentFileName,
  paymentInstructionsText,
  paymentNote,
  paymentAccounts,
  REFERENCE_INSTRUCTION,
  type AmountToTransfer,
} from '@shared/payment-text';

/** Saves the instructions as a text file: `{supplier brand}-Payment-Instructions.txt`. */
export function downloadInstructions(
  campaign: Campaign,
  reference?: string | null,
  amount?: AmountToTransfer | null,
) {
  const blob = new Blob([paymentInstructionsText(campaign, reference, amount)], {
    type: 'text/plain;charset=utf-8',
  });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = paymentFileName(campaign);
  document.body.append(a);
  a.click();
  a.remove();
  // Give the browser time to start the download before the URL goes away.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function PaymentInstructions({
  campaign,
  statusLink,
}: {
  campaign: Campaign;
  /** The donor's status page (docs/decisions/014-email-outbox.md), if this browser pledged. */
  statusLink?: string;
}) {
  const [reference] = useState(lastPledgeReference);
  const [containers] = useState(lastPledgeContainers);
  const [amount] = useState(lastPledgeAmount);
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:py-14">
      <div className="text-center">
        <CircleCheck className="mx-auto h-14 w-14 text-brand-700" aria-hidden="true" />
        <h1 className="mt-4 text-3xl font-extrabold tracking-tight text-ink-900 sm:text-4xl">
          Thank You for Your Pledge
        </h1>
        <p className="mx-auto mt-3 max-w-xl text-lg text-ink-700">
          Your pledge has been recorded. Please complete your donation by bank transfer using the
          details below.
        </p>
      </div>

      {reference ? <ReferenceCard reference={reference} /> : null}

      {statusLink ? (
        <Card className="mt-8 flex gap-3 p-5 sm:p-6">
          <Link2 className="mt-0.5 h-5 w-5 shrink-0 text-brand-700" aria-hidden="true" />
          <div>
            <h2 className="font-bold text-ink-900">Your pledge status page</h2>
            <p className="mt-1 text-ink-700">
              We have e-mailed you these details with a private link to your pledge&rsquo;s status
              page, which shows when your payment has arrived. Keep the link to yourself.
            </p>
            <a
              href={statusLink}
              className="mt-2 inline-block font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-800"
            >
              Open your pledge status page
            </a>
          </div>
        </Card>
      ) : null}

      <PaymentDetails campaign={campaign} reference={reference} amount={amount} />

      <InstructionsActions onDownload={() => downloadInstructions(campaign, reference, amount)} />

      <ShareCampaign campaign={campaign} containers={containers} />
    </div>
  );
}

/**
 * The amount to transfer, the payment note, both bank accounts (the pledge's currency first) and
 * the contact: thank-you and status pages. The note asks for the reference alone when there is
 * one; a request to e-mail a confirmation appears only when the campaign config asks for it.
 */
export function PaymentDetails({
  campaign,
  reference,
  amount,
}: {
  campaign: Campaign;
  reference?: string | null;
  /** What to send (the pledge, or what is still owed), when known. */
  amount?: AmountToTransfer | null;
}) {
  const { confirmationEmail } = campaign.payment;
  const confirmation = confirmationNote(campaign);
  return (
    <>
      {amount ? (
        <p
          className="mt-8 text-center text-xl font-bold text-ink-900"
          data-testid="amount-to-transfer"
        >
          {amountToTransferText(amount)}
        </p>
      ) : null}
      <div className="mt-8 flex gap-3 rounded-2xl border border-sun-400 bg-sun-100 p-4 text-ink-900">
        <Info className="mt-0.5 h-5 w-5 shrink-0 text-ink-800" aria-hidden="true" />
        <p>
          <strong className="font-semibold">Payment note:</strong>{' '}
          {paymentNote(campaign, reference)}
        </p>
      </div>

      <div className="mt-6 grid grid-cols-1 gap-6">
        {paymentAccounts(campaign, amount?.currency).map((a) => (
          <DetailsCard key={a.key} title={a.title} subtitle={a.subtitle}>
            <Details rows={a.rows} />
            {a.intermediary ? (
              <>
                <h3 className="mt-5 text-sm font-bold tracking-wider text-ink-600 uppercase">
                  {a.intermediary.title}
                </h3>
                <Details rows={a.intermediary.rows} />
              </>
            ) : null}
          </DetailsCard>
        ))}

        <Card className="flex gap-3 p-5 sm:p-6">
          <Mail className="mt-0.5 h-5 w-5 shrink-0 text-brand-700" aria-hidden="true" />
          <div>
            <h2 className="font-bold text-ink-900">
              {confirmation ? 'Confirm your wire transfer' : 'Questions?'}
            </h2>
            <p className="mt-1 text-ink-700">
              {confirmation
                ? 'After sending a wire transfer, please e-mail your confirmation to '
                : 'Write to '}
              <a
                href={`mailto:${confirmationEmail}`}
                className="font-semibold break-all text-brand-700 underline underline-offset-4 hover:text-brand-800"
              >
                {confirmationEmail}
              </a>
              .
            </p>
          </div>
        </Card>
      </div>
    </>
  );
}

/**
 * The donor's payment reference in large type with a copy button: the one thing the bank transfer
 * must carry so the treasurer can match it (docs/decisions/012-payment-reference.md).
 */
export function ReferenceCard({ reference }: { reference: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(reference);
      setCopied(true);
      setTimeout(() => setCopied(false), 2500);
    } catch {
      // No clipboard permission: the reference is selectable text, so it can still be copied.
      setCopied(false);
    }
  };
  return (
    <Card className="mt-8 border-2 border-brand-700 p-5 text-center sm:p-6">
      <h2 id="payment-reference-heading" className="text-lg font-bold text-ink-900">
        Your payment reference
      </h2>
      <p
        aria-labelledby="payment-reference-heading"
        className="mt-2 font-mono text-4xl font-extrabold tracking-widest text-ink-900 select-all sm:text-5xl"
        data-testid="payment-reference"
      >
        {reference}
      </p>
      <p className="mt-2 text-ink-700">
        {REFERENCE_INSTRUCTION}, so we can match your transfer to your pledge.
      </p>
      <Button className="mt-4" variant="outline" onClick={() => void copy()}>
        {copied ? (
          <Check className="h-4 w-4" aria-hidden="true" />
        ) : (
          <Copy className="h-4 w-4" aria-hidden="true" />
        )}
        {copied ? 'Copied' : 'Copy reference'}
      </Button>
      <span className="sr-only" role="status">
        {copied ? 'Reference copied to the clipboard' : ''}
      </span>
    </Card>
  );
}

function DetailsCard({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle: string;
  children: ReactNode;
}) {
  return (
    <Card className="p-5 sm:p-6">
      <div className="flex items-start gap-3">
        <Landmark className="mt-1 h-5 w-5 shrink-0 text-brand-700" aria-hidden="true" />
        <div>
          <h2 className="text-xl font-bold text-ink-900">{title}</h2>
          <p className="text-sm text-ink-600">{subtitle}</p>
        </div>
      </div>
      <div className="mt-4">{children}</div>
    </Card>
  );
}

function Details({ rows }: { rows: [string, string][] }) {
  return (
    <dl className="mt-2 divide-y divide-ink-100 rounded-xl border border-ink-100">
      {rows.map(([label, value]) => (
        <div key={label} className="grid gap-0.5 px-4 py-2.5 sm:grid-cols-[11rem_1fr] sm:gap-4">
          <dt className="text-sm font-medium text-ink-600">{label}</dt>
          <dd className="font-semibold break-words text-ink-900 select-all">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
