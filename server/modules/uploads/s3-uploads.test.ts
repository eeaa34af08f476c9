import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll } from 'vitest';
import { IMAGE_MAX_BYTES } from '@shared/constants';
import { samplePng, sampleSvg } from '../../../tests/fixtures';
import { createUpdate, uploadImage, uploadLinks } from '../../../tests/support/api';
import { describe, expect, test } from '../../../tests/support/fixtures';
import { request } from '../../../tests/support/http';
import { startS3Server } from '../../../tests/support/s3-server';
import {
  createTestDatabase,
  expectErrorLogs,
  startTestApp,
  type TestApp,
} from '../../../tests/support/test-app';
import { writeBackupFile } from '../../backup/dump';
import { inspectBackup, restoreBackup } from '../../backup/restore';
import { loadConfig, type AppConfig } from '../../config';
import { LEFTOVER_AGE_MS } from '../../storage/object-storage';
import { S3ObjectStorage } from '../../storage/s3-storage';

const ID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
const idOf = (url: string) => ID.exec(new URL(url).pathname)![0];

/** A second handle on the bucket an app's config names (what the app's own store sees). */
function bucketStore(config: AppConfig): S3ObjectStorage {
  if (config.storage.kind !== 's3') throw new Error('not configured for S3');
  return new S3ObjectStorage(config.storage);
}

/** PUT to a URL (the bucket's presigned one, or ours), as the browser sends the file. */
function put(url: string, body: Buffer, type = 'image/png') {
  const u = new URL(url);
  return request(u.origin, 'PUT', u.pathname + u.search, {
    body,
    headers: { 'content-type': type },
  });
}
function complete(url: string) {
  const u = new URL(url);
  return request(u.origin, 'POST', u.pathname + u.search);
}

/**
 * Photos in an S3-compatible bucket (a real s3rver in this process): the browser uploads to the
 * bucket with a presigned PUT, the server checks and re-encodes the bytes, stores the variants in
 * the bucket and serves them at the same /api/objects/uploads/... URLs as from local disk.
 */
// The bucket's server first: its address is one of the file's app options. The app's clock is
// moved by the sweep test.
const s3 = await startS3Server();
afterAll(() => s3.close());
let clock = Date.now();
test.override('appOptions', { env: s3.env(), now: () => new Date(clock) });

