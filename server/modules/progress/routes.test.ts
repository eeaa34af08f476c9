import type { Progress } from '@shared/schemas/progress';
import { describe, expect, test } from '../../../tests/support/fixtures';
import { createTestDatabase, startTestApp, type TestApp } from '../../../tests/support/test-app';

// One app for the file (the fixtures): each describe counts from the numbers it finds, except the
// first test, which runs first on the fresh app. The restart test starts its own two apps on one
// database.

const getProgress = async (t: TestApp): Promise<Progress> => {
  const res = await t.request('/api/progress');
  expect(res.status).toBe(200);
  return res.json();
};

async function pledge(
  t: TestApp,
  amount: number,
  currency: 'USD' | 'JMD',
  email = 'd@donors.test',
) {
  const res = await t.request('/api/pledges', {
    method: 'POST',
    json: { name: 'Donor', email, amount, currency },
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string };
}

describe('GET /api/progress', () => {
  test('starts at zero with the 500,000 goal', async ({ app: t }) => {
    const res = await t.request('/api/progress');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const body = await res.json();
    expect(body).toMatchObject({
      currentAmount: 0,
      manualAdjustment: 0,
      goalAmount: 500_000,
      confirmedAmount: 0,
      outstandingAmount: 0,
      donorCount: 0,
      containersDelivered: 0,
      pledgeCount: 0,
    });
    expect(Object.keys(body).sort()).toEqual(
      [
        'confirmedAmount',
        'containersDelivered',
        'outstandingAmount',
        'currentAmount',
        'donorCount',
        'goalAmount',
        'manualAdjustment',
        'pledgeCount',
        'updatedAt',
      ].sort(),
    );
  });

  test.for([
    [110, 'USD', 1000],
    [1, 'USD', 9],
    [1672, 'JMD', 100],
    [16, 'JMD', 0],
    [15200, 'JMD', 909],
    [100, 'USD', 909],
  ] as const)(
    'counts %i %s as %i containers',
    async ([amount, currency, containers], { app: t }) => {
      const before = (await getProgress(t)).currentAmount;
      await pledge(t, amount, currency);
      expect((await getProgress(t)).currentAmount).toBe(before + containers);
    },
  );
});

describe('PUT /api/progress', () => {
  let t: TestApp;
  let put: (json: unknown) => Promise<Response>;
  /** The pledges' containers, without the adjustment, when this describe starts. */
  let base: number;
  let confirmed: number;
  test.beforeAll(async ({ app, adminClient }) => {
    t = app;
    put = (json) => adminClient.request('/api/progress', { method: 'PUT', json });
    await pledge(t, 110, 'USD'); // 1000 containers
    const now = await getProgress(t);
    base = now.currentAmount - now.manualAdjustment;
    confirmed = now.confirmedAmount;
  });

  test('adds the manual adjustment to currentAmount, and a second PUT replaces it (not adds)', async () => {
    const first = await put({ manualAdjustment: 500 });
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ currentAmount: base + 500, manualAdjustment: 500 });
    expect(await getProgress(t)).toMatchObject({
      currentAmount: base + 500,
      manualAdjustment: 500,
    });

    await put({ manualAdjustment: 500 });
    expect((await getProgress(t)).currentAmount).toBe(base + 500);

    await put({ manualAdjustment: -100 });
    expect(await getProgress(t)).toMatchObject({
      currentAmount: base - 100,
      manualAdjustment: -100,
    });

    await put({ manualAdjustment: 0 });
    expect(await getProgress(t)).toMatchObject({ currentAmount: base, manualAdjustment: 0 });
  });

  test('replaces the goal when goalAmount is sent and keeps it when it is not', async () => {
    await put({ manualAdjustment: 0, goalAmount: 750_000 });
    expect((await getProgress(t)).goalAmount).toBe(750_000);
    await put({ manualAdjustment: 10 });
    expect(await getProgress(t)).toMatchObject({ goalAmount: 750_000, currentAmount: base + 10 });
    await put({ manualAdjustment: 0, goalAmount: 500_000 });
  });

  test('lets the adjustment take the total below zero (the bar floors it)', async () => {
    await put({ manualAdjustment: -(base + 3000) });
    expect((await getProgress(t)).currentAmount).toBe(-3000);
    await put({ manualAdjustment: 0 });
  });

  test('moves updatedAt', async () => {
    const before = (await getProgress(t)).updatedAt;
    await new Promise((r) => setTimeout(r, 5));
    await put({ manualAdjustment: 1 });
    expect((await getProgress(t)).updatedAt > before).toBe(true);
    await put({ manualAdjustment: 0 });
  });

  test('ignores unknown fields: currentAmount cannot be set', async () => {
    const res = await put({ manualAdjustment: 0, currentAmount: 999_999, confirmedAmount: 5 });
    expect(res.status).toBe(200);
    expect(await getProgress(t)).toMatchObject({
      currentAmount: base,
      confirmedAmount: confirmed,
    });
  });

  test.for([
    [{}, 'Manual adjustment must be an integer'],
    [{ manualAdjustment: null }, 'Manual adjustment must be an integer'],
    [{ manualAdjustment: '500' }, 'Manual adjustment must be an integer'],
    [{ manualAdjustment: '+500' }, 'Manual adjustment must be an integer'],
    [{ manualAdjustment: 1.5 }, 'Manual adjustment must be an integer'],
    [{ manualAdjustment: true }, 'Manual adjustment must be an integer'],
    [{ manualAdjustment: 2 ** 31 }, 'Manual adjustment is too large'],
    [{ manualAdjustment: -(2 ** 31) }, 'Manual adjustment is too large'],
    [{ manualAdjustment: 1e308 }, 'Manual adjustment is too large'],
    [{ manualAdjustment: 0, goalAmount: 0 }, 'Goal amount must be at least 1'],
    [{ manualAdjustment: 0, goalAmount: -1 }, 'Goal amount must be at least 1'],
    [{ manualAdjustment: 0, goalAmount: 2.5 }, 'Goal amount must be at least 1'],
    [{ manualAdjustment: 0, goalAmount: '1000' }, 'Goal amount must be at least 1'],
    [{ manualAdjustment: 0, goalAmount: null }, 'Goal amount must be at least 1'],
    [{ manualAdjustment: 0, goalAmount: 2 ** 40 }, 'Goal amount is too large'],
  ] as const)('refuses %j with 400 and changes nothing', async ([body, message]) => {
    const before = await getProgress(t);
    const res = await put(body);
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe(message);
    expect(await getProgress(t)).toEqual(before);
  });
});

