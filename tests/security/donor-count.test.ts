import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { createPledge } from './support/http';

const donorCount = async (t: TestApp) =>
  ((await (await t.request('/api/progress')).json()) as { donorCount: number }).donorCount;

/**
 * Issue 9.5: donorCount counted the distinct e-mails of every pledge, so pledging with someone's
 * address and watching the count told whether that address had pledged before. It now counts
 * distinct e-mails over confirmed (paid) pledges only (docs/decisions/008).
 */
describe('9.5 the public donor count is not an e-mail oracle', () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await startTestApp();
    cookie = await t.login();
  });
  afterAll(() => t.close());

  const confirm = async (id: string) => {
    const res = await t.request(`/api/pledges/${id}/confirm`, { method: 'PUT', cookie, json: {} });
    expect(res.status).toBe(200);
  };

  it('does not move when anyone pledges, whether or not the address pledged before', async () => {
    const victim = await createPledge(t, { email: 'victim@example.test', isAnonymous: true });
    await confirm(victim.id);
    const base = await donorCount(t);
    expect(base).toBe(1);
    // The attacker probes a known donor and a new address: both leave the count alone.
    await createPledge(t, { email: 'VICTIM@example.test' });
    expect(await donorCount(t)).toBe(base);
    await createPledge(t, { email: 'stranger@example.test' });
    expect(await donorCount(t)).toBe(base);
  });

  it('counts a donor once their pledge is confirmed, and distinct e-mails once', async () => {
    const base = await donorCount(t);
    const a = await createPledge(t, { email: 'new.donor@example.test' });
    const b = await createPledge(t, { email: 'New.Donor@Example.test' });
    await confirm(a.id);
    expect(await donorCount(t)).toBe(base + 1);
    await confirm(b.id);
    expect(await donorCount(t)).toBe(base + 1);
    // Deleting one of the two confirmed pledges keeps the donor; deleting both removes them.
    expect((await t.request(`/api/pledges/${a.id}`, { method: 'DELETE', cookie })).status).toBe(
      200,
    );
    expect(await donorCount(t)).toBe(base + 1);
    expect((await t.request(`/api/pledges/${b.id}`, { method: 'DELETE', cookie })).status).toBe(
      200,
    );
    expect(await donorCount(t)).toBe(base);
  });

  it('follows an admin edit of a confirmed pledge e-mail', async () => {
    const base = await donorCount(t);
    const a = await createPledge(t, { email: 'first@example.test' });
    await confirm(a.id);
    expect(await donorCount(t)).toBe(base + 1);
    const victim = 'victim@example.test';
    const res = await t.request(`/api/pledges/${a.id}`, {
      method: 'PATCH',
      cookie,
      json: { updates: { email: victim } },
    });
    expect(res.status).toBe(200);
    // Now the same donor as the first test's confirmed victim.
    expect(await donorCount(t)).toBe(base);
  });
});
