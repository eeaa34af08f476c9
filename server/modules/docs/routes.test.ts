import { createConfig, lintFromString } from '@redocly/openapi-core';
import { describe, expect, test } from '../../../tests/support/fixtures';
import type { TestApp } from '../../../tests/support/test-app';
import { OPERATIONS } from './operations';

interface Operation {
  summary?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean }[];
  responses?: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
}
interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, { type: string; in: string; name: string }> };
}

/** The API as the client and outside callers use it: every route the docs must list. */
const EXPECTED = [
  'GET /api/docs',
  'GET /api/docs/json',
  'GET /api/docs/static/{file}',
  'GET /api/health',
  'GET /api/ready',
  'GET /api/campaign',
  'GET /api/admin/check',
  'POST /api/admin/login',
  'POST /api/admin/logout',
  'DELETE /api/admin/sessions',
  'GET /api/pledges',
  'POST /api/pledges',
  'GET /api/pledges/export',
  'PUT /api/pledges/{id}/confirm',
  'DELETE /api/pledges/{id}/confirm',
  'GET /api/pledges/{id}/status',
  'POST /api/pledges/{id}/sent',
  'POST /api/pledges/{id}/cancel',
  'PATCH /api/pledges/{id}',
  'DELETE /api/pledges/{id}',
  'GET /api/admin/pledges',
  'GET /api/admin/pledges/{id}/emails',
  'POST /api/admin/pledges/{id}/emails/resend',
  'GET /api/admin/reminders',
  'GET /api/admin/reports/fulfilment',
  'GET /api/admin/reports/fulfilment.csv',
  'PUT /api/admin/reminders',
  'POST /api/admin/pledges/lapsed/release',
  'GET /api/admin/pledges/{id}/reminders',
  'PUT /api/admin/pledges/{id}/reminders',
  'GET /api/admin/activity',
  'GET /api/admin/team',
  'POST /api/admin/team',
  'PATCH /api/admin/team/{id}',
  'POST /api/admin/team/{id}/invitation',
  'POST /api/team/invitation',
  'POST /api/team/password',
  'POST /api/admin/password',
  'GET /api/admin/sessions',
  'DELETE /api/admin/team/{id}/sessions',
  'DELETE /api/admin/team/{id}/second-factors',
  'GET /api/admin/activity/people',
  'GET /api/admin/backup',
  'POST /api/admin/statements/preview',
  'POST /api/admin/statements/import',
  'POST /api/admin/statements/preview/file',
  'POST /api/admin/statements/import/file',
  'GET /api/admin/statements/lines',
  'POST /api/admin/statements/lines/{id}/dismiss',
  'POST /api/admin/statements/lines/{id}/restore',
  'GET /api/admin/statements/dismissed',
  'POST /api/admin/statements/confirm',
  'GET /api/admin/statements/imports',
  'POST /api/admin/statements/imports/{id}/undo',
  'GET /api/progress',
  'PUT /api/progress',
  'GET /api/progress/stream',
  'GET /api/share/og.png',
  'GET /api/updates',
  'POST /api/updates',
  'PATCH /api/updates/{id}',
  'DELETE /api/updates/{id}',
  'POST /api/objects/upload',
  'PUT /api/objects/uploads/{id}',
  'GET /api/objects/uploads/{id}',
  'GET /',
  'GET /payment-instructions',
  'GET /admin',
  'GET /admin/join',
  'GET /pledge/{id}',
  'GET /where-the-money-goes',
  'GET /privacy',
  'GET /api/pledges/{id}/my-data',
  'POST /api/pledges/{id}/erase',
  'POST /api/pledges/{id}/news',
  'GET /api/news/unsubscribe',
  'POST /api/news/unsubscribe',
  'GET /api/admin/news/subscribers',
  'POST /api/admin/privacy/erase',
  'GET /api/admin/privacy',
  'POST /api/admin/login/second-factor',
  'POST /api/admin/login/passkey-options',
  'GET /api/admin/security',
  'POST /api/admin/security/totp',
  'POST /api/admin/security/totp/confirm',
  'DELETE /api/admin/security/totp',
  'POST /api/admin/security/recovery-codes',
  'POST /api/admin/security/passkeys/options',
  'POST /api/admin/security/passkeys',
  'DELETE /api/admin/security/passkeys/{id}',
  'PUT /api/admin/security/required',
];

/**
 * Every route the router holds, as "METHOD /path/{param}", from Fastify's own tree listing: each
 * line is a segment, indented four columns per level under its parent.
 */
