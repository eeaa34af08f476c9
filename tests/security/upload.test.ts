import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { IMAGE_MAX_BYTES } from '@shared/constants';
import { sampleSvg } from '../fixtures';
import { describe, expect, test } from '../support/fixtures';
import {
  HTML_PAYLOAD,
  jpegClaiming,
  jpegHtmlPolyglot,
  pngClaiming,
  pngOfExactSize,
  smallPng,
} from '../support/images';
import { rawRequest } from '../support/http';
import { uploadUrl } from '../support/api';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const put = (url: string, body: Buffer | string, type = 'image/png') =>
  fetch(url, {
    method: 'PUT',
    body: typeof body === 'string' ? body : new Uint8Array(body),
    headers: { 'content-type': type },
  });

// The app's clock is ours: upload URLs expire when the test says.
let clock = Date.now();
test.override('appOptions', { now: () => new Date(clock) });

/** Threats 30-34: the upload path. */
describe('upload', () => {
  test('30. the upload URL needs a session, expires, cannot be altered, and works once', async ({
    app: t,
    adminClient: { cookie },
  }) => {
    expect((await t.request('/api/objects/upload', { method: 'POST' })).status).toBe(401);

    const png = await smallPng();
    const url = await uploadUrl(t, cookie);
    const u = new URL(url);
    expect(u.pathname).toMatch(/^\/api\/objects\/uploads\/[0-9a-f-]{36}$/);
    const other = new URL(await uploadUrl(t, cookie));

    // Altered: another id with this signature, a later expiry, a changed signature, none at all.
    const altered = [
      `${other.origin}${other.pathname}${u.search}`,
      url.replace(/expires=(\d+)/, (_m, e: string) => `expires=${Number(e) + 3600}`),
      url.replace(/signature=(.)/, (_m, c: string) => `signature=${c === 'A' ? 'B' : 'A'}`),
      `${u.origin}${u.pathname}`,
      `${u.origin}${u.pathname}?expires=99999999999&signature=`,
    ];
    for (const bad of altered) expect((await put(bad, png)).status, bad).toBe(403);

    const first = await put(url, png);
    expect(first.status).toBe(200);
    const { url: imageUrl } = (await first.json()) as { url: string };
    expect((await put(url, png)).status).toBe(403); // single use
    // The image is unchanged by the replay.
    expect((await fetch(imageUrl)).status).toBe(200);

    // Expiry: 15 minutes.
    const late = await uploadUrl(t, cookie);
    clock += 16 * 60_000;
    const res = await put(late, png);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { message: string }).message).toBe('Request has expired');
    clock = Date.now();
  });

  test('31. exactly 5,242,880 bytes are accepted; one byte more is 413', async ({
    app: t,
    adminClient: { cookie },
  }) => {
    expect(IMAGE_MAX_BYTES).toBe(5_242_880);
    const exact = await pngOfExactSize(IMAGE_MAX_BYTES);
    const ok = await put(await uploadUrl(t, cookie), exact);
    expect(ok.status, await ok.clone().text()).toBe(200);
    const over = await pngOfExactSize(IMAGE_MAX_BYTES + 1);
    const res = await put(await uploadUrl(t, cookie), over);
    expect(res.status).toBe(413);
  });

  test('32. SVG with a script and HTML labelled as PNG are 415; a JPEG/HTML polyglot is re-encoded', async ({
    app: t,
    adminClient: { cookie },
  }) => {
    const svg = sampleSvg();
    expect(svg.toString()).toContain('<script');
    for (const type of ['image/svg+xml', 'image/png']) {
      expect((await put(await uploadUrl(t, cookie), svg, type)).status, type).toBe(415);
    }
    for (const [bytes, type] of [
      [HTML_PAYLOAD, 'image/png'],
      [HTML_PAYLOAD, 'text/html'],
      [`GIF89a${HTML_PAYLOAD}`, 'image/gif'],
      [Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.from(HTML_PAYLOAD)]), 'image/jpeg'],
      ['%PDF-1.4\n%âãÏÓ', 'image/png'],
    ] as const) {
      const res = await put(await uploadUrl(t, cookie), bytes, type);
      expect(res.status, `${type} ${String(bytes).slice(0, 12)}`).toBe(415);
    }

    const polyglot = await jpegHtmlPolyglot();
    expect(polyglot.toString('latin1')).toContain('<script>');
    const res = await put(await uploadUrl(t, cookie), polyglot, 'image/jpeg');
    expect(res.status).toBe(200);
    const { url } = (await res.json()) as { url: string };
    for (const w of ['', '?w=400', '?w=800', '?w=1200', '?w=999']) {
      const img = await fetch(url + w);
      expect(img.status).toBe(200);
      expect(img.headers.get('content-type')).toBe('image/webp');
      expect(img.headers.get('x-content-type-options')).toBe('nosniff');
      expect(img.headers.get('content-security-policy')).toMatch(/sandbox/);
      const bytes = Buffer.from(await img.arrayBuffer());
      expect(bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
      expect(bytes.toString('latin1')).not.toMatch(/<script|<html|onerror/i);
    }
  });

  test('33. traversal in object names is 400/404, and stored names are server UUIDs', async ({
    app: t,
    adminClient: { cookie },
  }) => {
    const png = await smallPng();
    const res = await put(await uploadUrl(t, cookie), png);
    const { url } = (await res.json()) as { url: string };
    const id = new URL(url).pathname.split('/').pop()!;
    expect(id).toMatch(UUID);

    const paths = [
      '/api/objects/uploads/../../package.json',
      '/api/objects/uploads/..%2f..%2fpackage.json',
      '/api/objects/uploads/%2e%2e%2f%2e%2e%2fpackage.json',
      '/api/objects/uploads/..%5c..%5cpackage.json',
      `/api/objects/uploads/${id}%00.png`,
      `/api/objects/uploads/${id}%2f..%2f..%2fserver.lock`,
      `/api/objects/uploads/${id}/meta.json`,
      `/api/objects/uploads/${id}/800.webp`,
      `/api/objects/uploads/${id}?w=../../meta`,
      '/api/objects/uploads/%00',
      '/api/objects/uploads/.tmp-x',
      '/api/objects/uploads/..',
      '/api/objects/uploads/%2e%2e',
      `/api/objects/uploads/${id.toUpperCase()}`,
    ];
    for (const p of paths) {
      const get = await rawRequest(t.baseUrl, { path: p });
      if (p.endsWith('?w=../../meta')) {
        // An unknown width falls back to the largest variant: still our image, nothing else.
        expect(get.headers['content-type']).toBe('image/webp');
        continue;
      }
      expect([400, 404], `GET ${p}: ${get.status}`).toContain(get.status);
      expect(get.body).not.toMatch(/"name":\s*"relief-pledge"|"width":|^\d+$/);
      const putRes = await rawRequest(t.baseUrl, {
        method: 'PUT',
        path: `${p}${p.includes('?') ? '&' : '?'}expires=99999999999&signature=x`,
        headers: { 'content-type': 'image/png' },
        body: png,
      });
      expect([400, 403, 404], `PUT ${p}: ${putRes.status}`).toContain(putRes.status);
    }
    // On disk: only UUID folders and their single-use markers.
    const names = await readdir(path.join(t.dataDir, 'uploads'));
    for (const name of names) expect(name).toMatch(/^[0-9a-f-]{36}(\.claimed)?$/);
  });

  test('34. images claiming 50000×50000 pixels are refused quickly, without exhausting memory', async ({
    app: t,
    adminClient: { cookie },
  }) => {
    const rssBefore = process.memoryUsage().rss;
    for (const bomb of [
      pngClaiming(50_000, 50_000),
      pngClaiming(100_000, 100_000),
      pngClaiming(1, 2_000_000_000),
      await jpegClaiming(65_000, 65_000),
    ]) {
      expect(bomb.length).toBeLessThan(20_000);
      const started = Date.now();
      const res = await put(await uploadUrl(t, cookie), bomb);
      expect([413, 415]).toContain(res.status);
      expect(Date.now() - started).toBeLessThan(3_000);
    }
    // The server shares this process: it did not allocate gigabytes for the claimed pixels.
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(300 * 1024 * 1024);
    expect((await t.request('/api/health')).status).toBe(200);
  });
});
