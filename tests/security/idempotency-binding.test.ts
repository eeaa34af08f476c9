import { randomUUID } from 'node:crypto';
import { describe, expect, test } from '../support/fixtures';

// Clients told apart by X-Forwarded-For, as behind the site's proxy.
test.override('appOptions', { env: { TRUST_PROXY: 'true', RATE_LIMIT_PLEDGES_PER_MINUTE: '0' } });

/**
 * Second review 2.6 (docs/SECURITY.md, threat 54): another body sent with the same key in upper
 * case returned the first donor's pledge, with its statusUrl, which showed the real name behind
 * "Anonymous".
 */
describe('2.6 Idempotency-Key is bound to its body and its client', () => {
  const body = (overrides: Record<string, unknown> = {}) => ({
    name: 'Secret Sam Idem',
    email: 'sam.idem@example.test',
    amount: 40,
    currency: 'USD',
    isAnonymous: true,
    ...overrides,
  });
  type Answer = { id: string; statusUrl?: string; reference: string; name: string };

  test('2.6 another body with the key (any case) is 422; a replay from another client gets no status link', async ({
    app,
  }) => {
    const post = (key: string, json: unknown, ip = '203.0.113.10') =>
      app.request('/api/pledges', {
        method: 'POST',
        json,
        headers: { 'idempotency-key': key, 'x-forwarded-for': ip },
      });
    const key = `k${randomUUID().replace(/-/g, '')}`.slice(0, 30);
    const first = await post(key, body());
    expect(first.status).toBe(201);
    const mine = (await first.json()) as Answer;
    expect(mine.statusUrl).toMatch(/^\/pledge\//);

    // The attacker's body with the same key, as sent and upper-cased: never the donor's pledge.
    for (const k of [key, key.toUpperCase()]) {
      const res = await post(
        k,
        body({ name: 'Mallory', email: 'mallory@evil.test' }),
        '198.51.100.66',
      );
      const answer = (await res.json()) as Partial<Answer> & { message?: string };
      expect(answer.id === mine.id, `key ${k}`).toBe(false);
      expect(JSON.stringify(answer)).not.toContain(mine.statusUrl!.split('t=')[1]!);
      if (k === key) {
        expect(res.status).toBe(422);
        expect(answer.message).toMatch(/already used with a different pledge/);
      } else {
        // Another key (case counts): a pledge of its own.
        expect(res.status).toBe(201);
      }
    }

    // The same body and key from the donor again: the same pledge and its link.
    const retry = await post(key, body());
    expect(retry.status).toBe(201);
    expect((await retry.json()) as Answer).toEqual(mine);

    // The same body and key from another client (a leaked key): the pledge, without its link.
    const elsewhere = await post(key, body(), '198.51.100.67');
    expect(elsewhere.status).toBe(201);
    const replay = (await elsewhere.json()) as Answer;
    expect(replay.id).toBe(mine.id);
    expect(replay.statusUrl).toBeUndefined();
    expect(replay.name).toBe('Anonymous');

    // In parallel, from both clients at once, with a new key: one pledge; only its own client
    // gets the link.
    const k2 = randomUUID();
    const [a, b] = await Promise.all([
      post(k2, body({ amount: 41 }), '203.0.113.10'),
      post(k2, body({ amount: 41 }), '198.51.100.68'),
    ]);
    const [ja, jb] = [(await a.json()) as Answer, (await b.json()) as Answer];
    expect(ja.id).toBe(jb.id);
    expect([ja.statusUrl === undefined, jb.statusUrl === undefined]).toEqual([false, true]);
  });
});
