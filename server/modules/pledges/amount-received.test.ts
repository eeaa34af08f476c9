import { containersFor } from '@shared/containers';
import type { AdminPledge, PledgeStats } from '@shared/schemas/pledge';
import { convertAmount, outstandingBalance, paymentState, paymentSummary } from '@shared/received';
import { type TestApp } from '../../../tests/support/test-app';
import { describe, expect, test } from '../../../tests/support/fixtures';
import { pledgeStats, readPledgeTotals } from './repo';

describe('received money (pure)', () => {
  test('converts at the containers’ rate, J$152 = US$1, rounding what was received down', () => {
    expect(convertAmount(100, 'USD', 'JMD')).toBe(15_200);
    expect(convertAmount(15_200, 'JMD', 'USD')).toBe(100);
    expect(convertAmount(15_199, 'JMD', 'USD')).toBe(99);
    expect(convertAmount(7, 'USD', 'USD')).toBe(7);
  });

  test('tells pending, part paid and paid apart, with the balance still owed', () => {
    const p = { amount: 100, currency: 'USD' as const, isPaid: false };
    expect(paymentState(p)).toBe('pending');
    expect(outstandingBalance(p)).toBe(100);
    const part = { ...p, isPaid: true, amountReceived: 95, currencyReceived: 'USD' as const };
    expect(paymentState(part)).toBe('part-paid');
    expect(outstandingBalance(part)).toBe(5);
    const over = { ...part, amountReceived: 120 };
    expect(paymentState(over)).toBe('over-paid');
    expect(outstandingBalance(over)).toBe(0);
    expect(paymentSummary(over)).toMatchObject({ overpaidMinor: 2000, outstandingMinor: 0 });
    // Cents count: US$99.99 of US$100 is part paid, with one cent to go.
    const cents = { ...part, amountReceived: null, receivedMinor: 9999 };
    expect(paymentSummary(cents)).toMatchObject({ state: 'part-paid', outstandingMinor: 1 });
    expect(paymentState({ ...cents, receivedMinor: 10_000 })).toBe('paid');
  });
});

