import type { Currency } from './constants';
import { formatMinor } from './format';
import { currencyPrefix } from './prices';
import type { Campaign } from './schemas/campaign';

/** "GreenBox-Payment-Instructions.txt": the supplier brand, then "-Payment-Instructions.txt". */
export function paymentFileName(campaign: Campaign): string {
  return `${campaign.supplierBrand}-Payment-Instructions.txt`;
}

/** The payment details as rows, shared by the page and the downloaded file. */
function paymentSections(campaign: Campaign) {
  const { usdWire, jmdTransfer } = campaign.payment;
  return {
    usd: [
      ['Beneficiary', usdWire.beneficiary],
      ['Bank', usdWire.bank],
      ['Branch', usdWire.branch],
      ['Account Number', usdWire.accountNumber],
      ['Account Type', usdWire.accountType],
      ['SWIFT Code', usdWire.swift],
    ],
    intermediary: [
      ['Bank', usdWire.intermediaryBank.name],
      ['Address', usdWire.intermediaryBank.address],
      ['SWIFT Code', usdWire.intermediaryBank.swift],
      ['ABA Number', usdWire.intermediaryBank.aba],
    ],
    jmd: [
      ['Beneficiary', jmdTransfer.beneficiary],
      ['Bank', jmdTransfer.bank],
      ['Branch', jmdTransfer.branch],
      ['Account Number', jmdTransfer.accountNumber],
      ['Account Type', jmdTransfer.accountType],
    ],
  } satisfies Record<string, [string, string][]>;
}

/** What the donor is asked to send: the pledge (or what is still owed), in its currency. */
export interface AmountToTransfer {
  /** In cents of `currency`. */
  amountMinor: number;
  currency: Currency;
}

export function amountToTransferText(a: AmountToTransfer): string {
  return `Amount to transfer: ${formatMinor(a.amountMinor, a.currency)}`;
}

/** The account of the pledge's currency first: a J$ donor sees the JMD account first. */
function accountOrder(currency?: Currency | null): ('usd' | 'jmd')[] {
  return currency === 'JMD' ? ['jmd', 'usd'] : ['usd', 'jmd'];
}

/** One bank account as every channel shows it: heading, rows, and the intermediary bank. */
export interface PaymentAccount {
  key: 'usd' | 'jmd';
  title: string;
  subtitle: string;
  rows: [string, string][];
  intermediary?: { title: string; rows: [string, string][] };
}

/**
 * The bank accounts in the order the donor should read them (the pledge's currency first): the one
 * layout of the thank-you page, the status page, the downloaded file and the e-mail.
 */
export function paymentAccounts(campaign: Campaign, currency?: Currency | null): PaymentAccount[] {
  const s = paymentSections(campaign);
  const accounts: Record<'usd' | 'jmd', PaymentAccount> = {
    usd: {
      key: 'usd',
      title: 'USD Wire Transfer',
      subtitle: `For donations in US dollars (${currencyPrefix('USD')})`,
      rows: s.usd,
      intermediary: { title: 'Intermediary Bank', rows: s.intermediary },
    },
    jmd: {
      key: 'jmd',
      title: 'JMD Local Bank Transfer',
      subtitle: `For donations in Jamaican dollars (${currencyPrefix('JMD')}) from a local account`,
      rows: s.jmd,
    },
  };
  return accountOrder(currency).map((k) => accounts[k]);
}

/**
 * An account as plain text: the heading in capitals, "  Key: value" rows, the intermediary bank's
 * rows indented once more, and a blank line after. The downloaded file leaves a blank line before
 * the intermediary bank; the e-mail's text part does not.
 */
export function paymentAccountText(account: PaymentAccount, blankBeforeIntermediary: boolean) {
  const rows = (list: [string, string][], indent: string) =>
    list.map(([k, v]) => `${indent}${k}: ${v}`).join('\n');
  return [
    account.title.toUpperCase(),
    rows(account.rows, '  '),
    ...(account.intermediary
      ? [
          ...(blankBeforeIntermediary ? [''] : []),
          `  ${account.intermediary.title}`,
          rows(account.intermediary.rows, '    '),
        ]
      : []),
    '',
  ];
}

/**
 * The payment note: the reference alone when the donor has one (bank memo fields are short, and
 * the reference is what the treasurer matches); else the operation name.
 */
export function paymentNote(campaign: Campaign, reference?: string | null): string {
  if (reference)
    return `In the payment note of your transfer, put only your payment reference: ${reference}.`;
  return `Please include "${campaign.payment.operationName}" in the payment note of your transfer.`;
}

/**
 * Asking the donor to also e-mail a confirmation: only when the campaign config says so
 * (payment.askForConfirmationEmail, default off): the status page's "I've sent the transfer" is
 * the one action.
 */
export function confirmationNote(campaign: Campaign): string | null {
  if (!campaign.payment.askForConfirmationEmail) return null;
  return `After sending a wire transfer, please e-mail your confirmation to ${campaign.payment.confirmationEmail}.`;
}

export function questionsNote(campaign: Campaign): string {
  return `Questions? Write to ${campaign.payment.confirmationEmail}.`;
}

export const REFERENCE_INSTRUCTION = 'Put this reference in the payment note';

/** The downloadable text file: the same details as the page, readable in any editor. */
export function paymentInstructionsText(
  campaign: Campaign,
  reference?: string | null,
  amount?: AmountToTransfer | null,
): string {
  const confirmation = confirmationNote(campaign);
  return [
    `${campaign.name} - Payment Instructions`,
    '',
    'Thank You for Your Pledge',
    '',
    ...(amount
      ? ['AMOUNT TO TRANSFER', `  ${formatMinor(amount.amountMinor, amount.currency)}`, '']
      : []),
    ...(reference
      ? ['YOUR PAYMENT REFERENCE', `  ${reference}`, `  ${REFERENCE_INSTRUCTION}.`, '']
      : []),
    ...paymentAccounts(campaign, amount?.currency).flatMap((a) => paymentAccountText(a, true)),
    'PAYMENT NOTE',
    `  ${paymentNote(campaign, reference)}`,
    '',
    ...(confirmation ? ['CONFIRMATION', `  ${confirmation}`, ''] : []),
    'QUESTIONS',
    `  ${questionsNote(campaign)}`,
    '',
  ].join('\n');
}
