import { adminPledges, MISSING_ID, progress } from '../../../tests/support/api';
import { describe, expect, test as base } from '../../../tests/support/fixtures';

const test = base.extend('patch', { scope: 'file' }, async ({ adminClient }) => {
  return (id: string, body: unknown) =>
    adminClient.request(`/api/pledges/${id}`, { method: 'PATCH', json: body });
});

describe('PATCH and DELETE /api/pledges/:id', () => {
  test('edits name, e-mail and amount, recomputing containers and the total', async ({
    app,
    pledge,
    patch,
  }) => {
    const { id } = await pledge({ amount: 110 });
    const before = await progress(app);
    const res = await patch(id, {
      updates: { name: 'Ann B. Brown', email: 'ann.b@donors.test', amount: 220 },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      id,
      name: 'Ann B. Brown',
      email: 'ann.b@donors.test',
      amount: 220,
      containers: 2000,
    });
    expect((await progress(app)).currentAmount).toBe(before.currentAmount + 1000);
  });

  test('edits one field alone and keeps the others', async ({ pledge, patch }) => {
    const { id } = await pledge({ name: 'Solo', email: 'solo@donors.test', amount: 50 });
    const res = await patch(id, { updates: { name: 'Solo Two' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      name: 'Solo Two',
      email: 'solo@donors.test',
      amount: 50,
    });
  });

  test('ignores fields an admin cannot edit (currency, isPaid, createdAt, id)', async ({
    pledge,
    patch,
  }) => {
    const { id, createdAt } = await pledge({ amount: 100, currency: 'USD' });
    const res = await patch(id, {
      updates: {
        amount: 101,
        currency: 'JMD',
        isPaid: true,
        createdAt: '2000-01-01T00:00:00Z',
        id: MISSING_ID,
      },
      isPaid: true,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      id,
      amount: 101,
      currency: 'USD',
      isPaid: false,
      createdAt,
    });
  });

  test('answers "No changes detected..." when nothing changes', async ({ pledge, patch }) => {
    const { id } = await pledge({ name: 'Same', email: 'same@donors.test', amount: 10 });
    for (const updates of [
      {},
      { name: 'Same', email: 'same@donors.test', amount: 10 },
      { isPaid: true },
    ]) {
      const res = await patch(id, { updates });
      expect(res.status).toBe(400);
      expect((await res.json()).message).toBe(
        'No changes detected. Please modify at least one field.',
      );
    }
  });

  test.for([
    [{ updates: { amount: 0 } }, 'Please enter a valid amount (minimum $1)'],
    [{ updates: { amount: 2.5 } }, 'Please enter a valid amount (minimum $1)'],
    [{ updates: { amount: '5' } }, 'Please enter a valid amount (minimum $1)'],
    [{ updates: { amount: 1e12 } }, 'Pledge amount must be at most 1,000,000,000'],
    [{ updates: { name: '' } }, 'Name is required'],
    [{ updates: { email: 'nope' } }, 'Valid email is required'],
    [{ updates: 'name=x' }, 'updates must be an object'],
    [{ name: 'Flat' }, 'updates must be an object'],
  ])('refuses %j with 400', async ([body, message], { pledge, patch }) => {
    const { id } = await pledge();
    const res = await patch(id, body);
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe(message);
  });

  test('answers 404 for an unknown id and 400 for a malformed one', async ({ patch }) => {
    const unknown = await patch(MISSING_ID, { updates: { name: 'X' } });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).message).toBe('Pledge not found');
    expect((await patch('nope', { updates: { name: 'X' } })).status).toBe(400);
  });

  test('deletes a pledge: the total drops, a second delete is 404', async ({
    app,
    adminClient,
    pledge,
  }) => {
    const { id } = await pledge({ amount: 1672, currency: 'JMD' });
    const before = await progress(app);
    const res = await app.request(`/api/pledges/${id}`, {
      method: 'DELETE',
      cookie: adminClient.cookie,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, id });
    const after = await progress(app);
    expect(after.currentAmount).toBe(before.currentAmount - 100);
    expect(after.pledgeCount).toBe(before.pledgeCount - 1);
    expect((await adminPledges(app, adminClient.cookie)).some((p) => p.id === id)).toBe(false);

    const again = await app.request(`/api/pledges/${id}`, {
      method: 'DELETE',
      cookie: adminClient.cookie,
    });
    expect(again.status).toBe(404);
    expect(
      (await app.request('/api/pledges/123', { method: 'DELETE', cookie: adminClient.cookie }))
        .status,
    ).toBe(400);
  });
});
