import { afterAll, beforeAll } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { samplePng } from '../fixtures';
import { expectErrorLogs, startTestApp, testDbKind, type TestApp } from '../support/test-app';
import { adminPledge, createPledge, uploadUrl } from '../support/api';
import { describe, expect, test } from '../support/fixtures';
import { rawRequest } from '../support/http';

/**
 * Review finding 9.2 (docs/SECURITY.md): the router decodes the path (`/%61pi/` is `/api/`), but
 * the cross-site check and the disk guard looked at the raw URL, so an encoded path skipped both.
 */
const spellings = (path: string): string[] => {
  const rest = path.slice('/api/'.length);
  return [
    `/%61pi/${rest}`,
    `/%61%70%69/${rest}`,
    `/%41pi/${rest}`, // upper case A: another route, must not be reached either way
    `/ap%69/${rest}`,
    `/api%2F${rest}`,
    `/api%2f${rest}`,
    `/%2561pi/${rest}`, // double encoding
    `/api/${rest.replace(/\//g, '%2F')}`,
    `/api/${rest}/`, // trailing slash
    `/%61pi/${rest}/`,
    `//api/${rest}`,
  ];
};

describe('9.2 percent-encoded paths and the cross-site check', () => {
  let t: TestApp;
  let cookie: string;
  test.beforeAll(async ({ app, adminClient }) => {
    t = app;
    cookie = adminClient.cookie;
  });

  test('never confirms a pledge for a foreign Origin, however the path is spelled', async () => {
    const { id } = await createPledge(t);
    for (const path of spellings(`/api/pledges/${id}/confirm`)) {
      const res = await rawRequest(t.baseUrl, {
        method: 'PUT',
        path,
        headers: { origin: 'https://evil.test', cookie, 'content-type': 'application/json' },
        body: '{}',
      });
      expect([403, 404], `${path}: ${res.status} ${res.body}`).toContain(res.status);
    }
    expect((await adminPledge(t, cookie, id))?.isPaid).toBe(false);
  });

  test('never logs the admin out from a same-site page through an encoded path', async () => {
    for (const path of spellings('/api/admin/logout')) {
      const res = await rawRequest(t.baseUrl, {
        method: 'POST',
        path,
        headers: { 'sec-fetch-site': 'same-site', cookie },
      });
      expect([403, 404], `${path}: ${res.status}`).toContain(res.status);
      expect((await t.request('/api/admin/pledges', { cookie })).status, path).toBe(200);
    }
  });

  test('refuses a cross-site write even on a path that matches no route', async () => {
    const res = await rawRequest(t.baseUrl, {
      method: 'POST',
      path: '/no-such-route',
      headers: { origin: 'https://evil.test' },
    });
    expect(res.status).toBe(403);
  });
});

// Its own app: a disk guard that always finds the disk full.
describe('9.2 percent-encoded paths and the disk guard', () => {
  let t: TestApp;
  beforeAll(async () => {
    // A guard that always finds the disk "nearly full": every guarded write must be refused.
    t = await startTestApp({ env: { MIN_FREE_DISK_MB: '1000000' } });
  });
  afterAll(() => t.close());

  // PGlite keeps the database in DATA_DIR: every write is guarded there. On PostgreSQL DATA_DIR
  // holds only the uploads, so the image PUT is the guarded write.
  const guarded =
    testDbKind() === 'pglite'
      ? { what: 'a pledge', run: refusesPledges }
      : { what: 'an image upload', run: refusesUploads };
  test(`refuses ${guarded.what} with 507 however the path is spelled, and stores nothing`, () => {
    // The disk guard logs each refusal at error level: an operator must see it.
    expectErrorLogs(/"msg":"disk nearly full"/);
    return guarded.run();
  });

  async function refusesPledges() {
    const body = JSON.stringify({ name: 'Encoded', email: 'enc@example.test', amount: 110 });
    for (const path of ['/api/pledges', ...spellings('/api/pledges')]) {
      const res = await rawRequest(t.baseUrl, {
        method: 'POST',
        path,
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect([404, 507], `${path}: ${res.status} ${res.body}`).toContain(res.status);
    }
    const progress = (await (await t.request('/api/progress')).json()) as {
      pledgeCount: number;
    };
    expect(progress.pledgeCount).toBe(0);
  }

  async function refusesUploads() {
    const cookie = await t.login();
    for (const spelling of ['/api/', '/%61pi/', '/%61%70%69/', '/ap%69/']) {
      const signed = new URL(await uploadUrl(t, cookie));
      const path = spelling + signed.pathname.slice('/api/'.length) + signed.search;
      const res = await rawRequest(t.baseUrl, {
        method: 'PUT',
        path,
        headers: { 'content-type': 'image/png' },
        body: samplePng(),
      });
      expect(res.status, `${path}: ${res.body}`).toBe(507);
      const id = signed.pathname.split('/').pop()!;
      expect(existsSync(join(t.dataDir, 'uploads', id)), path).toBe(false);
    }
  }
});
