import { PUBLIC_PLEDGE_KEYS } from '@shared/schemas/pledge';
import { adminPledges } from '../../../tests/support/api';
import { describe, expect, test } from '../../../tests/support/fixtures';

const SECRET = 'Zelda Secretname';

/** Exactly these 13 pledges: the file's own app, so the counts below are exact. */
test.beforeAll(async ({ pledge }) => {
  await pledge({ name: 'First Public', email: 'first@donors.test' });
  await pledge({ name: SECRET, email: 'zelda@donors.test', isAnonymous: true });
  for (let i = 0; i < 10; i++) {
    await pledge({ name: `Donor ${i}`, email: `donor${i}@donors.test`, amount: 10 + i });
  }
  await pledge({ name: 'Last Public', email: 'LAST@Example.org', currency: 'JMD' });
});

describe('GET /api/pledges', () => {
  /** Every public way to read pledges: the snapshot path, the SQL path and the home page HTML. */
  const publicReads = [
    '/api/pledges',
    '/api/pledges?limit=8',
    '/api/pledges?limit=50',
    '/api/pledges?limit=1000',
  ];

  test.for(publicReads)('%s shows no e-mail and no anonymous donor name', async (url, { app }) => {
    const res = await app.request(url);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain('@');
    expect(text).not.toContain('"email"');
    expect(text).not.toContain('Secretname');
    const list = JSON.parse(text) as Record<string, unknown>[];
    for (const p of list) expect(Object.keys(p).sort()).toEqual([...PUBLIC_PLEDGE_KEYS].sort());
    const anon = list.find((p) => p.isAnonymous === true);
    if (url !== '/api/pledges?limit=8') expect(anon?.name).toBe('Anonymous');
  });

  test('keeps e-mails and anonymous names out of the home page HTML too (for admins as well)', async ({
    app,
    adminClient,
  }) => {
    for (const path of ['/', '/admin', '/payment-instructions', '/no-such-page']) {
      for (const session of [undefined, adminClient.cookie]) {
        // The HTML is cached per snapshot: an admin's page must not differ in what it reveals.
        const html = await (await app.request(path, { cookie: session })).text();
        expect(html).toContain('initial-data');
        expect(html).not.toContain('donors.test');
        expect(html).not.toContain('Secretname');
      }
    }
  });

  test('lists every pledge newest first', async ({ app }) => {
    const list = (await (await app.request('/api/pledges')).json()) as {
      name: string;
      createdAt: string;
    }[];
    expect(list).toHaveLength(13);
    expect(list[0]!.name).toBe('Last Public');
    expect(list[list.length - 1]!.name).toBe('First Public');
    const times = list.map((p) => Date.parse(p.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  test('gives the N newest with ?limit=N, identical from memory and from SQL', async ({ app }) => {
    const eight = (await (await app.request('/api/pledges?limit=8')).json()) as { id: string }[];
    const all = (await (await app.request('/api/pledges?limit=1000')).json()) as { id: string }[];
    expect(eight).toHaveLength(8);
    expect(eight).toEqual(all.slice(0, 8));
    const fromDb = (await (await app.request('/api/pledges?limit=51')).json()) as { id: string }[];
    expect(fromDb).toEqual(all.slice(0, 13));
  });

  test.for(['0', '-1', '1001', 'abc', '2.5', '1e400'])(
    'refuses ?limit=%s with 400',
    async (limit, { app }) => {
      const res = await app.request(`/api/pledges?limit=${limit}`);
      expect(res.status).toBe(400);
      expect((await res.json()).message).toBe('limit must be a whole number from 1 to 1000');
    },
  );

  test('shows an admin everything: e-mail, payment state and the real name', async ({
    app,
    adminClient,
  }) => {
    const list = await adminPledges(app, adminClient.cookie);
    expect(list).toHaveLength(13);
    const zelda = list.find((p) => p.email === 'zelda@donors.test')!;
    expect(zelda).toMatchObject({
      name: SECRET,
      isAnonymous: true,
      isPaid: false,
      paymentConfirmedAt: null,
    });
    expect(Object.keys(zelda).sort()).toEqual(
      [
        ...PUBLIC_PLEDGE_KEYS,
        'email',
        'isPaid',
        'paymentConfirmedAt',
        'reference',
        'amountReceived',
        'currencyReceived',
        'outstandingAmount',
        'paymentState',
        'amountReceivedMinor',
        'receivedMinor',
        'outstandingMinor',
        'overpaidMinor',
        // open, cancelled, lapsed or released.
        'pledgeStatus',
      ].sort(),
    );
    const res = await app.request('/api/pledges?limit=2', { cookie: adminClient.cookie });
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual(list.slice(0, 2));
  });
});
