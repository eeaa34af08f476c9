import fc from 'fast-check';
import http from 'node:http';
import { afterAll } from 'vitest';
import { containersFor } from '@shared/containers';
import { sampleJpeg } from '../fixtures';
import type { TestApp } from '../support/test-app';
import { describe, expect, test } from '../support/fixtures';
import { rawRequest } from '../support/http';
import { adminPledges, createPledge, uploadImage, uploadUrl } from '../support/api';

/**
 * Generated requests per run: about 2,500 per database in `npm test`, 5,000 in the soak run
 * (npm run test:soak).
 */
const SCALE = process.env.SOAK ? 1 : 0.5;

/**
 * Property-based fuzzing of every endpoint: whatever the body, query, id, Content-Type or cookie,
 * the answer is below 500, and the server stays up with its totals exact.
 */
test.override('appOptions', {
  env: { RATE_LIMIT_PLEDGES_PER_MINUTE: '0', RATE_LIMIT_LOGIN_PER_MINUTE: '0' },
});

describe('fuzz: generated requests against every endpoint', () => {
  let t: TestApp;
  let cookie: string;
  let imageUrl: string;
  const ids: string[] = [];
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  let sent = 0;
  let created = 0;
  const failures: string[] = [];

  test.beforeAll(async ({ app, adminClient }) => {
    t = app;
    cookie = adminClient.cookie;
    for (let i = 0; i < 5; i++) ids.push((await createPledge(t)).id);
    imageUrl = await uploadImage(t, cookie, sampleJpeg(), 'image/jpeg');
  });
  afterAll(() => agent.destroy());

  interface Answer {
    status: number;
    body: string;
    type: string;
  }

  /**
   * One request over a keep-alive socket. A socket the server closed (after answering a body it
   * did not read) can be reused by the agent and reset: Node's documented answer is one retry.
   */
  async function send(
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: string | Buffer,
  ): Promise<Answer> {
    sent += 1;
    try {
      return await sendOnce(method, path, headers, body);
    } catch (err) {
      if ((err as { reusedSocket?: boolean }).reusedSocket)
        return sendOnce(method, path, headers, body);
      throw err;
    }
  }

  async function sendOnce(
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: string | Buffer,
  ): Promise<Answer> {
    const res = await rawRequest(t.baseUrl, {
      method,
      path,
      headers,
      body,
      agent,
      timeoutMs: 120_000,
    });
    return { status: res.status, body: res.body, type: String(res.headers['content-type'] ?? '') };
  }

  /** The property every request must hold. */
  async function check(
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: string | Buffer,
  ) {
    const res = await send(method, path, headers, body);
    if (method === 'POST' && path === '/api/pledges' && res.status === 201) created += 1;
    if (res.status >= 500) {
      failures.push(`${method} ${path} -> ${res.status} ${res.body.slice(0, 200)}`);
      return false;
    }
    // API errors are JSON with a message.
    if (res.status >= 400 && path.startsWith('/api/') && method !== 'HEAD') {
      if (!res.type.startsWith('application/json')) return false;
      const parsed = JSON.parse(res.body) as { message?: unknown };
      if (typeof parsed.message !== 'string') return false;
    }
    return true;
  }

  // ---- Arbitraries -------------------------------------------------------------------------
  const text = fc.oneof(
    fc.string({ maxLength: 30 }),
    fc.string({ unit: 'binary', maxLength: 30 }),
    fc.string({ unit: 'grapheme', maxLength: 30 }),
    fc.constantFrom(
      '',
      ' ',
      '\u0000',
      '\ud800',
      '\u202e',
      '=1+1',
      "' OR 1=1 --",
      '<img src=x onerror=alert(1)>',
      '__proto__',
      'a@b.test',
      'USD',
      'JMD',
      '2025-02-30',
      '2025-01-05',
    ),
  );
  const number = fc.oneof(
    fc.integer(),
    fc.integer({ min: -5, max: 2_000_000_000 }),
    fc.double(),
    fc.constantFrom(
      0,
      -0,
      1,
      1e9,
      1e9 + 1,
      2 ** 31,
      2 ** 53 + 1,
      Number.MAX_VALUE,
      Number.MIN_VALUE,
    ),
  );
  const anyValue = fc.oneof(
    { weight: 3, arbitrary: text },
    { weight: 3, arbitrary: number },
    { weight: 1, arbitrary: fc.boolean() },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  );
  const field = <T>(valid: fc.Arbitrary<T>) =>
    fc.oneof({ weight: 2, arbitrary: valid }, { weight: 1, arbitrary: anyValue });
  const validName = fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim().length > 0);
  /** Addresses the schema accepts (fast-check's RFC 5322 ones are mostly refused, on purpose). */
  const plainEmail = fc
    .tuple(
      fc.stringMatching(/^[a-z0-9][a-z0-9._+-]{0,20}$/),
      fc.constantFrom('example.test', 'mail.jm'),
    )
    .map(([local, domain]) => `${local}@${domain}`);
  const validPledge = fc.record({
    name: validName,
    email: plainEmail,
    amount: fc.integer({ min: 1, max: 1_000_000_000 }),
    currency: fc.constantFrom('USD', 'JMD'),
    isAnonymous: fc.boolean(),
  });
  /** Valid pledges, valid ones with one field broken or extra keys, and free-form records. */
  const pledge = fc.oneof(
    { weight: 3, arbitrary: validPledge },
    {
      weight: 3,
      arbitrary: fc
        .tuple(
          validPledge,
          fc.constantFrom(
            'name',
            'email',
            'amount',
            'currency',
            'isAnonymous',
            'isPaid',
            'id',
            'createdAt',
            'website',
          ),
          fc.option(anyValue, { nil: undefined }),
        )
        .map(([p, key, value]) => ({ ...p, [key]: value })),
    },
    {
      weight: 2,
      arbitrary: fc.record(
        {
          name: field(validName),
          email: field(fc.oneof(plainEmail, fc.emailAddress())),
          amount: field(fc.integer({ min: 1, max: 1_000_000_000 })),
          currency: field(fc.constantFrom('USD', 'JMD')),
          isAnonymous: field(fc.boolean()),
          website: fc.option(text, { nil: undefined }),
        },
        { requiredKeys: [] },
      ),
    },
  );
  const update = fc.record(
    {
      imageUrl: field(fc.constantFrom('IMAGE', 'javascript:alert(1)', 'https://evil.test/x.png')),
      recipient: field(validName),
      containerCount: field(fc.integer({ min: 1, max: 100_000_000 })),
      deliveryDate: field(
        fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
      ),
    },
    { requiredKeys: [] },
  );
  const progress = fc.record(
    {
      manualAdjustment: field(fc.integer({ min: -1e9, max: 1e9 })),
      goalAmount: field(fc.integer({ min: 1, max: 1e9 })),
    },
    { requiredKeys: [] },
  );
  /** A body: mostly the shape the endpoint wants, sometimes any JSON, sometimes not JSON at all. */
  const body = <T>(shape: fc.Arbitrary<T>) =>
    fc.oneof(
      {
        weight: 6,
        arbitrary: shape.map((v) => JSON.stringify(v).replace('"IMAGE"', JSON.stringify(imageUrl))),
      },
      { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          '',
          '{',
          '[]',
          'null',
          '{"__proto__":{"x":1}}',
          '{"constructor":{"prototype":{}}}',
          '['.repeat(5000),
        ),
      },
    );
  const contentType = fc.oneof(
    { weight: 8, arbitrary: fc.constant('application/json') },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'text/plain',
        'application/x-www-form-urlencoded',
        'APPLICATION/JSON; charset=utf-8',
        'application/json; charset=latin1',
        'multipart/form-data; boundary=x',
        'image/png',
        '',
        'application/json\tx',
      ),
    },
  );
  const id = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...[0, 1, 2, 3, 4]).map((i) => ids[i]!) },
    { weight: 2, arbitrary: fc.uuid() },
    { weight: 2, arbitrary: fc.string({ maxLength: 60 }).map((s) => encodeURIComponent(s) || 'x') },
  );
  const auth = fc.oneof(
    { weight: 6, arbitrary: fc.constant('ADMIN') },
    { weight: 1, arbitrary: fc.constant('') },
    {
      weight: 1,
      arbitrary: fc.string({ maxLength: 60 }).map((s) => `sid=${encodeURIComponent(s)}`),
    },
  );
  const headersOf = (type: string, who: string): Record<string, string> => {
    const h: Record<string, string> = {};
    if (type) h['content-type'] = type;
    if (who === 'ADMIN') h.cookie = cookie;
    else if (who) h.cookie = who;
    return h;
  };
  const query = fc
    .dictionary(
      fc.constantFrom(
        'limit',
        'search',
        'status',
        'sort',
        'order',
        'page',
        'pageSize',
        'w',
        'x',
        '__proto__',
      ),
      fc.oneof(
        fc.string({ maxLength: 20 }),
        fc.integer().map(String),
        fc.constantFrom(
          'paid',
          'pending',
          'all',
          'amount',
          'date',
          'asc',
          'desc',
          '-1',
          '1e9',
          '400',
          '',
          '%',
        ),
      ),
      { maxKeys: 4 },
    )
    .map((q) => {
      const s = new URLSearchParams(q as Record<string, string>).toString();
      return s ? `?${s}` : '';
    });

  const runs = (n: number) => ({ numRuns: Math.ceil(n * SCALE), endOnFailure: true });

  test(
    'mutating endpoints never answer 5xx (pledges, progress, updates, uploads, login)',
    async () => {
      // Image bytes: random, or random after a real format's magic number (the decoder sees them).
      const magic = fc.constantFrom(
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
        Buffer.from([0xff, 0xd8, 0xff]),
        Buffer.from('GIF89a'),
        Buffer.from('RIFF\0\0\0\0WEBP'),
        Buffer.alloc(0),
      );
      // The properties run side by side: requests overlap as real traffic does, and it is faster.
      await Promise.all([
        ...[0, 1, 2].map(() =>
          fc.assert(
            fc.asyncProperty(body(pledge), contentType, (b, type) =>
              check('POST', '/api/pledges', headersOf(type, ''), b),
            ),
            runs(400),
          ),
        ),
        fc.assert(
          fc.asyncProperty(
            id,
            body(fc.record({ updates: pledge }, { requiredKeys: [] })),
            contentType,
            auth,
            (i, b, type, who) => check('PATCH', `/api/pledges/${i}`, headersOf(type, who), b),
          ),
          runs(500),
        ),
        fc.assert(
          fc.asyncProperty(id, body(fc.constant({})), contentType, auth, (i, b, type, who) =>
            check('PUT', `/api/pledges/${i}/confirm`, headersOf(type, who), b),
          ),
          runs(300),
        ),
        fc.assert(
          fc.asyncProperty(body(progress), contentType, auth, (b, type, who) =>
            check('PUT', '/api/progress', headersOf(type, who), b),
          ),
          runs(400),
        ),
        fc.assert(
          fc.asyncProperty(body(update), contentType, auth, (b, type, who) =>
            check('POST', '/api/updates', headersOf(type, who), b),
          ),
          runs(400),
        ),
        fc.assert(
          fc.asyncProperty(
            body(
              fc.record({ password: field(fc.string({ maxLength: 20 })) }, { requiredKeys: [] }),
            ),
            contentType,
            (b, type) => check('POST', '/api/admin/login', headersOf(type, ''), b),
          ),
          runs(150),
        ),
        fc.assert(
          fc.asyncProperty(body(fc.constant({})), contentType, auth, (b, type, who) =>
            check('POST', '/api/objects/upload', headersOf(type, who), b),
          ),
          runs(100),
        ),
        fc.assert(
          fc.asyncProperty(
            magic,
            fc.uint8Array({ maxLength: 2000 }),
            fc.constantFrom('image/png', 'image/jpeg', 'application/octet-stream', ''),
            async (m, rest, type) => {
              const url = new URL(await uploadUrl(t, cookie));
              return check(
                'PUT',
                url.pathname + url.search,
                type ? { 'content-type': type } : {},
                Buffer.concat([m, Buffer.from(rest)]),
              );
            },
          ),
          runs(150),
        ),
      ]);
      const updateIds = ((await (await t.request('/api/updates')).json()) as { id: string }[]).map(
        (u) => u.id,
      );
      const updateId = fc.oneof(id, fc.constantFrom(...(updateIds.length ? updateIds : ['none'])));
      await Promise.all([
        fc.assert(
          fc.asyncProperty(
            updateId,
            body(fc.record({ updates: update }, { requiredKeys: [] })),
            contentType,
            auth,
            (i, b, type, who) => check('PATCH', `/api/updates/${i}`, headersOf(type, who), b),
          ),
          runs(300),
        ),
        fc.assert(
          fc.asyncProperty(id, auth, (i, who) =>
            check('DELETE', `/api/pledges/${i}`, headersOf('', who)),
          ),
          runs(150),
        ),
        fc.assert(
          fc.asyncProperty(updateId, auth, (i, who) =>
            check('DELETE', `/api/updates/${i}`, headersOf('', who)),
          ),
          runs(100),
        ),
      ]);
      expect(failures).toEqual([]);
    },
    120_000 * Math.max(1, SCALE),
  );

  test(
    'reads never answer 5xx (lists, dashboard, export, images, pages, random paths)',
    async () => {
      const paths = fc.constantFrom(
        '/api/pledges',
        '/api/admin/pledges',
        '/api/progress',
        '/api/updates',
        '/api/admin/check',
        '/api/health',
        '/api/pledges/export',
        `/api/objects/uploads/${new URL(imageUrl).pathname.split('/').pop()}`,
        '/',
        '/admin',
        '/payment-instructions',
      );
      await fc.assert(
        fc.asyncProperty(paths, query, auth, (p, q, who) =>
          check('GET', p + q, headersOf('', who)),
        ),
        runs(800),
      );
      const segment = fc.oneof(
        fc.string({ maxLength: 12 }).map(encodeURIComponent),
        fc.constantFrom(
          '..',
          '%2e%2e',
          '%00',
          '%2f',
          'api',
          'objects',
          'uploads',
          'pledges',
          '%ZZ',
          '%',
          'assets',
          '.env',
        ),
      );
      await fc.assert(
        fc.asyncProperty(
          fc.array(segment, { minLength: 1, maxLength: 5 }),
          fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'),
          auth,
          (segs, method, who) =>
            check(
              method,
              `/${segs.join('/')}`,
              headersOf(method === 'GET' || method === 'HEAD' ? '' : 'application/json', who),
              method === 'GET' || method === 'HEAD' ? undefined : '{}',
            ),
        ),
        runs(600),
      );
      expect(failures).toEqual([]);
    },
    60_000 * Math.max(1, SCALE),
  );

  test(`sent at least ${5_000 * SCALE} requests, and the server is up with exact totals`, async () => {
    expect(sent).toBeGreaterThanOrEqual(5_000 * SCALE);
    expect((await t.request('/api/health')).status).toBe(200);
    await createPledge(t);
    const all = await adminPledges(t, cookie);
    const progress = (await (await t.request('/api/progress')).json()) as {
      currentAmount: number;
      manualAdjustment: number;
      pledgeCount: number;
    };
    const containers = all.reduce((s, p) => s + containersFor(p.amount, p.currency), 0);
    expect(progress.pledgeCount).toBe(all.length);
    expect(progress.currentAmount).toBe(containers + progress.manualAdjustment);
    // Enough generated pledges were valid to exercise the write path, not only validation.
    expect(created).toBeGreaterThan(100 * SCALE);
    console.log(`fuzz: ${sent} requests, ${created} pledges created, ${all.length} stored`);
  });
});
