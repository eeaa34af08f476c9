import { z } from 'zod';
import type { Currency } from '../constants';

/** The donor's own view of a pledge on the status page (issue 12): never the e-mail address. */
export type PledgeStatus = 'pending' | 'part paid' | 'paid';

export const PLEDGE_STATUS_LABELS: Record<PledgeStatus, string> = {
  pending: 'Pending',
  'part paid': 'Part paid',
  paid: 'Paid',
};

/** Paid once confirmed; part paid when some money arrived (issue 11); pending otherwise. */
export function pledgeStatusOf(p: {
  isPaid: boolean;
  receivedAmount?: number | null;
}): PledgeStatus {
  if (p.isPaid) return 'paid';
  if (p.receivedAmount && p.receivedAmount > 0) return 'part paid';
  return 'pending';
}

export interface DonorPledgeView {
  id: string;
  name: string;
  amount: number;
  currency: Currency;
  containers: number;
  createdAt: string;
  status: PledgeStatus;
  reference: string | null;
  receivedAmount: number | null;
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
