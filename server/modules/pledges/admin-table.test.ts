import type { AdminPledge } from '@shared/schemas/pledge';
import { describe, expect, test as base } from '../../../tests/support/fixtures';

const test = base.extend('q', { scope: 'file' }, async ({ adminClient }) => {
  return async (query: string) => {
    const res = await adminClient.request(`/api/admin/pledges${query}`);
    expect(res.status, await res.clone().text()).toBe(200);
    return res.json() as Promise<{
      items: AdminPledge[];
      total: number;
      page: number;
      pageSize: number;
      stats: Record<string, number>;
    }>;
  };
});

/** Exactly these four pledges (the file's own app): the stats and counts below are exact. */
test.beforeAll(async ({ pledge, adminClient }) => {
  await pledge({ name: 'Alice Smith', email: 'alice@donors.test', amount: 300 });
  await pledge({ name: 'Bob Jones', email: 'bob@sample.net', amount: 100, currency: 'JMD' });
  const carol = await pledge({ name: 'Carol 100%_off', email: 'carol@donors.test', amount: 200 });
  await pledge({ name: 'Dan', email: 'DAN@DONORS.TEST', amount: 5000, currency: 'JMD' });
  await adminClient.request(`/api/pledges/${carol.id}/confirm`, { method: 'PUT', json: {} });
});

describe('GET /api/admin/pledges (dashboard table)', () => {
  test('defaults to date descending with stats per currency', async ({ q }) => {
    const page = await q('');
    expect(page.items.map((p) => p.name)).toEqual([
      'Dan',
      'Carol 100%_off',
      'Bob Jones',
      'Alice Smith',
    ]);
    expect(page).toMatchObject({ total: 4, page: 1, pageSize: 50 });
    expect(page.stats).toEqual({
      totalPledges: 4,
      paidPledges: 1,
      pendingPledges: 3,
      totalUSD: 500,
      totalJMD: 5100,
      receivedUSD: 200,
      receivedJMD: 0,
    });
  });

  test('searches name or e-mail, case-insensitively, with % and _ taken literally', async ({
    q,
  }) => {
    expect((await q('?search=ALICE')).items.map((p) => p.name)).toEqual(['Alice Smith']);
    expect((await q('?search=sample.net')).items.map((p) => p.name)).toEqual(['Bob Jones']);
    expect((await q('?search=donors.test')).total).toBe(3);
    expect((await q('?search=%25')).items.map((p) => p.name)).toEqual(['Carol 100%_off']);
    expect((await q('?search=_')).items.map((p) => p.name)).toEqual(['Carol 100%_off']);
    expect((await q('?search=nobody')).items).toEqual([]);
  });

  test('filters by status and sorts by amount', async ({ q }) => {
    expect((await q('?status=paid')).items.map((p) => p.name)).toEqual(['Carol 100%_off']);
    expect((await q('?status=pending')).total).toBe(3);
    expect((await q('?sort=amount&order=asc')).items.map((p) => p.amount)).toEqual([
      100, 200, 300, 5000,
    ]);
    expect((await q('?sort=amount&order=desc')).items.map((p) => p.amount)).toEqual([
      5000, 300, 200, 100,
    ]);
    expect((await q('?sort=date&order=asc')).items[0]!.name).toBe('Alice Smith');
  });

  test('pages', async ({ q }) => {
    const p2 = await q('?pageSize=3&page=2');
    expect(p2).toMatchObject({ total: 4, page: 2, pageSize: 3 });
    expect(p2.items.map((p) => p.name)).toEqual(['Alice Smith']);
    expect((await q('?pageSize=3&page=9')).items).toEqual([]);
  });

  test.for(['?status=bogus', '?sort=email', '?order=up', '?page=0', '?pageSize=201', '?page=abc'])(
    'refuses %s with 400',
    async (query, { app, adminClient }) => {
      const res = await app.request(`/api/admin/pledges${query}`, { cookie: adminClient.cookie });
      expect(res.status).toBe(400);
      expect(typeof (await res.json()).message).toBe('string');
    },
  );
});
