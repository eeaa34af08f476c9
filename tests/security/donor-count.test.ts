import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app';
import { createPledge } from '../support/api';

const donorCount = async (t: TestApp) =>
  ((await (await t.request('/api/progress')).json()) as { donorCount: number }).donorCount;

/**
 * Review finding 9.5 (docs/SECURITY.md): donorCount counted the distinct e-mails of every pledge,
 * so pledging with someone's address and watching the count told whether that address had pledged
 * before. It now counts distinct e-mails over confirmed (paid) pledges plus each pending pledge
 * once (docs/decisions/008): a new pledge always adds one, whoever's address it carries.
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

  it('moves the same way whether or not the address pledged before', async () => {
    const victim = await createPledge(t, { email: 'victim@example.test', isAnonymous: true });
    await confirm(victim.id);
    const base = await donorCount(t);
    expect(base).toBe(1);
    // The attacker probes a known donor and a new address: each pledge adds exactly one.
    await createPledge(t, { email: 'VICTIM@example.test' });
    expect(await donorCount(t)).toBe(base + 1);
    await createPledge(t, { email: 'stranger@example.test' });
    expect(await donorCount(t)).toBe(base + 2);
  });

  it('counts pending pledges at once, and confirmed ones by distinct e-mail', async () => {
    const base = await donorCount(t);
    const a = await createPledge(t, { email: 'new.donor@example.test' });
    const b = await createPledge(t, { email: 'New.Donor@Example.test' });
    expect(await donorCount(t)).toBe(base + 2);
    await confirm(a.id);
    expect(await donorCount(t)).toBe(base + 2);
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
