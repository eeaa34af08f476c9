import { and, asc, desc, eq, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { containersFor } from '@shared/containers';
import type { Currency } from '@shared/constants';
import { unitPriceCents } from '@shared/prices';
import { NEWS_CONSENT_VERSION } from '@shared/news';
import {
  DEFAULT_REFERENCE_PREFIX,
  parseReference,
  type ReferenceKey,
} from '@shared/payment-reference';
import type { AdminPledgeQuery, PledgeCreate, PledgeStats } from '@shared/schemas/pledge';
import { AGE_BUCKET_DAYS } from '@shared/schemas/report';
import type { DbOrTx } from '../../db/client';
import { payments, type PLEDGE_STATUSES, pledges, pledgeTotals } from '../../db/schema';

export type PledgeStatus = (typeof PLEDGE_STATUSES)[number];
/** The statuses the totals and the public list count (migration 0019). */
const counted = sql`${pledges.status} in ('open', 'lapsed')`;

export type PledgeRow = typeof pledges.$inferSelect;
/**
 * A row with its created_at in whole microseconds: PostgreSQL orders by microseconds, a JS Date
 * keeps milliseconds, and the snapshot must order the newest pledges exactly as the database does.
 */
export type TimedPledgeRow = PledgeRow & { createdMicros: number };

const createdMicros = sql<number>`(extract(epoch from ${pledges.createdAt}) * 1000000)::float8`;

export function newPledgeValues(input: PledgeCreate): typeof pledges.$inferInsert {
  return {
    name: input.name,
    email: input.email,
    amount: input.amount,
    currency: input.currency,
    containers: containersFor(input.amount, input.currency),
    isAnonymous: input.isAnonymous,
    // The consent's time is the pledge's own (insertPledges); the version says which wording.
    newsConsentVersion: input.deliveryNews ? NEWS_CONSENT_VERSION : null,
  };
}

export type NewPledge = typeof pledges.$inferInsert;

/**
 * Many pledges in one INSERT, all-or-nothing. The values travel as one array per column
 * (`unnest`), so the statement has nine parameters whatever the batch size: PostgreSQL parses one
 * short text and Drizzle does not build 9 × n placeholders, which was half the cost of a 50-row
 * batch (docs/decisions/005-performance.md). RETURNING yields the rows in the arrays' order: they
 * flow from unnest through the INSERT one by one (Django's bulk_create relies on the same).
 * `referenceKey` is the install's (loaded at start); without it the column default's
 * pledge_reference_next() reads it from settings.
 */
export async function insertPledges(
  db: DbOrTx,
  values: NewPledge[],
  referencePrefix: string = DEFAULT_REFERENCE_PREFIX,
  referenceKey?: ReferenceKey,
): Promise<TimedPledgeRow[]> {
  if (values.length === 0) return [];
  const reference = referenceKey
    ? sql`pledge_reference_keyed(nextval('pledge_reference_seq'), ${referencePrefix}, ${referenceKey.key}::bigint, ${referenceKey.from}::bigint)`
    : sql`pledge_reference_next(${referencePrefix})`;
  const col = (pick: (v: NewPledge) => unknown) => sql.param(values.map(pick));
  const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
  const result = (await db.execute(sql`
    insert into pledges
      (name, email, amount, currency, containers, is_anonymous, is_paid, payment_confirmed_at, created_at,
       idempotency_key, idempotency_body_hash, client_key, reference, news_consent_at, news_consent_version)
    select name, email, amount, currency, containers, is_anonymous, is_paid, payment_confirmed_at,
      at, idempotency_key, idempotency_body_hash, client_key, ${reference},
      case when news_consent_version is not null then at end, news_consent_version
    from (select *, coalesce(created_at, clock_timestamp()) as at from unnest(
      ${col((v) => v.name)}::text[], ${col((v) => v.email)}::text[], ${col((v) => v.amount)}::int[],
      ${col((v) => v.currency ?? 'USD')}::text[], ${col((v) => v.containers)}::bigint[],
      ${col((v) => v.isAnonymous ?? false)}::bool[], ${col((v) => v.isPaid ?? false)}::bool[],
      ${col((v) => iso(v.paymentConfirmedAt))}::timestamptz[], ${col((v) => iso(v.createdAt))}::timestamptz[],
      ${col((v) => v.idempotencyKey ?? null)}::text[],
      ${col((v) => v.idempotencyBodyHash ?? null)}::text[], ${col((v) => v.clientKey ?? null)}::text[],
      ${col((v) => v.newsConsentVersion ?? null)}::text[]
    ) as t(name, email, amount, currency, containers, is_anonymous, is_paid, payment_confirmed_at, created_at,
      idempotency_key, idempotency_body_hash, client_key, news_consent_version)) as t
    returning id, created_at, reference, ${createdMicros} as created_micros, news_consent_at`)) as unknown as {
    rows: {
      id: string;
      created_at: string | Date;
      news_consent_at: string | Date | null;
      reference: string;
      created_micros: number | string;
    }[];
  };
  return result.rows.map((r, i) => {
    const v = values[i]!;
    return {
      id: r.id,
      name: v.name,
      email: v.email,
      amount: v.amount,
      currency: v.currency ?? 'USD',
      containers: v.containers,
      isAnonymous: v.isAnonymous ?? false,
      isPaid: v.isPaid ?? false,
      paymentConfirmedAt: v.paymentConfirmedAt ?? null,
      createdAt: new Date(r.created_at),
      reference: r.reference,
      amountReceived: null,
      currencyReceived: null,
      receivedContainers: null,
      amountReceivedMinor: null,
      receivedMinor: null,
      idempotencyKey: v.idempotencyKey ?? null,
      idempotencyBodyHash: v.idempotencyBodyHash ?? null,
      status: 'open',
      statusChangedAt: null,
      clientKey: v.clientKey ?? null,
      erasedAt: null,
      newsConsentAt: r.news_consent_at === null ? null : new Date(r.news_consent_at),
      newsConsentVersion: v.newsConsentVersion ?? null,
      newsWithdrawnAt: null,
      createdMicros: Number(r.created_micros),
    };
  });
}

export async function listPledges(db: DbOrTx, limit?: number): Promise<PledgeRow[]> {
  const q = db.select().from(pledges).orderBy(desc(pledges.createdAt), desc(pledges.id));
  return limit ? q.limit(limit) : q;
}

/** The newest pledges, as the snapshot keeps them. */
export async function listRecentPledges(db: DbOrTx, limit: number): Promise<TimedPledgeRow[]> {
  const rows = await db
    .select({ row: pledges, createdMicros: createdMicros.mapWith(Number) })
    .from(pledges)
    // A cancelled or released pledge leaves the public list as a deleted one does.
    .where(counted)
    .orderBy(desc(pledges.createdAt), desc(pledges.id))
    .limit(limit);
  return rows.map((r) => ({ ...r.row, createdMicros: r.createdMicros }));
}

/**
 * The pledge a key created within `ttlMs`; an older one gives its key up (it expired), so the same
 * key may create a new pledge.
 */
export async function findByIdempotencyKey(db: DbOrTx, key: string, now: Date, ttlMs: number) {
  const rows = await db.select().from(pledges).where(eq(pledges.idempotencyKey, key));
  const row = rows[0];
  if (!row) return undefined;
  if (row.createdAt.getTime() > now.getTime() - ttlMs) return row;
  await db
    .update(pledges)
    .set({ idempotencyKey: null })
    .where(and(eq(pledges.id, row.id), eq(pledges.idempotencyKey, key)));
  return undefined;
}

export async function pledgesByReference(db: DbOrTx, references: string[]) {
  if (references.length === 0) return [];
  return db.select().from(pledges).where(inArray(pledges.reference, references));
}

/** Pending pledges of these amounts: the candidates of a "likely" statement match. */
export async function openPledgesByAmount(
  db: DbOrTx,
  pairs: { amount: number; currency: string }[],
) {
  if (pairs.length === 0) return [];
  const amounts = [...new Set(pairs.map((p) => p.amount))];
  return db
    .select()
    .from(pledges)
    .where(and(inArray(pledges.amount, amounts), eq(pledges.isPaid, false)))
    .limit(5000);
}

export async function findPledge(db: DbOrTx, id: string): Promise<PledgeRow | undefined> {
  const rows = await db.select().from(pledges).where(eq(pledges.id, id));
  return rows[0];
}

/**
 * A unit price in cents by currency, in SQL (the campaign's rate, J$16.72 = US$0.11 by default):
 * the configured prices, read per query.
 */
const unitCents = (currency: SQL | Currency) =>
  typeof currency === 'string'
    ? sql.raw(`${unitPriceCents(currency)}::bigint`)
    : sql`(case ${currency} when 'USD' then ${sql.raw(String(unitPriceCents('USD')))} else ${sql.raw(String(unitPriceCents('JMD')))} end)::bigint`;

/**
 * The pledge row, locked until the transaction ends (`SELECT ... FOR UPDATE`): two payments of
 * one pledge are recorded one after the other on PostgreSQL. On PGlite (one connection) every
 * transaction is already serial.
 */
export async function lockPledge(db: DbOrTx, id: string): Promise<PledgeRow | undefined> {
  const rows = await db.select().from(pledges).where(eq(pledges.id, id)).for('update');
  return rows[0];
}

/**
 * Locks several pledges at once, in id order, before any of them changes. Every change of a pledge
 * also takes the one pledge_totals row (the triggers), so a batch that locked its next pledge only
 * after changing the previous one could wait for a transaction that waits for its totals lock: a
 * deadlock. Taking every pledge lock first, always in the same order, rules that out.
 */
export async function lockPledges(db: DbOrTx, ids: string[]): Promise<PledgeRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(pledges)
    .where(inArray(pledges.id, ids))
    .orderBy(asc(pledges.id))
    .for('update');
}

