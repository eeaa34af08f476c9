import { eq, sql } from 'drizzle-orm';
import { campaignGoal } from '@shared/prices';
import type { ProgressUpdate } from '@shared/schemas/progress';
import type { DbOrTx } from '../../db/client';
import { progress } from '../../db/schema';

const MAIN = 'main';

export async function readProgressRow(db: DbOrTx) {
  const rows = await db.select().from(progress).where(eq(progress.id, MAIN));
  return (
    rows[0] ?? { id: MAIN, manualAdjustment: 0, goalAmount: campaignGoal(), updatedAt: new Date(0) }
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
    .values({ id: MAIN, goalAmount: campaignGoal(), ...set })
    .onConflictDoUpdate({ target: progress.id, set })
    .returning();
  return rows[0]!;
}

/**
 * campaign.json's goal is the goal until an owner sets one in the admin; from then on the stored
 * one stays, whatever the config says. Run at start: the stored goal follows the config as long as
 * no audited progress update has ever changed the goal.
 */
export async function applyConfiguredGoal(db: DbOrTx, goal: number) {
  await db.execute(sql`
    update progress set goal_amount = ${goal}
    where id = ${MAIN} and goal_amount <> ${goal}
      and not exists (
        select 1 from audit_log
        where action = 'progress.update'
          and (details -> 'before' -> 'goalAmount') is distinct from (details -> 'after' -> 'goalAmount')
      )`);
}
