import { formatMinor, formatMoney } from '@shared/format';
import {
  amountToTransferText,
  paymentAccounts,
  paymentAccountText,
  paymentNote,
  questionsNote,
} from '@shared/payment-text';
import {
  accountSection,
  button,
  detailsTable,
  formatDay,
  greetingName,
  html,
  page,
  type EmailData,
  type RenderedEmail,
} from './layout';

/**
 * The reminder of an unpaid or part-paid pledge (server/modules/reminders): what is still
 * owed, the reference, the account of the pledge's currency (shared/payment-text.ts, the one layout
 * of the payment instructions), the status link, and "I can't complete this pledge" (the status
 * page, where the donor can cancel). Its wording lives here, apart from campaign.json, on purpose:
 * see docs/decisions/019-reminders-and-lapse.md.
 */
const CANT_COMPLETE = 'I can\u2019t complete this pledge';

export function reminderEmail({ campaign, pledge, statusUrl }: EmailData): RenderedEmail {
  const pledged = formatMoney(pledge.amount, pledge.currency);
  const owedMinor = pledge.outstandingMinor ?? Math.round((pledge.outstandingAmount ?? 0) * 100);
  const partPaid = pledge.amountReceivedMinor != null && owedMinor < pledge.amount * 100;
  const owed = formatMinor(owedMinor, pledge.currency);
  const reference = pledge.reference ?? null;
  const subject = partPaid
    ? `A reminder: ${owed} still to send for your pledge to ${campaign.name}`
    : `A reminder about your pledge to ${campaign.name}`;
  const account = paymentAccounts(campaign, pledge.currency)[0]!;
  const toTransfer = amountToTransferText({ amountMinor: owedMinor, currency: pledge.currency });
  const note = paymentNote(campaign, reference);
  const cancelUrl = `${statusUrl}#cant-complete`;
  const rows: [string, string][] = [
    ['Pledged', pledged],
    ['Pledge made', formatDay(pledge.createdAt, campaign.timeZone)],
    ...(partPaid
      ? ([
          [
            'Received so far',
            formatMinor(pledge.amountReceivedMinor!, pledge.currencyReceived ?? pledge.currency),
          ],
        ] as [string, string][])
      : []),
    ['Still to pay', owed],
    ...(reference ? ([['Payment reference', reference]] as [string, string][]) : []),
  ];
  const intro = partPaid
    ? `Thank you for the part of your pledge that has arrived. ${owed} of the ${pledged} you pledged is still to come.`
    : `Thank you again for pledging ${pledged} to ${campaign.name}. We have not yet received your transfer; if you have sent it in the last few days, thank you, and please ignore this e-mail.`;

  const text = [
    `Dear ${greetingName(pledge.name)},`,
    '',
    intro,
    '',
    'YOUR PLEDGE',
    ...rows.map(([k, v]) => `  ${k}: ${v}`),
    '',
    toTransfer,
    '',
    ...paymentAccountText(account, false),
    note,
    questionsNote(campaign),
    '',
    'Your pledge status page:',
    statusUrl,
    '',
    `If you cannot complete this pledge, tell us on your status page (${CANT_COMPLETE}):`,
    cancelUrl,
    '',
    'With gratitude,',
    campaign.name,
    '',
  ].join('\n');

  const body = html` <h1 style="font-size:22px;margin:0 0 16px;">A reminder about your pledge</h1>
    <p>Dear ${greetingName(pledge.name)},</p>
    <p>${intro}</p>
    ${detailsTable(rows)}
    <p><strong>${toTransfer}</strong></p>
    ${accountSection(account)}
    <p>${note}</p>
    <p>${questionsNote(campaign)}</p>
    ${button(statusUrl, 'See your pledge status')}
    <p>
      If you cannot complete this pledge, tell us here:
      <a href="${cancelUrl}" style="color:#166534;">${CANT_COMPLETE}</a>.
    </p>
    <p>With gratitude,<br />${campaign.name}</p>`;

  return { subject, text, html: page(campaign, subject, body) };
}