/**
 * A paid row without minor units (confirmed before migration 0016, or restored from an older
 * backup) gets them from its whole received amount, in SQL, before a payment is added to it.
 */
export async function fillLegacyMinor(db: DbOrTx, id: string): Promise<void> {
  await db.execute(sql`
    update pledges set
      currency_received = coalesce(currency_received, currency),
      amount_received = coalesce(amount_received, amount),
      amount_received_minor = coalesce(amount_received, amount) * 100,
      received_minor = coalesce(amount_received, amount) * 100 * ${unitCents(sql`currency`)}
        / ${unitCents(sql`coalesce(currency_received, currency)`)}
    where id = ${id} and is_paid and received_minor is null`);
}

export interface MoneyDelta {
  /** Cents of `currency` (negative to take a reversed payment off). */
  amountMinor: number;
  currency: Currency;
  /** The same money in cents of the pledge's currency. */
  creditedMinor: number;
}

/**
 * Adds money to a pledge atomically, in one UPDATE whose every value is computed from the row as
 * it is (`received_minor = received_minor + x`), never read-then-write: the pledge becomes paid
 * (part paid, paid or over paid follow from the amounts), the first payment's currency becomes
 * currency_received, and a payment in the other currency is added to it at the campaign's rate.
 * The totals triggers (0006/0010/0013/0016) follow the row.
 */
