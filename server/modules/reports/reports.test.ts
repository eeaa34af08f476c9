import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import type { FulfilmentReport } from '@shared/schemas/report';
import { describe, expect, test } from '../../../tests/support/fixtures';
import { createMember } from '../../../tests/support/team';

/**
 * The fulfilment report against a seeded data set whose answers this file computes on its own:
 * Jamaica is UTC-5 all year (no daylight saving), so its day of a moment is the UTC day of the
 * moment minus five hours. The times are picked across the zone's day and week boundaries.
 */
const NOW = Date.parse('2026-03-20T15:00:00Z'); // 10:00 in Kingston, Friday 20 March
test.override('appOptions', { now: () => new Date(NOW) });

const UNIT = { USD: 11, JMD: 1672 } as const;
type Cur = keyof typeof UNIT;

interface SeedPayment {
  booked: string;
  recorded: string;
  /** Cents of the pledge's currency. */
  credited: number;
  /** What arrived: cents and currency (defaults: the credited cents, the pledge's currency). */
  arrived?: [number, Cur];
  reversed?: boolean;
}
interface SeedPledge {
  key: string;
  at: string;
  currency: Cur;
  amount: number;
  status: 'open' | 'cancelled' | 'lapsed' | 'released';
  payments?: SeedPayment[];
  reminders?: [step: number, sentAt: string][];
}

const SEED: SeedPledge[] = [
  // 23:30 on Sunday 1 March in Kingston, already Monday 2 March in UTC.
  {
    key: 'A',
    at: '2026-03-02T04:30:00Z',
    currency: 'USD',
    amount: 110,
    status: 'open',
    payments: [
      { booked: '2026-03-03', recorded: '2026-03-03T15:00:00Z', credited: 500, reversed: true },
      { booked: '2026-03-05', recorded: '2026-03-05T15:00:00Z', credited: 11_000 },
    ],
  },
  // 00:30 on Monday 2 March in Kingston: part paid after the first reminder.
  {
    key: 'B',
    at: '2026-03-02T05:30:00Z',
    currency: 'JMD',
    amount: 1672,
    status: 'open',
    payments: [{ booked: '2026-03-10', recorded: '2026-03-10T16:00:00Z', credited: 83_600 }],
    reminders: [[1, '2026-03-09T14:00:00Z']],
  },
  { key: 'C', at: '2026-03-09T12:00:00Z', currency: 'USD', amount: 55, status: 'cancelled' },
  { key: 'D', at: '2026-01-10T12:00:00Z', currency: 'USD', amount: 22, status: 'lapsed' },
  // Paid in two halves, each after a reminder.
  {
    key: 'E',
    at: '2026-02-10T12:00:00Z',
    currency: 'USD',
    amount: 11,
    status: 'open',
    payments: [
      { booked: '2026-02-20', recorded: '2026-02-20T15:00:00Z', credited: 550 },
      { booked: '2026-03-04', recorded: '2026-03-04T15:00:00Z', credited: 550 },
    ],
    reminders: [
      [1, '2026-02-17T15:00:00Z'],
      [2, '2026-03-03T15:00:00Z'],
    ],
  },
  // 22:00 on 18 March in Kingston, the 19th in UTC.
  { key: 'F', at: '2026-03-19T03:00:00Z', currency: 'USD', amount: 11, status: 'open' },
  // A J$ pledge paid in US$; the reminder went after the payment was recorded, the same day.
  {
    key: 'G',
    at: '2026-02-15T12:00:00Z',
    currency: 'JMD',
    amount: 3344,
    status: 'open',
    payments: [
      {
        booked: '2026-02-18',
        recorded: '2026-02-18T18:00:00Z',
        credited: 334_400,
        arrived: [2200, 'USD'],
      },
    ],
    reminders: [[1, '2026-02-18T20:00:00Z']],
  },
  { key: 'H', at: '2026-01-20T12:00:00Z', currency: 'USD', amount: 1100, status: 'released' },
  // Sunday 1 February in Kingston.
  { key: 'I', at: '2026-02-01T12:00:00Z', currency: 'USD', amount: 110, status: 'open' },
  {
    key: 'J',
    at: '2026-01-15T12:00:00Z',
    currency: 'USD',
    amount: 33,
    status: 'open',
    payments: [{ booked: '2026-03-01', recorded: '2026-03-01T20:00:00Z', credited: 3300 }],
    reminders: [
      [1, '2026-01-22T15:00:00Z'],
      [2, '2026-02-05T15:00:00Z'],
      [3, '2026-02-26T15:00:00Z'],
    ],
  },
  // Midnight exactly in Kingston on 12 February: 36 days old, unpaid.
  { key: 'K', at: '2026-02-12T05:00:00Z', currency: 'JMD', amount: 16_720, status: 'open' },
];

