import { formatMoney, formatNumber } from '@shared/format';
import {
  amountToTransferText,
  confirmationNote,
  paymentAccounts,
  paymentAccountText,
  paymentNote,
  questionsNote,
} from '@shared/payment-text';
import {
  accountSection,
  button,
  greetingName,
  html,
  page,
  type EmailData,
  type RenderedEmail,
} from './layout';

/**
 * Sent when a pledge is made: thanks, what was pledged, the payment reference and the full
 * payment instructions (the same rows as the thank-you page), and the status page link.
 */
export function instructionsEmail({ campaign, pledge, statusUrl }: EmailData): RenderedEmail {
  const amount = formatMoney(pledge.amount, pledge.currency);
  const containers = formatNumber(pledge.containers);
  const reference = pledge.reference ?? null;
  const subject = `Thank you for your pledge to ${campaign.name}: how to complete it`;
  const referenceLine = reference
    ? `Your payment reference is ${reference}. Please put it in the payment note of your transfer so that we can match your payment to your pledge.`
    : null;
  // The amount to send, the account of the pledge's currency first, the reference alone in the
  // note, and no request to e-mail a confirmation unless the campaign asks for one.
  const toTransfer = amountToTransferText({
    amountMinor: pledge.amount * 100,
    currency: pledge.currency,
  });
  const accounts = paymentAccounts(campaign, pledge.currency);
  const note = paymentNote(campaign, reference);
  const confirmation = confirmationNote(campaign);

  const text = [
    `Dear ${greetingName(pledge.name)},`,
    '',
    `Thank you for pledging ${amount} to ${campaign.name}. That is ${containers} meal containers for ${campaign.beneficiaries}.`,
    '',
    ...(referenceLine ? [referenceLine, ''] : []),
    'To complete your donation, please send a bank transfer using the details below.',
    toTransfer,
    '',
    ...accounts.flatMap((a) => paymentAccountText(a, false)),
    note,
    ...(confirmation ? [confirmation] : []),
    questionsNote(campaign),
    '',
    'Your pledge status page shows when your payment has arrived, and these details again:',
    statusUrl,
    '',
    `With gratitude,`,
    campaign.name,
    '',
  ].join('\n');

  const body = html` <h1 style="font-size:22px;margin:0 0 16px;">Thank you for your pledge</h1>
    <p>Dear ${greetingName(pledge.name)},</p>
    <p>
      Thank you for pledging <strong>${amount}</strong> to ${campaign.name}. That is
      <strong>${containers}</strong> meal containers for ${campaign.beneficiaries}.
    </p>
    ${reference ? html`<p style="background:#fef3c7;border:1px solid #f59e0b;border-radius:8px;padding:12px;">Your payment reference is <strong style="font-size:18px;">${reference}</strong>. Please put it in the payment note of your transfer so that we can match your payment to your pledge.</p>` : null}
    <p>To complete your donation, please send a bank transfer using the details below.</p>
    <p><strong>${toTransfer}</strong></p>
    ${accountSection(accounts[0]!)} ${accountSection(accounts[1]!)}
    <p>${note}</p>
    ${confirmation ? html`<p>${confirmation}</p>` : null}
    <p>${questionsNote(campaign)}</p>
    <p>Your pledge status page shows when your payment has arrived, and these details again:</p>
    ${button(statusUrl, 'See your pledge status')}
    <p>With gratitude,<br />${campaign.name}</p>`;

  return { subject, text, html: page(campaign, subject, body) };
}
