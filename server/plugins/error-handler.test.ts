import net from 'node:net';
import { type TestApp } from '../../tests/support/test-app';
import { describe, expect, test } from '../../tests/support/fixtures';

/**
 * Nothing a client sends may cause a 5xx: wrong types, odd bytes, huge or malformed bodies and
 * wrong content types all get a 4xx with a JSON {message}.
 */
describe('bad requests never cause a 500', () => {
  let t: TestApp;
  let cookie: string;
  let pledgeId: string;
  test.beforeAll(async ({ app, adminClient }) => {
    t = app;
    cookie = adminClient.cookie;
    const res = await t.request('/api/pledges', {
      method: 'POST',
      json: { name: 'Ann', email: 'ann@donors.test', amount: 10 },
    });
    pledgeId = (await res.json()).id;
  });

  const pledgeCount = async () =>
    ((await (await t.request('/api/progress')).json()) as { pledgeCount: number }).pledgeCount;

  const raw = (
    url: string,
    body: string | Uint8Array<ArrayBuffer>,
    type: string | null = 'application/json',
    method = 'POST',
    withCookie = false,
  ) => {
    const headers: Record<string, string> = {};
    if (type !== null) headers['content-type'] = type;
    if (withCookie) headers.cookie = cookie;
    return fetch(t.baseUrl + url, { method, body, headers });
  };

  async function expectJsonError(res: Response, status: number, message?: string | RegExp) {
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await res.json();
    expect(typeof body.message).toBe('string');
    if (typeof message === 'string') expect(body.message).toBe(message);
    else if (message) expect(body.message).toMatch(message);
  }

  test('answers a 2 MB JSON body with 413 (public, admin and login routes)', async () => {
    const big = JSON.stringify({
      name: 'A'.repeat(2 * 1024 * 1024),
      email: 'a@donors.test',
      amount: 1,
    });
    await expectJsonError(await raw('/api/pledges', big), 413, 'The request is too large.');
    await expectJsonError(
      await raw(
        '/api/progress',
        JSON.stringify({ manualAdjustment: 1, pad: big }),
        undefined,
        'PUT',
        true,
      ),
      413,
    );
    await expectJsonError(await raw('/api/admin/login', big), 413);
    expect(await pledgeCount()).toBe(1);
  });

  test.each([
    'text/plain',
    'text/plain;charset=UTF-8',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/xml',
  ])('answers content type %s with 415', async (type) => {
    await expectJsonError(
      await raw('/api/pledges', '{"name":"A","email":"a@donors.test","amount":5}', type),
      415,
      'Unsupported content type: send JSON (application/json).',
    );
    await expectJsonError(
      await raw(`/api/pledges/${pledgeId}`, '{"updates":{"name":"B"}}', type, 'PATCH', true),
      415,
    );
    expect(await pledgeCount()).toBe(1);
  });

  test('answers a body without a content type with 415', async () => {
    await expectJsonError(await raw('/api/pledges', '{"name":"A"}', null), 415);
  });

  test('accepts application/json with a charset', async () => {
    const res = await raw(
      '/api/pledges',
      JSON.stringify({ name: 'Charset', email: 'c@donors.test', amount: 5 }),
      'application/json; charset=utf-8',
    );
    expect(res.status).toBe(201);
  });

  test.each([
    ['truncated JSON', '{"name": "A", "email": '],
    ['single quotes', "{'name': 'A'}"],
    ['a trailing comma', '{"name":"A",}'],
    ['a raw NUL byte in a string', '{"name":"A\u0000B","email":"a@donors.test","amount":5}'],
    ['NaN', '{"name":"A","email":"a@donors.test","amount":NaN}'],
    ['two documents', '{"a":1}{"b":2}'],
  ])('answers malformed JSON (%s) with 400', async (_what, body) => {
    await expectJsonError(
      await raw('/api/pledges', body),
      400,
      'The request body is not valid JSON.',
    );
  });

  test('refuses prototype-pollution keys', async () => {
    for (const body of [
      '{"__proto__":{"isPaid":true},"name":"A","email":"a@donors.test","amount":5}',
      '{"constructor":{"prototype":{"isPaid":true}},"name":"A","email":"a@donors.test","amount":5}',
    ]) {
      const res = await raw('/api/pledges', body);
      expect(res.status).toBe(400);
    }
    expect(({} as Record<string, unknown>).isPaid).toBeUndefined();
  });

  test('treats numbers past every range as a validation error', async () => {
    const before = await pledgeCount();
    for (const amount of [
      '1e400',
      '-1e400',
      '123456789012345678901234567890',
      '9007199254740993',
    ]) {
      const res = await raw(
        '/api/pledges',
        `{"name":"A","email":"a@donors.test","amount":${amount}}`,
      );
      expect(res.status, amount).toBe(400);
    }
    const adj = await raw('/api/progress', '{"manualAdjustment":1e400}', undefined, 'PUT', true);
    expect(adj.status).toBe(400);
    expect(await pledgeCount()).toBe(before);
  });

  test('refuses text with lone surrogates and control characters', async () => {
    for (const name of ['"\\ud800"', '"A\\u0000"', '"A\\u001b[31m"', '"A\\nB"', '"\\u202e"']) {
      const res = await raw('/api/pledges', `{"name":${name},"email":"a@donors.test","amount":5}`);
      expect(res.status, name).toBe(400);
    }
  });

  test('copes with bytes that are not UTF-8', async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"name":"A'),
      Buffer.from([0xff, 0xfe, 0xc3]),
      Buffer.from('","email":"a@donors.test","amount":5}'),
    ]);
    const res = await raw('/api/pledges', new Uint8Array(bytes));
    expect(res.status).toBeLessThan(500);
  });

  test('answers deeply nested JSON with 4xx', async () => {
    const deep = '{"updates":' + '['.repeat(20_000) + ']'.repeat(20_000) + '}';
    const res = await raw(`/api/pledges/${pledgeId}`, deep, undefined, 'PATCH', true);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });

  test('answers wrong types in every field with 400', async () => {
    const values = [null, true, 0, -1, 1.5, '', 'x', [], {}, ['a'], { a: 1 }];
    for (const v of values) {
      for (const key of ['name', 'email', 'amount', 'currency', 'isAnonymous']) {
        const body = {
          name: 'A',
          email: 'a@donors.test',
          amount: 5,
          currency: 'USD',
          isAnonymous: false,
          [key]: v,
        };
        const res = await t.request('/api/pledges', { method: 'POST', json: body });
        expect(res.status, `${key}=${JSON.stringify(v)}`).toBeLessThan(500);
      }
      const progress = await t.request('/api/progress', {
        method: 'PUT',
        cookie,
        json: { manualAdjustment: v },
      });
      expect(progress.status).toBeLessThan(500);
      const edit = await t.request(`/api/pledges/${pledgeId}`, {
        method: 'PATCH',
        cookie,
        json: { updates: v },
      });
      expect(edit.status).toBeLessThan(500);
      const update = await t.request('/api/updates', {
        method: 'POST',
        cookie,
        json: { imageUrl: v, recipient: v, containerCount: v, deliveryDate: v },
      });
      expect(update.status).toBe(400);
    }
  });

  test('answers odd query strings and paths with 4xx', async () => {
    for (const url of [
      '/api/pledges?limit=1&limit=2',
      '/api/pledges?limit=%00',
      '/api/admin/pledges?page=1e400',
      '/api/admin/pledges?search=' + 'x'.repeat(300),
      `/api/pledges/${'a'.repeat(5000)}/confirm`,
      '/api/pledges/%E0%A4%A/confirm',
      '/api/objects/uploads/%2e%2e%2f%2e%2e%2fpackage.json',
    ]) {
      const res = await fetch(t.baseUrl + url, {
        method: url.endsWith('/confirm') ? 'PUT' : 'GET',
        headers: { cookie },
      });
      expect(res.status, url).toBeGreaterThanOrEqual(400);
      expect(res.status, url).toBeLessThan(500);
    }
  });

  test('ignores unknown query parameters', async () => {
    expect((await t.request('/api/pledges?limit[]=1&x=%00')).status).toBe(200);
  });

  test('answers unknown API paths with a JSON 404', async () => {
    const res = await t.request('/api/nope');
    await expectJsonError(res, 404, 'Not found: GET /api/nope');
    const post = await t.request('/api/pledges/extra/path', { method: 'POST', json: {} });
    expect(post.status).toBe(404);
  });

  test('refuses method-override headers', async () => {
    const res = await t.request('/api/pledges', {
      method: 'POST',
      headers: { 'x-http-method-override': 'DELETE' },
      json: { name: 'A', email: 'a@donors.test', amount: 5 },
    });
    expect(res.status).toBe(405);
  });

  test('survives a client that sends less body than it announced', async () => {
    const url = new URL(t.baseUrl);
    await new Promise<void>((resolve) => {
      const socket = net.connect(Number(url.port), url.hostname, () => {
        socket.write(
          'POST /api/pledges HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"name":',
        );
        setTimeout(() => socket.destroy(), 50);
      });
      socket.on('close', () => resolve());
      socket.on('error', () => resolve());
    });
    expect((await t.request('/api/health')).status).toBe(200);
    expect(await pledgeCount()).toBeGreaterThanOrEqual(1);
  });
});
