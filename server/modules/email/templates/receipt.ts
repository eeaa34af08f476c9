import { formatMinor, formatMoney, formatNumber } from '@shared/format';
import {
  button,
  detailsTable,
  formatDay,
  greetingName,
  html,
  page,
  type EmailData,
  type RenderedEmail,
} from './layout';

/** Sent when the charity confirms the payment: a receipt with the amount received and the date. */
export function receiptEmail({ campaign, pledge, statusUrl }: EmailData): RenderedEmail {
  // Cents when cents arrived (J$12.34), whole amounts as everywhere else (record 013).
  const received = formatMinor(
    pledge.amountReceivedMinor ?? Math.round((pledge.amountReceived ?? pledge.amount) * 100),
    pledge.currencyReceived ?? pledge.currency,
  );
  const outstanding = pledge.outstandingMinor ?? Math.round((pledge.outstandingAmount ?? 0) * 100);
  const overpaid = pledge.overpaidMinor ?? 0;
  const day = formatDay(pledge.paymentConfirmedAt ?? new Date(), campaign.timeZone);
  const subject = `Receipt: your donation to ${campaign.name} has arrived`;
  const rows: [string, string][] = [
    ['Amount received', received],
    ['Date received', day],
    [
      'Pledged',
      `${formatMoney(pledge.amount, pledge.currency)} (${formatNumber(pledge.containers)} meal containers)`,
    ],
    ['Pledge made', formatDay(pledge.createdAt, campaign.timeZone)],
    ...(pledge.reference ? ([['Payment reference', pledge.reference]] as [string, string][]) : []),
    ...(outstanding > 0
      ? ([['Still to pay', formatMinor(outstanding, pledge.currency)]] as [string, string][])
      : []),
    ...(overpaid > 0
      ? ([['Received beyond your pledge', formatMinor(overpaid, pledge.currency)]] as [
          string,
          string,
        ][])
      : []),
  ];

  const text = [
    `Dear ${greetingName(pledge.name)},`,
    '',
    `We have received your payment of ${received} on ${day}. Thank you: your gift is now turning into meals for ${campaign.beneficiaries}.`,
    '',
    'RECEIPT',
    ...rows.map(([k, v]) => `  ${k}: ${v}`),
    `  Received by: ${campaign.name}`,
    '',
    'Your pledge status page:',
    statusUrl,
    '',
    `Questions? Write to ${campaign.payment.confirmationEmail}.`,
    '',
    'With gratitude,',
    campaign.name,
    '',
  ].join('\n');

  const body = html` <h1 style="font-size:22px;margin:0 0 16px;">Your donation has arrived</h1>
    <p>Dear ${greetingName(pledge.name)},</p>
    <p>
      We have received your payment of <strong>${received}</strong> on <strong>${day}</strong>.
      Thank you: your gift is now turning into meals for ${campaign.beneficiaries}.
    </p>
    <h2 style="font-size:18px;margin:24px 0 4px;">Receipt</h2>
    ${detailsTable([...rows, ['Received by', campaign.name]])}
    ${button(statusUrl, 'See your pledge status')}
    <p>
      Questions? Write to
      <a href="mailto:${campaign.payment.confirmationEmail}" style="color:#166534;"
        >${campaign.payment.confirmationEmail}</a
      >.
    </p>
    <p>With gratitude,<br />${campaign.name}</p>`;

  return { subject, text, html: page(campaign, subject, body) };
}
