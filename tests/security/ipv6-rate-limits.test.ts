import { TEST_ADMIN_PASSWORD } from '../support/admin-password';
import { describe, expect, test } from '../support/fixtures';

test.override('appOptions', { env: { TRUST_PROXY: 'true', RATE_LIMIT_PLEDGES_PER_MINUTE: '5' } });

/**
 * Review finding 9.4 (docs/SECURITY.md): every IPv6 address counted apart, and one customer usually
 * holds a whole /64 (2^64 addresses). Client addresses come from X-Forwarded-For behind a trusted
 * proxy here.
 */
describe('9.4 IPv6 clients are limited per /64', () => {
  const from = (ip: string) => ({ 'x-forwarded-for': ip });

  test('counts failed logins of one /64 together', async ({ app: t }) => {
    for (let i = 1; i <= 10; i++) {
      const res = await t.request('/api/admin/login', {
        method: 'POST',
        json: { password: `wrong-${i}` },
        headers: from(`2001:db8:1:2:${i.toString(16)}::${i}`),
      });
      expect(res.status, `attempt ${i}`).toBe(401);
    }
    const locked = await t.request('/api/admin/login', {
      method: 'POST',
      json: { password: TEST_ADMIN_PASSWORD },
      headers: from('2001:db8:1:2:ffff:ffff:ffff:fffe'),
    });
    expect(locked.status).toBe(429);
    // The next /64 is someone else.
    const neighbour = await t.request('/api/admin/login', {
      method: 'POST',
      json: { password: TEST_ADMIN_PASSWORD },
      headers: from('2001:db8:1:3::1'),
    });
    expect(neighbour.status).toBe(200);
  });

  test('counts pledges of one /64 together', async ({ app: t }) => {
    const pledge = (ip: string, i: number) =>
      t.request('/api/pledges', {
        method: 'POST',
        json: { name: `V6 ${i}`, email: `v6-${i}@example.test`, amount: 110 },
        headers: from(ip),
      });
    for (let i = 1; i <= 5; i++) {
      expect((await pledge(`2001:db8:aa:bb::${i.toString(16)}`, i)).status, `pledge ${i}`).toBe(
        201,
      );
    }
    expect((await pledge('2001:db8:aa:bb:1234:5678:9abc:def0', 6)).status).toBe(429);
    // The same /64 written in upper case is still the same client.
    expect((await pledge('2001:DB8:AA:BB::7', 7)).status).toBe(429);
    expect((await pledge('2001:db8:aa:bc::1', 8)).status).toBe(201);
    // IPv4 clients keep one counter per address.
    expect((await pledge('203.0.113.5', 9)).status).toBe(201);
  });
});
