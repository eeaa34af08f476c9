import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import {
  adminAccounts,
  adminInvitations,
  deliveryUpdates,
  donorLinks,
  outbox,
  type OUTBOX_KINDS,
  pledges,
} from '../../db/schema';

export type OutboxKind = (typeof OUTBOX_KINDS)[number];
export type OutboxRow = typeof outbox.$inferSelect;

/**
 * Queues the instructions e-mail of new pledges and stores their status links' hashes: one
 * statement, called inside the pledges' own transaction (the outbox is only as good as that).
 * `mail` says which of them get the e-mail (the others are over a cap). Queued
 * at `now` (the app's clock), the time the caps count by.
 */
export async function enqueueNewPledges(
  db: DbOrTx,
  pledges: { id: string; tokenHash: string; mail: boolean }[],
  now: Date,
): Promise<void> {
  if (pledges.length === 0) return;
  const ids = sql.param(pledges.map((p) => p.id));
  const hashes = sql.param(pledges.map((p) => p.tokenHash));
  const mailed = sql.param(pledges.filter((p) => p.mail).map((p) => p.id));
  await db.execute(sql`
    with links as (
      insert into donor_links (pledge_id, token_hash)
      select * from unnest(${ids}::uuid[], ${hashes}::text[])
      on conflict (pledge_id) do nothing
    )
    insert into outbox (pledge_id, kind, created_at)
    select unnest(${mailed}::uuid[]), 'instructions', ${now.toISOString()}::timestamptz`);
}

/**
 * Instruction e-mails queued since `since`, per recipient address (lower-cased) and per client key
 * of the pledge, for the addresses and keys asked about: in one statement (one round trip in the
 * pledge writer's transaction).
 *
 * The addresses' part goes pledge first (messagesByAddressQuery). Written as a join, the
 * planner started from the outbox's time index whenever its statistics were older than the day's
 * messages (a spike's first minutes on PostgreSQL, before autovacuum's first look; on PGlite until
 * the next VACUUM ANALYZE): 60 ms a batch at 14,000 messages, growing with each batch, instead of
 * 2.5 ms.
 *
 * The client keys' part stays a join: behind one key there may be thousands of pledges today (a
 * shared network, the load tests' one client) but at most the cap's number of messages, so the
 * message side is often the small one there; a subquery per pledge made the load test's 5,000
 * pledges from one client twice as slow. It can still start from the day's messages while the
 * statistics are old: a count bounded by the cap whatever the plan would need the keys (and
 * addresses) on the messages themselves.
 */
export async function recentInstructions(
  db: DbOrTx,
  emails: string[],
  clientKeys: string[],
  since: Date,
): Promise<{ byEmail: Map<string, number>; byClient: Map<string, number> }> {
  const byEmail = new Map<string, number>();
  const byClient = new Map<string, number>();
  if (emails.length === 0 && clientKeys.length === 0) return { byEmail, byClient };
  const res = (await db.execute(sql`
    ${messagesByAddressQuery(['instructions'], emails, since)}
    union all
    select 'client', p.client_key, count(*)::int
    from pledges p join outbox o on o.pledge_id = p.id
    where p.client_key = any(${sql.param(clientKeys)}::text[])
      and o.kind = 'instructions' and o.created_at > ${since.toISOString()}::timestamptz
    group by 2`)) as unknown as { rows: { part: 'email' | 'client'; key: string; n: number }[] };
  for (const r of res.rows) (r.part === 'email' ? byEmail : byClient).set(r.key, Number(r.n));
  return { byEmail, byClient };
}

/**
 * Per address (one row each, 0 when none), the messages of these kinds queued since `since`: for
 * each address its pledges by the lower(email) index, and each pledge's messages by the outbox's
 * pledge index. One subquery per address (an equality the planner estimates as a few rows whatever
 * it knows), not `= any(…)`, which without statistics on lower(email) it estimated at 9% of the
 * table per 18 addresses and read the whole table for. Both caps count by it (recentInstructions,
 * recentMailByAddress); its plan is tested (mail-caps-plan.test.ts).
 */
