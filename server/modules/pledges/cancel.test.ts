import { sql } from 'drizzle-orm';
import { adminPledges, progress } from '../../../tests/support/api';
import { describe, expect, test } from '../../../tests/support/fixtures';

/** "I can't complete this pledge": the donor cancels with the status link's token. */
describe('POST /api/pledges/:id/cancel', () => {
  async function created(pledge: (o?: Record<string, unknown>) => Promise<unknown>, o = {}) {
    const p = (await pledge(o)) as { id: string; statusUrl: string };
    return { id: p.id, token: new URL(p.statusUrl, 'http://x').searchParams.get('t')! };
  }

  test('leaves the totals as a deletion would, stays listed as Cancelled, is audited', async ({
    app,
    adminClient,
    pledge,
  }) => {
    const kept = await created(pledge, { amount: 110, email: 'kept@donors.test' });
    const before = await progress(app);
    const gone = await created(pledge, { amount: 220, name: 'Cancel Carla' });
    const withIt = await progress(app);
    expect(withIt.currentAmount).toBe(before.currentAmount + 2000);

    const res = await app.request(`/api/pledges/${gone.id}/cancel`, {
      method: 'POST',
      json: { t: gone.token },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: gone.id, pledgeStatus: 'cancelled' });

    // Exactly as before the pledge was made: amount, count, outstanding.
    const after = await progress(app);
    expect(after).toMatchObject({
      currentAmount: before.currentAmount,
      pledgeCount: before.pledgeCount,
      confirmedAmount: before.confirmedAmount,
    });
    // Gone from the public list, kept in the admin's.
    const pub = (await (await app.request('/api/pledges?limit=50')).json()) as { id: string }[];
    expect(pub.map((p) => p.id)).not.toContain(gone.id);
    expect(pub.map((p) => p.id)).toContain(kept.id);
    const all = await adminPledges(app, adminClient.cookie);
    expect(all.find((p) => p.id === gone.id)).toMatchObject({ pledgeStatus: 'cancelled' });

    // The Cancelled filter lists it (and only cancelled pledges); "All" still has it.
    const page = async (status: string) =>
      (await (
        await adminClient.request(`/api/admin/pledges?status=${status}&pageSize=200`)
      ).json()) as { items: { id: string; pledgeStatus: string }[]; total: number };
    const cancelled = await page('cancelled');
    expect(cancelled.items.map((p) => p.id)).toContain(gone.id);
    expect(cancelled.items.every((p) => p.pledgeStatus === 'cancelled')).toBe(true);
    expect(cancelled.total).toBe(cancelled.items.length);
    const everyone = await page('all');
    expect(everyone.items.map((p) => p.id)).toContain(gone.id);
    expect(everyone.total).toBe(everyone.items.length);
    expect((await page('pending')).items.map((p) => p.id)).not.toContain(gone.id);

    // The donor sees it cancelled.
    const status = await app.request(`/api/pledges/${gone.id}/status?t=${gone.token}`);
    expect(await status.json()).toMatchObject({ pledgeStatus: 'cancelled' });

    // Audited by id and reference, without the donor's name or address.
    const audit = (await app.database.db.execute(
      sql`select action, pledge_reference, details::text as details from audit_log
          where pledge_id = ${gone.id} and action = 'pledge.cancel'`,
    )) as unknown as { rows: { action: string; pledge_reference: string; details: string }[] };
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0]!.pledge_reference).toMatch(/^MRJ-/);
    expect(audit.rows[0]!.details).not.toContain('Cancel Carla');
    expect(audit.rows[0]!.details).not.toContain('@');

    // A second cancel changes nothing (no second audit entry, same totals).
    const again = await app.request(`/api/pledges/${gone.id}/cancel`, {
      method: 'POST',
      json: { t: gone.token },
    });
    expect(again.status).toBe(200);
    expect((await progress(app)).currentAmount).toBe(before.currentAmount);
  });

  test('a wrong or missing token is the one 404; nothing changes', async ({ app, pledge }) => {
    const p = await created(pledge);
    const before = await progress(app);
    for (const body of [{ t: 'wrong' }, {}]) {
      const res = await app.request(`/api/pledges/${p.id}/cancel`, { method: 'POST', json: body });
      expect(res.status).toBe(404);
    }
    expect((await progress(app)).currentAmount).toBe(before.currentAmount);
  });

  test('a pledge with money received is not cancelled: the money keeps counting', async ({
    app,
    adminClient,
    pledge,
  }) => {
    const p = await created(pledge, { amount: 220 });
    const paid = await adminClient.request(`/api/pledges/${p.id}/confirm`, {
      method: 'PUT',
      json: { amountReceived: 110 },
    });
    expect(paid.status).toBe(200);
    const before = await progress(app);
    const res = await app.request(`/api/pledges/${p.id}/cancel`, {
      method: 'POST',
      json: { t: p.token },
    });
    expect(res.status).toBe(400);
    expect(await progress(app)).toMatchObject({
      currentAmount: before.currentAmount,
      confirmedAmount: before.confirmedAmount,
    });
  });

  test('a payment that arrives after a cancel reopens the pledge and counts again', async ({
    app,
    adminClient,
    pledge,
  }) => {
    const before = await progress(app);
    const p = await created(pledge, { amount: 110 });
    await app.request(`/api/pledges/${p.id}/cancel`, { method: 'POST', json: { t: p.token } });
    expect((await progress(app)).currentAmount).toBe(before.currentAmount);
    const paid = await adminClient.request(`/api/pledges/${p.id}/confirm`, { method: 'PUT' });
    expect(paid.status).toBe(200);
    expect(await progress(app)).toMatchObject({
      currentAmount: before.currentAmount + 1000,
      confirmedAmount: before.confirmedAmount + 1000,
    });
  });
});