export async function addReceived(db: DbOrTx, id: string, money: MoneyDelta, now: Date) {
  const cur = money.currency;
  const inReceivedCurrency = sql`(case when coalesce(currency_received, ${cur}) = ${cur} then ${money.amountMinor}::bigint
      else ${money.amountMinor}::bigint * ${unitCents(sql`currency_received`)} / ${unitCents(cur)} end)`;
  const newAmountMinor = sql`(coalesce(amount_received_minor, 0) + ${inReceivedCurrency})`;
  const newReceivedMinor = sql`(coalesce(received_minor, 0) + ${money.creditedMinor}::bigint)`;
  const rows = await db
    .update(pledges)
    .set({
      isPaid: true,
      paymentConfirmedAt: sql`coalesce(${pledges.paymentConfirmedAt}, ${now.toISOString()}::timestamptz)`,
      currencyReceived: sql`coalesce(${pledges.currencyReceived}, ${cur})`,
      amountReceivedMinor: newAmountMinor,
      amountReceived: sql`${newAmountMinor} / 100`,
      receivedMinor: newReceivedMinor,
      receivedContainers: sql`${newReceivedMinor} / ${unitCents(sql`currency`)}`,
    })
    .where(eq(pledges.id, id))
    .returning();
  return rows[0];
}

/**
 * Takes reversed payments off a pledge atomically (the inverse of addReceived, the same
 * conversion); a pledge left without any active payment is pending again.
 */