export function messagesByAddressQuery(kinds: OutboxKind[], emails: string[], since: Date) {
  return sql`
    select 'email' as part, e.key, coalesce((
      select sum(${messagesSince(kinds, since)}) from pledges p where lower(p.email) = e.key
    ), 0)::int as n
    from unnest(${sql.param(emails)}::text[]) as e(key)`;
}

/**
 * The messages of these kinds queued since `since` for the pledge `p` of the enclosing query: a
 * subquery per pledge, on the outbox's (pledge_id, created_at) index (see recentInstructions).
 */
function messagesSince(kinds: OutboxKind[], since: Date) {
  return sql`(select count(*) from outbox o where o.pledge_id = p.id
    and o.kind = any(${sql.param(kinds)}::text[]) and o.created_at > ${since.toISOString()}::timestamptz)`;
}

export async function enqueue(
  db: DbOrTx,
  pledgeId: string,
  kind: OutboxKind,
  opts: { step?: number; at?: Date } = {},
): Promise<void> {
  await db.insert(outbox).values({
    pledgeId,
    kind,
    step: opts.step ?? null,
    ...(opts.at ? { createdAt: opts.at } : {}),
  });
}

/**
 * Instructions and reminders queued since `since`, per recipient address (lower-cased): the
 * per-recipient cap (MAIL_PER_ADDRESS_PER_DAY) of the reminders.
 */
export async function recentMailByAddress(
  db: DbOrTx,
  emails: string[],
  since: Date,
): Promise<Map<string, number>> {
  if (emails.length === 0) return new Map();
  const res = (await db.execute(
    messagesByAddressQuery(['instructions', 'reminder'], emails, since),
  )) as unknown as { rows: { key: string; n: number }[] };
  return new Map(res.rows.map((r) => [r.key, Number(r.n)]));
}

/** The reminders of a pledge (the admin's e-mails view): step and when each was queued. */
export async function remindersOf(db: DbOrTx, pledgeId: string): Promise<OutboxRow[]> {
  return db
    .select()
    .from(outbox)
    .where(and(eq(outbox.pledgeId, pledgeId), eq(outbox.kind, 'reminder')))
    .orderBy(asc(outbox.createdAt));
}

/** A pledge made before e-mail existed (or seeded) gets its link the first time it is needed. */
export async function ensureLink(db: DbOrTx, pledgeId: string, tokenHash: string): Promise<void> {
  await db.insert(donorLinks).values({ pledgeId, tokenHash }).onConflictDoNothing();
}

export async function findLink(db: DbOrTx, pledgeId: string) {
  const rows = await db.select().from(donorLinks).where(eq(donorLinks.pledgeId, pledgeId));
  return rows[0];
}

/** "I've sent the transfer": the first date is kept (a second click changes nothing). */
export async function markDonorSaysSent(db: DbOrTx, pledgeId: string, now: Date) {
  await db
    .update(donorLinks)
    .set({ donorSaysSentAt: now })
    .where(and(eq(donorLinks.pledgeId, pledgeId), isNull(donorLinks.donorSaysSentAt)));
  return findLink(db, pledgeId);
}

/** donor_says_sent_at of a page of pledges (the admin table). */
export async function donorSaysSentFor(db: DbOrTx, pledgeIds: string[]) {
  if (pledgeIds.length === 0) return new Map<string, Date>();
  const rows = await db
    .select({ id: donorLinks.pledgeId, at: donorLinks.donorSaysSentAt })
    .from(donorLinks)
    .where(
      and(inArray(donorLinks.pledgeId, pledgeIds), sql`${donorLinks.donorSaysSentAt} is not null`),
    );
  return new Map(rows.map((r) => [r.id, r.at!]));
}

export interface DueMessage {
  message: OutboxRow;
  /** The pledge of a donor's message; null for a team invitation. */
  pledge: typeof pledges.$inferSelect | null;
  hasLink: boolean;
  /** A team invitation's link and member; null for a donor's message. */
  invitation: {
    id: string;
    expiresAt: Date;
    name: string;
    email: string | null;
    role: string;
    /** A password reset: the account already has a password. */
    reset: boolean;
  } | null;
  /** A delivery_news message's update; null when it is not one. */
  update: typeof deliveryUpdates.$inferSelect | null;
}

/** Queues a team invitation's e-mail, in the invitation's own transaction. */
export async function enqueueInvitation(db: DbOrTx, invitationId: string): Promise<void> {
  await db.insert(outbox).values({ invitationId, kind: 'team_invitation' });
}

