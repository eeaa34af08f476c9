import { z } from 'zod';
import type { Currency } from '../constants';
import type { PaymentState } from '../received';

/** The donor's own view of a pledge on the status page (issue 12): never the e-mail address. */
export interface DonorPledgeView {
  id: string;
  name: string;
  amount: number;
  currency: Currency;
  containers: number;
  createdAt: string;
  /** pending, part-paid or paid (shared/received.ts, issue 11). */
  status: PaymentState;
  reference: string;
  amountReceived: number | null;
  currencyReceived: Currency | null;
  /** Still owed, in the pledge's currency. */
  outstandingAmount: number;
  paymentConfirmedAt: string | null;
  /** When the donor pressed "I've sent the transfer". */
  donorSaysSentAt: string | null;
}

/** GET /api/pledges/{id}/status?t= and POST /api/pledges/{id}/sent {t}. */
export const statusTokenSchema = z.object({
  t: z
    .string({ error: 'Pledge not found' })
    .min(1, { error: 'Pledge not found' })
    .max(200, { error: 'Pledge not found' }),
});

export const EMAIL_KIND_LABELS = {
  instructions: 'Payment instructions',
  receipt: 'Receipt',
} as const;

/** One e-mail of a pledge, as the admin sees it. */
export interface AdminEmailMessage {
  id: string;
  kind: keyof typeof EMAIL_KIND_LABELS;
  status: 'sent' | 'waiting' | 'failed';
  attempts: number;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
  nextAttemptAt: string | null;
}
