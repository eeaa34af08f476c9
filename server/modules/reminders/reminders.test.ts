import { sql } from 'drizzle-orm';
import { afterAll } from 'vitest';
import { describe, expect, test } from '../../../tests/support/fixtures';
import { startTestSmtp } from '../../../tests/support/smtp';
import type { TestApp } from '../../../tests/support/test-app';

/**
 * The reminder schedule (docs/decisions/019-reminders-and-lapse.md), driven by moving
 * the app's clock and calling the scheduler's runOnce: never a sleep. E-mails over real SMTP.
 */
const DAY = 24 * 3600_000;

// The SMTP server first: its address is one of the file's app options. The app's clock is moved
// by the tests.
const smtp = await startTestSmtp();
afterAll(() => smtp.close());
let clock = Date.now();
test.override('appOptions', {
  env: {
    ...smtp.env,
    PUBLIC_URL: 'https://relief.example.org',
    MAIL_POLL_MS: '50',
    MAIL_PER_CLIENT_PER_DAY: '0',
  },
  now: () => new Date(clock),
});

describe('reminders for unpaid pledges', () => {
  let t: TestApp;
  test.beforeAll(async ({ app }) => {
    t = app;
  });

  /** As the admin: a fresh session at the moved clock (a session expires by the app's clock). */
  async function admin(path: string, init: RequestInit & { json?: unknown } = {}) {
    return t.request(path, { ...init, cookie: await t.login() });
  }

  let seq = 0;
  /** A pledge made now (real time; the clock is set back to it), with its status token. */
  async function pledge(body: Record<string, unknown> = {}) {
    seq += 1;
    clock = Date.now();
    const res = await t.request('/api/pledges', {
      method: 'POST',
      json: { name: `Rita ${seq}`, email: `rita${seq}@donors.test`, amount: 110, ...body },
    });
    expect(res.status).toBe(201);
    const p = (await res.json()) as { id: string; statusUrl: string; reference: string };
    return { ...p, at: Date.now(), token: new URL(p.statusUrl, 'http://x').searchParams.get('t')! };
  }

  async function runAt(at: number) {
    clock = at;
    return t.app.reminders.runOnce(new Date(at));
  }

  async function reminders(pledgeId: string) {
    const res = (await t.database.db.execute(
      sql`select step from outbox where pledge_id = ${pledgeId} and kind = 'reminder' order by created_at`,
    )) as unknown as { rows: { step: number }[] };
    return res.rows.map((r) => Number(r.step));
  }

  async function progress() {
    return (await (await t.request('/api/progress')).json()) as {
      currentAmount: number;
      pledgeCount: number;
    };
  }

  test('fires at each step and not before, then lapses; release takes it out of the totals', async () => {
    const p = await pledge({ amount: 220 });
    await runAt(p.at + 7 * DAY - 60_000);
    expect(await reminders(p.id)).toEqual([]);
    await runAt(p.at + 7 * DAY + 60_000);
    expect(await reminders(p.id)).toEqual([1]);
    await runAt(p.at + 21 * DAY - 60_000);
    expect(await reminders(p.id)).toEqual([1]);
    await runAt(p.at + 21 * DAY + 60_000);
    expect(await reminders(p.id)).toEqual([1, 2]);
    await runAt(p.at + 42 * DAY + 60_000);
    expect(await reminders(p.id)).toEqual([1, 2, 3]);
    // No fourth reminder; not lapsed before day 60.
    const counted = await progress();
    await runAt(p.at + 59 * DAY);
    expect(await reminders(p.id)).toEqual([1, 2, 3]);
    const status = async () =>
      (
        (await (await t.request(`/api/pledges/${p.id}/status?t=${p.token}`)).json()) as {
          pledgeStatus: string;
        }
      ).pledgeStatus;
    expect(await status()).toBe('open');
    await runAt(p.at + 60 * DAY + 60_000);
    expect(await status()).toBe('lapsed');
    // Lapsed keeps counting: the public total never drops by itself.
    expect(await progress()).toMatchObject({
      currentAmount: counted.currentAmount,
      pledgeCount: counted.pledgeCount,
    });
    // The admin sees how much is lapsed, and releases it (one action, audited).
    const settings = (await (await admin('/api/admin/reminders')).json()) as {
      lapsed: { count: number; usd: number; containers: number };
    };
    expect(settings.lapsed.count).toBeGreaterThanOrEqual(1);
    expect(settings.lapsed.usd).toBeGreaterThanOrEqual(220);
    const lapsedContainers = settings.lapsed.containers;
    const released = await admin('/api/admin/pledges/lapsed/release', { method: 'POST' });
    expect(released.status).toBe(200);
    const n = ((await released.json()) as { released: number }).released;
    expect(n).toBe(settings.lapsed.count);
    expect(await progress()).toMatchObject({
      currentAmount: counted.currentAmount - lapsedContainers,
      pledgeCount: counted.pledgeCount - n,
    });
    const audit = (await t.database.db.execute(
      sql`select count(*)::int as n from audit_log where action = 'pledges.release_lapsed'`,
    )) as unknown as { rows: { n: number }[] };
    expect(Number(audit.rows[0]!.n)).toBe(1);
  });

  test('names the balance and the reference of a part-paid pledge; stops once paid', async () => {
    const p = await pledge({ amount: 200, email: 'part@donors.test' });
    const paid = await admin(`/api/pledges/${p.id}/confirm`, {
      method: 'PUT',
      json: { amountReceived: 50 },
    });
    expect(paid.status).toBe(200);
    await runAt(p.at + 7 * DAY + 60_000);
    expect(await reminders(p.id)).toEqual([1]);
    // The worker delivers it (real time, real SMTP), after the part payment's receipt.
    const isReminder = (m: (typeof smtp.received)[number]) =>
      Boolean(m.subject?.includes('reminder') && m.text?.includes(p.reference));
    for (let n = smtp.received.length + 1; !smtp.received.some(isReminder); n++)
      await smtp.waitFor(n);
    const mail = smtp.received.find(isReminder);
    expect(mail, 'the reminder to part@donors.test').toBeDefined();
    expect(mail!.subject).toContain('US$150 still to send');
    expect(mail!.text).toContain('Still to pay: US$150');
    expect(mail!.text).toContain(`Payment reference: ${p.reference}`);
    expect(mail!.text).toContain('USD WIRE TRANSFER');
    expect(mail!.text).not.toContain('JMD LOCAL BANK TRANSFER');
    expect(mail!.text).toContain(`https://relief.example.org${p.statusUrl}#cant-complete`);
    expect(mail!.html).toContain('I can’t complete this pledge');

    // Paid in full: no further reminder.
    const rest = await admin(`/api/pledges/${p.id}`, {
      method: 'PATCH',
      json: { updates: { amountReceived: 200, currencyReceived: 'USD' } },
    });
    expect(rest.status).toBe(200);
    await runAt(p.at + 30 * DAY);
    expect(await reminders(p.id)).toEqual([1]);
  });

  test('"I\'ve sent the transfer" pushes the next reminder back 10 days', async () => {
    const p = await pledge();
    clock = p.at + 5 * DAY;
    const sent = await t.request(`/api/pledges/${p.id}/sent`, {
      method: 'POST',
      json: { t: p.token },
    });
    expect(sent.status).toBe(200);
    await runAt(p.at + 7 * DAY + 60_000);
    await runAt(p.at + 14 * DAY);
    expect(await reminders(p.id)).toEqual([]);
    await runAt(p.at + 15 * DAY + 60_000);
    expect(await reminders(p.id)).toEqual([1]);
  });

  test('stops on a per-pledge pause, on the campaign-wide pause and on cancel; all audited', async () => {
    const paused = await pledge();
    const cancelled = await pledge();
    const campaignWide = await pledge();
    const put = (path: string, paused: boolean) => admin(path, { method: 'PUT', json: { paused } });
    expect((await put(`/api/admin/pledges/${paused.id}/reminders`, true)).status).toBe(200);
    expect(
      (
        await t.request(`/api/pledges/${cancelled.id}/cancel`, {
          method: 'POST',
          json: { t: cancelled.token },
        })
      ).status,
    ).toBe(200);
    expect((await put('/api/admin/reminders', true)).status).toBe(200);
    const r = await runAt(campaignWide.at + 8 * DAY);
    expect(r.skipped).toBe('paused');
    expect(await reminders(campaignWide.id)).toEqual([]);
    expect((await put('/api/admin/reminders', false)).status).toBe(200);
    await runAt(campaignWide.at + 8 * DAY);
    expect(await reminders(campaignWide.id)).toEqual([1]);
    expect(await reminders(paused.id)).toEqual([]);
    expect(await reminders(cancelled.id)).toEqual([]);

    // The admin's view of the paused pledge: nothing sent, nothing due; resumed, it is due again.
    const view = async () =>
      (await (await admin(`/api/admin/pledges/${paused.id}/reminders`)).json()) as {
        sent: unknown[];
        nextDueAt: string | null;
        pausedAt: string | null;
      };
    expect(await view()).toMatchObject({ sent: [], nextDueAt: null });
    expect((await put(`/api/admin/pledges/${paused.id}/reminders`, false)).status).toBe(200);
    // Due 7 days after the pledge was made (its created_at, a moment before `at`).
    const due = Date.parse((await view()).nextDueAt!);
    expect(due).toBeLessThanOrEqual(paused.at + 7 * DAY);
    expect(due).toBeGreaterThan(paused.at + 7 * DAY - 10_000);
    await runAt(paused.at + 8 * DAY);
    expect(await reminders(paused.id)).toEqual([1]);
    expect((await view()).sent).toHaveLength(1);

    const audit = (await t.database.db.execute(
      sql`select action, target_type from audit_log where action in ('reminders.pause', 'reminders.resume') order by at`,
    )) as unknown as { rows: { action: string; target_type: string }[] };
    expect(audit.rows).toEqual([
      { action: 'reminders.pause', target_type: 'pledge' },
      { action: 'reminders.pause', target_type: 'campaign' },
      { action: 'reminders.resume', target_type: 'campaign' },
      { action: 'reminders.resume', target_type: 'pledge' },
    ]);
  });

  test('after 30 days of downtime sends one reminder per pledge per run, in bounded batches', async () => {
    const made: Awaited<ReturnType<typeof pledge>>[] = [];
    for (let i = 0; i < 5; i++) made.push(await pledge());
    const at = made[4]!.at + 30 * DAY;
    const max = t.config.campaign.reminders.maxPerRun;
    t.config.campaign.reminders.maxPerRun = 3;
    try {
      const first = await runAt(at);
      expect(first.sent).toBeLessThanOrEqual(3);
      for (let i = 0; i < 4; i++) await runAt(at + i * 60_000);
    } finally {
      t.config.campaign.reminders.maxPerRun = max;
    }
    // Each pledge: one reminder, the latest step due (day 21), not a burst of steps 1 and 2.
    for (const p of made) expect(await reminders(p.id)).toEqual([2]);
  });

  test('holds the per-recipient cap (MAIL_PER_ADDRESS_PER_DAY, 3 a day)', async () => {
    const email = 'capped@donors.test';
    const made: Awaited<ReturnType<typeof pledge>>[] = [];
    for (let i = 0; i < 4; i++) made.push(await pledge({ email }));
    const at = made[3]!.at + 7 * DAY + 60_000;
    const r = await runAt(at);
    expect(r.capped).toBeGreaterThanOrEqual(1);
    const sentNow = async () =>
      (await Promise.all(made.map((p) => reminders(p.id)))).filter((s) => s.length > 0).length;
    expect(await sentNow()).toBe(3);
    await runAt(at + 3600_000);
    expect(await sentNow()).toBe(3);
    await runAt(at + DAY + 60_000);
    expect(await sentNow()).toBe(4);
  });
});
