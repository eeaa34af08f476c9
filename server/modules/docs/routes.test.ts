import { type TestApp } from '../../../tests/support/test-app';
import { describe, expect, test } from '../../../tests/support/fixtures';

interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
}

/** The API as the client and outside callers use it: every route the docs must list. */
const EXPECTED = [
  'GET /api/docs',
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
  'PATCH /api/pledges/{id}',
  'DELETE /api/pledges/{id}',
  'GET /api/admin/pledges',
  'GET /api/admin/pledges/{id}/emails',
  'POST /api/admin/pledges/{id}/emails/resend',
  'GET /api/admin/activity',
  'GET /api/admin/backup',
  'POST /api/admin/statements/preview',
  'POST /api/admin/statements/import',
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
  'GET /pledge/{id}',
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

describe('GET /api/docs', () => {
  let t: TestApp;
  let doc: OpenApiDocument;
  test.beforeAll(async ({ app }) => {
    t = app;
    const res = await t.request('/api/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    doc = (await res.json()) as OpenApiDocument;
  });

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
});