export async function subtractReceived(db: DbOrTx, id: string, money: MoneyDelta[]) {
  if (money.length === 0) return undefined;
  const parts = money.map(
    (m) => sql`(case when currency_received = ${m.currency} then ${m.amountMinor}::bigint
      else ${m.amountMinor}::bigint * ${unitCents(sql`currency_received`)} / ${unitCents(m.currency)} end)`,
  );
  const credited = money.reduce((sum, m) => sum + m.creditedMinor, 0);
  const newAmountMinor = sql`greatest(0, coalesce(amount_received_minor, 0) - (${sql.join(parts, sql` + `)}))`;
  const newReceivedMinor = sql`greatest(0, coalesce(received_minor, 0) - ${credited}::bigint)`;
  const rows = await db
    .update(pledges)
    .set({
      amountReceivedMinor: newAmountMinor,
      amountReceived: sql`${newAmountMinor} / 100`,
      receivedMinor: newReceivedMinor,
      receivedContainers: sql`${newReceivedMinor} / ${unitCents(sql`currency`)}`,
    })
    .where(eq(pledges.id, id))
    .returning();
  return rows[0];
}

export type PaymentRow = typeof payments.$inferSelect;
export type NewPayment = typeof payments.$inferInsert;

export async function insertPayment(db: DbOrTx, values: NewPayment): Promise<PaymentRow> {
  const rows = await db.insert(payments).values(values).returning();
  return rows[0]!;
}

/** The payments of a pledge still counted (not reversed), oldest first. */
export async function activePayments(db: DbOrTx, pledgeId: string): Promise<PaymentRow[]> {
  return db
    .select()
    .from(payments)
    .where(and(eq(payments.pledgeId, pledgeId), isNull(payments.reversedAt)))
    .orderBy(asc(payments.recordedAt), asc(payments.id));
}

/** The active payments recorded from these statement lines. */
export async function activePaymentsOfLines(db: DbOrTx, lineIds: string[]) {
  if (lineIds.length === 0) return [];
  return db
    .select()
    .from(payments)
    .where(and(inArray(payments.statementLineId, lineIds), isNull(payments.reversedAt)))
    .orderBy(asc(payments.pledgeId), asc(payments.id));
}

/** Marks payments reversed, once: returns those this call reversed. */
export async function markReversed(db: DbOrTx, ids: string[], now: Date) {
  if (ids.length === 0) return [];
  return db
    .update(payments)
    .set({ reversedAt: now })
    .where(and(inArray(payments.id, ids), isNull(payments.reversedAt)))
    .returning();
}

export async function updatePledge(
  db: DbOrTx,
  current: PledgeRow,
  changes: { name?: string; email?: string; amount?: number },
) {
  const set: Partial<typeof pledges.$inferInsert> = { ...changes };
  if (changes.amount !== undefined)
    set.containers = containersFor(changes.amount, current.currency);
  const rows = await db.update(pledges).set(set).where(eq(pledges.id, current.id)).returning();
  return rows[0];
}

/**
 * Moves a pledge from one of `from` to `to` (cancel, lapse, release, reopen): returns the row after
 * it, or undefined when it was not in one of `from`. The totals triggers follow (migration 0019).
 */
export async function setStatus(
  db: DbOrTx,
  id: string,
  from: PledgeStatus[],
  to: PledgeStatus,
  now: Date,
): Promise<PledgeRow | undefined> {
  const rows = await db
    .update(pledges)
    .set({ status: to, statusChangedAt: now })
    .where(and(eq(pledges.id, id), inArray(pledges.status, from)))
    .returning();
  return rows[0];
}

/** Pledges the totals no longer count (cancelled, released): the admin list still shows them. */
export async function countUncounted(db: DbOrTx): Promise<number> {
  const rows = await db
    .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
    .from(pledges)
    .where(inArray(pledges.status, ['cancelled', 'released']));
  return rows[0]!.n;
}

/** Deletes a pledge; returns the deleted row (for the audit log), or undefined. */
export async function deletePledge(db: DbOrTx, id: string) {
  const rows = await db.delete(pledges).where(eq(pledges.id, id)).returning();
  return rows[0];
}

