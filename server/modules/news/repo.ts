import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { pledges } from '../../db/schema';

/**
 * All SQL of delivery news (consent on pledges, migration 0022). A subscriber is an address, not a
 * pledge: its not-erased pledges include one whose consent stands.
 */

const consenting = and(sql`${pledges.newsConsentAt} is not null`, isNull(pledges.erasedAt));

export async function countSubscribers(db: DbOrTx): Promise<number> {
  const rows = await db
    .select({ n: sql<number>`count(distinct lower(${pledges.email}))::int`.mapWith(Number) })
    .from(pledges)
    .where(consenting);
  return rows[0]!.n;
}

/**
 * Queues one delivery_news message per subscribed address for this update, about the address's
 * latest consenting pledge (its name greets, its id signs the unsubscribe link). In the update's
 * own transaction; the worker paces the sending. Returns how many were queued.
 */
export async function enqueueDeliveryNews(
  db: DbOrTx,
  updateId: string,
  now: Date,
): Promise<number> {
  const res = (await db.execute(sql`
    with one_per_address as (
      select distinct on (lower(email)) id from pledges
      where news_consent_at is not null and erased_at is null
      order by lower(email), news_consent_at desc, id
    ), queued as (
      insert into outbox (pledge_id, kind, update_id, created_at)
      select id, 'delivery_news', ${updateId}::uuid, ${now.toISOString()}::timestamptz
      from one_per_address
      returning 1
    )
    select count(*)::int as n from queued`)) as unknown as { rows: { n: number | string }[] };
  return Number(res.rows[0]?.n ?? 0);
}

/**
 * Unsubscribes the address of this pledge: the consent of every pledge with that address ends,
 * and when is kept. Returns how many pledges had consented.
 */
export async function unsubscribeAddressOf(
  db: DbOrTx,
  pledgeId: string,
  now: Date,
): Promise<number> {
  const rows = await db
    .update(pledges)
    .set({ newsConsentAt: null, newsConsentVersion: null, newsWithdrawnAt: now })
    .where(
      and(
        sql`${pledges.newsConsentAt} is not null`,
        sql`lower(${pledges.email}) = (select lower(p.email) from pledges p where p.id = ${pledgeId})`,
      ),
    )
    .returning({ id: pledges.id });
  return rows.length;
}

/** The status page's "subscribe": this pledge's consent, now, to the current wording. */
export async function subscribe(db: DbOrTx, pledgeId: string, now: Date, version: string) {
  const rows = await db
    .update(pledges)
    .set({ newsConsentAt: now, newsConsentVersion: version, newsWithdrawnAt: null })
    .where(and(eq(pledges.id, pledgeId), isNull(pledges.erasedAt)))
    .returning();
  return rows[0];
}
