import { eq, sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { describe, expect, test } from '../../../tests/support/fixtures';
import type { TestApp } from '../../../tests/support/test-app';
import { pledges } from '../../db/schema';

let now = new Date();
test.override('appOptions', { now: () => now, env: { RATE_LIMIT_PLEDGES_PER_MINUTE: '0' } });

describe('Idempotency-Key on POST /api/pledges', () => {
  let t: TestApp;
  test.beforeAll(({ app }) => {
    t = app;
  });

  const post = (key: string | undefined, body: Record<string, unknown> = {}) =>
    t.request('/api/pledges', {
      method: 'POST',
      headers: key === undefined ? {} : { 'Idempotency-Key': key },
      json: { name: 'Retry Rita', email: 'rita@donors.test', amount: 75, currency: 'USD', ...body },
    });
  const rowsWith = async (email: string) =>
    t.database.db.select().from(pledges).where(eq(pledges.email, email));

  test('answers 50 parallel retries of one key with one pledge: 201, same id, one row', async () => {
    const key = randomUUID();
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => post(key, { email: 'fifty@donors.test' })),
    );
    const bodies = await Promise.all(
      responses.map(async (r) => {
        expect(r.status).toBe(201);
        return (await r.json()) as { id: string; reference: string };
      }),
    );
    expect(new Set(bodies.map((b) => b.id)).size).toBe(1);
    expect(new Set(bodies.map((b) => b.reference)).size).toBe(1);
    expect(await rowsWith('fifty@donors.test')).toHaveLength(1);
    // A later retry (after the first is committed) gets the same pledge too.
    const late = await post(key, { email: 'fifty@donors.test' });
    expect(late.status).toBe(201);
    expect(((await late.json()) as { id: string }).id).toBe(bodies[0]!.id);
    expect(await rowsWith('fifty@donors.test')).toHaveLength(1);
    const progress = (await (await t.request('/api/progress')).json()) as { pledgeCount: number };
    const counted = (await t.database.db.execute(
      sql`select count(*)::int as n from pledges`,
    )) as unknown as { rows: { n: number }[] };
    expect(progress.pledgeCount).toBe(Number(counted.rows[0]!.n));
  });

  test('stores separate pledges for different keys and for no key', async () => {
    await post(randomUUID(), { email: 'two@donors.test' });
    await post(randomUUID(), { email: 'two@donors.test' });
    await post(undefined, { email: 'two@donors.test' });
    await post(undefined, { email: 'two@donors.test' });
    expect(await rowsWith('two@donors.test')).toHaveLength(4);
  });

  test('forgets a key after 24 hours', async () => {
    const key = randomUUID();
    const first = (await (await post(key, { email: 'late@donors.test' })).json()) as { id: string };
    now = new Date(Date.now() + 24 * 3600_000 + 60_000);
    try {
      const again = await post(key, { email: 'late@donors.test' });
      expect(again.status).toBe(201);
      expect(((await again.json()) as { id: string }).id).not.toBe(first.id);
      expect(await rowsWith('late@donors.test')).toHaveLength(2);
    } finally {
      now = new Date();
    }
  });

  test('refuses a malformed key with a clear 400', async () => {
    for (const key of ['short', 'x'.repeat(101), 'has spaces in it', 'semi;colon-key']) {
      const res = await post(key);
      expect(res.status, key).toBe(400);
      expect(((await res.json()) as { message: string }).message).toMatch(/Idempotency-Key/);
    }
  });

  test('still validates the body of a keyed request', async () => {
    const res = await post(randomUUID(), { amount: 0 });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe(
      'Pledge amount must be at least $1',
    );
  });
});
