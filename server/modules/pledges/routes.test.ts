import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containersFor } from '../../../shared/containers';
import { PUBLIC_PLEDGE_KEYS, type AdminPledge } from '../../../shared/schemas/pledge';
import { startTestApp, type TestApp } from '../../../tests/helpers/test-app';
import { CSV_COLUMNS } from './csv';
import { insertPledges } from './repo';

type PledgeBody = {
  name?: unknown;
  email?: unknown;
  amount?: unknown;
  currency?: unknown;
  isAnonymous?: unknown;
  [key: string]: unknown;
};

const MISSING_ID = '00000000-0000-4000-8000-000000000000';

async function pledge(t: TestApp, body: PledgeBody = {}) {
  const res = await t.request('/api/pledges', {
    method: 'POST',
    json: { name: 'Ann Brown', email: 'ann@donors.test', amount: 100, currency: 'USD', ...body },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { id: string; name: string; isPaid: boolean } & Record<
    string,
    unknown
  >;
}

async function adminList(t: TestApp, cookie: string): Promise<AdminPledge[]> {
  const res = await t.request('/api/pledges', { cookie });
  expect(res.status).toBe(200);
  return res.json();
}

const progress = async (t: TestApp) =>
  (await (await t.request('/api/progress')).json()) as {
    currentAmount: number;
    confirmedAmount: number;
    pledgeCount: number;
  };

describe('POST /api/pledges', () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await startTestApp();
    cookie = await t.login();
  });
  afterAll(() => t.close());

  it('stores a pledge and answers 201 with its public view', async () => {
    const res = await t.request('/api/pledges', {
      method: 'POST',
      json: {
        name: 'Ann Brown',
        email: 'ann@donors.test',
        amount: 250,
        currency: 'JMD',
        isAnonymous: false,
      },
    });
    expect(res.status).toBe(201);
    const body = await res.json();
    // reference (issue 11) and statusUrl (issue 12): only the donor who pledged sees them.
    expect(Object.keys(body).sort()).toEqual(
      [...PUBLIC_PLEDGE_KEYS, 'isPaid', 'reference', 'statusUrl'].sort(),
    );
    expect(body).toMatchObject({
      name: 'Ann Brown',
      amount: 250,
      currency: 'JMD',
      containers: containersFor(250, 'JMD'),
      isAnonymous: false,
      isPaid: false,
    });
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(body.createdAt)).toBeGreaterThan(Date.now() - 60_000);

    const stored = (await adminList(t, cookie)).find((p) => p.id === body.id)!;
    expect(stored).toMatchObject({
      email: 'ann@donors.test',
      isPaid: false,
      paymentConfirmedAt: null,
    });
  });

  it('defaults currency to USD and isAnonymous to false', async () => {
    const res = await t.request('/api/pledges', {
      method: 'POST',
      json: { name: 'Bo', email: 'bo@donors.test', amount: 11 },
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({
      currency: 'USD',
      isAnonymous: false,
      containers: 100,
    });
  });

  it('answers an anonymous pledge with "Anonymous", never the real name', async () => {
    const body = await pledge(t, { name: 'Secret Donor', isAnonymous: true });
    expect(body.name).toBe('Anonymous');
    expect(JSON.stringify(body)).not.toContain('Secret Donor');
  });

  it('drops unknown fields: a client cannot set id, isPaid, paymentConfirmedAt, createdAt or containers', async () => {
    const forged = {
      id: MISSING_ID,
      isPaid: true,
      paymentConfirmedAt: '2020-01-01T00:00:00.000Z',
      createdAt: '2000-01-01T00:00:00.000Z',
      containers: 999_999,
      is_paid: true,
      __proto__x: 1,
    };
    const body = await pledge(t, { amount: 110, ...forged });
    expect(body.id).not.toBe(MISSING_ID);
    expect(body.isPaid).toBe(false);
    expect(body.containers).toBe(1000);
    expect(body.createdAt).not.toBe(forged.createdAt);
    const stored = (await adminList(t, cookie)).find((p) => p.id === body.id)!;
    expect(stored.isPaid).toBe(false);
    expect(stored.paymentConfirmedAt).toBeNull();
    expect(stored.containers).toBe(1000);
    expect(Object.keys(stored)).not.toContain('is_paid');
  });

  it('trims the name and e-mail', async () => {
    const body = await pledge(t, { name: '  Cy  ', email: ' cy@donors.test ' });
    const stored = (await adminList(t, cookie)).find((p) => p.id === body.id)!;
    expect(stored).toMatchObject({ name: 'Cy', email: 'cy@donors.test' });
  });

  const invalid: [string, PledgeBody, string, string][] = [
    ['a missing name', { name: undefined }, 'name', 'Name is required'],
    ['an empty name', { name: '' }, 'name', 'Name is required'],
    ['a blank name', { name: ' \u200b\u00a0 ' }, 'name', 'Name is required'],
    ['a numeric name', { name: 42 }, 'name', 'Name is required'],
    [
      'a name with a NUL byte',
      { name: 'Ann\u0000' + 'x' },
      'name',
      'Only letters, numbers and punctuation are allowed',
    ],
    [
      'a name over 200 characters',
      { name: 'n'.repeat(201) },
      'name',
      'Name must be 200 characters or less',
    ],
    ['a missing e-mail', { email: undefined }, 'email', 'Valid email is required'],
    ['an invalid e-mail', { email: 'not-an-email' }, 'email', 'Valid email is required'],
    ['an e-mail without a domain', { email: 'a@b' }, 'email', 'Valid email is required'],
    [
      'an e-mail with a NUL byte',
      { email: 'a\u0000b@donors.test' },
      'email',
      'Valid email is required',
    ],
    ['an e-mail as an array', { email: ['a@donors.test'] }, 'email', 'Valid email is required'],
    ['a missing amount', { amount: undefined }, 'amount', 'Pledge amount must be at least $1'],
    ['amount 0', { amount: 0 }, 'amount', 'Pledge amount must be at least $1'],
    ['a negative amount', { amount: -5 }, 'amount', 'Pledge amount must be at least $1'],
    ['an amount as a string', { amount: '100' }, 'amount', 'Pledge amount must be at least $1'],
    ['an amount of null', { amount: null }, 'amount', 'Pledge amount must be at least $1'],
    ['a fractional amount', { amount: 10.5 }, 'amount', 'Pledge amount must be a whole number'],
    [
      'an amount past 1,000,000,000',
      { amount: 1_000_000_001 },
      'amount',
      'Pledge amount must be at most 1,000,000,000',
    ],
    [
      'an amount past the integer range',
      { amount: 2 ** 31 },
      'amount',
      'Pledge amount must be at most 1,000,000,000',
    ],
    [
      'an amount of 1e308',
      { amount: 1e308 },
      'amount',
      'Pledge amount must be at most 1,000,000,000',
    ],
    ['an unknown currency', { currency: 'EUR' }, 'currency', 'Currency must be USD or JMD'],
    ['a lower-case currency', { currency: 'usd' }, 'currency', 'Currency must be USD or JMD'],
    [
      'isAnonymous as a string',
      { isAnonymous: 'yes' },
      'isAnonymous',
      'isAnonymous must be true or false',
    ],
  ];

  it.each(invalid)(
    'refuses %s with 400 and the exact message',
    async (_what, patch, field, message) => {
      const before = await progress(t);
      const res = await t.request('/api/pledges', {
        method: 'POST',
        json: { name: 'Ann', email: 'ann@donors.test', amount: 100, currency: 'USD', ...patch },
      });
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.message).toBe(message);
      expect(body.errors[field]).toBe(message);
      expect((await progress(t)).pledgeCount).toBe(before.pledgeCount);
    },
  );

  it('gives the first problem as message and every field in errors', async () => {
    const res = await t.request('/api/pledges', {
      method: 'POST',
      json: { name: '', email: 'x', amount: 0 },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      message: 'Name is required',
      errors: {
        name: 'Name is required',
        email: 'Valid email is required',
        amount: 'Pledge amount must be at least $1',
      },
    });
  });

  it.each([
    ['no body', undefined],
    ['null', null],
    ['an array', [{ name: 'Ann' }]],
    ['a string', 'Ann'],
  ])('refuses %s with 400', async (_what, json) => {
    const res = await t.request('/api/pledges', {
      method: 'POST',
      ...(json === undefined ? {} : { json }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: 'The request body must be a JSON object.' });
  });

  it('accepts the limits: amount 1 and 1,000,000,000', async () => {
    expect((await pledge(t, { amount: 1 })).containers).toBe(9);
    expect((await pledge(t, { amount: 1_000_000_000, currency: 'JMD' })).containers).toBe(
      containersFor(1_000_000_000, 'JMD'),
    );
    // US$1,000,000,000 is 9,090,909,090 containers: past a 32-bit integer, in the row and the sums.
    const before = await progress(t);
    const big = await pledge(t, { amount: 1_000_000_000, currency: 'USD' });
    expect(big.containers).toBe(9_090_909_090);
    expect((await progress(t)).currentAmount).toBe(before.currentAmount + 9_090_909_090);
    const stored = (await adminList(t, cookie)).find((p) => p.id === big.id)!;
    expect(stored.containers).toBe(9_090_909_090);
  });

  it('answers a filled honeypot like a success but stores nothing', async () => {
    const before = await progress(t);
    const res = await t.request('/api/pledges', {
      method: 'POST',
      json: { name: 'Bot', email: 'bot@donors.test', amount: 100, website: 'http://spam.test' },
    });
    expect(res.status).toBe(201);
    const after = await progress(t);
    expect(after.pledgeCount).toBe(before.pledgeCount);
    expect(after.currentAmount).toBe(before.currentAmount);
    expect((await adminList(t, cookie)).some((p) => p.name === 'Bot')).toBe(false);
  });
});