describe('progress follows the pledges', () => {
  let t: TestApp;
  let cookie: string;
  test.beforeAll(async ({ app, adminClient }) => {
    t = app;
    cookie = adminClient.cookie;
  });

  test('changes the total when a pledge is edited or deleted', async () => {
    const start = await getProgress(t);
    const a = await pledge(t, 110, 'USD');
    const b = await pledge(t, 1672, 'JMD');
    expect((await getProgress(t)).currentAmount).toBe(start.currentAmount + 1100);

    const edit = await t.request(`/api/pledges/${a.id}`, {
      method: 'PATCH',
      cookie,
      json: { updates: { amount: 11 } },
    });
    expect(edit.status).toBe(200);
    expect((await getProgress(t)).currentAmount).toBe(start.currentAmount + 200);

    await t.request(`/api/pledges/${b.id}`, { method: 'DELETE', cookie });
    expect(await getProgress(t)).toMatchObject({
      currentAmount: start.currentAmount + 100,
      pledgeCount: start.pledgeCount + 1,
    });
  });

  test('counts confirmed containers apart', async () => {
    const p = await pledge(t, 1672, 'JMD');
    const before = await getProgress(t);
    await t.request(`/api/pledges/${p.id}/confirm`, { method: 'PUT', cookie, json: {} });
    const after = await getProgress(t);
    expect(after.confirmedAmount).toBe(before.confirmedAmount + 100);
    expect(after.currentAmount).toBe(before.currentAmount);
  });
});

