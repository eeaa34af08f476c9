import { PUBLIC_PLEDGE_KEYS } from '@shared/schemas/pledge';
import { describe, expect, test } from '../support/fixtures';
import { createPledge } from '../support/api';

/** Threats 1-4: what the public can read of donors. */
describe('data exposure', () => {
  let secretId: string;
  test.beforeAll(async ({ app: t }) => {
    await createPledge(t, { name: 'Leaky Lee', email: 'leak@x.test', amount: 250 });
    ({ id: secretId } = await createPledge(t, {
      name: 'Secret Sam',
      email: 'sam.secret@x.test',
      isAnonymous: true,
      amount: 500,
      currency: 'JMD',
    }));
  });

  /** Every public JSON read that carries pledges or totals. */
  const publicJson = [
    '/api/pledges',
    '/api/pledges?limit=8',
    '/api/pledges?limit=1000',
    '/api/progress',
  ];
  const pages = ['/', '/payment-instructions', '/admin', '/no-such-page'];

  test('1. public pledges and progress carry no email key and no "@" at all', async ({
    app: t,
  }) => {
    for (const path of publicJson) {
      const res = await t.request(path);
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text, path).not.toContain('@');
      expect(text, path).not.toMatch(/"email"/i);
    }
    // The pages embed the same data: the donor's address never appears (the campaign's own
    // contact address legitimately does).
    for (const path of pages) {
      const html = await (await t.request(path)).text();
      expect(html, path).not.toContain('leak@x.test');
      expect(html, path).not.toContain('sam.secret@x.test');
    }
  });

  test('2. an anonymous name appears in no public response and in no page', async ({
    app: t,
    adminClient: { cookie },
  }) => {
    for (const path of [...publicJson, '/api/updates', '/api/admin/check', ...pages]) {
      const text = await (await t.request(path)).text();
      expect(text, path).not.toContain('Secret Sam');
      expect(text, path).not.toContain('Secret');
    }
    const res = await t.request('/api/pledges?limit=8');
    const item = ((await res.json()) as { id: string; name: string }[]).find(
      (p) => p.id === secretId,
    );
    expect(item?.name).toBe('Anonymous');
    // The admin still sees the real name.
    const admin = await (await t.request('/api/pledges', { cookie })).text();
    expect(admin).toContain('Secret Sam');
  });

  test('3. public pledge objects carry exactly the allow-listed keys', async ({ app: t }) => {
    const expected = [...PUBLIC_PLEDGE_KEYS].sort();
    expect(expected).toEqual(
      ['amount', 'containers', 'createdAt', 'currency', 'id', 'isAnonymous', 'name'].sort(),
    );
    const lists: unknown[][] = [];
    for (const path of ['/api/pledges', '/api/pledges?limit=8', '/api/pledges?limit=1000'])
      lists.push((await (await t.request(path)).json()) as unknown[]);
    const html = await (await t.request('/')).text();
    const m = /<script type="application\/json" id="initial-data">(.*?)<\/script>/s.exec(html);
    expect(m).not.toBeNull();
    lists.push((JSON.parse(m![1]!) as { pledges: unknown[] }).pledges);
    for (const list of lists) {
      expect(list.length).toBeGreaterThanOrEqual(2);
      for (const p of list) expect(Object.keys(p as object).sort()).toEqual(expected);
    }
  });

  test('4. the CSV export needs a session, and is a no-store attachment', async ({
    app: t,
    adminClient: { cookie },
  }) => {
    const anon = await t.request('/api/pledges/export');
    expect(anon.status).toBe(401);
    expect(await anon.text()).not.toContain('@');

    const res = await t.request('/api/pledges/export', { cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="pledges.csv"');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const csv = await res.text();
    expect(csv).toContain('leak@x.test');
    expect(csv).toContain('Secret Sam');
  });
});