describe('GET /api/pledges', () => {
  let t: TestApp;
  let cookie: string;
  const SECRET = 'Zelda Secretname';
  beforeAll(async () => {
    t = await startTestApp();
    cookie = await t.login();
    await pledge(t, { name: 'First Public', email: 'first@donors.test' });
    await pledge(t, { name: SECRET, email: 'zelda@donors.test', isAnonymous: true });
    for (let i = 0; i < 10; i++) {
      await pledge(t, { name: `Donor ${i}`, email: `donor${i}@donors.test`, amount: 10 + i });
    }
    await pledge(t, { name: 'Last Public', email: 'LAST@Example.org', currency: 'JMD' });
  });
  afterAll(() => t.close());

  /** Every public way to read pledges: the snapshot path, the SQL path and the home page HTML. */
  const publicReads = [
    '/api/pledges',
    '/api/pledges?limit=8',
    '/api/pledges?limit=50',
    '/api/pledges?limit=1000',
  ];

  it.each(publicReads)('%s shows no e-mail and no anonymous donor name', async (url) => {
    const res = await t.request(url);
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

  it('keeps e-mails and anonymous names out of the home page HTML too (for admins as well)', async () => {
    for (const path of ['/', '/admin', '/payment-instructions', '/no-such-page']) {
      for (const session of [undefined, cookie]) {
        // The HTML is cached per snapshot: an admin's page must not differ in what it reveals.
        const html = await (await t.request(path, { cookie: session })).text();
        expect(html).toContain('initial-data');
        expect(html).not.toContain('donors.test');
        expect(html).not.toContain('Secretname');
      }
    }
  });

  it('lists every pledge newest first', async () => {
    const list = (await (await t.request('/api/pledges')).json()) as {
      name: string;
      createdAt: string;
    }[];
    expect(list).toHaveLength(13);
    expect(list[0]!.name).toBe('Last Public');
    expect(list[list.length - 1]!.name).toBe('First Public');
    const times = list.map((p) => Date.parse(p.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('gives the N newest with ?limit=N, identical from memory and from SQL', async () => {
    const eight = (await (await t.request('/api/pledges?limit=8')).json()) as { id: string }[];
    const all = (await (await t.request('/api/pledges?limit=1000')).json()) as { id: string }[];
    expect(eight).toHaveLength(8);
    expect(eight).toEqual(all.slice(0, 8));
    const fromDb = (await (await t.request('/api/pledges?limit=51')).json()) as { id: string }[];
    expect(fromDb).toEqual(all.slice(0, 13));
  });

  it.each(['0', '-1', '1001', 'abc', '2.5', '1e400'])(
    'refuses ?limit=%s with 400',
    async (limit) => {
      const res = await t.request(`/api/pledges?limit=${limit}`);
      expect(res.status).toBe(400);
      expect((await res.json()).message).toBe('limit must be a whole number from 1 to 1000');
    },
  );

  it('shows an admin everything: e-mail, payment state and the real name', async () => {
    const list = await adminList(t, cookie);
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
      ].sort(),
    );
    const res = await t.request('/api/pledges?limit=2', { cookie });
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual(list.slice(0, 2));
  });
});

describe('PUT /api/pledges/:id/confirm', () => {
  let t: TestApp;
  let cookie: string;
  let clock = Date.parse('2025-06-01T10:00:00.000Z');
  beforeAll(async () => {
    t = await startTestApp({ now: () => new Date(clock) });
    cookie = await t.login();
  });
  afterAll(() => t.close());

  const confirm = (id: string, c = cookie) =>
    t.request(`/api/pledges/${id}/confirm`, { method: 'PUT', json: {}, cookie: c });

  it('marks a pledge paid and sets paymentConfirmedAt once; a second confirm keeps the timestamp', async () => {
    const { id } = await pledge(t, { amount: 110 });
    const before = await progress(t);

    const first = await confirm(id);
    expect(first.status).toBe(200);
    const body = await first.json();
    expect(body).toMatchObject({
      id,
      isPaid: true,
      paymentConfirmedAt: '2025-06-01T10:00:00.000Z',
    });

    clock += 3600_000;
    const second = await confirm(id);
    expect(second.status).toBe(200);
    expect((await second.json()).paymentConfirmedAt).toBe('2025-06-01T10:00:00.000Z');
    const stored = (await adminList(t, cookie)).find((p) => p.id === id)!;
    expect(stored).toMatchObject({ isPaid: true, paymentConfirmedAt: '2025-06-01T10:00:00.000Z' });

    // Pledged containers count pending and paid alike; the paid subtotal moves.
    const after = await progress(t);
    expect(after.currentAmount).toBe(before.currentAmount);
    expect(after.confirmedAmount).toBe(before.confirmedAmount + 1000);
  });

  it('keeps the first timestamp when 20 confirms race', async () => {
    const { id } = await pledge(t);
    const results = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        clock += i;
        return (await confirm(id)).json();
      }),
    );
    const stamps = new Set(results.map((r) => r.paymentConfirmedAt));
    expect(stamps.size).toBe(1);
  });

  it('accepts a PUT without a body', async () => {
    const { id } = await pledge(t);
    const res = await t.request(`/api/pledges/${id}/confirm`, { method: 'PUT', cookie });
    expect(res.status).toBe(200);
    expect((await res.json()).isPaid).toBe(true);
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    const unknown = await confirm(MISSING_ID);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ message: 'Pledge not found' });
    for (const bad of ['123', 'not-a-uuid', "1' or '1'='1", '%00', 'x'.repeat(150)]) {
      const res = await confirm(encodeURIComponent(bad));
      expect(res.status, bad).toBe(400);
      expect((await res.json()).message).toBe('Invalid pledge id');
    }
  });
});

