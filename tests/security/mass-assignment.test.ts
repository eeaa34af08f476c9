import { randomUUID } from 'node:crypto';
import { describe, expect, test } from '../support/fixtures';
import { adminPledge, createPledge, pledgeBody } from '../support/api';
import { rawRequest } from '../support/http';

/** Threats 8-10: fields a donor or a request must not be able to set. */
describe('mass assignment', () => {
  test('8. isPaid, paymentConfirmedAt, id, createdAt and containers in a new pledge are ignored', async ({
    app: t,
    adminClient: { cookie },
  }) => {
    const forgedId = randomUUID();
    const started = Date.now();
    const body = pledgeBody({
      amount: 110,
      isPaid: true,
      paymentConfirmedAt: '2001-01-01T00:00:00.000Z',
      id: forgedId,
      createdAt: '2001-01-01T00:00:00.000Z',
      containers: 99_999_999,
    });
    const res = await t.request('/api/pledges', { method: 'POST', json: body });
    // Unknown keys are dropped by the shared schema (z.object strips them): the pledge is made,
    // with none of the forged values.
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    expect(id).not.toBe(forgedId);
    const stored = await adminPledge(t, cookie, id);
    expect(stored).toBeDefined();
    expect(stored!.isPaid).toBe(false);
    expect(stored!.paymentConfirmedAt).toBeNull();
    expect(stored!.containers).toBe(1000);
    const createdAt = Date.parse(stored!.createdAt);
    expect(createdAt).toBeGreaterThanOrEqual(started - 5_000);
    expect(createdAt).toBeLessThanOrEqual(Date.now() + 5_000);
    expect(await adminPledge(t, cookie, forgedId)).toBeUndefined();
    const progress = (await (await t.request('/api/progress')).json()) as {
      confirmedAmount: number;
    };
    expect(progress.confirmedAmount).toBe(0);
  });

  test('9. PATCH cannot set isPaid, createdAt, containers, currency or id', async ({
    app: t,
    adminClient: { cookie },
  }) => {
    const { id } = await createPledge(t, { amount: 220 });
    const before = await adminPledge(t, cookie, id);
    const sneaky = {
      isPaid: true,
      paymentConfirmedAt: '2001-01-01T00:00:00.000Z',
      createdAt: '2001-01-01T00:00:00.000Z',
      containers: 5,
      currency: 'JMD',
      isAnonymous: true,
      id: randomUUID(),
    };
    // Alone: nothing to change.
    const alone = await t.request(`/api/pledges/${id}`, {
      method: 'PATCH',
      cookie,
      json: { updates: sneaky },
    });
    expect(alone.status).toBe(400);
    expect(await adminPledge(t, cookie, id)).toEqual(before);
    // Beside a real change: only the real change is applied.
    const mixed = await t.request(`/api/pledges/${id}`, {
      method: 'PATCH',
      cookie,
      json: { updates: { ...sneaky, name: 'Renamed Rita' }, isPaid: true },
    });
    expect(mixed.status).toBe(200);
    const after = await adminPledge(t, cookie, id);
    expect(after).toEqual({ ...before, name: 'Renamed Rita' });
  });

  test('10. a body with __proto__ or constructor.prototype is refused, and pollutes nothing', async ({
    app: t,
    adminClient: { cookie },
  }) => {
    const base = JSON.stringify(pledgeBody()).slice(0, -1);
    const payloads = [
      `${base},"__proto__":{"isPaid":true,"isAdmin":true}}`,
      `${base},"constructor":{"prototype":{"isPaid":true}}}`,
      `{"updates":{"__proto__":{"isPaid":true}}}`,
    ];
    for (const body of payloads) {
      const res = await rawRequest(t.baseUrl, {
        method: 'POST',
        path: '/api/pledges',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(res.status, body).toBe(400);
    }
    const { id: target } = await createPledge(t);
    const patch = await rawRequest(t.baseUrl, {
      method: 'PATCH',
      path: `/api/pledges/${target}`,
      headers: { 'content-type': 'application/json', cookie },
      body: '{"updates":{"name":"P","__proto__":{"isPaid":true}}}',
    });
    expect(patch.status).toBe(400);
    // Nothing was polluted: a later pledge is still unpaid, and plain objects have no isPaid.
    expect(({} as Record<string, unknown>).isPaid).toBeUndefined();
    const { id } = await createPledge(t);
    expect((await adminPledge(t, cookie, id))?.isPaid).toBe(false);
    expect((await adminPledge(t, cookie, target))?.isPaid).toBe(false);
    // And no admin rights leaked to an anonymous caller.
    expect(await (await t.request('/api/admin/check')).json()).toEqual({ isAuthenticated: false });
  });
});
