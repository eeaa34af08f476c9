import { and, asc, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { containersFor } from '@shared/containers';
import type { Currency } from '@shared/constants';
import { DEFAULT_REFERENCE_PREFIX, parseReference } from '@shared/payment-reference';
import { convertAmount, outstandingBalance, paymentState } from '@shared/received';
import type {
  AdminPledge,
  AdminPledgeQuery,
  PledgeCreate,
  PledgeStats,
  PublicPledge,
} from '@shared/schemas/pledge';
import type { DbOrTx } from '../../db/client';
import { pledges, pledgeTotals } from '../../db/schema';
import type { RecentPledge } from '../../read-model/snapshot';

export type PledgeRow = typeof pledges.$inferSelect;
/**
 * A row with its created_at in whole microseconds: PostgreSQL orders by microseconds, a JS Date
 * keeps milliseconds, and the snapshot must order the newest pledges exactly as the database does.
 */
export type TimedPledgeRow = PledgeRow & { createdMicros: number };

const createdMicros = sql<number>`(extract(epoch from ${pledges.createdAt}) * 1000000)::float8`;

/** A paid row written without received fields (older code, direct SQL) counts as paid in full. */
function receivedOf(r: PledgeRow) {
  if (!r.isPaid) return { amountReceived: null, currencyReceived: null };
  return {
    amountReceived: r.amountReceived ?? r.amount,
    currencyReceived: r.currencyReceived ?? r.currency,
  };
}

export function toAdminPledge(r: PledgeRow): AdminPledge {
  const received = receivedOf(r);
  const money = { amount: r.amount, currency: r.currency, isPaid: r.isPaid, ...received };
  return {
    id: r.id,
    name: r.name,
    email: r.email,
    amount: r.amount,
    currency: r.currency,
    containers: r.containers,
    isAnonymous: r.isAnonymous,
    isPaid: r.isPaid,
    paymentConfirmedAt: r.paymentConfirmedAt ? r.paymentConfirmedAt.toISOString() : null,
    createdAt: r.createdAt.toISOString(),
    reference: r.reference,
    ...received,
    outstandingAmount: outstandingBalance(money),
    paymentState: paymentState(money),
  };
}

/**
 * The public view (privacy rule, docs/decisions/010-product-rules.md): an allow-list of keys, and
 * no real name behind "Anonymous".
 */
export function toPublicPledge(r: PledgeRow): PublicPledge {
  return {
    id: r.id,
    name: r.isAnonymous ? 'Anonymous' : r.name,
    amount: r.amount,
    currency: r.currency,
    containers: r.containers,
    isAnonymous: r.isAnonymous,
    createdAt: r.createdAt.toISOString(),
  };
}

/** A new or listed row as the snapshot keeps it among the newest. */
export function toRecentPledge(r: TimedPledgeRow): RecentPledge {
  return { micros: r.createdMicros, id: r.id, pledge: toPublicPledge(r) };
}

export function newPledgeValues(input: PledgeCreate): typeof pledges.$inferInsert {
  return {
    name: input.name,
    email: input.email,
    amount: input.amount,
    currency: input.currency,
    containers: containersFor(input.amount, input.currency),
    isAnonymous: input.isAnonymous,
  };
}

export type NewPledge = typeof pledges.$inferInsert;

/**
 * Many pledges in one INSERT, all-or-nothing. The values travel as one array per column
 * (`unnest`), so the statement has nine parameters whatever the batch size: PostgreSQL parses one
 * short text and Drizzle does not build 9 × n placeholders, which was half the cost of a 50-row
 * batch (docs/decisions/005-performance.md). RETURNING yields the rows in the arrays' order: they
 * flow from unnest through the INSERT one by one (Django's bulk_create relies on the same).
 */
export async function insertPledges(
  db: DbOrTx,
  values: NewPledge[],
  referencePrefix: string = DEFAULT_REFERENCE_PREFIX,
): Promise<TimedPledgeRow[]> {
  if (values.length === 0) return [];
  const col = (pick: (v: NewPledge) => unknown) => sql.param(values.map(pick));
  const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
  const result = (await db.execute(sql`
    insert into pledges
      (name, email, amount, currency, containers, is_anonymous, is_paid, payment_confirmed_at, created_at,
       idempotency_key, idempotency_body_hash, client_key, reference)
    select name, email, amount, currency, containers, is_anonymous, is_paid, payment_confirmed_at,
      coalesce(created_at, clock_timestamp()), idempotency_key, idempotency_body_hash, client_key,
      pledge_reference(nextval('pledge_reference_seq'), ${referencePrefix})
    from unnest(
      ${col((v) => v.name)}::text[], ${col((v) => v.email)}::text[], ${col((v) => v.amount)}::int[],
      ${col((v) => v.currency ?? 'USD')}::text[], ${col((v) => v.containers)}::bigint[],
      ${col((v) => v.isAnonymous ?? false)}::bool[], ${col((v) => v.isPaid ?? false)}::bool[],
      ${col((v) => iso(v.paymentConfirmedAt))}::timestamptz[], ${col((v) => iso(v.createdAt))}::timestamptz[],
      ${col((v) => v.idempotencyKey ?? null)}::text[],
      ${col((v) => v.idempotencyBodyHash ?? null)}::text[], ${col((v) => v.clientKey ?? null)}::text[]
    ) as t(name, email, amount, currency, containers, is_anonymous, is_paid, payment_confirmed_at, created_at,
      idempotency_key, idempotency_body_hash, client_key)
    returning id, created_at, reference, ${createdMicros} as created_micros`)) as unknown as {
    rows: {
      id: string;
      created_at: string | Date;
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
      idempotencyKey: v.idempotencyKey ?? null,
      idempotencyBodyHash: v.idempotencyBodyHash ?? null,
      clientKey: v.clientKey ?? null,
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

export interface Received {
  amountReceived: number;
  currencyReceived: Currency;
}

/** What a confirmation records: what the admin says arrived, by default the pledge itself. */
export function receivedValues(current: PledgeRow, input: Partial<Received>) {
  const currencyReceived = input.currencyReceived ?? current.currency;
  const amountReceived =
    input.amountReceived ?? convertAmount(current.amount, current.currency, currencyReceived);
  return {
    amountReceived,
    currencyReceived,
    receivedContainers: containersFor(amountReceived, currencyReceived),
  };
}

/**
 * Pending -> paid, once: a second confirm (or 20 racing ones) leaves the first timestamp and the
 * first amount received. Without `received`, the pledged amount arrived.
 */
export async function confirmPledge(
  db: DbOrTx,
  id: string,
  now: Date,
  received?: ReturnType<typeof receivedValues>,
) {
  const rows = await db
    .update(pledges)
    .set({
      isPaid: true,
      paymentConfirmedAt: now,
      ...(received ?? {
        amountReceived: sql`${pledges.amount}`,
        currencyReceived: sql`${pledges.currency}`,
        receivedContainers: sql`${pledges.containers}`,
      }),
    })
    .where(and(eq(pledges.id, id), eq(pledges.isPaid, false)))
    .returning();
  if (rows[0]) return { row: rows[0], changed: true };
  const existing = await findPledge(db, id);
  return existing ? { row: existing, changed: false } : undefined;
}

export async function updatePledge(
  db: DbOrTx,
  current: PledgeRow,
  changes: {
    name?: string;
    email?: string;
    amount?: number;
    amountReceived?: number;
    currencyReceived?: Currency;
  },
) {
  const { amountReceived, currencyReceived, ...plain } = changes;
  const set: Partial<typeof pledges.$inferInsert> = { ...plain };
  if (amountReceived !== undefined || currencyReceived !== undefined) {
    const before = receivedOf(current);
    Object.assign(
      set,
      receivedValues(current, {
        amountReceived: amountReceived ?? before.amountReceived ?? undefined,
        currencyReceived: currencyReceived ?? before.currencyReceived ?? undefined,
      }),
    );
  }
  if (changes.amount !== undefined)
    set.containers = containersFor(changes.amount, current.currency);
  const rows = await db.update(pledges).set(set).where(eq(pledges.id, current.id)).returning();
  return rows[0];
}

/** Deletes a pledge; returns the deleted row (for the audit log), or undefined. */
export async function deletePledge(db: DbOrTx, id: string) {
  const rows = await db.delete(pledges).where(eq(pledges.id, id)).returning();
  return rows[0];
}

/** Paid -> pending (an admin's mistake, a wrong statement match): the received money goes too. */
export async function unconfirmPledge(db: DbOrTx, id: string) {
  const rows = await db
    .update(pledges)
    .set({
      isPaid: false,
      paymentConfirmedAt: null,
      amountReceived: null,
      currencyReceived: null,
      receivedContainers: null,
    })
    .where(and(eq(pledges.id, id), eq(pledges.isPaid, true)))
    .returning();
  if (rows[0]) return { row: rows[0], changed: true };
  const existing = await findPledge(db, id);
  return existing ? { row: existing, changed: false } : undefined;
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

function adminWhere(q: Pick<AdminPledgeQuery, 'search' | 'status'>): SQL | undefined {
  const conds: SQL[] = [];
  const term = q.search.trim();
  if (term) {
    const like = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    // A whole reference (typed any way: "mrj 7k4q 2") is found through its unique index.
    const reference = parseReference(term);
    conds.push(
      or(
        ilike(pledges.name, like),
        ilike(pledges.email, like),
        ilike(pledges.reference, like),
        ...(reference ? [eq(pledges.reference, reference)] : []),
      )!,
    );
  }
  if (q.status === 'paid') conds.push(eq(pledges.isPaid, true));
  if (q.status === 'pending') conds.push(eq(pledges.isPaid, false));
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
export async function adminPledgePage(db: DbOrTx, q: AdminPledgeQuery, knownTotal?: number) {
  const where = adminWhere(q);
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
 */
export async function pledgePageAfter(
  db: DbOrTx,
  afterId: string | undefined,
  size: number,
): Promise<PledgeRow[]> {
  const q = db.select().from(pledges);
  const filtered = afterId
    ? q.where(
        sql`(${pledges.createdAt}, ${pledges.id}) < (select p.created_at, p.id from pledges p where p.id = ${afterId}::uuid)`,
      )
    : q;
  return filtered.orderBy(desc(pledges.createdAt), desc(pledges.id)).limit(size);
}
