import { z } from 'zod';
import { ADJUSTMENT_LIMIT, GOAL_MAX } from '../constants';

const ADJ_MESSAGE = 'Manual adjustment must be an integer';

/** PUT /api/progress: replaces the stored adjustment, it does not add to it (product rule). */
export const progressUpdateSchema = z.object({
  manualAdjustment: z
    .number({ error: ADJ_MESSAGE })
    // Bounds first: past 2^53 zod's int check fails too, and "too large" is the true reason.
    .min(-ADJUSTMENT_LIMIT, { error: 'Manual adjustment is too large' })
    .max(ADJUSTMENT_LIMIT, { error: 'Manual adjustment is too large' })
    .int({ error: ADJ_MESSAGE }),
  goalAmount: z
    .number({ error: 'Goal amount must be at least 1' })
    .min(1, { error: 'Goal amount must be at least 1' })
    .max(GOAL_MAX, { error: 'Goal amount is too large' })
    .int({ error: 'Goal amount must be at least 1' })
    .optional(),
});
export type ProgressUpdate = z.infer<typeof progressUpdateSchema>;

export const progressSchema = z.object({
  /**
   * Containers pledged (pending and paid) + manualAdjustment (product rule,
   * docs/decisions/010-product-rules.md).
   */
  currentAmount: z.number().int(),
  manualAdjustment: z.number().int(),
  goalAmount: z.number().int(),
  /** Containers of the money received (an overpayment counts in full). */
  confirmedAmount: z.number().int(),
  /**
   * Containers pledged and not yet received, summed pledge by pledge: a pending pledge's
   * containers, a part-paid one's containers still owed; an overpayment never cancels another
   * donor's debt (the home's "pledged, not yet received").
   */
  outstandingAmount: z.number().int().optional(),
  /**
   * Distinct donors by e-mail, case-insensitive (see docs/decisions/008-security-review-fixes.md).
   */
  donorCount: z.number().int(),
  /**
   * Containers delivered: the sum of the delivery updates' container counts (pledged →
   * received → delivered). An extra field; optional so an older server's answer still reads.
   */
  containersDelivered: z.number().int().optional(),
  pledgeCount: z.number().int(),
  updatedAt: z.iso.datetime(),
});
export type Progress = z.infer<typeof progressSchema>;
