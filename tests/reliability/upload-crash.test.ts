import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login } from '../support/api';
import { request } from '../support/http';
import { SOAK } from './support/load';
import { sleep } from '../support/net';
import { bigJpeg } from '../support/images';
import { createTarget, type Target } from './support/target';

const CYCLES = SOAK ? 24 : 4;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * R9: the server is killed (SIGKILL) while it receives, re-encodes or writes an upload. No
 * half-written image may ever be served or referenced, and leftovers are cleaned up.
 */
describe('R9 crash in the middle of an upload', () => {
  let target: Target;
  let photo: Buffer;
  beforeAll(async () => {
    target = await createTarget();
    photo = await bigJpeg();
  });
  afterAll(() => target?.dispose());

  const uploadsDir = () => path.join(target.dataDir, 'uploads');

  /** Every object folder is complete: all widths and its metadata. */
  function expectOnlyWholeObjects() {
    for (const name of readdirSync(uploadsDir())) {
      if (name.endsWith('.claimed') || name.startsWith('.tmp-')) continue;
      expect(name).toMatch(UUID);
      const files = readdirSync(path.join(uploadsDir(), name)).sort();
      expect(files, name).toEqual(['1200.webp', '400.webp', '800.webp', 'meta.json']);
    }
  }

  it(`${CYCLES} kills during uploads leave no half-written object, and nothing broken is referenced`, async () => {
    const acked = new Set<string>();
    const cut = new Set<string>();
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      const server = await target.start();
      const cookie = await login(server.baseUrl);
      const signed = await request(server.baseUrl, 'POST', '/api/objects/upload', { cookie });
      const url = new URL((JSON.parse(signed.body) as { uploadURL: string }).uploadURL);
      const id = url.pathname.split('/').pop()!;
      const put = request(server.baseUrl, 'PUT', url.pathname + url.search, {
        body: photo,
        headers: { 'content-type': 'image/jpeg' },
      }).then(
        (a) => a.status,
        () => 0,
      );
      // Sometimes while the body is still arriving, mostly while it is re-encoded or written.
      await sleep(cycle % 3 === 0 ? Math.random() * 30 : 40 + Math.random() * 600);
      await server.kill('SIGKILL');
      if ((await put) === 200) acked.add(id);
      else cut.add(id);
      expectOnlyWholeObjects();
    }

    // A crash between the first and the last file of a save leaves a .tmp-* folder: plant one, as
    // a kill would, next to a fresh one that another instance could be writing right now.
    const crashed = path.join(uploadsDir(), `.tmp-${randomUUID()}-${randomUUID()}`);
    mkdirSync(crashed);
    writeFileSync(path.join(crashed, '400.webp'), 'RIFF-half-written');
    const hourAgo = new Date(Date.now() - 2 * 3600_000);
    utimesSync(crashed, hourAgo, hourAgo);
    const fresh = path.join(uploadsDir(), `.tmp-${randomUUID()}-${randomUUID()}`);
    mkdirSync(fresh);
    const staleClaim = path.join(uploadsDir(), `${randomUUID()}.claimed`);
    writeFileSync(staleClaim, '');
    utimesSync(staleClaim, hourAgo, hourAgo);

    const server = await target.start();
    try {
      // Leftovers are gone (a fresh one survives only where another instance may own it).
      expect(existsSync(crashed)).toBe(false);
      expect(existsSync(staleClaim)).toBe(false);
      const leftovers = readdirSync(uploadsDir()).filter((n) => n.startsWith('.tmp-'));
      // PGlite: this process owns DATA_DIR, so every leftover went. PostgreSQL: young ones stay
      // (they may be another instance's upload in progress) until they are an hour old.
      if (target.kind === 'pglite') expect(leftovers).toEqual([]);
      else expect(leftovers).toContain(path.basename(fresh));
      expectOnlyWholeObjects();

      const cookie = await login(server.baseUrl);
      // Every acknowledged upload is served whole, at every width.
      for (const id of acked) {
        for (const w of ['400', '800', '1200']) {
          const res = await request(server.baseUrl, 'GET', `/api/objects/uploads/${id}?w=${w}`);
          expect(res.status, id).toBe(200);
        }
      }
      // An interrupted one is either whole (the kill came after the save) or absent; a delivery
      // update can reference it only in the first case.
      for (const id of cut) {
        const whole = existsSync(path.join(uploadsDir(), id, 'meta.json'));
        const get = await request(server.baseUrl, 'GET', `/api/objects/uploads/${id}`);
        expect(get.status, id).toBe(whole ? 200 : 404);
        const post = await request(server.baseUrl, 'POST', '/api/updates', {
          cookie,
          json: {
            imageUrl: `${server.baseUrl}/api/objects/uploads/${id}`,
            recipient: 'After the crash',
            containerCount: 3,
            deliveryDate: '2025-01-09',
          },
        });
        expect(post.status, post.body).toBe(whole ? 201 : 400);
        // Its single-use link stays spent: it cannot be replayed into a half-written object.
      }
      // A new upload works.
      const signed = await request(server.baseUrl, 'POST', '/api/objects/upload', { cookie });
      const url = new URL((JSON.parse(signed.body) as { uploadURL: string }).uploadURL);
      const put = await request(server.baseUrl, 'PUT', url.pathname + url.search, {
        body: photo,
        headers: { 'content-type': 'image/jpeg' },
      });
      expect(put.status).toBe(200);
      console.log(
        `R9 ${target.kind}: ${CYCLES} kills during uploads (${acked.size} had finished, ` +
          `${cut.size} were cut); no half-written object; leftovers swept`,
      );
    } finally {
      await server.kill('SIGTERM');
    }
  }, 180_000);
});
