import { progress } from '../../../tests/support/api';
import { describe, expect, test } from '../../../tests/support/fixtures';

test.override('appOptions', { env: { RATE_LIMIT_PLEDGES_PER_MINUTE: '3' } });

describe('pledge rate limit', () => {
  test('answers 429 with Retry-After past RATE_LIMIT_PLEDGES_PER_MINUTE', async ({
    app,
    pledge,
  }) => {
    for (let i = 0; i < 3; i++) await pledge();
    const res = await app.request('/api/pledges', {
      method: 'POST',
      json: { name: 'Four', email: 'four@donors.test', amount: 5 },
    });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await res.json()).message).toMatch(/Too many requests/);
    expect((await progress(app)).pledgeCount).toBe(3);
    // Reads are not limited.
    expect((await app.request('/api/pledges')).status).toBe(200);
  });
});
