import { eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { AuditEntry, AuditPage } from '@shared/schemas/audit';
import { uploadImage } from '../../../tests/support/api';
import { TEST_ADMIN_PASSWORD, type TestApp } from '../../../tests/support/test-app';
import { describe, expect, test } from '../../../tests/support/fixtures';
import { auditLog, pledges } from '../../db/schema';
import { audited } from './repo';

test.override('appOptions', { env: { RATE_LIMIT_LOGIN_PER_MINUTE: '0' } });

describe('audit log', () => {
  let t: TestApp;
  let cookie: string;
  test.beforeAll(async ({ app, adminClient }) => {
    t = app;
    cookie = adminClient.cookie;
  });

  const activity = async (query = '') => {
    const res = await t.request(`/api/admin/activity${query}`, { cookie });
    expect(res.status, await res.clone().text()).toBe(200);
    return ((await res.json()) as AuditPage).items;
  };
  const count = async () =>
    Number(
      (
        (await t.database.db.execute(sql`select count(*)::int as n from audit_log`)) as unknown as {
          rows: { n: number }[];
        }
      ).rows[0]!.n,
    );
  async function pledge(name = 'Ann Brown') {
    const res = await t.request('/api/pledges', {
      method: 'POST',
      json: { name, email: 'ann@donors.test', amount: 100, currency: 'USD' },
    });
    return (await res.json()) as { id: string; reference: string };
  }

  test('needs an admin session', async () => {
    expect((await t.request('/api/admin/activity')).status).toBe(401);
  });

  test('records every admin action with time, action, target and client address', async () => {
    const start = Date.now();
    // Logins (good and bad) and a logout.
    const bad = await t.request('/api/admin/login', {
      method: 'POST',
      json: { password: 'wrong-password' },
    });
    expect(bad.status).toBe(401);
    const other = await t.login();
    await t.request('/api/admin/logout', { method: 'POST', cookie: other });

    const p = await pledge();
    const json = (method: string, path: string, body?: unknown) =>
      t.request(path, { method, cookie, ...(body === undefined ? {} : { json: body }) });
    expect((await json('PUT', `/api/pledges/${p.id}/confirm`, { amountReceived: 90 })).status).toBe(
      200,
    );
    expect((await json('DELETE', `/api/pledges/${p.id}/confirm`)).status).toBe(200);
    expect(
      (await json('PATCH', `/api/pledges/${p.id}`, { updates: { name: 'Ann B.', amount: 120 } }))
        .status,
    ).toBe(200);
    expect((await json('PUT', '/api/progress', { manualAdjustment: 25 })).status).toBe(200);
    expect((await t.request('/api/pledges/export', { cookie })).status).toBe(200);
    expect((await json('DELETE', `/api/pledges/${p.id}`)).status).toBe(200);
    const imageUrl = await uploadImage(t, cookie);
    const created = await json('POST', '/api/updates', {
      imageUrl,
      recipient: 'Parish shelter',
      containerCount: 300,
      deliveryDate: '2025-01-05',
    });
    expect(created.status).toBe(201);
    const update = (await created.json()) as { id: string };
    expect(
      (await json('PATCH', `/api/updates/${update.id}`, { updates: { containerCount: 350 } }))
        .status,
    ).toBe(200);
    expect((await json('DELETE', `/api/updates/${update.id}`)).status).toBe(200);

    const items = await activity();
    const byAction = new Map<string, AuditEntry>();
    for (const e of items) if (!byAction.has(e.action)) byAction.set(e.action, e);
    for (const action of [
      'admin.login',
      'admin.login.failed',
      'admin.logout',
      'pledge.confirm',
      'pledge.unconfirm',
      'pledge.edit',
      'progress.update',
      'pledges.export',
      'pledge.delete',
      'update.create',
      'update.edit',
      'update.delete',
    ]) {
      const e = byAction.get(action);
      expect(e, action).toBeDefined();
      expect(e!.clientIp).toBe('127.0.0.1');
      expect(Date.parse(e!.at)).toBeGreaterThanOrEqual(start - 1000);
      expect(e!.label.length).toBeGreaterThan(3);
    }
    expect(byAction.get('pledge.confirm')!.details).toMatchObject({
      amountReceived: 90,
      currencyReceived: 'USD',
    });
    expect(byAction.get('pledge.edit')!.details).toEqual({
      before: { amount: 100 },
      after: { amount: 120 },
      personalDataChanged: ['name'],
    });
    expect(byAction.get('pledge.delete')!.details).toMatchObject({
      deleted: { id: p.id, reference: p.reference, amount: 120 },
    });
    // No donor data in the log: the entries name the pledge by id and reference.
    expect(byAction.get('pledge.delete')!.details!.deleted).not.toHaveProperty('email');
    expect(byAction.get('progress.update')!.details).toMatchObject({
      after: { manualAdjustment: 25 },
    });
    expect(byAction.get('update.edit')!.details).toEqual({
      before: { containerCount: 300 },
      after: { containerCount: 350 },
    });
    expect(byAction.get('update.delete')!.details).toMatchObject({
      deleted: { id: update.id, recipient: 'Parish shelter' },
    });
    // Nothing in the log holds a password.
    expect(JSON.stringify(items)).not.toContain(TEST_ADMIN_PASSWORD);
    expect(JSON.stringify(items)).not.toContain('wrong-password');
  });

  test('keeps the trail of a deleted pledge, filterable by id or reference', async () => {
    const p = await pledge('Trail Keeper');
    await t.request(`/api/pledges/${p.id}/confirm`, { method: 'PUT', cookie, json: {} });
    await t.request(`/api/pledges/${p.id}`, { method: 'DELETE', cookie });
    const rows = await t.database.db.select().from(pledges).where(eq(pledges.id, p.id));
    expect(rows).toHaveLength(0);
    const byId = await activity(`?pledge=${p.id}`);
    expect(byId.map((e) => e.action)).toEqual(['pledge.delete', 'pledge.confirm']);
    const byRef = await activity(`?pledge=${encodeURIComponent(p.reference.toLowerCase())}`);
    expect(byRef.map((e) => e.id)).toEqual(byId.map((e) => e.id));
    const bad = await t.request('/api/admin/activity?pledge=nonsense', { cookie });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toMatch(/payment reference/);
  });

  test('writes nothing when nothing changed: a repeated confirm, a missing pledge', async () => {
    const p = await pledge();
    await t.request(`/api/pledges/${p.id}/confirm`, { method: 'PUT', cookie, json: {} });
    const before = await count();
    await t.request(`/api/pledges/${p.id}/confirm`, { method: 'PUT', cookie, json: {} });
    const missing = '00000000-0000-4000-8000-000000000000';
    expect(
      (await t.request(`/api/pledges/${missing}/confirm`, { method: 'PUT', cookie, json: {} }))
        .status,
    ).toBe(404);
    expect((await t.request(`/api/pledges/${missing}`, { method: 'DELETE', cookie })).status).toBe(
      404,
    );
    expect(await count()).toBe(before);
  });

  test('is atomic with the change: a change that fails leaves no entry and no change', async () => {
    const p = await pledge('Atomic Test');
    const before = await count();
    const request = { ip: '203.0.113.9' } as FastifyRequest;
    await expect(
      audited(t.database.db, request, async (tx) => {
        await tx.update(pledges).set({ name: 'Changed' }).where(eq(pledges.id, p.id));
        throw new Error('the change failed half-way');
      }),
    ).rejects.toThrow('half-way');
    // And the other way round: an entry that cannot be written undoes the change.
    await expect(
      audited(t.database.db, request, async (tx) => {
        await tx.update(pledges).set({ name: 'Changed' }).where(eq(pledges.id, p.id));
        return {
          result: undefined,
          // jsonb refuses \u0000: the insert of the entry fails inside the transaction.
          audit: { action: 'pledge.edit', details: { bad: '\u0000' } },
        };
      }),
    ).rejects.toThrow();
    expect(await count()).toBe(before);
    const [row] = await t.database.db.select().from(pledges).where(eq(pledges.id, p.id));
    expect(row!.name).toBe('Atomic Test');
    const entries = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.clientIp, '203.0.113.9'));
    expect(entries).toHaveLength(0);
  });

  test('pages newest first', async () => {
    for (let i = 0; i < 3; i++)
      await t.request('/api/progress', { method: 'PUT', cookie, json: { manualAdjustment: i } });
    const first = await t.request('/api/admin/activity?limit=2', { cookie });
    const page = (await first.json()) as AuditPage;
    expect(page.items).toHaveLength(2);
    expect(Date.parse(page.items[0]!.at)).toBeGreaterThanOrEqual(Date.parse(page.items[1]!.at));
    expect(page.nextBefore).not.toBeNull();
    const res = await t.request(
      `/api/admin/activity?limit=2&before=${encodeURIComponent(page.nextBefore!)}`,
      { cookie },
    );
    const next = (await res.json()) as AuditPage;
    expect(Date.parse(next.items[0]!.at)).toBeLessThanOrEqual(Date.parse(page.nextBefore!));
    expect((await t.request('/api/admin/activity?limit=0', { cookie })).status).toBe(400);
  });
});
