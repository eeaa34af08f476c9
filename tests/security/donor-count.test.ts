import { describe, expect, test } from '../support/fixtures';

/**
 * Review finding 9.5 (docs/SECURITY.md): donorCount counted the distinct e-mails of every pledge,
 * so pledging with someone's address and watching the count told whether that address had pledged
 * before. It now counts distinct e-mails over confirmed (paid) pledges plus each pending pledge
 * once (docs/decisions/008): a new pledge always adds one, whoever's address it carries.
 */
describe('9.5 the public donor count is not an e-mail oracle', () => {
  const donorCount = async (progress: () => Promise<{ donorCount: number }>) =>
    (await progress()).donorCount;
  const confirmed = async (confirm: (id: string) => Promise<Response>, id: string) =>
    expect((await confirm(id)).status).toBe(200);

  test('moves the same way whether or not the address pledged before', async ({
    pledge,
    confirm,
    progress,
  }) => {
    const victim = await pledge({ email: 'victim@example.test', isAnonymous: true });
    await confirmed(confirm, victim.id);
    const base = await donorCount(progress);
    expect(base).toBe(1);
    // The attacker probes a known donor and a new address: each pledge adds exactly one.
    await pledge({ email: 'VICTIM@example.test' });
    expect(await donorCount(progress)).toBe(base + 1);
    await pledge({ email: 'stranger@example.test' });
    expect(await donorCount(progress)).toBe(base + 2);
  });

  test('counts pending pledges at once, and confirmed ones by distinct e-mail', async ({
    adminClient,
    pledge,
    confirm,
    progress,
  }) => {
    const base = await donorCount(progress);
    const a = await pledge({ email: 'new.donor@example.test' });
    const b = await pledge({ email: 'New.Donor@Example.test' });
    expect(await donorCount(progress)).toBe(base + 2);
    await confirmed(confirm, a.id);
    expect(await donorCount(progress)).toBe(base + 2);
    await confirmed(confirm, b.id);
    expect(await donorCount(progress)).toBe(base + 1);
    // Deleting one of the two confirmed pledges keeps the donor; deleting both removes them.
    expect((await adminClient.request(`/api/pledges/${a.id}`, { method: 'DELETE' })).status).toBe(
      200,
    );
    expect(await donorCount(progress)).toBe(base + 1);
    expect((await adminClient.request(`/api/pledges/${b.id}`, { method: 'DELETE' })).status).toBe(
      200,
    );
    expect(await donorCount(progress)).toBe(base);
  });

  test('follows an admin edit of a confirmed pledge e-mail', async ({
    adminClient,
    pledge,
    confirm,
    progress,
  }) => {
    const base = await donorCount(progress);
    const a = await pledge({ email: 'first@example.test' });
    await confirmed(confirm, a.id);
    expect(await donorCount(progress)).toBe(base + 1);
    const victim = 'victim@example.test';
    const res = await adminClient.request(`/api/pledges/${a.id}`, {
      method: 'PATCH',
      json: { updates: { email: victim } },
    });
    expect(res.status).toBe(200);
    // Now the same donor as the first test's confirmed victim.
    expect(await donorCount(progress)).toBe(base);
  });
});
