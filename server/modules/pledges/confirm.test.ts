import { adminPledges, MISSING_ID, progress } from '../../../tests/support/api';
import { describe, expect, test } from '../../../tests/support/fixtures';

let clock = Date.parse('2025-06-01T10:00:00.000Z');

// The app's clock is ours: confirm times are exact.
test.override('appOptions', { now: () => new Date(clock) });

describe('PUT /api/pledges/:id/confirm', () => {
  test('marks a pledge paid and sets paymentConfirmedAt once; a second confirm keeps the timestamp', async ({
    app,
    adminClient,
    pledge,
    confirm,
  }) => {
    const { id } = await pledge({ amount: 110 });
    const before = await progress(app);

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
    const stored = (await adminPledges(app, adminClient.cookie)).find((p) => p.id === id)!;
    expect(stored).toMatchObject({ isPaid: true, paymentConfirmedAt: '2025-06-01T10:00:00.000Z' });

    // Pledged containers count pending and paid alike; the paid subtotal moves.
    const after = await progress(app);
    expect(after.currentAmount).toBe(before.currentAmount);
    expect(after.confirmedAmount).toBe(before.confirmedAmount + 1000);
  });

  test('keeps the first timestamp when 20 confirms race', async ({ pledge, confirm }) => {
    const { id } = await pledge();
    const results = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        clock += i;
        return (await confirm(id)).json();
      }),
    );
    const stamps = new Set(results.map((r) => r.paymentConfirmedAt));
    expect(stamps.size).toBe(1);
  });

  test('accepts a PUT without a body', async ({ app, adminClient, pledge }) => {
    const { id } = await pledge();
    const res = await app.request(`/api/pledges/${id}/confirm`, {
      method: 'PUT',
      cookie: adminClient.cookie,
    });
    expect(res.status).toBe(200);
    expect((await res.json()).isPaid).toBe(true);
  });

  test('answers 404 for an unknown id and 400 for a malformed one', async ({ confirm }) => {
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