/**
 * The next messages due, oldest first, with their pledges. `lock` (PostgreSQL, inside the
 * sender's transaction): the rows stay locked while they are sent, and other instances skip them
 * instead of waiting, so two instances never send the same message.
 */
export async function nextDue(db: DbOrTx, limit: number, lock: boolean): Promise<DueMessage[]> {
  const q = db
    .select({
      message: outbox,
      pledge: pledges,
      linked: donorLinks.pledgeId,
      invitationId: adminInvitations.id,
      expiresAt: adminInvitations.expiresAt,
      name: adminAccounts.name,
      email: adminAccounts.email,
      role: adminAccounts.role,
      update: deliveryUpdates,
      reset: sql<boolean>`${adminAccounts.passwordHash} is not null`,
    })
    .from(outbox)
    .leftJoin(pledges, eq(pledges.id, outbox.pledgeId))
    .leftJoin(donorLinks, eq(donorLinks.pledgeId, outbox.pledgeId))
    .leftJoin(adminInvitations, eq(adminInvitations.id, outbox.invitationId))
    .leftJoin(adminAccounts, eq(adminAccounts.id, adminInvitations.accountId))
    .leftJoin(deliveryUpdates, eq(deliveryUpdates.id, outbox.updateId))
    .where(
      and(
        isNull(outbox.sentAt),
        isNull(outbox.failedAt),
        sql`${outbox.nextAttemptAt} <= clock_timestamp()`,
      ),
    )
    .orderBy(asc(outbox.nextAttemptAt))
    .limit(limit);
  const rows = lock ? await q.for('update', { of: outbox, skipLocked: true }) : await q;
  return rows.map((r) => ({
    message: r.message,
    pledge: r.pledge,
    hasLink: r.linked !== null,
    invitation:
      r.invitationId && r.expiresAt && r.name && r.role
        ? {
            id: r.invitationId,
            expiresAt: r.expiresAt,
            name: r.name,
            email: r.email,
            role: r.role,
            reset: Boolean(r.reset),
          }
        : null,
    update: r.update,
  }));
}

export async function markSent(db: DbOrTx, id: string) {
  await db
    .update(outbox)
    .set({ sentAt: sql`clock_timestamp()`, attempts: sql`${outbox.attempts} + 1`, lastError: null })
    .where(eq(outbox.id, id));
}

/** A refused attempt: try again after `delayMs`, or give up once the message is `maxAgeMs` old. */
export async function markFailedAttempt(
  db: DbOrTx,
  id: string,
  error: string,
  delayMs: number,
  maxAgeMs: number,
) {
  const delay = sql`make_interval(secs => ${delayMs / 1000})`;
  const maxAge = sql`make_interval(secs => ${maxAgeMs / 1000})`;
  await db
    .update(outbox)
    .set({
      attempts: sql`${outbox.attempts} + 1`,
      lastError: error.slice(0, 500),
      nextAttemptAt: sql`clock_timestamp() + ${delay}`,
      failedAt: sql`case when clock_timestamp() + ${delay} > ${outbox.createdAt} + ${maxAge} then clock_timestamp() end`,
    })
    .where(eq(outbox.id, id));
}

/**
 * A message no longer needed when its turn came (a reminder of a pledge paid or cancelled, news to
 * an address that unsubscribed): kept, marked, not sent.
 */
export async function markNotNeeded(
  db: DbOrTx,
  id: string,
  reason = 'Not sent: the pledge was paid or cancelled before it went',
) {
  await db
    .update(outbox)
    .set({
      failedAt: sql`clock_timestamp()`,
      lastError: reason,
    })
    .where(eq(outbox.id, id));
}

export async function messagesOf(db: DbOrTx, pledgeId: string): Promise<OutboxRow[]> {
  return db
    .select()
    .from(outbox)
    .where(eq(outbox.pledgeId, pledgeId))
    .orderBy(asc(outbox.createdAt));
}

export async function countWaiting(db: DbOrTx): Promise<number> {
  const rows = await db
    .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
    .from(outbox)
    .where(and(isNull(outbox.sentAt), isNull(outbox.failedAt)));
  return rows[0]!.n;
}
