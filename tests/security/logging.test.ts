import { Writable } from 'node:stream';
import { TEST_ADMIN_PASSWORD, type TestApp } from '../support/test-app';
import { createPledge, pledgeBody } from '../support/api';
import { describe, expect, test } from '../support/fixtures';
import { rawRequest } from '../support/http';

interface LogLine {
  level: number;
  msg?: string;
  res?: { statusCode?: number };
  req?: { url?: string };
  [key: string]: unknown;
}

/** Every line the file's app logs (at info), as written. */
const raw: string[] = [];
const stream = new Writable({
  write(chunk: Buffer, _enc, done) {
    raw.push(chunk.toString('utf8'));
    done();
  },
});
test.override('appOptions', { env: { LOG_LEVEL: 'info' }, logger: { stream } });

/** Threat 38: what the logs hold. */
describe('38. logs', () => {
  let t: TestApp;
  const lines = () => raw.join('').split('\n').filter(Boolean);
  const parsed = () => lines().map((l) => JSON.parse(l) as LogLine);

  const WRONG = 'Wr0ng-Passw0rd-Guess!';
  const EMAIL = 'log.donor.private@example.test';
  const NAME = 'Lorna Logwatch';
  let token = '';

  test.beforeAll(async ({ app }) => {
    t = app;

    // A session of everyday and hostile traffic.
    await t.request('/api/admin/login', { method: 'POST', json: { password: WRONG } });
    await t.request('/api/admin/login', {
      method: 'POST',
      json: { password: `${WRONG}\n{"level":30,"msg":"forged"}` },
    });
    const cookie = await t.login();
    token = cookie.slice('sid='.length);
    const { id } = await createPledge(t, { email: EMAIL, name: NAME });
    await t.request(`/api/pledges/${id}`, {
      method: 'PATCH',
      cookie,
      json: { updates: { email: `new.${EMAIL}` } },
    });
    await t.request(`/api/admin/pledges?search=${encodeURIComponent(EMAIL)}`, { cookie });
    await t.request('/api/pledges/export', { cookie });
    await t.request('/api/admin/pledges'); // 401
    await t.request('/api/progress', {
      method: 'PUT',
      cookie,
      headers: { origin: 'https://evil.test' },
      json: { manualAdjustment: 1 },
    }); // 403
    // A newline in a name, and a forged JSON log line inside it.
    await t.request('/api/pledges', {
      method: 'POST',
      json: pledgeBody({ name: 'Eve\n{"level":50,"msg":"forged","pid":1}', email: EMAIL }),
    });
    await t.request('/api/pledges', {
      method: 'POST',
      json: pledgeBody({ name: 'Eve\r\n{"level":50,"msg":"forged"}' }),
    });
    // Raw bytes in a path.
    await rawRequest(t.baseUrl, { path: '/api/nope%0A%7B%22msg%22%3A%22forged%22%7D' });
    await t.request('/api/admin/logout', { method: 'POST', cookie });
    await t.request('/api/admin/pledges', { cookie }); // 401 after logout
  });

  test('every line is one JSON object: a newline in input cannot forge a line', () => {
    const all = parsed();
    expect(all.length).toBeGreaterThan(5);
    expect(all.filter((l) => l.msg === 'forged')).toEqual([]);
    for (const l of all) expect(typeof l.level).toBe('number');
  });

  test('failed logins and 401/403 answers are logged', () => {
    const all = parsed();
    expect(all.filter((l) => l.msg === 'failed admin login').length).toBeGreaterThanOrEqual(2);
    const statuses = all.map((l) => l.res?.statusCode);
    expect(statuses).toContain(401);
    expect(statuses).toContain(403);
    // The 401 names the path it was refused on.
    expect(all.some((l) => l.res?.statusCode === 401 && l.req?.url === '/api/admin/pledges')).toBe(
      true,
    );
  });

  test('no password, session cookie, or donor e-mail or name appears in any line', () => {
    const text = lines().join('\n');
    expect(text).not.toContain(TEST_ADMIN_PASSWORD);
    expect(text).not.toContain(WRONG);
    expect(token.length).toBe(43);
    expect(text).not.toContain(token);
    expect(text).not.toContain(EMAIL);
    expect(text).not.toContain('log.donor.private');
    expect(text).not.toContain(NAME);
    expect(text).not.toMatch(/"cookie"|set-cookie/i);
  });
});
