import { unitPriceCents, type Currency } from './prices';
import { formatMinor } from './format';

/**
 * Money received against a pledge: the one home of the payment states and their math
 * (docs/decisions/013-statement-matching.md). A transfer can arrive short (bank fees, a first
 * instalment), long, or in the other currency: it is then compared with the pledge at the
 * campaign's own rate, the containers' unit prices (J$16.72 = US$0.11, i.e. J$152 = US$1), the one
 * exchange rate the site already uses. Everything is computed in minor units (cents), never in
 * floating point.
 */

/** Whole units, rounded down: never claims more was received than was. */
export function convertAmount(amount: number, from: Currency, to: Currency): number {
  if (from === to) return amount;
  return Math.floor((amount * unitPriceCents(to)) / unitPriceCents(from));
}

/** Minor units (cents) at the campaign's rate, rounded down. */
export function convertMinor(minor: number, from: Currency, to: Currency): number {
  if (from === to) return minor;
  return Math.floor((minor * unitPriceCents(to)) / unitPriceCents(from));
}

/** "12.34" or "12" -> 1234 cents; undefined when it is not an amount with at most two decimals. */
export function parseMinor(text: string): number | undefined {
  const m = /^\s*(\d{1,15})(?:\.(\d{1,2}))?\s*$/.exec(text.replace(/,/g, ''));
  if (!m) return undefined;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** The payment states, in the order a pledge goes through them. */
export const PAYMENT_STATES = ['pending', 'part-paid', 'paid', 'over-paid'] as const;
export type PaymentState = (typeof PAYMENT_STATES)[number];

export const PAYMENT_STATE_LABEL: Record<PaymentState, string> = {
  pending: 'Pending',
  'part-paid': 'Part paid',
  paid: 'Paid',
  'over-paid': 'Over paid',
};

export interface ReceivedFields {
  amount: number;
  currency: Currency;
  isPaid: boolean;
  /** What arrived, in whole units of currencyReceived (the spec-era field). */
  amountReceived?: number | null;
  currencyReceived?: Currency | null;
  /** What arrived, credited in cents of the pledge's own currency (migration 0016). */
  receivedMinor?: number | null;
}

/**
 * What arrived, in cents of the pledge's currency: 0 while pending. A paid pledge without minor
 * units (written before migration 0016, or an older backup) falls back to its whole received
 * amount, and without that to the amount pledged (paid in full).
 */
function receivedMinorOf(p: ReceivedFields): number {
  if (!p.isPaid) return 0;
  if (p.receivedMinor !== null && p.receivedMinor !== undefined) return p.receivedMinor;
  if (p.amountReceived === null || p.amountReceived === undefined) return p.amount * 100;
  return convertMinor(p.amountReceived * 100, p.currencyReceived ?? p.currency, p.currency);
}

export interface PaymentSummary {
  state: PaymentState;
  /** In cents of the pledge's currency. */
  pledgedMinor: number;
  receivedMinor: number;
  /** Still owed (0 once paid or over paid). */
  outstandingMinor: number;
  /** Received beyond the pledge (0 unless over paid). */
  overpaidMinor: number;
}

/**
 * Money received in the other currency moves in steps of that currency's cent: a US cent is
 * J$1.52 (US$0.11 = J$16.72), so a J$1,000 pledge paid in US$ can only be met to
 * within J$1.52. A difference smaller than one cent of the currency received is no difference.
 */
function toleranceMinor(p: ReceivedFields): number {
  const received = p.currencyReceived ?? p.currency;
  if (received === p.currency) return 0;
  return Math.ceil(unitPriceCents(p.currency) / unitPriceCents(received)) - 1;
}

export function paymentSummary(p: ReceivedFields): PaymentSummary {
  const pledgedMinor = p.amount * 100;
  const receivedMinor = receivedMinorOf(p);
  const tolerance = p.isPaid ? toleranceMinor(p) : 0;
  const short = pledgedMinor - receivedMinor;
  const outstandingMinor = short > tolerance ? short : 0;
  const overpaidMinor = -short > tolerance ? -short : 0;
  const state: PaymentState = !p.isPaid
    ? 'pending'
    : outstandingMinor > 0
      ? 'part-paid'
      : overpaidMinor > 0
        ? 'over-paid'
        : 'paid';
  return { state, pledgedMinor, receivedMinor, outstandingMinor, overpaidMinor };
}

/** What is still owed, in the pledge's currency (units, with cents as decimals). */
export function outstandingBalance(p: ReceivedFields): number {
  return paymentSummary(p).outstandingMinor / 100;
}

/** "Pending", "Part paid" (less than pledged arrived), "Paid" or "Over paid". */
export function paymentState(p: ReceivedFields): PaymentState {
  return paymentSummary(p).state;
}

/** What the admin table, the status page and the e-mails say about the money of a pledge. */
export interface PaymentTextInput {
  amount: number;
  currency: Currency;
  isPaid: boolean;
  amountReceived?: number | null;
  currencyReceived?: Currency | null;
  /** Cents of currencyReceived; falls back to amountReceived. */
  amountReceivedMinor?: number | null;
  /** Cents credited in the pledge's currency. */
  receivedMinor?: number | null;
}

/**
 * "US$30 of US$50 received · US$20 to go", "US$150 of US$50 received · US$100 over",
 * "US$50 received", and for money in the other currency "J$3,040 (≈ US$20 at the campaign rate)
 * of US$50 received · US$30 to go". Empty while pending.
 */
export function paymentProgressText(p: PaymentTextInput): string {
  if (!p.isPaid) return '';
  const s = paymentSummary(p);
  const receivedCurrency = p.currencyReceived ?? p.currency;
  const arrivedMinor =
    p.amountReceivedMinor ??
    (p.amountReceived !== null && p.amountReceived !== undefined
      ? Math.round(p.amountReceived * 100)
      : convertMinor(s.receivedMinor, p.currency, receivedCurrency));
  const arrived =
    receivedCurrency === p.currency
      ? formatMinor(arrivedMinor, receivedCurrency)
      : `${formatMinor(arrivedMinor, receivedCurrency)} (≈ ${formatMinor(s.receivedMinor, p.currency)} at the campaign rate)`;
  const pledged = formatMinor(s.pledgedMinor, p.currency);
  if (s.state === 'part-paid')
    return `${arrived} of ${pledged} received · ${formatMinor(s.outstandingMinor, p.currency)} to go`;
  if (s.state === 'over-paid')
    return `${arrived} of ${pledged} received · ${formatMinor(s.overpaidMinor, p.currency)} over`;
  return `${arrived} received`;
}