/** Back to pending (every payment reversed, an un-confirm): the received money goes too. */
export async function resetToPending(db: DbOrTx, id: string) {
  const rows = await db
    .update(pledges)
    .set({
      isPaid: false,
      paymentConfirmedAt: null,
      amountReceived: null,
      currencyReceived: null,
      receivedContainers: null,
      amountReceivedMinor: null,
      receivedMinor: null,
    })
    .where(and(eq(pledges.id, id), eq(pledges.isPaid, true)))
    .returning();
  return rows[0];
}

export type PledgeTotals = typeof pledgeTotals.$inferSelect;

/**
 * Every total the snapshot keeps (progress and the admin stat cards): one row, kept exact by the
 * triggers of migration 0006 in the transaction of every change to pledges.
 */
export async function readPledgeTotals(db: DbOrTx): Promise<PledgeTotals> {
  const rows = await db.select().from(pledgeTotals).where(eq(pledgeTotals.id, 1));
  return rows[0]!;
}

/** Today and the time zone the age filter counts days in (the fulfilment report's buckets). */
export interface AgeContext {
  today: string;
  timeZone: string;
}

function adminWhere(
  q: Pick<AdminPledgeQuery, 'search' | 'status' | 'age'>,
  ageContext?: AgeContext,
  searchEmails = true,
): SQL | undefined {
  const conds: SQL[] = [];
  const term = q.search.trim();
  if (term) {
    const like = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    // A whole reference (typed any way: "mrj 7k4q 2") is found through its unique index.
    const reference = parseReference(term);
    conds.push(
      or(
        ilike(pledges.name, like),
        ...(searchEmails ? [ilike(pledges.email, like)] : []),
        ilike(pledges.reference, like),
        ...(reference ? [eq(pledges.reference, reference)] : []),
      )!,
    );
  }
  if (q.status === 'paid') conds.push(eq(pledges.isPaid, true), counted);
  if (q.status === 'pending') conds.push(eq(pledges.isPaid, false), counted);
  if (q.status === 'cancelled') conds.push(eq(pledges.status, 'cancelled'));
  if (q.status === 'lapsed') conds.push(inArray(pledges.status, ['lapsed', 'released']));
  if (q.age && ageContext) {
    // The report's own SQL (aliased p there): money still owed, and the age in the zone's days.
    const [from, to] = AGE_BUCKET_DAYS[q.age];
    const age = sql`(${ageContext.today}::date - (${pledges.createdAt} at time zone ${ageContext.timeZone})::date)`;
    conds.push(
      counted,
      sql`${pledges.amount}::bigint * 100 - coalesce(${pledges.receivedMinor}, 0) > 0`,
      sql`${age} >= ${from}`,
      ...(to === null ? [] : [sql`${age} <= ${to}`]),
    );
  }
  return conds.length ? and(...conds) : undefined;
}

/**
 * The dashboard's table: search, filter, sort and paging in SQL, so 100,000 pledges stay quick
 * (numbers in docs/decisions/005-performance.md).
 *
 * `knownTotal`, when the caller has it without SQL (the snapshot's counts, for a query without a
 * search), saves the count and lets a page past the middle be read from the other end, reversed:
 * an OFFSET walks every row it skips.
 */
export async function adminPledgePage(
  db: DbOrTx,
  q: AdminPledgeQuery,
  knownTotal?: number,
  ageContext?: AgeContext,
  /**
   * False for a role that sees e-mails masked: matching on the address would let it rebuild one
   * letter at a time ("a@", "ab@", ...) what the mask hides.
   */
  searchEmails = true,
) {
  const where = adminWhere(q, ageContext, searchEmails);
  const ordered = (descending: boolean) => {
    const dir = descending ? desc : asc;
    return q.sort === 'amount'
      ? [dir(pledges.amount), dir(pledges.createdAt), dir(pledges.id)]
      : [dir(pledges.createdAt), dir(pledges.id)];
  };
  const descending = q.order !== 'asc';
  const offset = (q.page - 1) * q.pageSize;

  if (knownTotal !== undefined) {
    if (offset >= knownTotal) return { items: [], total: knownTotal };
    if (offset > knownTotal / 2) {
      const end = Math.min(knownTotal, offset + q.pageSize);
      const items = await db
        .select()
        .from(pledges)
        .where(where)
        .orderBy(...ordered(!descending))
        .limit(end - offset)
        .offset(knownTotal - end);
      return { items: items.reverse(), total: knownTotal };
    }
    const items = await db
      .select()
      .from(pledges)
      .where(where)
      .orderBy(...ordered(descending))
      .limit(q.pageSize)
      .offset(offset);
    return { items, total: knownTotal };
  }

  // A search: the page and the number of matches, as two statements. Each gets its own plan
  // (the page walks the order's index and stops at pageSize matches; the count uses the trigram
  // indexes), which measured faster than one statement with `count(*) over ()`.
  const [items, counted] = await Promise.all([
    db
      .select()
      .from(pledges)
      .where(where)
      .orderBy(...ordered(descending))
      .limit(q.pageSize)
      .offset(offset),
    db
      .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
      .from(pledges)
      .where(where),
  ]);
  return { items, total: counted[0]!.n };
}