describe('object storage (S3)', () => {
  let t: TestApp;
  let cookie: string;
  test.beforeAll(async ({ app, adminClient }) => {
    t = app;
    cookie = adminClient.cookie;
  });

  test('hands out a presigned bucket URL for incoming/<id> and a completion link of its own', async () => {
    const links = await uploadLinks(t, cookie, 1000);
    const upload = new URL(links.uploadURL);
    expect(upload.origin).toBe(s3.endpoint);
    expect(upload.pathname).toMatch(new RegExp(`^/${s3.bucket}/incoming/${ID.source}$`));
    expect(upload.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(upload.searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;host');
    // No checksum of an empty body in the URL: real S3 would refuse the photo's bytes.
    expect([...upload.searchParams.keys()].filter((k) => /checksum/i.test(k))).toEqual([]);

    const done = new URL(links.completeURL!);
    expect(done.origin).toBe(t.baseUrl);
    expect(done.pathname).toBe(`/api/objects/uploads/${idOf(links.uploadURL)}/complete`);
    const expires = Number(done.searchParams.get('expires')) * 1000 - clock;
    expect(expires).toBeGreaterThan(29 * 60_000);
    expect(expires).toBeLessThanOrEqual(30 * 60_000);
  });

  test("signs the file's size into the bucket URL, and refuses a size over 5 MB at once", async () => {
    const sized = new URL((await uploadLinks(t, cookie, 12_345)).uploadURL);
    expect(sized.searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;host');
    const res = await request(t.baseUrl, 'POST', '/api/objects/upload', {
      cookie,
      json: { size: IMAGE_MAX_BYTES + 1 },
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).message).toBe(
      'This image is larger than 5 MB. Please choose a smaller photo.',
    );
  });

  test('2.12 requires the size (1 byte to 5 MB) and signs it into the bucket URL', async () => {
    for (const json of [undefined, {}, { size: 0 }]) {
      const res = await request(t.baseUrl, 'POST', '/api/objects/upload', { cookie, json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(JSON.parse(res.body).message).toMatch(/size in bytes/);
    }
    const png = samplePng();
    const links = await uploadLinks(t, cookie, png.length);
    const url = new URL(links.uploadURL);
    // The length is one of the signed headers: real S3 refuses a PUT of any other size. (s3rver
    // does not check a signed Content-Length: a PUT 1 MB longer answered 200 there.)
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;host');
    expect((await put(links.uploadURL, png)).status).toBe(200);
    expect((await complete(links.completeURL!)).status).toBe(200);
  });

  test('uploads to the bucket, stores WebP variants there and serves them from the usual URL', async () => {
    const links = await uploadLinks(t, cookie, samplePng().length);
    const id = idOf(links.uploadURL);
    expect((await put(links.uploadURL, samplePng())).status).toBe(200);
    expect(await s3.keys(`incoming/${id}`)).toEqual([`incoming/${id}`]);

    const res = await complete(links.completeURL!);
    expect(res.status).toBe(200);
    const body = JSON.parse(res.body);
    expect(body).toEqual({
      url: `${t.baseUrl}/api/objects/uploads/${id}`,
      location: `${t.baseUrl}/api/objects/uploads/${id}`,
      width: 640,
      height: 480,
    });
    // The variants and their size are in the bucket; the original is gone; nothing on disk.
    expect(await s3.keys(`images/${id}/`)).toEqual(
      ['1200.webp', '400.webp', '800.webp', 'meta.json'].map((f) => `images/${id}/${f}`),
    );
    expect(await s3.keys('incoming/')).toEqual([]);
    expect(JSON.parse((await s3.get(`images/${id}/meta.json`))!.toString())).toEqual({
      width: 640,
      height: 480,
    });
    const uploadsDir = path.join(t.dataDir, 'uploads');
    expect(existsSync(uploadsDir) ? readdirSync(uploadsDir) : []).toEqual([]);

    const img = await fetch(body.url);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/webp');
    expect(img.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(img.headers.get('x-content-type-options')).toBe('nosniff');
    const served = Buffer.from(await img.arrayBuffer());
    expect(served.equals((await s3.get(`images/${id}/1200.webp`))!)).toBe(true);
    expect(await sharp(served).metadata()).toMatchObject({ format: 'webp', width: 640 });
    const small = Buffer.from(await (await fetch(`${body.url}?w=400`)).arrayBuffer());
    expect((await sharp(small).metadata()).width).toBe(400);
  });

  test('judges the bytes like a PUT to the server: a refused file is deleted and the link stays usable', async () => {
    const links = await uploadLinks(t, cookie, samplePng().length);
    const id = idOf(links.uploadURL);
    // Whatever the bucket holds under incoming/<id> (written here straight into it: the signed
    // URL takes only its own size) is judged again by the server.
    const putInBucket = (body: Buffer) => s3.put(`incoming/${id}`, body);

    expect((await complete(links.completeURL!)).status).toBe(400); // nothing uploaded yet
    await putInBucket(sampleSvg());
    const svg = await complete(links.completeURL!);
    expect(svg.status).toBe(415);
    expect(JSON.parse(svg.body).message).toBe(
      'Only PNG, JPEG, WebP or GIF images can be uploaded.',
    );
    expect(await s3.keys(`incoming/${id}`)).toEqual([]);
    expect(await s3.keys(`images/${id}/`)).toEqual([]);

    // More than 5 MB in the bucket: the server refuses it before reading it.
    const over = Buffer.concat([
      samplePng(),
      Buffer.alloc(IMAGE_MAX_BYTES + 1 - samplePng().length),
    ]);
    await putInBucket(over);
    const big = await complete(links.completeURL!);
    expect(big.status).toBe(413);
    expect(JSON.parse(big.body).message).toMatch(/larger than 5 MB/);
    expect(await s3.keys(`incoming/${id}`)).toEqual([]);

    await putInBucket(Buffer.alloc(0));
    const empty = await complete(links.completeURL!);
    expect(empty.status).toBe(400);
    expect(JSON.parse(empty.body).message).toBe('The upload is empty.');

    await put(links.uploadURL, samplePng());
    expect((await complete(links.completeURL!)).status).toBe(200);
    // Single use: the link is spent once the image is stored.
    const again = await complete(links.completeURL!);
    expect(again.status).toBe(403);
    expect(JSON.parse(again.body).message).toBe('This upload link has already been used.');
  });

  test('refuses a forged, borrowed or expired completion link with 403', async () => {
    const links = await uploadLinks(t, cookie, samplePng().length);
    await put(links.uploadURL, samplePng());
    const done = new URL(links.completeURL!);
    const sig = done.searchParams.get('signature')!;
    const flipped = (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);
    const other = new URL((await uploadLinks(t, cookie, 1000)).completeURL!);
    for (const forged of [
      `${done.origin}${done.pathname}?expires=${done.searchParams.get('expires')}&signature=${flipped}`,
      `${done.origin}${other.pathname}?${done.searchParams}`,
      `${done.origin}${done.pathname}`,
    ]) {
      const res = await complete(forged);
      expect(res.status, forged).toBe(403);
      expect(JSON.parse(res.body).message).toBe('This upload link is not valid.');
    }
    // Nor is it an upload link for a PUT to this server.
    const asPut = await put(
      `${done.origin}${done.pathname.replace(/\/complete$/, '')}${done.search}`,
      samplePng(),
    );
    expect(asPut.status).toBe(403);

    clock += 31 * 60_000;
    try {
      const late = await complete(links.completeURL!);
      expect(late.status).toBe(403);
      expect(JSON.parse(late.body).message).toBe('Request has expired');
    } finally {
      clock -= 31 * 60_000;
    }
    expect((await complete(links.completeURL!)).status).toBe(200);
  });

  test('deletes the photo from the bucket when its update is deleted or its photo replaced', async () => {
    const update = await createUpdate(t, cookie, { recipient: 'Bucket Shelter' });
    const first = idOf(update.imageUrl);
    expect(await s3.keys(`images/${first}/`)).toHaveLength(4);
    const listed = (await (await t.request('/api/updates')).json()) as { imageUrl: string }[];
    expect(listed.map((u) => u.imageUrl)).toContain(update.imageUrl);

    const replacement = await uploadImage(t, cookie);
    const patched = await t.request(`/api/updates/${update.id}`, {
      method: 'PATCH',
      cookie,
      json: { updates: { imageUrl: replacement } },
    });
    expect(patched.status).toBe(200);
    expect(await s3.keys(`images/${first}/`)).toEqual([]);
    expect((await fetch(update.imageUrl)).status).toBe(404);

    const deleted = await t.request(`/api/updates/${update.id}`, { method: 'DELETE', cookie });
    expect(deleted.status).toBe(200);
    expect(await s3.keys(`images/${idOf(replacement)}/`)).toEqual([]);
    expect((await fetch(replacement)).status).toBe(404);
  });

  test('sweeps uploads never completed and photos written half-way, once they are an hour old', async () => {
    const stray = '11111111-1111-4111-8111-111111111111';
    const half = '22222222-2222-4222-8222-222222222222';
    await s3.put(`incoming/${stray}`, samplePng());
    await s3.put(`images/${half}/400.webp`, 'partial');
    const whole = idOf(await uploadImage(t, cookie));
    const storage = bucketStore(t.config);
    try {
      await storage.sweep(); // fresh: maybe another instance's upload in progress
      expect(await s3.keys(`incoming/${stray}`)).toHaveLength(1);
      expect(await s3.keys(`images/${half}/`)).toHaveLength(1);
      await storage.sweep(Date.now() + LEFTOVER_AGE_MS + 60_000);
      expect(await s3.keys(`incoming/${stray}`)).toEqual([]);
      expect(await s3.keys(`images/${half}/`)).toEqual([]);
      expect(await s3.keys(`images/${whole}/`)).toHaveLength(4);
    } finally {
      storage.close();
    }
  });

  test('puts the bucket in connect-src, so the browser may PUT to it', async () => {
    const csp = (await t.request('/')).headers.get('content-security-policy')!;
    expect(csp).toMatch(new RegExp(`connect-src 'self' ${s3.endpoint}(;|$)`));
  });

  test('backs up the photos from the bucket and restores them into another one', async () => {
    const update = await createUpdate(t, cookie, { recipient: 'Backed-up Shelter' });
    const id = idOf(update.imageUrl);
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'relief-s3-backup-'));
    const file = path.join(tmp, 'b.relief-backup.jsonl.gz');
    const source = bucketStore(t.config);
    await writeBackupFile(t.database, source, file);
    source.close();
    const summary = await inspectBackup(file);
    expect(summary.trailer.files).toBe((await s3.keys('images/')).length);

    // Another site's prefix in the same bucket, as an empty target.
    const target = bucketStore(loadConfig({ DATA_DIR: tmp, ...s3.env('restored/') }));
    const db = await createTestDatabase();
    try {
      await restoreBackup(db.database, target, file);
      expect(await s3.keys('restored/images/')).toEqual(
        (await s3.keys('images/')).map((k) => `restored/${k}`),
      );
      expect(
        (await s3.get(`restored/images/${id}/800.webp`))!.equals(
          (await s3.get(`images/${id}/800.webp`))!,
        ),
      ).toBe(true);
    } finally {
      target.close();
      await db.database.close();
      await db.drop();
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  test('fails a backup whose bucket refuses the keys with a sentence, and leaves no file', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'relief-s3-backup-'));
    const refused = bucketStore(
      loadConfig({ ...s3.env(), AWS_ACCESS_KEY_ID: 'WRONG', AWS_SECRET_ACCESS_KEY: 'WRONG' }),
    );
    try {
      // A read error of the image source once escaped as an unhandled stream error (a crash).
      await expect(writeBackupFile(t.database, refused, path.join(tmp, 'b.gz'))).rejects.toThrow(
        /object storage: list images\/: InvalidAccessKeyId/,
      );
      expect(readdirSync(tmp)).toEqual([]);
    } finally {
      refused.close();
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  test('refuses to start on a bucket it cannot use, with a sentence saying why', async () => {
    await expect(
      startTestApp({
        env: {
          ...s3.env(),
          STORAGE_URL: s3.env().STORAGE_URL!.replace(s3.bucket, 'no-such-bucket'),
        },
      }),
    ).rejects.toThrow(
      /STORAGE_URL: cannot use bucket "no-such-bucket" at http:\/\/127\.0\.0\.1:\d+: it does not exist/,
    );
    const wrongKeys = bucketStore(
      loadConfig({ ...s3.env(), AWS_ACCESS_KEY_ID: 'WRONG', AWS_SECRET_ACCESS_KEY: 'WRONG' }),
    );
    await expect(wrongKeys.init()).rejects.toThrow(
      /access was refused \(check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY\)/,
    );
    wrongKeys.close();
  });

  test('answers 503 with a sentence while the bucket cannot be reached', async () => {
    expectErrorLogs(/"msg":"object storage unavailable"/);
    const url = await uploadImage(t, cookie);
    await s3.close();
    const res = await fetch(url);
    expect(res.status).toBe(503);
    expect((await res.json()).message).toBe(
      'The photo storage is briefly unavailable. Please try again in a moment.',
    );
  });
});