describe('PATCH and DELETE /api/pledges/:id', () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await startTestApp();
    cookie = await t.login();
  });
  afterAll(() => t.close());

  const patch = (id: string, body: unknown) =>
    t.request(`/api/pledges/${id}`, { method: 'PATCH', json: body, cookie });

  it('edits name, e-mail and amount, recomputing containers and the total', async () => {
    const { id } = await pledge(t, { amount: 110 });
    const before = await progress(t);
    const res = await patch(id, {
      updates: { name: 'Ann B. Brown', email: 'ann.b@donors.test', amount: 220 },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      id,
      name: 'Ann B. Brown',
      email: 'ann.b@donors.test',
      amount: 220,
      containers: 2000,
    });
    expect((await progress(t)).currentAmount).toBe(before.currentAmount + 1000);
  });

  it('edits one field alone and keeps the others', async () => {
    const { id } = await pledge(t, { name: 'Solo', email: 'solo@donors.test', amount: 50 });
    const res = await patch(id, { updates: { name: 'Solo Two' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      name: 'Solo Two',
      email: 'solo@donors.test',
      amount: 50,
    });
  });

  it('ignores fields an admin cannot edit (currency, isPaid, createdAt, id)', async () => {
    const { id, createdAt } = await pledge(t, { amount: 100, currency: 'USD' });
    const res = await patch(id, {
      updates: {
        amount: 101,
        currency: 'JMD',
        isPaid: true,
        createdAt: '2000-01-01T00:00:00Z',
        id: MISSING_ID,
      },
      isPaid: true,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      id,
      amount: 101,
      currency: 'USD',
      isPaid: false,
      createdAt,
    });
  });

  it('answers "No changes detected..." when nothing changes', async () => {
    const { id } = await pledge(t, { name: 'Same', email: 'same@donors.test', amount: 10 });
    for (const updates of [
      {},
      { name: 'Same', email: 'same@donors.test', amount: 10 },
      { isPaid: true },
    ]) {
      const res = await patch(id, { updates });
      expect(res.status).toBe(400);
      expect((await res.json()).message).toBe(
        'No changes detected. Please modify at least one field.',
      );
    }
  });

  it.each([
    [{ updates: { amount: 0 } }, 'Please enter a valid amount (minimum $1)'],
    [{ updates: { amount: 2.5 } }, 'Please enter a valid amount (minimum $1)'],
    [{ updates: { amount: '5' } }, 'Please enter a valid amount (minimum $1)'],
    [{ updates: { amount: 1e12 } }, 'Pledge amount must be at most 1,000,000,000'],
    [{ updates: { name: '' } }, 'Name is required'],
    [{ updates: { email: 'nope' } }, 'Valid email is required'],
    [{ updates: 'name=x' }, 'updates must be an object'],
    [{ name: 'Flat' }, 'updates must be an object'],
  ])('refuses %j with 400', async (body, message) => {
    const { id } = await pledge(t);
    const res = await patch(id, body);
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe(message);
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    const unknown = await patch(MISSING_ID, { updates: { name: 'X' } });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).message).toBe('Pledge not found');
    expect((await patch('nope', { updates: { name: 'X' } })).status).toBe(400);
  });

  it('deletes a pledge: the total drops, a second delete is 404', async () => {
    const { id } = await pledge(t, { amount: 1672, currency: 'JMD' });
    const before = await progress(t);
    const res = await t.request(`/api/pledges/${id}`, { method: 'DELETE', cookie });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, id });
    const after = await progress(t);
    expect(after.currentAmount).toBe(before.currentAmount - 100);
    expect(after.pledgeCount).toBe(before.pledgeCount - 1);
    expect((await adminList(t, cookie)).some((p) => p.id === id)).toBe(false);

    const again = await t.request(`/api/pledges/${id}`, { method: 'DELETE', cookie });
    expect(again.status).toBe(404);
    expect((await t.request('/api/pledges/123', { method: 'DELETE', cookie })).status).toBe(400);
  });
});

