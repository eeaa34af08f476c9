import { containersFor } from '@shared/containers';
import { PUBLIC_PLEDGE_KEYS } from '@shared/schemas/pledge';
import { adminPledges, MISSING_ID, progress } from '../../../tests/support/api';
import { describe, expect, test } from '../../../tests/support/fixtures';

type PledgeBody = {
  name?: unknown;
  email?: unknown;
  amount?: unknown;
  currency?: unknown;
  isAnonymous?: unknown;
  [key: string]: unknown;
};

describe('POST /api/pledges', () => {
  test('stores a pledge and answers 201 with its public view', async ({ app, adminClient }) => {
    const res = await app.request('/api/pledges', {
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
    // reference and statusUrl (records 012 and 014): only the donor who pledged sees them.
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

    const stored = (await adminPledges(app, adminClient.cookie)).find((p) => p.id === body.id)!;
    expect(stored).toMatchObject({
      email: 'ann@donors.test',
      isPaid: false,
      paymentConfirmedAt: null,
    });
  });

  test('defaults currency to USD and isAnonymous to false', async ({ app }) => {
    const res = await app.request('/api/pledges', {
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

  test('answers an anonymous pledge with "Anonymous", never the real name', async ({ pledge }) => {
    const body = await pledge({ name: 'Secret Donor', isAnonymous: true });
    expect(body.name).toBe('Anonymous');
    expect(JSON.stringify(body)).not.toContain('Secret Donor');
  });

  test('drops unknown fields: a client cannot set id, isPaid, paymentConfirmedAt, createdAt or containers', async ({
    app,
    adminClient,
    pledge,
  }) => {
    const forged = {
      id: MISSING_ID,
      isPaid: true,
      paymentConfirmedAt: '2020-01-01T00:00:00.000Z',
      createdAt: '2000-01-01T00:00:00.000Z',
      containers: 999_999,
      is_paid: true,
      __proto__x: 1,
    };
    const body = await pledge({ amount: 110, ...forged });
    expect(body.id).not.toBe(MISSING_ID);
    expect(body.isPaid).toBe(false);
    expect(body.containers).toBe(1000);
    expect(body.createdAt).not.toBe(forged.createdAt);
    const stored = (await adminPledges(app, adminClient.cookie)).find((p) => p.id === body.id)!;
    expect(stored.isPaid).toBe(false);
    expect(stored.paymentConfirmedAt).toBeNull();
    expect(stored.containers).toBe(1000);
    expect(Object.keys(stored)).not.toContain('is_paid');
  });

  test('trims the name and e-mail', async ({ app, adminClient, pledge }) => {
    const body = await pledge({ name: '  Cy  ', email: ' cy@donors.test ' });
    const stored = (await adminPledges(app, adminClient.cookie)).find((p) => p.id === body.id)!;
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

  test.for(invalid)(
    'refuses %s with 400 and the exact message',
    async ([_what, patch, field, message], { app }) => {
      const before = await progress(app);
      const res = await app.request('/api/pledges', {
        method: 'POST',
        json: { name: 'Ann', email: 'ann@donors.test', amount: 100, currency: 'USD', ...patch },
      });
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.message).toBe(message);
      expect(body.errors[field]).toBe(message);
      expect((await progress(app)).pledgeCount).toBe(before.pledgeCount);
    },
  );

  test('gives the first problem as message and every field in errors', async ({ app }) => {
    const res = await app.request('/api/pledges', {
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

  test.for([
    ['no body', undefined],
    ['null', null],
    ['an array', [{ name: 'Ann' }]],
    ['a string', 'Ann'],
  ])('refuses %s with 400', async ([_what, json], { app }) => {
    const res = await app.request('/api/pledges', {
      method: 'POST',
      ...(json === undefined ? {} : { json }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: 'The request body must be a JSON object.' });
  });

  test('accepts the limits: amount 1 and 1,000,000,000', async ({ app, adminClient, pledge }) => {
    expect((await pledge({ amount: 1 })).containers).toBe(9);
    expect((await pledge({ amount: 1_000_000_000, currency: 'JMD' })).containers).toBe(
      containersFor(1_000_000_000, 'JMD'),
    );
    // US$1,000,000,000 is 9,090,909,090 containers: past a 32-bit integer, in the row and the sums.
    const before = await progress(app);
    const big = await pledge({ amount: 1_000_000_000, currency: 'USD' });
    expect(big.containers).toBe(9_090_909_090);
    expect((await progress(app)).currentAmount).toBe(before.currentAmount + 9_090_909_090);
    const stored = (await adminPledges(app, adminClient.cookie)).find((p) => p.id === big.id)!;
    expect(stored.containers).toBe(9_090_909_090);
  });

  test('answers a filled honeypot like a success but stores nothing', async ({
    app,
    adminClient,
  }) => {
    const before = await progress(app);
    const res = await app.request('/api/pledges', {
      method: 'POST',
      json: { name: 'Bot', email: 'bot@donors.test', amount: 100, website: 'http://spam.test' },
    });
    expect(res.status).toBe(201);
    const after = await progress(app);
    expect(after.pledgeCount).toBe(before.pledgeCount);
    expect(after.currentAmount).toBe(before.currentAmount);
    expect((await adminPledges(app, adminClient.cookie)).some((p) => p.name === 'Bot')).toBe(false);
  });
});
