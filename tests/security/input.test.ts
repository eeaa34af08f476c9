import { parse } from 'csv-parse/sync';
import { describe, expect, test } from '../support/fixtures';
import type { TestApp } from '../support/test-app';
import { adminPledge, createPledge, pledgeBody } from '../support/api';
import { rawRequest } from '../support/http';

/** Threats 24-29: hostile values in every field, and hostile bodies. */
describe('input', () => {
  let pledgeId: string;
  test.beforeAll(async ({ app: t }) => {
    ({ id: pledgeId } = await createPledge(t));
  });

  /** POST a pledge as raw JSON text (for values JSON.stringify cannot write, like 1e400). */
  const postRaw = (t: TestApp, body: string, contentType = 'application/json') =>
    rawRequest(t.baseUrl, {
      method: 'POST',
      path: '/api/pledges',
      headers: { 'content-type': contentType },
      body,
    });
  const withField = (field: string, rawValue: string) =>
    JSON.stringify(pledgeBody()).replace(/}$/, `,"${field}":${rawValue}}`);

  test('24. amounts that are not whole numbers from 1 to 1e9 are 400, never 500', async ({
    app: t,
    adminClient: { cookie },
  }) => {
    const amounts = [
      '0',
      '-1',
      '1.5',
      '"100"',
      'true',
      'null',
      '[]',
      '{}',
      '1e400',
      '-1e400',
      '2147483648',
      '9007199254740993',
      '1000000001',
      '"1e3"',
      '0x10',
      'NaN',
      'Infinity',
    ];
    for (const raw of amounts) {
      const res = await postRaw(t, withField('amount', raw));
      expect(res.status, `amount ${raw}: ${res.body}`).toBe(400);
    }
    for (const raw of amounts) {
      const res = await rawRequest(t.baseUrl, {
        method: 'PATCH',
        path: `/api/pledges/${pledgeId}`,
        headers: { 'content-type': 'application/json', cookie },
        body: `{"updates":{"amount":${raw}}}`,
      });
      expect(res.status, `PATCH amount ${raw}: ${res.body}`).toBe(400);
    }
    for (const raw of [
      '1.5',
      '"100"',
      'true',
      'null',
      '[]',
      '1e400',
      '2147483648',
      '9007199254740993',
    ]) {
      const res = await rawRequest(t.baseUrl, {
        method: 'PUT',
        path: '/api/progress',
        headers: { 'content-type': 'application/json', cookie },
        body: `{"manualAdjustment":${raw}}`,
      });
      expect(res.status, `manualAdjustment ${raw}`).toBe(400);
    }
    // The boundaries themselves are fine.
    expect((await postRaw(t, withField('amount', '1'))).status).toBe(201);
    expect((await postRaw(t, withField('amount', '1000000000'))).status).toBe(201);
  });

  test('25. unknown or mis-cased currency and a non-boolean isAnonymous are 400', async ({
    app: t,
  }) => {
    for (const raw of ['"EUR"', '"usd"', '"Usd"', '""', 'null', '1', '["USD"]']) {
      expect((await postRaw(t, withField('currency', raw))).status, raw).toBe(400);
    }
    for (const raw of ['"yes"', '"true"', '1', '0', 'null', '[]']) {
      expect((await postRaw(t, withField('isAnonymous', raw))).status, raw).toBe(400);
    }
  });

  test('26. NUL, lone surrogates, invisible-only and over-long names are 400; emoji round-trip', async ({
    app: t,
    adminClient: { cookie },
  }) => {
    const badNames = [
      '"a\\u0000b"',
      '"\\u0000"',
      '"\\ud800"',
      '"x\\udc00y"',
      '"\\udbff\\udbff"',
      '"\\u200b\\u200c\\u200d\\ufeff"',
      '"\\u202e"',
      '"\\u202e\\u202d\\u2066"',
      '"\\u00a0\\u2003\\u3000"',
      '"a\\nb"',
      '"a\\u001bb"',
      '"a\\u0085b"',
      JSON.stringify('x'.repeat(10_001)),
      JSON.stringify('x'.repeat(201)),
      '""',
      '"   "',
    ];
    for (const raw of badNames) {
      const res = await postRaw(t, withField('name', raw));
      expect(res.status, `name ${raw.slice(0, 40)}`).toBe(400);
      const rec = await rawRequest(t.baseUrl, {
        method: 'PATCH',
        path: `/api/pledges/${pledgeId}`,
        headers: { 'content-type': 'application/json', cookie },
        body: `{"updates":{"name":${raw}}}`,
      });
      expect(rec.status, `PATCH name ${raw.slice(0, 40)}`).toBe(400);
    }
    const emoji = '👩‍👩‍👧‍👦 🇯🇲 👍🏽 🏳️‍🌈 Zoë Ñandú 李雷 مرحبا';
    const { id } = await createPledge(t, { name: emoji });
    expect((await adminPledge(t, cookie, id))?.name).toBe(emoji);
    const pub = (await (await t.request('/api/pledges?limit=8')).json()) as {
      id: string;
      name: string;
    }[];
    expect(pub.find((p) => p.id === id)?.name).toBe(emoji);
    const csv = parse(await (await t.request('/api/pledges/export', { cookie })).text(), {
      columns: true,
    }) as { id: string; name: string }[];
    expect(csv.find((r) => r.id === id)?.name).toBe(emoji);
    const html = await (await t.request('/')).text();
    expect(html).toContain(emoji);
  });

  test('27. bad e-mail addresses, header injection and over-long ones are 400', async ({
    app: t,
    adminClient: { cookie },
  }) => {
    const bad = [
      'plainaddress',
      'a@b',
      '@x.test',
      'a@',
      'a@b.com\r\nBcc:x@y.test',
      'a@b.com\nBcc: x@y.test',
      'a@b.com\r\n',
      'a@b.com, c@d.test',
      '<a@b.test>',
      'a b@c.test',
      `${'a'.repeat(250)}@x.io`,
      `a@${'b'.repeat(250)}.test`,
      '',
    ];
    for (const email of bad) {
      const res = await t.request('/api/pledges', { method: 'POST', json: pledgeBody({ email }) });
      // "a@b.com\r\n" alone is trimmed to a good address; nothing may smuggle a second line.
      if (email === 'a@b.com\r\n') {
        expect(res.status).toBe(201);
        const id = ((await res.json()) as { id: string }).id;
        expect((await adminPledge(t, cookie, id))?.email).toBe('a@b.com');
        continue;
      }
      expect(res.status, JSON.stringify(email)).toBe(400);
      expect(((await res.json()) as { message: string }).message).toBe('Valid email is required');
    }
  });

  test('28. a 2 MB body is 413, and 100,000 nested brackets are a fast 400', async ({ app: t }) => {
    const huge = JSON.stringify(pledgeBody({ name: 'x'.repeat(2 * 1024 * 1024) }));
    const big = await postRaw(t, huge);
    expect(big.status).toBe(413);
    for (const deep of [
      '['.repeat(100_000) + ']'.repeat(100_000),
      '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000),
    ]) {
      const started = Date.now();
      const res = await postRaw(t, deep);
      expect(res.status).toBe(400);
      expect(Date.now() - started).toBeLessThan(2_000);
      const nested = await postRaw(t, withField('name', deep));
      expect(nested.status).toBe(400);
    }
    // An unbalanced one, too.
    expect((await postRaw(t, '['.repeat(100_000))).status).toBe(400);
    expect((await t.request('/api/health')).status).toBe(200);
  });

  test('29. odd Content-Type spellings are 415 or validated normally, never a bypass', async ({
    app: t,
    adminClient: { cookie },
  }) => {
    const types = [
      'application/json\tx',
      ' application/json',
      'APPLICATION/JSON; CHARSET=UTF-8',
      'Application/Json',
      'application/json;charset=utf-16',
      'application/json;x=y;',
      'application/json ; charset=utf-8',
      'application/json;charset="utf-8"',
      'application/jsonx',
      'application/json-patch+json',
      'application/vnd.api+json',
      'application/x-json',
      'text/json',
      'application/json, text/plain',
      'text/plain; application/json',
      'application/*',
      '*/*',
      '',
    ];
    const invalid = JSON.stringify(pledgeBody({ amount: -5, isPaid: true }));
    for (const type of types) {
      const bad = await postRaw(t, invalid, type);
      expect([400, 415], `${JSON.stringify(type)} invalid: ${bad.status}`).toContain(bad.status);
      const body = pledgeBody();
      const good = await postRaw(t, JSON.stringify(body), type);
      expect([201, 415], `${JSON.stringify(type)} valid: ${good.status}`).toContain(good.status);
      if (good.status === 201) {
        const id = (JSON.parse(good.body) as { id: string }).id;
        const stored = await adminPledge(t, cookie, id);
        expect(stored?.name).toBe(body.name);
        expect(stored?.isPaid).toBe(false);
      }
    }
  });

  test('28. a flood of pledges from one client is cut off with 429', async ({ app: t }) => {
    const limit = t.config.rateLimitPledgesPerMinute;
    expect(limit).toBeGreaterThan(0);
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    const total = limit + 60;
    for (let sent = 0; sent < total; sent += 50) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(50, total - sent) }, () =>
          t.request('/api/pledges', { method: 'POST', json: pledgeBody() }),
        ),
      );
      for (const r of batch) {
        statuses.push(r.status);
        if (r.status === 429) retryAfter ??= r.headers.get('retry-after');
        await r.arrayBuffer();
      }
    }
    const created = statuses.filter((s) => s === 201).length;
    const limited = statuses.filter((s) => s === 429).length;
    expect(created + limited).toBe(total);
    expect(limited).toBeGreaterThanOrEqual(60);
    expect(created).toBeLessThanOrEqual(limit);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });
});