// ---- The answers, computed here from SEED alone ----
const HOUR = 3600_000;
const jamaicaDay = (iso: string) => new Date(Date.parse(iso) - 5 * HOUR).toISOString().slice(0, 10);
const daysBetween = (a: string, b: string) => (Date.parse(b) - Date.parse(a)) / (24 * HOUR);
const TODAY = jamaicaDay(new Date(NOW).toISOString());
function mondayOf(ymd: string): string {
  const d = new Date(`${ymd}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
}
const counted = SEED.filter((p) => p.status === 'open' || p.status === 'lapsed');
const cents = (p: SeedPledge) => p.amount * 100;
const containers = (p: SeedPledge) => Math.floor(cents(p) / UNIT[p.currency]);
const active = (p: SeedPledge) => (p.payments ?? []).filter((x) => !x.reversed);
const creditedTotal = (p: SeedPledge) => active(p).reduce((s, x) => s + x.credited, 0);
/** Each active payment with the containers it adds (the step in floor(running / unit)). */
const paymentsOf = (p: SeedPledge) => {
  let running = 0;
  return active(p).map((x) => {
    const before = Math.floor(running / UNIT[p.currency]);
    running += x.credited;
    return {
      ...x,
      pledge: p,
      containers: Math.floor(running / UNIT[p.currency]) - before,
      running,
    };
  });
};
const allPayments = counted.flatMap(paymentsOf);
const median = (xs: number[]) => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

describe('the fulfilment report', () => {
  test.beforeAll(async ({ app }) => {
    const db = app.database.db;
    for (const p of SEED) {
      const id = randomUUID();
      Object.assign(p, { id });
      const received = creditedTotal(p);
      await db.execute(sql`
        insert into pledges (id, name, email, amount, currency, containers, is_paid, created_at,
          status, received_minor, amount_received, currency_received, received_containers,
          amount_received_minor, payment_confirmed_at)
        values (${id}, ${`Donor ${p.key}`}, ${`donor-${p.key.toLowerCase()}@report.test`},
          ${p.amount}, ${p.currency}, ${containers(p)}, ${received > 0}, ${p.at}::timestamptz,
          ${p.status}, ${received > 0 ? received : null},
          ${received > 0 ? Math.floor(received / 100) : null},
          ${received > 0 ? p.currency : null},
          ${received > 0 ? Math.floor(received / UNIT[p.currency]) : null},
          ${received > 0 ? received : null},
          ${received > 0 ? p.at : null}::timestamptz)`);
      for (const x of p.payments ?? []) {
        const [arrived, currency] = x.arrived ?? [x.credited, p.currency];
        await db.execute(sql`
          insert into payments (pledge_id, amount_minor, currency, credited_minor, booked_on,
            source, recorded_at, reversed_at)
          values (${id}, ${arrived}, ${currency}, ${x.credited}, ${x.booked}::date, 'record',
            ${x.recorded}::timestamptz, ${x.reversed ? x.recorded : null}::timestamptz)`);
      }
      for (const [step, sentAt] of p.reminders ?? []) {
        await db.execute(sql`
          insert into outbox (pledge_id, kind, step, created_at, next_attempt_at, sent_at)
          values (${id}, 'reminder', ${step}, ${sentAt}::timestamptz, ${sentAt}::timestamptz,
            ${sentAt}::timestamptz)`);
      }
    }
  });

  async function report(request: (p: string) => Promise<Response>): Promise<FulfilmentReport> {
    const res = await request('/api/admin/reports/fulfilment');
    expect(res.status).toBe(200);
    return (await res.json()) as FulfilmentReport;
  }

  test('pledged and received, cumulative by day in Kingston', async ({ adminClient }) => {
    const r = await report(adminClient.request);
    expect(r.today).toBe('2026-03-20');
    expect(r.timeZone).toBe('America/Jamaica');
    const first = counted.map((p) => jamaicaDay(p.at)).sort()[0]!;
    expect(r.daily[0]!.day).toBe(first);
    expect(r.daily.at(-1)!.day).toBe(TODAY);
    expect(r.daily).toHaveLength(daysBetween(first, TODAY) + 1);
    for (const d of r.daily) {
      const upTo = counted.filter((p) => jamaicaDay(p.at) <= d.day);
      const paidBy = allPayments.filter((x) => x.booked <= d.day);
      const sum = <T>(xs: T[], f: (x: T) => number) => xs.reduce((s, x) => s + f(x), 0);
      expect(d, d.day).toEqual({
        day: d.day,
        pledgedContainers: sum(upTo, containers),
        receivedContainers: sum(paidBy, (x) => x.containers),
        pledgedUSD: sum(
          upTo.filter((p) => p.currency === 'USD'),
          cents,
        ),
        receivedUSD: sum(
          paidBy.filter((x) => x.pledge.currency === 'USD'),
          (x) => x.credited,
        ),
        pledgedJMD: sum(
          upTo.filter((p) => p.currency === 'JMD'),
          cents,
        ),
        receivedJMD: sum(
          paidBy.filter((x) => x.pledge.currency === 'JMD'),
          (x) => x.credited,
        ),
      });
    }
    // A's Sunday-night pledge is on 1 March, not on UTC's 2 March.
    expect(r.daily.find((d) => d.day === '2026-03-01')!.pledgedUSD).toBe(
      r.daily.find((d) => d.day === '2026-02-28')!.pledgedUSD + 11_000,
    );
  });

  test('fulfilment rate by the week the pledges were made', async ({ adminClient }) => {
    const r = await report(adminClient.request);
    const weeks = [...new Set(counted.map((p) => mondayOf(jamaicaDay(p.at))))].sort();
    expect(r.weekly.map((w) => w.weekStart)).toEqual(weeks);
    for (const w of r.weekly) {
      const of = counted.filter((p) => mondayOf(jamaicaDay(p.at)) === w.weekStart);
      const cur = (c: Cur) => of.filter((p) => p.currency === c);
      const pledgedC = of.reduce((s, p) => s + containers(p), 0);
      const receivedC = of.reduce((s, p) => s + Math.floor(creditedTotal(p) / UNIT[p.currency]), 0);
      const money = (c: Cur) => [
        cur(c).reduce((s, p) => s + cents(p), 0),
        cur(c).reduce((s, p) => s + creditedTotal(p), 0),
      ];
      const [pUSD, rUSD] = money('USD');
      const [pJMD, rJMD] = money('JMD');
      expect(w, w.weekStart).toEqual({
        weekStart: w.weekStart,
        pledges: of.length,
        pledgedContainers: pledgedC,
        receivedContainers: receivedC,
        rate: pledgedC ? receivedC / pledgedC : null,
        pledgedUSD: pUSD,
        receivedUSD: rUSD,
        rateUSD: pUSD ? rUSD! / pUSD : null,
        pledgedJMD: pJMD,
        receivedJMD: rJMD,
        rateJMD: pJMD ? rJMD! / pJMD : null,
      });
    }
    // A (Sunday night) is in the week of 23 February, B (Monday 00:30) in the week of 2 March.
    expect(r.weekly.find((w) => w.weekStart === '2026-02-23')!.pledgedUSD).toBe(11_000);
    expect(r.weekly.find((w) => w.weekStart === '2026-03-02')!.pledgedJMD).toBe(167_200);
  });

  test('median days from pledge to payment', async ({ adminClient }) => {
    const r = await report(adminClient.request);
    const done = counted
      .map((p) => {
        const last = paymentsOf(p).find((x) => x.running >= cents(p));
        return last ? { p, days: daysBetween(jamaicaDay(p.at), last.booked) } : undefined;
      })
      .filter((x) => x !== undefined);
    const row = (c: 'all' | Cur) => {
      const xs = done.filter((d) => c === 'all' || d.p.currency === c).map((d) => d.days);
      return { currency: c, paidPledges: xs.length, medianDays: median(xs) };
    };
    expect(r.timeToPayment).toEqual([row('all'), row('USD'), row('JMD')]);
    // By hand: A 4 days, E 22, G 3, J 45 (B is part paid).
    expect(r.timeToPayment[0]).toEqual({ currency: 'all', paidPledges: 4, medianDays: 13 });
  });

  test('outstanding money by age, and each bucket filters the pledge table', async ({
    adminClient,
  }) => {
    const r = await report(adminClient.request);
    const bucket = (p: SeedPledge) => {
      const age = daysBetween(jamaicaDay(p.at), TODAY);
      return age <= 7 ? '0-7' : age <= 30 ? '8-30' : age <= 60 ? '31-60' : '61+';
    };
    const owing = counted.filter((p) => cents(p) - creditedTotal(p) > 0);
    for (const a of r.outstandingByAge) {
      const of = owing.filter((p) => bucket(p) === a.bucket);
      const owed = (c: Cur) =>
        of.filter((p) => p.currency === c).reduce((s, p) => s + cents(p) - creditedTotal(p), 0);
      expect(a, a.bucket).toEqual({
        bucket: a.bucket,
        pledges: of.length,
        outstandingUSD: owed('USD'),
        outstandingJMD: owed('JMD'),
        outstandingContainers: of.reduce(
          (s, p) => s + containers(p) - Math.floor(creditedTotal(p) / UNIT[p.currency]),
          0,
        ),
      });
      const res = await adminClient.request(
        `/api/admin/pledges?age=${encodeURIComponent(a.bucket)}&pageSize=200`,
      );
      expect(res.status).toBe(200);
      const page = (await res.json()) as { items: { name: string }[]; total: number };
      expect(page.items.map((i) => i.name).sort(), a.bucket).toEqual(
        of.map((p) => `Donor ${p.key}`).sort(),
      );
      expect(page.total).toBe(of.length);
    }
    expect(r.outstandingByAge.map((a) => a.pledges)).toEqual([1, 1, 2, 1]);
    // The age filter keeps the other filters working.
    const both = await adminClient.request('/api/admin/pledges?age=31-60&search=Donor%20K');
    expect(((await both.json()) as { total: number }).total).toBe(1);
    const bad = await adminClient.request('/api/admin/pledges?age=90');
    expect(bad.status).toBe(400);
  });

  test('payments by the last reminder before them', async ({ adminClient }) => {
    const r = await report(adminClient.request);
    const lastReminder = (x: (typeof allPayments)[number]) =>
      Math.max(
        0,
        ...(x.pledge.reminders ?? [])
          .filter(([, at]) => at <= x.recorded && jamaicaDay(at) <= x.booked)
          .map(([step]) => step),
      );
    expect(r.paymentsByReminder.map((p) => p.reminder)).toEqual([0, 1, 2, 3]);
    for (const row of r.paymentsByReminder) {
      const of = allPayments.filter((x) => lastReminder(x) === row.reminder);
      const money = (c: Cur) =>
        of.filter((x) => x.pledge.currency === c).reduce((s, x) => s + x.credited, 0);
      expect(row).toEqual({
        reminder: row.reminder,
        payments: of.length,
        receivedUSD: money('USD'),
        receivedJMD: money('JMD'),
        receivedContainers: of.reduce((s, x) => s + x.containers, 0),
      });
    }
    expect(r.paymentsByReminder.map((p) => p.payments)).toEqual([2, 2, 1, 1]);
  });

  test('each table downloads as CSV', async ({ adminClient }) => {
    const r = await report(adminClient.request);
    const csv = async (table: string) => {
      const res = await adminClient.request(`/api/admin/reports/fulfilment.csv?table=${table}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition')).toBe(
        `attachment; filename="fulfilment-${table}-2026-03-20.csv"`,
      );
      return parse(await res.text(), { bom: true, columns: true }) as Record<string, string>[];
    };
    const daily = await csv('daily');
    expect(daily).toHaveLength(r.daily.length);
    expect(daily.at(-1)).toEqual({
      day: '2026-03-20',
      pledgedContainers: String(r.daily.at(-1)!.pledgedContainers),
      receivedContainers: String(r.daily.at(-1)!.receivedContainers),
      pledgedUSD: (r.daily.at(-1)!.pledgedUSD / 100).toFixed(2),
      receivedUSD: (r.daily.at(-1)!.receivedUSD / 100).toFixed(2),
      pledgedJMD: (r.daily.at(-1)!.pledgedJMD / 100).toFixed(2),
      receivedJMD: (r.daily.at(-1)!.receivedJMD / 100).toFixed(2),
    });
    const weekly = await csv('weekly');
    expect(weekly.map((w) => w.weekStart)).toEqual(r.weekly.map((w) => w.weekStart));
    expect(weekly[0]!.ratePercent).toBe((r.weekly[0]!.rate! * 100).toFixed(1));
    expect(await csv('time-to-payment')).toEqual([
      { currency: 'all', paidPledges: '4', medianDays: '13' },
      { currency: 'USD', paidPledges: '3', medianDays: '22' },
      { currency: 'JMD', paidPledges: '1', medianDays: '3' },
    ]);
    const ages = await csv('outstanding');
    expect(ages.map((a) => a.age)).toEqual(['0–7 days', '8–30 days', '31–60 days', 'Over 60 days']);
    expect(ages[3]).toEqual({
      age: 'Over 60 days',
      pledges: '1',
      outstandingUSD: '22.00',
      outstandingJMD: '0.00',
      outstandingContainers: '200',
    });
    const reminders = await csv('reminders');
    expect(reminders.map((x) => x.lastReminder)).toEqual([
      'No reminder',
      '1st reminder',
      '2nd reminder',
      '3rd reminder',
    ]);
    // No cell starts with a character a spreadsheet would run as a formula.
    for (const row of [...daily, ...weekly, ...ages, ...reminders]) {
      for (const v of Object.values(row)) expect(v).not.toMatch(/^[=+\-@]/);
    }
    const unknown = await adminClient.request('/api/admin/reports/fulfilment.csv?table=donors');
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { message: string }).message).toMatch(/table must be one of/);
  });

  test('viewers and treasurers may read it; editors may not', async ({ app }) => {
    for (const [role, status] of [
      ['viewer', 200],
      ['treasurer', 200],
      ['editor', 403],
    ] as const) {
      const member = await createMember(app, role);
      const cookie = await member.login();
      for (const path of [
        '/api/admin/reports/fulfilment',
        '/api/admin/reports/fulfilment.csv?table=daily',
      ]) {
        const res = await app.request(path, { cookie });
        expect(res.status, `${role} ${path}`).toBe(status);
      }
    }
    expect((await app.request('/api/admin/reports/fulfilment')).status).toBe(401);
  });

  // Last: it changes the data. The rollups follow every write; a payment must show at once.
  test('a payment recorded now shows in the next report', async ({ adminClient, confirm }) => {
    const before = await report(adminClient.request);
    const f = SEED.find((p) => p.key === 'F') as SeedPledge & { id: string };
    expect((await confirm(f.id)).status).toBe(200);
    const after = await report(adminClient.request);
    expect(after.outstandingByAge[0]).toEqual({
      bucket: '0-7',
      pledges: 0,
      outstandingUSD: 0,
      outstandingJMD: 0,
      outstandingContainers: 0,
    });
    expect(after.paymentsByReminder[0]!.payments).toBe(before.paymentsByReminder[0]!.payments + 1);
    expect(after.daily.at(-1)!.receivedUSD).toBe(before.daily.at(-1)!.receivedUSD + 1100);
    // F was pledged on the 18th and paid today, the 20th.
    expect(after.timeToPayment[0]!.paidPledges).toBe(5);
  });
});
