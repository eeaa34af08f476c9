import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import type { Progress } from '@shared/schemas/progress';
import type { RetentionStatus } from '@shared/schemas/privacy';
import { login } from '../../../tests/support/api';
import { describe, expect, test } from '../../../tests/support/fixtures';
import type { TestApp } from '../../../tests/support/test-app';
import { auditLog, outbox, pledges } from '../../db/schema';
import { ERASED_NAME } from './repo';

/**
 * Donors' rights and retention: the download holds exactly that donor's pledge; erasing
 * removes name and e-mail from the pledges table, the audit log and the outbox while the totals
 * stay exact; the admin erases every pledge of an address; the retention rule anonymises on its
 * day, by the injected clock.
 */

/** The real time until the retention test moves it. */
let clock: number | undefined;
test.override('appOptions', { now: () => new Date(clock ?? Date.now()) });

interface Created {
  id: string;
  reference: string;
  statusUrl: string;
}

async function donorPledge(app: TestApp, overrides: Record<string, unknown> = {}) {
  const suffix = randomUUID().slice(0, 8);
  const res = await app.request('/api/pledges', {
    method: 'POST',
    json: {
      name: `Dana Donor ${suffix}`,
      email: `dana-${suffix}@donors.test`,
      amount: 110,
      currency: 'USD',
      ...overrides,
    },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  const body = (await res.json()) as Created;
  const token = new URL(body.statusUrl, 'http://x').searchParams.get('t')!;
  const [row] = await app.database.db.select().from(pledges).where(eq(pledges.id, body.id));
  return { ...body, token, name: row!.name, email: row!.email };
}

const progress = async (app: TestApp) =>
  (await (await app.request('/api/progress')).json()) as Progress;

async function dbText(app: TestApp, ids: string[]) {
  const db = app.database.db;
  const [p, a, o] = await Promise.all([
    db.select().from(pledges).where(inArray(pledges.id, ids)),
    db.select().from(auditLog),
    db.select().from(outbox).where(inArray(outbox.pledgeId, ids)),
  ]);
  return JSON.stringify([p, a, o]).toLowerCase();
}

describe('donor data', () => {
  test('the download holds exactly that donor’s pledge, e-mails, consent and history', async ({
    app,
    adminClient,
  }) => {
    const mine = await donorPledge(app);
    const other = await donorPledge(app);
    const confirmed = await adminClient.request(`/api/pledges/${mine.id}/confirm`, {
      method: 'PUT',
      json: { amountReceived: 110 },
    });
    expect(confirmed.status).toBe(200);
    const res = await app.request(`/api/pledges/${mine.id}/my-data?t=${mine.token}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain(`my-pledge-${mine.reference}.json`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const text = await res.text();
    const data = JSON.parse(text) as {
      pledge: Record<string, unknown>;
      payments: unknown[];
      emails: { kind: string; to: string }[];
      consent: Record<string, unknown>;
      statusHistory: { event: string }[];
    };
    expect(data.pledge).toMatchObject({
      id: mine.id,
      reference: mine.reference,
      name: mine.name,
      email: mine.email,
      amount: 110,
      currency: 'USD',
      status: 'Paid',
    });
    expect(data.payments).toHaveLength(1);
    expect(data.emails.map((e) => e.kind)).toEqual(['instructions', 'receipt']);
    expect(data.emails.every((e) => e.to === mine.email)).toBe(true);
    expect(data.consent).toMatchObject({ deliveryNews: false });
    expect(data.statusHistory.map((h) => h.event)).toEqual(['Pledge made', 'Payment recorded']);
    // Nothing of the other donor.
    expect(text).not.toContain(other.id);
    expect(text).not.toContain(other.email);
    expect(text).not.toContain(other.name);
    // Only with the link's token.
    expect((await app.request(`/api/pledges/${mine.id}/my-data?t=${other.token}`)).status).toBe(
      404,
    );
    expect((await app.request(`/api/pledges/${mine.id}/my-data`)).status).toBe(404);
  });

  test('erase: name and e-mail gone from the table, audit and outbox; totals exact; link ended', async ({
    app,
    adminClient,
  }) => {
    const donor = await donorPledge(app, { amount: 220 });
    const paid = await adminClient.request(`/api/pledges/${donor.id}/confirm`, {
      method: 'PUT',
      json: { amountReceived: 110 },
    });
    expect(paid.status).toBe(200);
    // An admin edit and a resend, so the audit and the outbox have entries about the pledge.
    await adminClient.request(`/api/pledges/${donor.id}`, {
      method: 'PATCH',
      json: { updates: { name: `${donor.name} Jr` } },
    });
    await adminClient.request(`/api/admin/pledges/${donor.id}/emails/resend`, { method: 'POST' });
    const before = await progress(app);

    // Without the explicit confirm, nothing happens (the same 404 as a wrong token).
    expect(
      (
        await app.request(`/api/pledges/${donor.id}/erase`, {
          method: 'POST',
          json: { t: donor.token },
        })
      ).status,
    ).toBe(404);
    expect((await dbText(app, [donor.id])).includes(donor.email.toLowerCase())).toBe(true);
    const res = await app.request(`/api/pledges/${donor.id}/erase`, {
      method: 'POST',
      json: { t: donor.token, confirm: true },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toEqual({ erased: 1 });

    const text = await dbText(app, [donor.id]);
    expect(text).not.toContain(donor.email.toLowerCase());
    expect(text).not.toContain(donor.name.toLowerCase());
    const [row] = await app.database.db.select().from(pledges).where(eq(pledges.id, donor.id));
    expect(row).toMatchObject({ name: ERASED_NAME, reference: donor.reference, amount: 220 });
    expect(row!.erasedAt).not.toBeNull();
    // Queued e-mails cancelled: none waits to go to the address.
    const waiting = await app.database.db
      .select()
      .from(outbox)
      .where(eq(outbox.pledgeId, donor.id));
    expect(waiting.every((m) => m.sentAt !== null || m.failedAt !== null)).toBe(true);
    // The totals stay exact; the public list shows the erased name.
    const after = await progress(app);
    expect(after).toMatchObject({
      currentAmount: before.currentAmount,
      confirmedAmount: before.confirmedAmount,
      outstandingAmount: before.outstandingAmount,
      donorCount: before.donorCount,
      pledgeCount: before.pledgeCount,
    });
    const admin = (await (
      await adminClient.request(`/api/admin/pledges?search=${donor.reference}`)
    ).json()) as { items: { id: string; name: string; amountReceived: number }[] };
    expect(admin.items.find((p) => p.id === donor.id)).toMatchObject({
      name: ERASED_NAME,
      amountReceived: 110,
    });
    // The status link is ended, page and API; the erasure is audited by reference only.
    expect((await app.request(donor.statusUrl)).status).toBe(404);
    expect((await app.request(`/api/pledges/${donor.id}/status?t=${donor.token}`)).status).toBe(
      404,
    );
    const entries = await app.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.pledgeId, donor.id));
    expect(entries.find((e) => e.action === 'pledge.erase')).toMatchObject({
      pledgeReference: donor.reference,
      details: { by: 'donor' },
    });
  });

  test('the admin erases every pledge of one address, and no other', async ({
    app,
    adminClient,
  }) => {
    const first = await donorPledge(app);
    const second = await donorPledge(app, { email: first.email.toUpperCase(), name: 'Second' });
    const bystander = await donorPledge(app);
    expect(
      (await app.request(`/api/admin/privacy/erase`, { method: 'POST', json: {} })).status,
    ).toBe(401);
    const res = await adminClient.request('/api/admin/privacy/erase', {
      method: 'POST',
      json: { email: first.email },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toEqual({ erased: 2 });
    const rows = await app.database.db
      .select()
      .from(pledges)
      .where(inArray(pledges.id, [first.id, second.id, bystander.id]));
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(first.id)!.name).toBe(ERASED_NAME);
    expect(byId.get(second.id)!.name).toBe(ERASED_NAME);
    expect(byId.get(bystander.id)!.name).toBe(bystander.name);
    const text = await dbText(app, [first.id, second.id]);
    expect(text).not.toContain(first.email.toLowerCase());
    expect(text).not.toContain(first.name.toLowerCase());
  });
});

describe('the privacy notice', () => {
  test('/privacy shows the campaign’s notice, server-rendered, without any script', async ({
    app,
  }) => {
    const res = await app.request('/privacy');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = await res.text();
    expect(html).toContain('<h1>Privacy notice</h1>');
    expect(html).toContain('data controller');
    expect(html).toContain('Your rights');
    expect(html).toContain('href="mailto:privacy@example.org"');
    expect(html).not.toContain('<script');
  });
});

describe('retention', () => {
  test('anonymises every pledge on its day, by the injected clock; the admin sees when', async ({
    app,
    adminClient,
  }) => {
    const donor = await donorPledge(app);
    const status = (await (
      await adminClient.request('/api/admin/privacy')
    ).json()) as RetentionStatus;
    // config/campaign.json: the campaign ends 2027-06-30; 365 days later, in Jamaica (UTC-5).
    expect(status).toMatchObject({
      campaignEndsOn: '2027-06-30',
      retentionDays: 365,
      anonymiseOn: '2028-06-29T05:00:00.000Z',
    });
    expect(status.pledgesWithPersonalData).toBeGreaterThan(0);
    const due = Date.parse(status.anonymiseOn!);
    clock = due - 1000;
    expect(await app.app.runRetention()).toBeUndefined();
    const [kept] = await app.database.db.select().from(pledges).where(eq(pledges.id, donor.id));
    expect(kept!.name).toBe(donor.name);

    clock = due;
    const erased = await app.app.runRetention();
    expect(erased).toBe(status.pledgesWithPersonalData);
    const rows = await app.database.db.select().from(pledges);
    expect(rows.every((r) => r.name === ERASED_NAME && r.erasedAt !== null)).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(donor.email);
    // Run again the next day: nothing left to do.
    clock = due + 24 * 60 * 60 * 1000;
    expect(await app.app.runRetention()).toBe(0);
    // (The admin's session has long expired by this clock: a new one.)
    const cookie = await login(app);
    const after = (await (
      await app.request('/api/admin/privacy', { cookie })
    ).json()) as RetentionStatus;
    expect(after.pledgesWithPersonalData).toBe(0);
  });
});