describe('GET /api/pledges/export', () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await startTestApp();
    cookie = await t.login();
  });
  afterAll(() => t.close());

  const exportCsv = async () => {
    const res = await t.request('/api/pledges/export', { cookie });
    expect(res.status).toBe(200);
    return { res, text: await res.text() };
  };
  const rows = (text: string) =>
    parse(text, { columns: true, skip_empty_lines: true }) as Record<string, string>[];

  it('sends a UTF-8 CSV attachment named pledges.csv, never cached', async () => {
    const { res, text } = await exportCsv();
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="pledges.csv"');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(text.split(/\r?\n/)[0]).toBe(CSV_COLUMNS.join(','));
    expect(CSV_COLUMNS).toEqual([
      'id',
      'name',
      'email',
      'amount',
      'currency',
      'containers',
      'anonymous',
      'status',
      'paymentConfirmedAt',
      'createdAt',
      'reference',
    ]);
  });

  it('holds every pledge with the right cells, and parses back', async () => {
    const paid = await pledge(t, {
      name: 'Zoë "Z" Müller, Jr.',
      email: 'zoe@donors.test',
      amount: 110,
    });
    await t.request(`/api/pledges/${paid.id}/confirm`, { method: 'PUT', json: {}, cookie });
    const anon = await pledge(t, {
      name: 'Hidden Name',
      email: 'h@donors.test',
      amount: 1672,
      currency: 'JMD',
      isAnonymous: true,
    });

    const { text } = await exportCsv();
    const list = rows(text);
    const z = list.find((r) => r.id === paid.id)!;
    expect(z).toMatchObject({
      name: 'Zoë "Z" Müller, Jr.',
      email: 'zoe@donors.test',
      amount: '110',
      currency: 'USD',
      containers: '1000',
      anonymous: 'no',
      status: 'Paid',
    });
    expect(new Date(z.paymentConfirmedAt!).toISOString()).toBe(z.paymentConfirmedAt);
    const h = list.find((r) => r.id === anon.id)!;
    // The admin's export holds the real name of an anonymous donor.
    expect(h).toMatchObject({
      name: 'Hidden Name',
      anonymous: 'yes',
      status: 'Pending',
      paymentConfirmedAt: '',
      containers: '100',
    });
    expect(list[0]!.id).toBe(anon.id);
  });

  it('prefixes cells that a spreadsheet would run as a formula with an apostrophe', async () => {
    const viaApi = ['=HYPERLINK("http://evil.test","x")', '+1 876 555 0100', '-2+3', '@SUM(A1:A9)'];
    const ids = new Map<string, string>();
    for (const name of viaApi)
      ids.set((await pledge(t, { name, email: 'f@donors.test' })).id, name);
    // Tab and carriage-return prefixes cannot come through the API (names are trimmed and
    // single-line), but rows written by other tools can hold them.
    const direct = await insertPledges(t.database.db, [
      { name: '\t=1+1', email: '\r=2+2@donors.test', amount: 1, currency: 'USD', containers: 9 },
      { name: '\r@cmd', email: '-x@donors.test', amount: 1, currency: 'USD', containers: 9 },
    ]);
    ids.set(direct[0]!.id, '\t=1+1');
    ids.set(direct[1]!.id, '\r@cmd');
    const emailPlus = await pledge(t, { name: 'Plain', email: '+plus@donors.test' });

    const list = rows((await exportCsv()).text);
    for (const [id, name] of ids) {
      expect(list.find((r) => r.id === id)!.name).toBe(`'${name}`);
    }
    expect(list.find((r) => r.id === direct[0]!.id)!.email).toBe("'\r=2+2@donors.test");
    expect(list.find((r) => r.id === direct[1]!.id)!.email).toBe("'-x@donors.test");
    expect(list.find((r) => r.id === emailPlus.id)!.email).toBe("'+plus@donors.test");
    expect(list.find((r) => r.id === emailPlus.id)!.name).toBe('Plain');
  });

  it('streams exports larger than one page (keyset paging), each pledge once, newest first', async () => {
    const values = Array.from({ length: 2500 }, (_, i) => ({
      name: `Bulk ${i}`,
      email: `bulk${i}@donors.test`,
      amount: 1 + (i % 50),
      currency: 'USD' as const,
      containers: containersFor(1 + (i % 50), 'USD'),
    }));
    await insertPledges(t.database.db, values);
    const list = rows((await exportCsv()).text);
    const bulk = list.filter((r) => r.name!.startsWith('Bulk '));
    expect(bulk).toHaveLength(2500);
    expect(new Set(list.map((r) => r.id)).size).toBe(list.length);
    // Rows of one INSERT can share a created_at (PGlite's clock ticks per millisecond): the
    // export still orders by (createdAt, id) and its keyset paging neither skips nor repeats.
    const times = list.map((r) => Date.parse(r.createdAt!));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });
});

