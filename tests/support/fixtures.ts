import { test as base } from 'vitest';
import { createPledge, createUpdate, login, progress, type UpdateSeed } from './api';
import { startTestApp, type TestApp, type TestAppOptions } from './test-app';

/**
 * The fixtures of the API tests: one app per test file, shared by its tests (starting an app and
 * its database is the expensive part), so tests make their own rows (unique names) instead of
 * counting on an empty database.
 *
 *   import { describe, expect, test } from '<root>/tests/support/fixtures';
 *   test.override('appOptions', { env: { RATE_LIMIT_PLEDGES_PER_MINUTE: '0' } }); // top level only
 *   test('...', async ({ app, adminClient, pledge, update, confirm, progress }) => { ... });
 *
 * File-scoped fixtures are also given to suite hooks: test.beforeAll(async ({ pledge }) => ...).
 */
export interface AdminClient {
  /** The session's Cookie header value. */
  cookie: string;
  /** app.request with the admin session. */
  request: TestApp['request'];
}

export const test = base
  .extend('appOptions', { scope: 'file' }, {} as TestAppOptions)
  .extend('app', { scope: 'file' }, async ({ appOptions }, { onCleanup }) => {
    const app = await startTestApp(appOptions);
    onCleanup(() => app.close());
    return app;
  })
  .extend('adminClient', { scope: 'file' }, async ({ app }): Promise<AdminClient> => {
    const cookie = await login(app);
    return { cookie, request: (pathname, init = {}) => app.request(pathname, { cookie, ...init }) };
  })
  /** Creates a pledge through the public API (unique name and e-mail unless given). */
  .extend('pledge', { scope: 'file' }, async ({ app }) => {
    return (overrides: Record<string, unknown> = {}) => createPledge(app, overrides);
  })
  /** Posts a delivery update with an uploaded sample image, as the admin. */
  .extend('update', { scope: 'file' }, async ({ app, adminClient }) => {
    return (overrides: Partial<UpdateSeed> = {}) =>
      createUpdate(app, adminClient.cookie, overrides);
  })
  /** PUT /api/pledges/:id/confirm as the admin (marks it paid); the response, for its status. */
  .extend('confirm', { scope: 'file' }, async ({ adminClient }) => {
    return (id: string) =>
      adminClient.request(`/api/pledges/${id}/confirm`, { method: 'PUT', json: {} });
  })
  /** GET /api/progress (expects 200): the campaign's numbers now. */
  .extend('progress', { scope: 'file' }, async ({ app }) => {
    return () => progress(app);
  });

// Start each file's app and session in a suite hook (hookTimeout, 120 s) rather than inside its
// first test's 30 s: on a loaded machine loading a database can take longer than that.
test.beforeAll(async ({ adminClient: _adminClient }) => {});

export { describe, expect } from 'vitest';