function routerRoutes(t: TestApp): string[] {
  const out: string[] = [];
  const stack: string[] = [];
  for (const line of t.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^([\s│├└─]*)(\S+)(?: \(([^)]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = Math.floor(m[1]!.length / 4);
    stack.length = depth;
    stack[depth] = m[2]!;
    if (!m[3]) continue;
    const url = stack.join('').replace(/:(\w+)/g, '{$1}');
    for (const method of m[3].split(', ')) if (method !== 'HEAD') out.push(`${method} ${url}`);
  }
  return out;
}

/** Admin paths and writes that need no session: signing in and out, pledging, a donor's link, a signed upload. */
const OPEN_TO_ANYONE = [
  'GET /api/admin/check',
  'POST /api/admin/login',
  'POST /api/admin/logout',
  'POST /api/pledges',
  'POST /api/pledges/{id}/sent',
  'POST /api/pledges/{id}/cancel',
  'POST /api/pledges/{id}/erase',
  'POST /api/pledges/{id}/news',
  'POST /api/news/unsubscribe',
  'PUT /api/objects/uploads/{id}',
  'POST /api/team/invitation',
  'POST /api/team/password',
  'POST /api/admin/login/second-factor',
  'POST /api/admin/login/passkey-options',
];

describe('GET /api/docs and /api/docs/json', () => {
  let t: TestApp;
  let doc: OpenApiDocument;
  test.beforeAll(async ({ app }) => {
    t = app;
    const res = await t.request('/api/docs/json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    doc = (await res.json()) as OpenApiDocument;
  });

  const operations = () =>
    Object.entries(doc.paths).flatMap(([url, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ key: `${method.toUpperCase()} ${url}`, op })),
    );

  const documented = () =>
    Object.entries(doc.paths).flatMap(([url, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${url}`),
    );

  test('is an OpenAPI 3.1 document listing every route of the API, each once', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(documented().sort()).toEqual([...EXPECTED].sort());
  });

  test('lists every route the router holds under /api and the app pages', () => {
    const all = routerRoutes(t);
    const api = all.filter((r) => / \/api\//.test(r) || EXPECTED.includes(r));
    expect(api.length, all.join('\n')).toBeGreaterThanOrEqual(EXPECTED.length);
    expect(documented().sort()).toEqual([...new Set(api)].sort());
  });

  test('gives every route its responses, and the inputs of the routes that take them', () => {
    for (const [url, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        expect(Object.keys(op.responses ?? {}), `${method} ${url}`).not.toHaveLength(0);
      }
    }
    const create = doc.paths['/api/pledges']!.post as {
      requestBody: { content: Record<string, { schema: { properties: Record<string, unknown> } }> };
    };
    expect(Object.keys(create.requestBody.content['application/json']!.schema.properties)).toEqual(
      expect.arrayContaining(['name', 'email', 'amount', 'currency', 'isAnonymous']),
    );
    const edit = doc.paths['/api/pledges/{id}']!.patch as { parameters: { name: string }[] };
    expect(edit.parameters.map((p) => p.name)).toContain('id');
    // Reference, money received and status-link fields are in the contract, so the serializer keeps
    // them.
    const confirm = doc.paths['/api/pledges/{id}/confirm']!.put as {
      responses: Record<
        string,
        { content: Record<string, { schema: { properties: Record<string, unknown> } }> }
      >;
    };
    expect(
      Object.keys(confirm.responses['200']!.content['application/json']!.schema.properties),
    ).toEqual(
      expect.arrayContaining([
        'reference',
        'amountReceived',
        'currencyReceived',
        'outstandingAmount',
        'paymentState',
      ]),
    );
    const backup = doc.paths['/api/admin/backup']!.get as {
      responses: Record<string, { content: Record<string, unknown> }>;
    };
    expect(Object.keys(backup.responses['200']!.content)).toEqual(['application/gzip']);
    const list = doc.paths['/api/pledges']!.get as { parameters: { name: string; in: string }[] };
    expect(list.parameters).toContainEqual(expect.objectContaining({ name: 'limit', in: 'query' }));
  });

  test('answers the same document at /api/docs to anything but a browser', async () => {
    const res = await t.request('/api/docs', { headers: { accept: 'application/json' } });
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual(doc);
    const bare = await t.request('/api/docs');
    expect(((await bare.json()) as OpenApiDocument).openapi).toBe('3.1.0');
  });

  test('has an entry in the operations table for every route, and no entry for a route that is not', () => {
    const registered = documented();
    const missing = registered.filter((key) => !OPERATIONS[key]);
    expect(missing, 'routes without an entry in operations.ts').toEqual([]);
    const expected = Object.entries(OPERATIONS)
      .filter(([, entry]) => !entry.onlyWith)
      .map(([key]) => key);
    expect(
      expected.filter((key) => !registered.includes(key)),
      'entries without a route',
    ).toEqual([]);
    // Registered only with object storage: the test app has none, so the entry must be absent
    // here (a route registered under another path would show as missing above).
    const conditional = Object.keys(OPERATIONS).filter((key) => OPERATIONS[key]!.onlyWith);
    expect(conditional).toEqual(['POST /api/objects/uploads/{id}/complete']);
    expect(registered).not.toContain(conditional[0]);
  });

  test('gives every operation its summary, tag, security and error responses with the shared body', () => {
    for (const { key, op } of operations()) {
      expect(op.summary, key).toBe(OPERATIONS[key]!.summary);
      expect(op.tags, key).toEqual([OPERATIONS[key]!.tag]);
      const errors = Object.keys(op.responses ?? {}).filter((s) => Number(s) >= 400);
      expect(errors.length, key).toBeGreaterThan(0);
      expect(errors, key).toContain('503');
      for (const status of OPERATIONS[key]!.errors ?? [])
        expect(errors, key).toContain(String(status));
      const admin =
        (key.includes('/api/admin/') ||
          key === 'GET /api/pledges/export' ||
          /^(POST|PUT|PATCH|DELETE) /.test(key)) &&
        !OPEN_TO_ANYONE.includes(key);
      expect(op.security, key).toEqual(admin ? [{ session: [] }] : []);
      if (admin) expect(errors, key).toContain('401');
      if (/^(POST|PUT|PATCH|DELETE) /.test(key)) expect(errors, key).toContain('403');
    }
    expect(doc.components.securitySchemes.session).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
      name: 'sid',
    });
    const create = doc.paths['/api/pledges']!.post!;
    expect(create.parameters).toContainEqual(
      expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false }),
    );
    expect(Object.keys(create.responses!)).toEqual(
      expect.arrayContaining(['201', '400', '403', '413', '415', '422', '429', '503', '507']),
    );
    expect(create.responses!['422']!.content!['application/json']!.schema).toEqual({
      $ref: '#/components/schemas/ApiError',
    });
    // Only the pledge creation takes the header.
    const withKey = operations().filter(({ op }) =>
      op.parameters?.some((p) => p.name === 'Idempotency-Key'),
    );
    expect(withKey.map((o) => o.key)).toEqual(['POST /api/pledges']);
    // A status link answers 404 for a malformed request too (it reads its own validation).
    expect(Object.keys(doc.paths['/api/pledges/{id}/status']!.get!.responses!)).not.toContain(
      '400',
    );
  });

  test('passes the OpenAPI linter’s recommended rules with no problem at all', async () => {
    const problems = await lintFromString({
      source: JSON.stringify(doc),
      absoluteRef: 'openapi.json',
      // The project declares no licence, so the document names none.
      config: await createConfig({ extends: ['recommended'], rules: { 'info-license': 'off' } }),
    });
    const listed = problems.map(
      (p) => `${p.severity} ${p.ruleId}: ${p.message} (${p.location[0]?.pointer})`,
    );
    expect(listed).toEqual([]);
  });

  test('serves the browsable reference to a browser, with its files, and nothing else', async () => {
    const page = await t.request('/api/docs', { headers: { accept: 'text/html,*/*' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).not.toMatch(/<script>/);
    const assets = [...html.matchAll(/(?:src|href)="(\/api[^"]+)"/g)].map((m) => m[1]!);
    expect(assets).toEqual([
      '/api/docs/static/swagger-ui.css',
      '/api/docs/static/swagger-ui-bundle.js',
      '/api/docs/static/init.js',
    ]);
    for (const asset of assets) {
      const res = await t.request(asset);
      expect(res.status, asset).toBe(200);
      expect(res.headers.get('content-type'), asset).toMatch(/^text\/(css|javascript)/);
    }
    const init = await (await t.request('/api/docs/static/init.js')).text();
    expect(init).toContain("url: '/api/docs/json'");
    const bundle = await (await t.request('/api/docs/static/swagger-ui-bundle.js')).text();
    expect(bundle).toContain('SwaggerUIBundle');
    for (const name of ['index.html', '..%2Fpackage.json', 'swagger-initializer.js']) {
      expect((await t.request(`/api/docs/static/${name}`)).status, name).toBe(404);
    }
  });
});