describe('GET /api/admin/pledges (dashboard table)', () => {
  let t: TestApp;
  let cookie: string;
  const q = async (query: string) => {
    const res = await t.request(`/api/admin/pledges${query}`, { cookie });
    expect(res.status, await res.clone().text()).toBe(200);
    return res.json() as Promise<{
      items: AdminPledge[];
      total: number;
      page: number;
      pageSize: number;
      stats: Record<string, number>;
    }>;
  };
  beforeAll(async () => {
    t = await startTestApp();
    cookie = await t.login();
    await pledge(t, { name: 'Alice Smith', email: 'alice@donors.test', amount: 300 });
    await pledge(t, { name: 'Bob Jones', email: 'bob@sample.net', amount: 100, currency: 'JMD' });
    const carol = await pledge(t, {
      name: 'Carol 100%_off',
      email: 'carol@donors.test',
      amount: 200,
    });
    await pledge(t, { name: 'Dan', email: 'DAN@DONORS.TEST', amount: 5000, currency: 'JMD' });
    await t.request(`/api/pledges/${carol.id}/confirm`, { method: 'PUT', json: {}, cookie });
  });
  afterAll(() => t.close());

  it('defaults to date descending with stats per currency', async () => {
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

  it('searches name or e-mail, case-insensitively, with % and _ taken literally', async () => {
    expect((await q('?search=ALICE')).items.map((p) => p.name)).toEqual(['Alice Smith']);
    expect((await q('?search=sample.net')).items.map((p) => p.name)).toEqual(['Bob Jones']);
    expect((await q('?search=donors.test')).total).toBe(3);
    expect((await q('?search=%25')).items.map((p) => p.name)).toEqual(['Carol 100%_off']);
    expect((await q('?search=_')).items.map((p) => p.name)).toEqual(['Carol 100%_off']);
    expect((await q('?search=nobody')).items).toEqual([]);
  });

  it('filters by status and sorts by amount', async () => {
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

  it('pages', async () => {
    const p2 = await q('?pageSize=3&page=2');
    expect(p2).toMatchObject({ total: 4, page: 2, pageSize: 3 });
    expect(p2.items.map((p) => p.name)).toEqual(['Alice Smith']);
    expect((await q('?pageSize=3&page=9')).items).toEqual([]);
  });

  it.each(['?status=bogus', '?sort=email', '?order=up', '?page=0', '?pageSize=201', '?page=abc'])(
    'refuses %s with 400',
    async (query) => {
      const res = await t.request(`/api/admin/pledges${query}`, { cookie });
      expect(res.status).toBe(400);
      expect(typeof (await res.json()).message).toBe('string');
    },
  );
});

describe('200 concurrent pledges', () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_PLEDGES_PER_MINUTE: '0' } });
    cookie = await t.login();
  });
  afterAll(() => t.close());

  it('stores every one with the exact total', async () => {
    const bodies = Array.from({ length: 200 }, (_, i) => ({
      name: `Racer ${i}`,
      email: `racer${i % 150}@donors.test`,
      amount: 1 + ((i * 37) % 997),
      currency: i % 3 === 0 ? ('JMD' as const) : ('USD' as const),
      isAnonymous: i % 5 === 0,
    }));
    const responses = await Promise.all(
      bodies.map((json) => t.request('/api/pledges', { method: 'POST', json })),
    );
    expect(responses.map((r) => r.status)).toEqual(bodies.map(() => 201));
    const created = await Promise.all(responses.map((r) => r.json()));
    expect(new Set(created.map((c) => c.id)).size).toBe(200);

    const expected = bodies.reduce((sum, b) => sum + containersFor(b.amount, b.currency), 0);
    const p = await progress(t);
    expect(p.currentAmount).toBe(expected);
    expect(p.pledgeCount).toBe(200);
    expect((p as unknown as { donorCount: number }).donorCount).toBe(150);

    const stored = await adminList(t, cookie);
    expect(stored).toHaveLength(200);
    expect(stored.reduce((sum, s) => sum + s.containers, 0)).toBe(expected);
    for (const b of bodies) {
      const s = stored.find((x) => x.name === b.name)!;
      expect(s).toMatchObject({ amount: b.amount, currency: b.currency, email: b.email });
    }
    // The in-memory recent list holds the 50 newest of the database, newest first. Pledges
    // written in one batch can share a timestamp, so among equal times the order is free.
    const recent = (await (await t.request('/api/pledges?limit=50')).json()) as {
      id: string;
      createdAt: string;
    }[];
    expect(recent).toHaveLength(50);
    const times = recent.map((r) => Date.parse(r.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const inRecent = new Set(recent.map((r) => r.id));
    const oldestShown = Math.min(...times);
    for (const s of stored) {
      if (inRecent.has(s.id)) continue;
      expect(Date.parse(s.createdAt)).toBeLessThanOrEqual(oldestShown);
    }
  });
});

describe('pledge rate limit', () => {
  it('answers 429 with Retry-After past RATE_LIMIT_PLEDGES_PER_MINUTE', async () => {
    const t = await startTestApp({ env: { RATE_LIMIT_PLEDGES_PER_MINUTE: '3' } });
    try {
      for (let i = 0; i < 3; i++) await pledge(t);
      const res = await t.request('/api/pledges', {
        method: 'POST',
        json: { name: 'Four', email: 'four@donors.test', amount: 5 },
      });
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await res.json()).message).toMatch(/Too many requests/);
      expect((await progress(t)).pledgeCount).toBe(3);
      // Reads are not limited.
      expect((await t.request('/api/pledges')).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});
