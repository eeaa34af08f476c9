import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { IMAGE_MAX_BYTES } from '@shared/constants';
import { sampleJpeg, samplePng, sampleSvg } from '../../../tests/fixtures';
import { uploadUrl } from '../../../tests/support/api';
import { pngClaiming } from '../../../tests/support/images';
import { type TestApp } from '../../../tests/support/test-app';
import { describe, expect, test } from '../../../tests/support/fixtures';

const put = (url: string, body: Buffer | string, type = 'image/png') =>
  fetch(url, {
    method: 'PUT',
    body: typeof body === 'string' ? body : new Uint8Array(body),
    headers: { 'content-type': type },
  });

let clock = Date.now();
test.override('appOptions', { now: () => new Date(clock) });

describe('image upload', () => {
  let t: TestApp;
  let cookie: string;
  test.beforeAll(async ({ app, adminClient }) => {
    t = app;
    cookie = adminClient.cookie;
  });

  test('gives an admin a signed, absolute, 15-minute upload URL', async () => {
    const res = await t.request('/api/objects/upload', { method: 'POST', cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = await res.json();
    expect(Object.keys(body)).toEqual(['uploadURL']);
    const u = new URL(body.uploadURL);
    expect(u.origin).toBe(t.baseUrl);
    expect(u.pathname).toMatch(/^\/api\/objects\/uploads\/[0-9a-f-]{36}$/);
    const expires = Number(u.searchParams.get('expires'));
    expect(expires * 1000 - clock).toBeGreaterThan(14 * 60_000);
    expect(expires * 1000 - clock).toBeLessThanOrEqual(15 * 60_000);
    expect(u.searchParams.get('signature')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  test('accepts a real PNG and serves it back as WebP from the URL without its query', async () => {
    const url = await uploadUrl(t, cookie);
    const res = await put(url, samplePng());
    expect(res.status).toBe(200);
    const body = await res.json();
    const plain = url.split('?')[0]!;
    expect(body).toMatchObject({ url: plain, width: 640, height: 480 });

    const img = await fetch(plain);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/webp');
    expect(img.headers.get('x-content-type-options')).toBe('nosniff');
    expect(img.headers.get('cache-control')).toBe('public, max-age=3600');
    const bytes = Buffer.from(await img.arrayBuffer());
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(bytes.subarray(8, 12).toString('latin1')).toBe('WEBP');
    const meta = await sharp(bytes).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 640, height: 480 });

    // Smaller variants for srcset; an unknown width falls back to the largest.
    const small = Buffer.from(await (await fetch(`${plain}?w=400`)).arrayBuffer());
    expect((await sharp(small).metadata()).width).toBe(400);
    const odd = Buffer.from(await (await fetch(`${plain}?w=123`)).arrayBuffer());
    expect((await sharp(odd).metadata()).width).toBe(640);

    // Stored under DATA_DIR/uploads/<uuid>/.
    const id = plain.split('/').pop()!;
    expect(readdirSync(path.join(t.dataDir, 'uploads', id)).sort()).toEqual([
      '1200.webp',
      '400.webp',
      '800.webp',
      'meta.json',
    ]);
  });

  test('decides by the bytes, not the declared type: a JPEG sent as octet-stream is accepted', async () => {
    const res = await put(await uploadUrl(t, cookie), sampleJpeg(), 'application/octet-stream');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ width: 640, height: 480 });
  });

  test('re-encodes: camera metadata and bytes appended to the image are gone', async () => {
    const withExif = await sharp(samplePng())
      .jpeg()
      .withExif({ IFD0: { Copyright: 'GPS-SECRET-12345' } })
      .toBuffer();
    expect(withExif.includes('GPS-SECRET-12345')).toBe(true);
    const polyglot = Buffer.concat([withExif, Buffer.from('<script>alert(1)</script>')]);
    const res = await put(await uploadUrl(t, cookie), polyglot, 'image/jpeg');
    expect(res.status).toBe(200);
    const served = Buffer.from(await (await fetch((await res.json()).url)).arrayBuffer());
    expect(served.includes('GPS-SECRET-12345')).toBe(false);
    expect(served.includes('<script>')).toBe(false);
    expect((await sharp(served).metadata()).exif).toBeUndefined();
  });

  test.each([
    ['an SVG', () => sampleSvg(), 'image/svg+xml'],
    ['an SVG sent as image/png', () => sampleSvg(), 'image/png'],
    [
      'HTML bytes sent as image/png',
      () => Buffer.from('<!doctype html><script>alert(1)</script>'),
      'image/png',
    ],
    ['a PDF', () => Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n'), 'image/png'],
    ['a truncated PNG', () => samplePng().subarray(0, 200), 'image/png'],
  ])('refuses %s with 415, and the URL stays usable', async (_what, bytes, type) => {
    const url = await uploadUrl(t, cookie);
    const res = await put(url, bytes(), type);
    expect(res.status).toBe(415);
    expect((await res.json()).message).toMatch(/PNG, JPEG, WebP or GIF/);
    const id = new URL(url).pathname.split('/').pop()!;
    expect((await fetch(url.split('?')[0]!)).status).toBe(404);
    expect(existsSync(path.join(t.dataDir, 'uploads', id))).toBe(false);
    // A refused file does not use up the link: the admin picks another file and retries.
    expect((await put(url, samplePng())).status).toBe(200);
  });

  test('refuses a body over 5,242,880 bytes with 413 (exactly the limit is read)', async () => {
    const url = await uploadUrl(t, cookie);
    const over = Buffer.concat([
      samplePng(),
      Buffer.alloc(IMAGE_MAX_BYTES + 1 - samplePng().length),
    ]);
    expect(over.length).toBe(5_242_881);
    const res = await put(url, over);
    expect(res.status).toBe(413);
    expect((await res.json()).message).toBe('The request is too large.');

    // At the limit the bytes are read and judged (here: a PNG with junk after it decodes fine).
    const at = over.subarray(0, IMAGE_MAX_BYTES);
    const ok = await put(url, at);
    expect(ok.status).toBe(200);
  });

  test('refuses an image with too many pixels from its header alone (413)', async () => {
    for (const [w, h] of [
      [50_000, 50_000],
      [8000, 8000],
    ]) {
      const bomb = pngClaiming(w!, h!);
      expect(bomb.length).toBeLessThan(200);
      const res = await put(await uploadUrl(t, cookie), bomb);
      expect(res.status).toBe(413);
      expect((await res.json()).message).toMatch(/too many pixels/);
    }
  });

  test('refuses an empty body with 400', async () => {
    const res = await put(await uploadUrl(t, cookie), Buffer.alloc(0));
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe('The upload is empty.');
  });

  test('refuses a second PUT to a used URL with 403, even when two race', async () => {
    const url = await uploadUrl(t, cookie);
    expect((await put(url, samplePng())).status).toBe(200);
    const again = await put(url, sampleJpeg(), 'image/jpeg');
    expect(again.status).toBe(403);
    expect((await again.json()).message).toBe('This upload link has already been used.');

    const raced = await uploadUrl(t, cookie);
    const statuses = (
      await Promise.all([
        put(raced, samplePng()),
        put(raced, samplePng()),
        put(raced, sampleJpeg()),
      ])
    ).map((r) => r.status);
    expect(statuses.sort()).toEqual([200, 403, 403]);
  });

  test('refuses a tampered, foreign or missing signature with 403', async () => {
    const url = new URL(await uploadUrl(t, cookie));
    const other = new URL(await uploadUrl(t, cookie));
    const sig = url.searchParams.get('signature')!;
    const flipped = (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);

    const variants = [
      `${url.origin}${url.pathname}?expires=${url.searchParams.get('expires')}&signature=${flipped}`,
      `${url.origin}${url.pathname}?expires=${Number(url.searchParams.get('expires')) + 3600}&signature=${sig}`,
      `${url.origin}${other.pathname}?${url.searchParams}`,
      `${url.origin}${url.pathname}`,
      `${url.origin}${url.pathname}?expires=abc&signature=${sig}`,
      `${url.origin}${url.pathname}?expires=${url.searchParams.get('expires')}&signature=`,
      `${url.origin}${url.pathname}?expires=${url.searchParams.get('expires')}&signature=${'x'.repeat(500)}`,
    ];
    for (const v of variants) {
      const res = await put(v, samplePng());
      expect(res.status, v).toBe(403);
      expect((await res.json()).message).toBe('This upload link is not valid.');
    }
    // The genuine URL still works afterwards.
    expect((await put(url.toString(), samplePng())).status).toBe(200);
  });

  test('refuses an expired URL with 403 "Request has expired"', async () => {
    const url = await uploadUrl(t, cookie);
    clock += 16 * 60_000;
    try {
      const res = await put(url, samplePng());
      expect(res.status).toBe(403);
      expect((await res.json()).message).toBe('Request has expired');
    } finally {
      clock -= 16 * 60_000;
    }
  });

  test('answers 404 for an unknown or malformed image id', async () => {
    expect(
      (await t.request('/api/objects/uploads/00000000-0000-4000-8000-000000000000')).status,
    ).toBe(404);
    expect((await t.request('/api/objects/uploads/..%2F..%2Fetc%2Fpasswd')).status).toBe(404);
    expect((await t.request('/api/objects/uploads/not-an-id')).status).toBe(404);
    const res = await put(
      `${t.baseUrl}/api/objects/uploads/not-an-id?expires=1&signature=x`,
      samplePng(),
    );
    expect(res.status).toBe(404);
  });
});
