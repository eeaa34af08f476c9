import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { AdminPledge } from '@shared/schemas/pledge';
import type { Progress } from '@shared/schemas/progress';
import { startTestApp, testDbKind, type TestApp } from '../../../tests/support/test-app';
import { describe, expect, test } from '../../../tests/support/fixtures';
import { statementLines } from '../../db/schema';
import { recordPayment, reversePaymentsOfLines } from './service';

/**
 * The one "record a payment" use case (./service.ts) behind every path: the confirm call, "Record
 * payment" (the confirm call's body, PATCH amountReceived) and the bank-statement batch.
 */
test.override('appOptions', { env: { RATE_LIMIT_PLEDGES_PER_MINUTE: '0' } });

type Row = Record<string, unknown>;
async function rows(t: TestApp, q: ReturnType<typeof sql>): Promise<Row[]> {
  return ((await t.database.db.execute(q)) as unknown as { rows: Row[] }).rows;
}
const receiptsOf = async (t: TestApp, pledgeId: string) =>
  (
    await rows(
      t,
      sql`select id from outbox where pledge_id = ${pledgeId} and kind = 'receipt' order by created_at`,
    )
  ).length;
const paymentsOf = (t: TestApp, pledgeId: string) =>
  rows(
    t,
    sql`select amount_minor::float8 as "amountMinor", currency, credited_minor::float8 as "creditedMinor",
      booked_on::text as "bookedOn", source, statement_line_id as "statementLineId",
      reversed_at as "reversedAt"
      from payments where pledge_id = ${pledgeId} order by recorded_at, id`,
  );

/** Open statement lines, as an import stores them (the parsing is tested in statements/). */
async function statementLinesFor(
  t: TestApp,
  lines: { amountCents: number; currency: 'USD' | 'JMD'; bookedOn?: string }[],
): Promise<string[]> {
  const inserted = await t.database.db
    .insert(statementLines)
    .values(
      lines.map((l, i) => ({
        fingerprint: randomUUID(),
        bookedOn: l.bookedOn ?? '2026-11-20',
        amountCents: l.amountCents,
        currency: l.currency,
        description: `TRANSFER ${i}`,
        payer: 'A DONOR',
      })),
    )
    .returning({ id: statementLines.id });
  return inserted.map((r) => r.id);
}

