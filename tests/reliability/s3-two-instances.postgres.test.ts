import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, type Database } from '../../server/db/client';
import { samplePng } from '../fixtures';
import { createUpdate, uploadLinks } from '../support/api';
import { request } from '../support/http';
import { eventually } from '../support/net';
import { startS3Server, type S3TestServer } from '../support/s3-server';
import { createTestDatabase, startTestApp, type TestApp } from '../support/test-app';

const idOf = (url: string) =>
  /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/.exec(new URL(url).pathname)![0];
const status = async (url: string) => (await fetch(url)).status;

/**
 * Two app instances behind a load balancer: one PostgreSQL database (each with its own pool, its
 * own DATA_DIR) and one bucket. Photos are no longer on one instance's disk, so any instance
 * serves any photo, and a deletion on one is a deletion everywhere.
 */
describe('two instances sharing one bucket', () => {
  let s3: S3TestServer;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let secondPool: Database;
  let a: TestApp;
  let b: TestApp;
  let cookie: string;
  beforeAll(async () => {
    s3 = await startS3Server();
    db = await createTestDatabase('postgres');
    secondPool = openPostgres(db.url!);
    a = await startTestApp({ database: db.database, env: s3.env() });
    b = await startTestApp({ database: secondPool, env: s3.env() });
    cookie = await a.login();
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await secondPool?.close();
    await db?.database.close();
    await db?.drop();
    await s3?.close();
  });

  it('serves on B a photo uploaded through A, and B sees the update', async () => {
    const update = await createUpdate(a, cookie, { recipient: 'Shared Kitchen' });
    const onB = update.imageUrl.replace(a.baseUrl, b.baseUrl);
    const [fromA, fromB] = await Promise.all(
      [update.imageUrl, onB].map(async (u) => {
        const res = await fetch(u);
        expect(res.status).toBe(200);
        return Buffer.from(await res.arrayBuffer());
      }),
    );
    expect(fromB.equals(fromA)).toBe(true);
    await eventually(async () => {
      const res = await request(b.baseUrl, 'GET', '/api/updates');
      return JSON.parse(res.body).some((u: { id: string }) => u.id === update.id);
    });
  });

  it('completes on B an upload begun on A (the link is not tied to an instance)', async () => {
    const links = await uploadLinks(a, cookie, samplePng().length);
    const put = new URL(links.uploadURL);
    const res = await request(put.origin, 'PUT', put.pathname + put.search, { body: samplePng() });
    expect(res.status).toBe(200);
    const done = new URL(links.completeURL!.replace(a.baseUrl, b.baseUrl));
    const completed = await request(done.origin, 'POST', done.pathname + done.search);
    expect(completed.status).toBe(200);
    expect(await status(JSON.parse(completed.body).url.replace(b.baseUrl, a.baseUrl))).toBe(200);
    // Spent on both.
    const again = new URL(links.completeURL!);
    expect((await request(again.origin, 'POST', again.pathname + again.search)).status).toBe(403);
  });

  it('deleting the update through B removes the photo for A as well', async () => {
    const update = await createUpdate(a, cookie, { recipient: 'Soon Deleted' });
    const id = idOf(update.imageUrl);
    await eventually(async () => {
      const res = await request(b.baseUrl, 'GET', '/api/updates');
      return JSON.parse(res.body).some((u: { id: string }) => u.id === update.id);
    });
    const deleted = await request(b.baseUrl, 'DELETE', `/api/updates/${update.id}`, { cookie });
    expect(deleted.status).toBe(200);
    expect(await s3.keys(`images/${id}/`)).toEqual([]);
    // A hears of the deletion through PostgreSQL; the bucket no longer has the photo.
    await eventually(async () => (await status(update.imageUrl)) === 404);
    expect(await status(update.imageUrl.replace(a.baseUrl, b.baseUrl))).toBe(404);
  });

  it("a starting instance's sweep leaves another instance's upload in progress alone", async () => {
    const links = await uploadLinks(a, cookie, samplePng().length);
    const put = new URL(links.uploadURL);
    await request(put.origin, 'PUT', put.pathname + put.search, { body: samplePng() });
    const c = await startTestApp({ database: secondPool, env: s3.env() });
    try {
      expect(await s3.keys(`incoming/${idOf(links.uploadURL)}`)).toHaveLength(1);
    } finally {
      await c.close();
    }
    const done = new URL(links.completeURL!);
    expect((await request(done.origin, 'POST', done.pathname + done.search)).status).toBe(200);
  });
});
