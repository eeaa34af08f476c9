import type { Campaign } from './schemas/campaign';

/** "GreenBox-Payment-Instructions.txt": the supplier brand, then "-Payment-Instructions.txt". */
export function paymentFileName(campaign: Campaign): string {
  return `${campaign.supplierBrand}-Payment-Instructions.txt`;
}

/** The payment details as rows, shared by the page and the downloaded file. */
export function paymentSections(campaign: Campaign) {
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

export function paymentNote(campaign: Campaign): string {
  return `Please include "${campaign.payment.operationName}" in the payment note of your transfer.`;
}

export function confirmationNote(campaign: Campaign): string {
  return `After sending a wire transfer, please e-mail your confirmation to ${campaign.payment.confirmationEmail}.`;
}

export const REFERENCE_INSTRUCTION = 'Put this reference in the payment note';

/** The downloadable text file: the same details as the page, readable in any editor. */
export function paymentInstructionsText(campaign: Campaign, reference?: string | null): string {
  const s = paymentSections(campaign);
  const rows = (list: [string, string][]) => list.map(([k, v]) => `  ${k}: ${v}`).join('\n');
  return [
    `${campaign.name} - Payment Instructions`,
    '',
    'Thank You for Your Pledge',
    '',
    ...(reference
      ? ['YOUR PAYMENT REFERENCE', `  ${reference}`, `  ${REFERENCE_INSTRUCTION}.`, '']
      : []),
    'USD WIRE TRANSFER',
    rows(s.usd),
    '',
    '  Intermediary Bank',
    rows(s.intermediary).replace(/^ {2}/gm, '    '),
    '',
    'JMD LOCAL BANK TRANSFER',
    rows(s.jmd),
    '',
    'PAYMENT NOTE',
    `  ${paymentNote(campaign)}`,
    '',
    'CONFIRMATION',
    `  ${confirmationNote(campaign)}`,
    '',
  ].join('\n');
}
