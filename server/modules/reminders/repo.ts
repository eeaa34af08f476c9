import { eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { pledgeReminders, pledges } from '../../db/schema';
import type { PledgeRow } from '../pledges/repo';

/** All SQL of the reminder schedule (docs/decisions/019-reminders-and-lapse.md). */

export const PAUSE_SETTING = 'reminders_paused_at';

export interface Candidate {
  pledge: PledgeRow;
  sentSteps: number;
}

const DAY = (n: number) => sql`make_interval(days => ${n})`;

/**
 * Open pledges with money still owed whose next reminder is due at `now`: the step after the last
 * one sent is due (created_at + days[step]), the last reminder went at least `minGapDays` ago, the
 * donor did not say "I've sent the transfer" in the last `sentPauseDays`, and the pledge is not
 * paused. Oldest pledges first, at most `limit`.
 */
export async function dueCandidates(
  db: DbOrTx,
  opts: { now: Date; days: number[]; minGapDays: number; sentPauseDays: number; limit: number },
): Promise<Candidate[]> {
  const now = sql`${opts.now.toISOString()}::timestamptz`;
  const days = sql`${sql.param(opts.days)}::int[]`;
  const res = (await db.execute(sql`
    select p.id, coalesce(r.sent_steps, 0) as sent_steps
    from pledges p
    left join pledge_reminders r on r.pledge_id = p.id
    left join donor_links l on l.pledge_id = p.id
    where p.status = 'open'
      and (not p.is_paid or coalesce(p.received_minor, 0) < p.amount::bigint * 100)
      and p.created_at <= ${now} - ${DAY(opts.days[0]!)}
      and coalesce(r.sent_steps, 0) < ${opts.days.length}
      and p.created_at + make_interval(days => (${days})[coalesce(r.sent_steps, 0) + 1]) <= ${now}
      and r.paused_at is null
      and (r.last_sent_at is null or r.last_sent_at <= ${now} - ${DAY(opts.minGapDays)})
      and (l.donor_says_sent_at is null or l.donor_says_sent_at <= ${now} - ${DAY(opts.sentPauseDays)})
    order by p.created_at, p.id
    limit ${opts.limit}`)) as unknown as { rows: { id: string; sent_steps: number }[] };
  if (res.rows.length === 0) return [];
  const steps = new Map(res.rows.map((r) => [r.id, Number(r.sent_steps)]));
  const rows = await db
    .select()
    .from(pledges)
    .where(inArray(pledges.id, [...steps.keys()]));
  return rows
    .map((pledge) => ({ pledge, sentSteps: steps.get(pledge.id)! }))
    .sort((a, b) => a.pledge.createdAt.getTime() - b.pledge.createdAt.getTime());
}

/**
 * Claims step `step` of a pledge whose schedule stood at `sentBefore`: one conditional upsert, so
 * of two instances (or two runs) that read the same state only one gets the row back. Called in
 * the transaction that queues the reminder: the claim and the outbox row commit together.
 */
export async function claimStep(
  db: DbOrTx,
  pledgeId: string,
  sentBefore: number,
  step: number,
  now: Date,
): Promise<boolean> {
  const res = (await db.execute(sql`
    insert into pledge_reminders (pledge_id, sent_steps, last_sent_at)
    values (${pledgeId}, ${step}, ${now.toISOString()}::timestamptz)
    on conflict (pledge_id) do update
      set sent_steps = excluded.sent_steps, last_sent_at = excluded.last_sent_at
      where pledge_reminders.sent_steps = ${sentBefore} and pledge_reminders.paused_at is null
    returning pledge_id`)) as unknown as { rows: unknown[] };
  // No row yet: the insert claims it (the state read was 0 steps, as coalesce() said).
  return res.rows.length === 1;
}

/**
 * Open pledges with nothing received, `lapseAfterDays` old and not paused, become lapsed (at most
 * `limit` per run): still counted in the totals until the admin releases them.
 */
export async function lapseDue(
  db: DbOrTx,
  opts: { now: Date; lapseAfterDays: number; limit: number },
): Promise<PledgeRow[]> {
  const now = sql`${opts.now.toISOString()}::timestamptz`;
  return db
    .update(pledges)
    .set({ status: 'lapsed', statusChangedAt: opts.now })
    .where(
      sql`${pledges.id} in (
        select p.id from pledges p left join pledge_reminders r on r.pledge_id = p.id
        where p.status = 'open' and not p.is_paid and r.paused_at is null
          and p.created_at <= ${now} - ${DAY(opts.lapseAfterDays)}
        order by p.created_at, p.id
        limit ${opts.limit}
        for update of p skip locked)
        and ${pledges.status} = 'open'`,
    )
    .returning();
}

/** Every lapsed pledge is released (no longer counted): the admin's one bulk action. */
export async function releaseLapsed(db: DbOrTx, now: Date): Promise<PledgeRow[]> {
  return db
    .update(pledges)
    .set({ status: 'released', statusChangedAt: now })
    .where(eq(pledges.status, 'lapsed'))
    .returning();
}

/** What is lapsed and still counted: how many, and how much per currency. */
export async function lapsedTotals(db: DbOrTx) {
  const rows = await db
    .select({
      count: sql<number>`count(*)::int`.mapWith(Number),
      usd: sql<number>`coalesce(sum(${pledges.amount}) filter (where ${pledges.currency} = 'USD'), 0)::bigint`.mapWith(
        Number,
      ),
      jmd: sql<number>`coalesce(sum(${pledges.amount}) filter (where ${pledges.currency} = 'JMD'), 0)::bigint`.mapWith(
        Number,
      ),
      containers: sql<number>`coalesce(sum(${pledges.containers}), 0)::bigint`.mapWith(Number),
    })
    .from(pledges)
    .where(eq(pledges.status, 'lapsed'));
  return rows[0]!;
}

export async function reminderState(db: DbOrTx, pledgeId: string) {
  const rows = await db
    .select()
    .from(pledgeReminders)
    .where(eq(pledgeReminders.pledgeId, pledgeId));
  return rows[0];
}

/** Pause (a date) or resume (null) one pledge's reminders; returns whether it changed. */
export async function setPaused(db: DbOrTx, pledgeId: string, at: Date | null): Promise<boolean> {
  const res = (await db.execute(sql`
    insert into pledge_reminders (pledge_id, paused_at)
    values (${pledgeId}, ${at ? at.toISOString() : null}::timestamptz)
    on conflict (pledge_id) do update set paused_at = excluded.paused_at
      where (pledge_reminders.paused_at is null) <> (excluded.paused_at is null)
    returning pledge_id`)) as unknown as { rows: unknown[] };
  return res.rows.length === 1;
}
