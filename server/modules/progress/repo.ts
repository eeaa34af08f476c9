import { eq } from 'drizzle-orm';
import { CAMPAIGN_GOAL } from '@shared/constants';
import type { ProgressUpdate } from '@shared/schemas/progress';
import type { DbOrTx } from '../../db/client';
import { progress } from '../../db/schema';

const MAIN = 'main';

export async function readProgressRow(db: DbOrTx) {
  const rows = await db.select().from(progress).where(eq(progress.id, MAIN));
  return (
    rows[0] ?? { id: MAIN, manualAdjustment: 0, goalAmount: CAMPAIGN_GOAL, updatedAt: new Date(0) }
  );
}

/** Product rule: the sent adjustment replaces the stored one; a sent goal replaces the goal. */
export async function writeProgress(db: DbOrTx, input: ProgressUpdate, now: Date) {
  const set = {
    manualAdjustment: input.manualAdjustment,
    updatedAt: now,
    ...(input.goalAmount !== undefined ? { goalAmount: input.goalAmount } : {}),
  };
  const rows = await db
    .insert(progress)
    .values({ id: MAIN, goalAmount: CAMPAIGN_GOAL, ...set })
    .onConflictDoUpdate({ target: progress.id, set })
    .returning();
  return rows[0]!;
}