/** The money received in one currency, by a scan: the totals row keeps the same sum (0010). */
const receivedSum = (currency: Currency) =>
  sql<number>`coalesce(sum(coalesce(${pledges.amountReceived}, ${pledges.amount})) filter (where ${pledges.isPaid} and coalesce(${pledges.currencyReceived}, ${pledges.currency}) = ${currency}), 0)::bigint`.mapWith(
    Number,
  );

export async function pledgeStats(db: DbOrTx): Promise<PledgeStats> {
  const rows = await db
    .select({
      totalPledges: sql<number>`count(*)::int`.mapWith(Number),
      paidPledges: sql<number>`count(*) filter (where ${pledges.isPaid})::int`.mapWith(Number),
      totalUSD:
        sql<number>`coalesce(sum(${pledges.amount}) filter (where ${pledges.currency} = 'USD'), 0)::bigint`.mapWith(
          Number,
        ),
      totalJMD:
        sql<number>`coalesce(sum(${pledges.amount}) filter (where ${pledges.currency} = 'JMD'), 0)::bigint`.mapWith(
          Number,
        ),
      receivedUSD: receivedSum('USD'),
      receivedJMD: receivedSum('JMD'),
    })
    .from(pledges);
  const r = rows[0]!;
  return { ...r, pendingPledges: r.totalPledges - r.paidPledges };
}

/**
 * Keyset pages for the streamed CSV export: constant memory whatever the table size. The cursor is
 * the last row's id; its exact (microsecond) created_at is read in SQL, never rounded through JS.
 * Each row comes with the booking date of its latest active payment ("Date received": the bank's
 * booking date when the payment came from a statement line), through the payments index.
 */
export async function pledgePageAfter(
  db: DbOrTx,
  afterId: string | undefined,
  size: number,
): Promise<(PledgeRow & { dateReceived: string | null })[]> {
  const q = db
    .select({
      row: pledges,
      dateReceived: sql<string | null>`(select max(pm.booked_on)::text from payments pm
        where pm.pledge_id = "pledges"."id" and pm.reversed_at is null)`,
    })
    .from(pledges);
  const filtered = afterId
    ? q.where(
        sql`(${pledges.createdAt}, ${pledges.id}) < (select p.created_at, p.id from pledges p where p.id = ${afterId}::uuid)`,
      )
    : q;
  const rows = await filtered.orderBy(desc(pledges.createdAt), desc(pledges.id)).limit(size);
  return rows.map((r) => ({ ...r.row, dateReceived: r.dateReceived }));
}

/**
 * The first pledge number a new reference key applies to: the sequence's next value. Called with
 * inserts locked out (lockPledgeInserts), so no pledge is numbered past it meanwhile.
 */
export async function nextReferenceNumber(db: DbOrTx): Promise<number> {
  const res = (await db.execute(
    sql`select last_value, is_called from pledge_reference_seq`,
  )) as unknown as { rows: { last_value: number | string; is_called: boolean }[] };
  const row = res.rows[0]!;
  return Number(row.last_value) + (row.is_called ? 1 : 0);
}

/** Waits for pledge inserts under way and holds new ones until the transaction ends. */
export async function lockPledgeInserts(tx: DbOrTx): Promise<void> {
  await tx.execute(sql`lock table pledges in share row exclusive mode`);
}
