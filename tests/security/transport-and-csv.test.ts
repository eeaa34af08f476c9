import { parse } from 'csv-parse/sync';
import { afterAll } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app';
import { createPledge } from '../support/api';
import { describe, expect, test } from '../support/fixtures';

/**
 * Review finding 9.8 (docs/SECURITY.md): HSTS when the site is served over HTTPS. An app per
 * case: PUBLIC_URL and HSTS_MAX_AGE are read at start.
 */
describe('9.8 Strict-Transport-Security', () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const t of apps) await t.close();
  });
  const hsts = async (env: Record<string, string>) => {
    const t = await startTestApp({ env });
    apps.push(t);
    const [api, page] = await Promise.all([t.request('/api/progress'), t.request('/')]);
    expect(page.headers.get('strict-transport-security')).toBe(
      api.headers.get('strict-transport-security'),
    );
    return api.headers.get('strict-transport-security');
  };

  test('is sent for an https PUBLIC_URL, for 180 days by default', async () => {
    expect(await hsts({ PUBLIC_URL: 'https://pledge.example.org' })).toBe('max-age=15552000');
  });
  test('follows HSTS_MAX_AGE, and 0 turns it off', async () => {
    expect(await hsts({ PUBLIC_URL: 'https://pledge.example.org', HSTS_MAX_AGE: '600' })).toBe(
      'max-age=600',
    );
    expect(await hsts({ PUBLIC_URL: 'https://pledge.example.org', HSTS_MAX_AGE: '0' })).toBeNull();
  });
  test('is not sent for an http PUBLIC_URL or none', async () => {
    expect(await hsts({ PUBLIC_URL: 'http://pledge.example.org' })).toBeNull();
    expect(await hsts({})).toBeNull();
  });
});

/**
 * Review finding 9.8 (docs/SECURITY.md): Excel reads a CSV without a byte-order mark as ANSI
 * ("ZoÃ«").
 */
describe('9.8 CSV export encoding', () => {
  let t: TestApp;
  let cookie: string;
  test.beforeAll(async ({ app, adminClient }) => {
    t = app;
    cookie = adminClient.cookie;
    await createPledge(t, { name: 'Zoë Ångström' });
  });

  test('starts with a UTF-8 byte-order mark and still parses with csv-parse', async () => {
    const res = await t.request('/api/pledges/export', { cookie });
    expect(res.status).toBe(200);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parse(bytes, { bom: true, columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]!)[0]).toBe('id');
    expect(rows.map((r) => r.name)).toContain('Zoë Ångström');
  });
});
