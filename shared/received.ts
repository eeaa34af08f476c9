import { UNIT_PRICE_CENTS, type Currency } from './constants';

/**
 * Money received against a pledge. A transfer can arrive short (bank fees, a
 * first instalment) or in the other currency: it is then compared with the pledge at the
 * campaign's own rate, the containers' unit prices (J$16.72 = US$0.11, i.e. J$152 = US$1), the
 * one exchange rate the site already uses. docs/decisions/013-statement-matching.md.
 */
export function convertAmount(amount: number, from: Currency, to: Currency): number {
  if (from === to) return amount;
  // Whole units, rounded down: never claims more was received than was.
  return Math.floor((amount * UNIT_PRICE_CENTS[to]) / UNIT_PRICE_CENTS[from]);
}

export type PaymentState = 'pending' | 'part-paid' | 'paid';

export interface ReceivedFields {
  amount: number;
  currency: Currency;
  isPaid: boolean;
  amountReceived?: number | null;
  currencyReceived?: Currency | null;
}

/** What is still owed, in the pledge's currency: the whole amount until a payment is confirmed. */
export function outstandingBalance(p: ReceivedFields): number {
  if (!p.isPaid) return p.amount;
  if (p.amountReceived === null || p.amountReceived === undefined) return 0;
  const received = convertAmount(p.amountReceived, p.currencyReceived ?? p.currency, p.currency);
  return Math.max(0, p.amount - received);
}

/** "Pending", "Part paid" (confirmed, but less than pledged arrived) or "Paid". */
export function paymentState(p: ReceivedFields): PaymentState {
  if (!p.isPaid) return 'pending';
  return outstandingBalance(p) > 0 ? 'part-paid' : 'paid';
}

export const PAYMENT_STATE_LABEL: Record<PaymentState, string> = {
  pending: 'Pending',
  'part-paid': 'Part paid',
  paid: 'Paid',
};