describe('confirming with the amount received', () => {
  let t: TestApp;
  let cookie: string;
  test.beforeAll(async ({ app, adminClient }) => {
    t = app;
    cookie = adminClient.cookie;
  });

  async function pledge(amount: number, currency: 'USD' | 'JMD' = 'USD') {
    const res = await t.request('/api/pledges', {
      method: 'POST',
      json: { name: 'Ann Brown', email: `ann${amount}@donors.test`, amount, currency },
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: string }).id;
  }
  const confirm = (id: string, body?: unknown) =>
    t.request(`/api/pledges/${id}/confirm`, {
      method: 'PUT',
      cookie,
      ...(body === undefined ? {} : { json: body }),
    });
  const progress = async () =>
    (await (await t.request('/api/progress')).json()) as {
      currentAmount: number;
      confirmedAmount: number;
    };
  const stats = async () =>
    ((await (await t.request('/api/admin/pledges', { cookie })).json()) as { stats: PledgeStats })
      .stats;

  test('keeps the spec’s empty confirm: the pledged amount arrived', async () => {
    const before = await progress();
    const a = await pledge(110);
    const b = await pledge(220);
    const resA = await confirm(a, {});
    expect(resA.status).toBe(200);
    expect(await resA.json()).toMatchObject({
      isPaid: true,
      amountReceived: 110,
      currencyReceived: 'USD',
      outstandingAmount: 0,
      paymentState: 'paid',
    });
    // No body at all, as some clients send it.
    const resB = await confirm(b);
    expect(resB.status).toBe(200);
    expect(((await resB.json()) as AdminPledge).amountReceived).toBe(220);
    const after = await progress();
    expect(after.confirmedAmount - before.confirmedAmount).toBe(
      containersFor(110, 'USD') + containersFor(220, 'USD'),
    );
  });

  test('records a part payment: "part-paid" with the balance, and totals of what arrived', async () => {
    const before = { progress: await progress(), stats: await stats() };
    const id = await pledge(100);
    const res = await confirm(id, { amountReceived: 80 });
    expect(res.status).toBe(200);
    const body = (await res.json()) as AdminPledge;
    expect(body).toMatchObject({
      isPaid: true,
      amount: 100,
      amountReceived: 80,
      currencyReceived: 'USD',
      outstandingAmount: 20,
      paymentState: 'part-paid',
    });
    const after = { progress: await progress(), stats: await stats() };
    // currentAmount keeps counting the pledge; confirmedAmount counts what arrived.
    expect(after.progress.currentAmount - before.progress.currentAmount).toBe(
      containersFor(100, 'USD'),
    );
    expect(after.progress.confirmedAmount - before.progress.confirmedAmount).toBe(
      containersFor(80, 'USD'),
    );
    expect(after.stats.receivedUSD - before.stats.receivedUSD).toBe(80);
    expect(after.stats.totalUSD - before.stats.totalUSD).toBe(100);

    // A second confirm changes nothing (the first amount stays).
    const again = await confirm(id, { amountReceived: 100 });
    expect(((await again.json()) as AdminPledge).amountReceived).toBe(80);

    // The second instalment is recorded by an edit; then it is paid in full.
    const edit = await t.request(`/api/pledges/${id}`, {
      method: 'PATCH',
      cookie,
      json: { updates: { amountReceived: 100 } },
    });
    expect(edit.status).toBe(200);
    expect(await edit.json()).toMatchObject({ paymentState: 'paid', outstandingAmount: 0 });
    expect((await stats()).receivedUSD - before.stats.receivedUSD).toBe(100);
  });

  test('takes money received in the other currency at the containers’ rate', async () => {
    const id = await pledge(100);
    const res = await confirm(id, { currencyReceived: 'JMD', amountReceived: 15_000 });
    expect(await res.json()).toMatchObject({
      amountReceived: 15_000,
      currencyReceived: 'JMD',
      // J$15,000 = US$98.68 (cents rounded down): US$1.32 to go.
      outstandingAmount: 1.32,
      outstandingMinor: 132,
      paymentState: 'part-paid',
    });
    // A currency alone: the pledged amount in that currency.
    const id2 = await pledge(10);
    expect(await (await confirm(id2, { currencyReceived: 'JMD' })).json()).toMatchObject({
      amountReceived: 1520,
      paymentState: 'paid',
    });
  });

  test('refuses a bad amount received with a clear 400, and changes nothing', async () => {
    const id = await pledge(50);
    for (const amountReceived of [0, -5, 1.5, 'ten', 1e15]) {
      const res = await confirm(id, { amountReceived });
      expect(res.status, String(amountReceived)).toBe(400);
      expect(((await res.json()) as { message: string }).message).toMatch(/Amount received/);
    }
    const bad = await confirm(id, { currencyReceived: 'EUR' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toBe('Currency must be USD or JMD');
    const pending = await t.request(`/api/pledges/${id}`, {
      method: 'PATCH',
      cookie,
      json: { updates: { amountReceived: 10 } },
    });
    expect(pending.status).toBe(400);
    expect(((await pending.json()) as { message: string }).message).toBe(
      'Confirm the payment before recording the amount received.',
    );
    const list = (await (await t.request('/api/pledges', { cookie })).json()) as AdminPledge[];
    expect(list.find((p) => p.id === id)).toMatchObject({ isPaid: false, amountReceived: null });
  });

  test('keeps the totals row equal to a scan of the table after deletes and edits', async () => {
    const id = await pledge(300);
    await confirm(id, { amountReceived: 250 });
    await t.request(`/api/pledges/${id}`, {
      method: 'PATCH',
      cookie,
      json: { updates: { amount: 400 } },
    });
    const gone = await pledge(1000, 'JMD');
    await confirm(gone, { amountReceived: 999 });
    expect((await t.request(`/api/pledges/${gone}`, { method: 'DELETE', cookie })).status).toBe(
      200,
    );
    const totals = await readPledgeTotals(t.database.db);
    const scan = await pledgeStats(t.database.db);
    expect({ usd: totals.receivedUsd, jmd: totals.receivedJmd }).toEqual({
      usd: scan.receivedUSD,
      jmd: scan.receivedJMD,
    });
    expect(await stats()).toMatchObject({
      receivedUSD: scan.receivedUSD,
      receivedJMD: scan.receivedJMD,
    });
  });
});