describe('donorCount', () => {
  let t: TestApp;
  let cookie: string;
  test.beforeAll(async ({ app, adminClient }) => {
    t = app;
    cookie = adminClient.cookie;
  });

  // Distinct e-mails over confirmed pledges, plus each pending pledge once
  // (docs/decisions/008-security-review-fixes.md).
  const paid = async (amount: number, currency: 'USD' | 'JMD', email: string) => {
    const p = await pledge(t, amount, currency, email);
    const res = await t.request(`/api/pledges/${p.id}/confirm`, {
      method: 'PUT',
      cookie,
      json: {},
    });
    expect(res.status).toBe(200);
    return p;
  };

  test('counts distinct e-mail addresses of confirmed pledges, case-insensitively', async () => {
    // The file's earlier pledges use other addresses: counted from here.
    const { donorCount: d, pledgeCount: n } = await getProgress(t);
    const a1 = await paid(5, 'USD', 'Ann@Donors.test');
    const a2 = await paid(5, 'USD', 'ann@donors.test');
    await paid(5, 'JMD', 'ANN@DONORS.TEST');
    expect(await getProgress(t)).toMatchObject({ donorCount: d + 1, pledgeCount: n + 3 });
    const pending = await pledge(t, 5, 'USD', 'pending@donors.test');
    expect(await getProgress(t)).toMatchObject({ donorCount: d + 2, pledgeCount: n + 4 });
    await t.request(`/api/pledges/${pending.id}`, { method: 'DELETE', cookie });
    await pledge(t, 5, 'USD', 'ann@donors.test'); // pending, though Ann is a donor already
    expect(await getProgress(t)).toMatchObject({ donorCount: d + 2, pledgeCount: n + 4 });
    const bob = await paid(5, 'USD', 'bob@donors.test');
    expect((await getProgress(t)).donorCount).toBe(d + 3);

    // Deleting one of Ann's pledges keeps her; an e-mail edit moves Bob's pledge to Ann.
    await t.request(`/api/pledges/${a1.id}`, { method: 'DELETE', cookie });
    expect((await getProgress(t)).donorCount).toBe(d + 3);
    await t.request(`/api/pledges/${bob.id}`, {
      method: 'PATCH',
      cookie,
      json: { updates: { email: 'aNN@donors.test' } },
    });
    expect(await getProgress(t)).toMatchObject({ donorCount: d + 2, pledgeCount: n + 4 });
    await t.request(`/api/pledges/${a2.id}`, {
      method: 'PATCH',
      cookie,
      json: { updates: { email: 'carol@donors.test' } },
    });
    expect((await getProgress(t)).donorCount).toBe(d + 3);
  });
});

describe('progress after a restart', () => {
  test('reads the same numbers back from the database', async () => {
    const { database, drop } = await createTestDatabase();
    try {
      const first = await startTestApp({ database });
      const cookie = await first.login();
      await pledge(first, 110, 'USD', 'x@donors.test');
      const p = await pledge(first, 1672, 'JMD', 'X@donors.test');
      await pledge(first, 1, 'USD', 'y@donors.test');
      await first.request(`/api/pledges/${p.id}/confirm`, { method: 'PUT', cookie, json: {} });
      await first.request('/api/progress', {
        method: 'PUT',
        cookie,
        json: { manualAdjustment: 250, goalAmount: 600_000 },
      });
      const before = await getProgress(first);
      await first.close();

      const second = await startTestApp({ database });
      try {
        const after = await getProgress(second);
        expect(after).toEqual(before);
        expect(after).toMatchObject({
          currentAmount: 1000 + 100 + 9 + 250,
          confirmedAmount: 100,
          manualAdjustment: 250,
          goalAmount: 600_000,
          donorCount: 3, // the confirmed pledge's donor and the two pending pledges
          pledgeCount: 3,
        });
        // Numbers, not strings, on both drivers (node-postgres returns bigint sums as text).
        for (const v of Object.values(after).filter((v) => typeof v !== 'string'))
          expect(typeof v).toBe('number');
      } finally {
        await second.close();
      }
    } finally {
      await database.close();
      await drop();
    }
  });
});