describe('recording a payment', () => {
  test('queues a receipt and writes a payment row for every path', async ({
    app,
    adminClient,
    pledge,
  }) => {
    const confirmCall = await pledge({ amount: 50 });
    const dialog = await pledge({ amount: 80 });
    const instalment = await pledge({ amount: 100 });
    const batch = await pledge({ amount: 75, currency: 'JMD' });
    const put = (id: string, json?: unknown) =>
      adminClient.request(`/api/pledges/${id}/confirm`, {
        method: 'PUT',
        ...(json === undefined ? {} : { json }),
      });

    // 1. The spec's confirm call, no body: the pledged amount arrived.
    expect((await put(confirmCall.id)).status).toBe(200);
    // 2. "Record payment" on a pending pledge: the confirm call with what arrived.
    const rec = await put(dialog.id, { amountReceived: 60 });
    expect(await rec.json()).toMatchObject({ paymentState: 'part-paid', outstandingAmount: 20 });
    // 3. "Record payment" on a part-paid pledge: PATCH with the new total (a later instalment).
    await put(instalment.id, { amountReceived: 40 });
    const patch = await adminClient.request(`/api/pledges/${instalment.id}`, {
      method: 'PATCH',
      json: { updates: { amountReceived: 100 } },
    });
    expect(patch.status).toBe(200);
    expect(await patch.json()).toMatchObject({ paymentState: 'paid', amountReceived: 100 });
    // 4. The bank-statement batch, with cents: J$12.34 is kept to the cent.
    const [lineId] = await statementLinesFor(app, [
      { amountCents: 1234, currency: 'JMD', bookedOn: '2026-11-02' },
    ]);
    const res = await adminClient.request('/api/admin/statements/confirm', {
      method: 'POST',
      json: { lines: [{ lineId, pledgeId: batch.id }] },
    });
    expect(await res.json()).toMatchObject({ confirmed: 1, skipped: 0 });

    expect(await receiptsOf(app, confirmCall.id)).toBe(1);
    expect(await receiptsOf(app, dialog.id)).toBe(1);
    expect(await receiptsOf(app, instalment.id)).toBe(2);
    expect(await receiptsOf(app, batch.id)).toBe(1);

    expect(await paymentsOf(app, confirmCall.id)).toMatchObject([
      { amountMinor: 5000, currency: 'USD', creditedMinor: 5000, source: 'confirm' },
    ]);
    expect(await paymentsOf(app, instalment.id)).toMatchObject([
      { amountMinor: 4000, source: 'record' },
      { amountMinor: 6000, source: 'record' },
    ]);
    // "Date received" of a statement payment is the bank's booking date.
    expect(await paymentsOf(app, batch.id)).toMatchObject([
      { amountMinor: 1234, currency: 'JMD', bookedOn: '2026-11-02', statementLineId: lineId },
    ]);
    const all = (await (await adminClient.request('/api/pledges')).json()) as AdminPledge[];
    expect(all.find((p) => p.id === batch.id)).toMatchObject({
      amountReceived: 12.34,
      amountReceivedMinor: 1234,
      currencyReceived: 'JMD',
      paymentState: 'part-paid',
      outstandingAmount: 62.66,
      outstandingMinor: 6266,
    });

    // A repeated confirm records nothing and sends nothing.
    expect((await put(confirmCall.id)).status).toBe(200);
    expect(await receiptsOf(app, confirmCall.id)).toBe(1);
    expect(await paymentsOf(app, confirmCall.id)).toHaveLength(1);
  });

  test('Record payment keeps cents (amountReceivedMinor), and a lower total is a correction', async ({
    app,
    adminClient,
    pledge,
  }) => {
    const p = await pledge({ amount: 20, currency: 'JMD' });
    const first = await adminClient.request(`/api/pledges/${p.id}/confirm`, {
      method: 'PUT',
      json: { amountReceivedMinor: 1234, currencyReceived: 'JMD' },
    });
    expect(await first.json()).toMatchObject({
      amountReceived: 12.34,
      amountReceivedMinor: 1234,
      paymentState: 'part-paid',
      outstandingMinor: 766,
    });
    // The dialog sends the new total: J$15.00 is J$2.66 more (a second payment, a second receipt).
    const more = await adminClient.request(`/api/pledges/${p.id}`, {
      method: 'PATCH',
      json: { updates: { amountReceivedMinor: 1500 } },
    });
    expect(await more.json()).toMatchObject({ amountReceivedMinor: 1500, outstandingMinor: 500 });
    expect(await paymentsOf(app, p.id)).toMatchObject([
      { amountMinor: 1234, reversedAt: null },
      { amountMinor: 266, reversedAt: null },
    ]);
    expect(await receiptsOf(app, p.id)).toBe(2);
    // Less than before: a correction; the payments are replaced by one of the new total, and no
    // receipt goes out for money that did not arrive.
    const less = await adminClient.request(`/api/pledges/${p.id}`, {
      method: 'PATCH',
      json: { updates: { amountReceivedMinor: 1000 } },
    });
    expect(await less.json()).toMatchObject({ amountReceivedMinor: 1000, outstandingMinor: 1000 });
    const after = await paymentsOf(app, p.id);
    expect(after.filter((x) => x.reversedAt === null)).toMatchObject([{ amountMinor: 1000 }]);
    expect(await receiptsOf(app, p.id)).toBe(2);
  });

  test('over paid is shown, and never cancels another donor’s debt on the home', async ({
    app,
    adminClient,
    pledge,
  }) => {
    const before = (await (await app.request('/api/progress')).json()) as Progress;
    const over = await pledge({ amount: 50 });
    const owing = await pledge({ amount: 50 });
    const res = await adminClient.request(`/api/pledges/${over.id}/confirm`, {
      method: 'PUT',
      json: { amountReceived: 150 },
    });
    expect(await res.json()).toMatchObject({
      paymentState: 'over-paid',
      outstandingAmount: 0,
      overpaidMinor: 10_000,
    });
    const after = (await (await app.request('/api/progress')).json()) as Progress;
    // US$50 is 454 containers; the overpayment buys 1,363, and the other donor still owes 454.
    expect(after.confirmedAmount - before.confirmedAmount).toBe(1363);
    expect(after.outstandingAmount! - before.outstandingAmount!).toBe(454);
    expect(owing.containers).toBe(454);
  });

  test('un-confirm reverses the payments; undoing statement lines takes their money off', async ({
    app,
    adminClient,
    pledge,
  }) => {
    const p = await pledge({ amount: 100 });
    const [a, b] = await statementLinesFor(app, [
      { amountCents: 3000, currency: 'USD' },
      { amountCents: 2000, currency: 'USD' },
    ]);
    await adminClient.request('/api/admin/statements/confirm', {
      method: 'POST',
      json: { lines: [a, b].map((lineId) => ({ lineId, pledgeId: p.id })) },
    });
    const pledgeNow = async () =>
      ((await (await adminClient.request('/api/pledges')).json()) as AdminPledge[]).find(
        (x) => x.id === p.id,
      )!;
    expect(await pledgeNow()).toMatchObject({ amountReceived: 50, paymentState: 'part-paid' });

    await app.database.db.transaction((tx) =>
      reversePaymentsOfLines(tx, [b!], { actor: { clientIp: null }, now: app.config.now() }),
    );
    expect(await pledgeNow()).toMatchObject({ amountReceived: 30, outstandingAmount: 70 });
    await app.database.db.transaction((tx) =>
      reversePaymentsOfLines(tx, [a!], { actor: { clientIp: null }, now: app.config.now() }),
    );
    expect(await pledgeNow()).toMatchObject({ isPaid: false, paymentState: 'pending' });
    expect((await paymentsOf(app, p.id)).every((x) => x.reversedAt !== null)).toBe(true);
    const audit = await rows(
      app,
      sql`select action from audit_log where pledge_id = ${p.id} and action = 'payment.reverse'`,
    );
    expect(audit).toHaveLength(2);

    // The totals triggers followed every step (compared with a scan of the table).
    const [scan] = await rows(
      app,
      sql`select (select outstanding_containers from pledge_totals)::float8 as kept,
        coalesce(sum(case when is_paid then greatest(0, containers - coalesce(received_containers, containers))
          else containers end), 0)::float8 as scanned from pledges`,
    );
    expect(scan!.kept).toBe(scan!.scanned);
  });

  test('20 parallel statement lines for ONE pending pledge add all 20 amounts', async ({
    app,
    adminClient,
    pledge,
  }) => {
    // On PostgreSQL the transactions really run side by side: four app instances over one
    // database (each serialises its own writes), and the service called in 20 transactions.
    const extra =
      testDbKind() === 'postgres'
        ? await Promise.all(
            [1, 2, 3].map(() =>
              startTestApp({
                database: app.database,
                env: { RATE_LIMIT_PLEDGES_PER_MINUTE: '0' },
              }),
            ),
          )
        : [];
    try {
      const instances = [app, ...extra];
      const p = await pledge({ amount: 1000 });
      const amounts = Array.from({ length: 20 }, (_, i) => 1000 + i * 101); // cents
      const lineIds = await statementLinesFor(
        app,
        amounts.map((amountCents) => ({ amountCents, currency: 'USD' })),
      );
      const answers = await Promise.all(
        lineIds.map((lineId, i) =>
          instances[i % instances.length]!.request('/api/admin/statements/confirm', {
            method: 'POST',
            cookie: adminClient.cookie,
            json: { lines: [{ lineId, pledgeId: p.id }] },
          }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
      const total = amounts.reduce((s, a) => s + a, 0);
      const [stored] = await rows(
        app,
        sql`select received_minor::float8 as r, amount_received_minor::float8 as a,
          (select count(*)::int from payments where pledge_id = ${p.id}) as n,
          (select count(*)::int from outbox where pledge_id = ${p.id} and kind = 'receipt') as receipts
          from pledges where id = ${p.id}`,
      );
      expect(stored).toEqual({ r: total, a: total, n: 20, receipts: 20 });

      // The use case itself, 20 transactions at once (a pool of 10 on PostgreSQL).
      const q = await pledge({ amount: 500, currency: 'JMD' });
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          app.database.db.transaction((tx) =>
            recordPayment(tx, {
              pledgeId: q.id,
              amountMinor: 1000 + i,
              currency: 'JMD',
              source: 'record',
              actor: { clientIp: null },
              now: app.config.now(),
            }),
          ),
        ),
      );
      const [q2] = await rows(
        app,
        sql`select received_minor::float8 as r from pledges where id = ${q.id}`,
      );
      expect(q2!.r).toBe(20 * 1000 + 190);

      // Batches of two lines for the same two pledges, in opposite orders, all at once: no
      // deadlock (every pledge of a batch is locked first, in id order), every amount added.
      const [a, b] = [await pledge({ amount: 500 }), await pledge({ amount: 500 })];
      const pairs = await Promise.all(
        Array.from({ length: 12 }, () =>
          statementLinesFor(app, [
            { amountCents: 100, currency: 'USD' },
            { amountCents: 100, currency: 'USD' },
          ]),
        ),
      );
      const batches = await Promise.all(
        pairs.map(([l1, l2], i) =>
          instances[i % instances.length]!.request('/api/admin/statements/confirm', {
            method: 'POST',
            cookie: adminClient.cookie,
            json: {
              lines:
                i % 2 === 0
                  ? [
                      { lineId: l1, pledgeId: a.id },
                      { lineId: l2, pledgeId: b.id },
                    ]
                  : [
                      { lineId: l1, pledgeId: b.id },
                      { lineId: l2, pledgeId: a.id },
                    ],
            },
          }),
        ),
      );
      expect(batches.map((r) => r.status)).toEqual(Array(12).fill(200));
      const both = await rows(
        app,
        sql`select received_minor::float8 as r from pledges where id in (${a.id}, ${b.id})`,
      );
      expect(both).toEqual([{ r: 1200 }, { r: 1200 }]);
    } finally {
      await Promise.all(extra.map((e) => e.close()));
    }
  }, 60_000);
});
