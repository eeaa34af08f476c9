import { containersFor } from '@shared/containers';
import type { AdminPledge } from '@shared/schemas/pledge';
import { type TestApp } from '../../../tests/support/test-app';
import { describe, expect, test } from '../../../tests/support/fixtures';
import { insertPledges, type NewPledge } from './repo';

// The admin table reads counts from the snapshot, pages past the middle from the other end, and
// counts search matches with a window function (docs/decisions/005-performance.md): every page
// must still be exactly the slice of the full ordered list.
describe('GET /api/admin/pledges paging at every depth', () => {
  let t: TestApp;
  let cookie: string;
  const N = 103;

  test.beforeAll(async ({ app }) => {
    t = app;
    const base = Date.parse('2025-01-01T00:00:00Z');
    const values: NewPledge[] = Array.from({ length: N }, (_, i) => {
      const amount = 1 + ((i * 37) % 50); // repeated amounts: ties broken by date, then id
      return {
        name: i % 3 === 0 ? `Smith ${i}` : `Brown ${i}`,
        email: `p${i}@donors.test`,
        amount,
        currency: i % 4 === 0 ? 'JMD' : 'USD',
        containers: containersFor(amount, i % 4 === 0 ? 'JMD' : 'USD'),
        isPaid: i % 5 === 0,
        // Pairs share a timestamp, so the id tie-break is exercised too.
        createdAt: new Date(base + Math.floor(i / 2) * 60_000),
      };
    });
    await insertPledges(t.database.db, values);
    // Rows written behind the app's back: reload its snapshot as an admin write would.
    cookie = await t.login();
    await t.request('/api/progress', { method: 'PUT', cookie, json: { manualAdjustment: 0 } });
  });

  const list = async (query: string) => {
    const res = await t.request(`/api/admin/pledges?${query}`, { cookie });
    expect(res.status).toBe(200);
    return (await res.json()) as {
      items: AdminPledge[];
      total: number;
      stats: { totalPledges: number; paidPledges: number; totalUSD: number; totalJMD: number };
    };
  };

  test('slices the full order exactly, both ends, with and without a search', async () => {
    for (const filter of ['status=all', 'status=paid', 'status=pending', 'search=smith']) {
      for (const order of [
        'sort=date&order=desc',
        'sort=date&order=asc',
        'sort=amount&order=desc',
        'sort=amount&order=asc',
      ]) {
        const all = await list(`${filter}&${order}&pageSize=200`);
        expect(all.items).toHaveLength(all.total);
        const pageSize = 10;
        const pages = Math.ceil(all.total / pageSize) + 1; // one past the end
        for (let page = 1; page <= pages; page++) {
          const r = await list(`${filter}&${order}&pageSize=${pageSize}&page=${page}`);
          expect(r.total, `${filter} ${order} page ${page}`).toBe(all.total);
          expect(
            r.items.map((p) => p.id),
            `${filter} ${order} page ${page}`,
          ).toEqual(all.items.slice((page - 1) * pageSize, page * pageSize).map((p) => p.id));
        }
      }
    }
  });

  test('counts and stat cards match the rows', async () => {
    const all = (await list('pageSize=200')).items;
    const r = await list('status=paid');
    expect(r.total).toBe(all.filter((p) => p.isPaid).length);
    expect(r.stats).toMatchObject({
      totalPledges: N,
      paidPledges: all.filter((p) => p.isPaid).length,
      totalUSD: all.filter((p) => p.currency === 'USD').reduce((s, p) => s + p.amount, 0),
      totalJMD: all.filter((p) => p.currency === 'JMD').reduce((s, p) => s + p.amount, 0),
    });
    expect((await list('search=nobody-here')).total).toBe(0);
    expect((await list('search=smith&page=99')).total).toBe(Math.ceil(N / 3));
  });
});
