import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { open, statfs } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { samplePng } from '../fixtures';
import { createTestDatabase, testDbKind } from '../support/test-app';
import { adminPledges as allPledges, login } from '../support/api';
import { request } from '../support/http';
import { spawnServer, type ServerProcess } from '../support/server-process';

const MB = 1024 * 1024;
/** The tmpfs: the migrated PGlite folder (~45 MB) plus the default 64 MB margin, and some room. */
const SIZE_MB = 192;

function mountTmpfs(dir: string, sizeMb: number) {
  const res = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m`, 'tmpfs', dir]);
  if (res.status !== 0) {
    throw new Error(
      `R5 needs a small file system for DATA_DIR and mounts a ${sizeMb} MB tmpfs at ${dir}, ` +
        `which failed (${res.stderr.toString().trim() || `exit ${res.status}`}). Run the suite as ` +
        'root (CI does), or in a container with CAP_SYS_ADMIN.',
    );
  }
}

/** Fills the file system until `leaveBytes` are free (0: until the kernel says ENOSPC). */
async function fill(dir: string, name: string, leaveBytes: number) {
  const s = await statfs(dir);
  const free = s.bavail * s.bsize;
  const target = Math.max(0, free - leaveBytes);
  const fh = await open(path.join(dir, name), 'w');
  const chunk = Buffer.alloc(MB, 1);
  let written = 0;
  try {
    while (leaveBytes > 0 ? written < target : true) {
      const n = leaveBytes > 0 ? Math.min(MB, target - written) : MB;
      await fh.write(chunk, 0, n);
      written += n;
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
    // Fill the last partial block too.
    for (let size = 64 * 1024; size >= 512; size /= 2) {
      try {
        for (;;) await fh.write(Buffer.alloc(size, 1));
      } catch {
        /* next smaller size */
      }
    }
  } finally {
    await fh.close();
  }
}

/**
 * R5: DATA_DIR on a small tmpfs that fills up. Writes must answer 503/507 and never 201 without
 * storing; reads keep working; writes work again when space returns.
 */
describe('R5 disk full', () => {
  const kind = testDbKind();
  const mountPoint = mkdtempSync(path.join(os.tmpdir(), 'relief-full-'));
  let server: ServerProcess | undefined;
  let databaseUrl: string | undefined;
  let drop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    mountTmpfs(mountPoint, SIZE_MB);
    if (kind === 'pglite') {
      const pgdata = path.join(mountPoint, 'pgdata');
      mkdirSync(pgdata);
      const res = spawnSync('tar', ['-xf', inject('pgliteTemplate'), '-C', pgdata]);
      expect(res.status).toBe(0);
    } else {
      const db = await createTestDatabase('postgres');
      await db.database.close();
      databaseUrl = db.url;
      drop = db.drop;
    }
  });
  afterAll(async () => {
    await server?.kill('SIGKILL');
    // Lazy unmount: the mount goes even if something still holds a file in it.
    spawnSync('umount', ['-l', mountPoint]);
    rmSync(mountPoint, { recursive: true, force: true });
    await drop?.();
  });

  it('refuses writes with 503/507 while full, keeps serving reads, and recovers', async () => {
    server = await spawnServer({ dataDir: mountPoint, databaseUrl });
    let base = server.baseUrl;
    const cookie = await login(base);
    const acked: string[] = [];
    let n = 0;
    const pledge = async () => {
      const res = await request(base, 'POST', '/api/pledges', {
        json: { name: `Disk ${n}`, email: `disk${n++}@example.test`, amount: 220 },
      });
      if (res.status === 201) acked.push((JSON.parse(res.body) as { id: string }).id);
      return res;
    };
    const upload = async () => {
      const signed = await request(base, 'POST', '/api/objects/upload', { cookie });
      // On PGlite every write is refused while full, asking for an upload URL included.
      if (signed.status !== 200) return signed;
      const url = new URL((JSON.parse(signed.body) as { uploadURL: string }).uploadURL);
      return request(base, 'PUT', url.pathname + url.search, {
        body: samplePng(),
        headers: { 'content-type': 'image/png' },
      });
    };
    const reads = async () => {
      for (const p of [
        '/api/progress',
        '/api/pledges?limit=8',
        '/api/updates',
        '/',
        '/api/health',
      ]) {
        const res = await request(base, 'GET', p, { timeoutMs: 5_000 });
        expect(res.status, p).toBe(200);
      }
    };

    // Plenty of space.
    expect((await pledge()).status).toBe(201);
    expect((await upload()).status).toBe(200);

    // Below the margin, then completely full.
    await fill(mountPoint, 'filler-1', 20 * MB);
    for (const stage of ['below the margin', 'completely full']) {
      if (stage === 'completely full') await fill(mountPoint, 'filler-2', 0);
      for (let i = 0; i < 20; i++) {
        const res = await pledge();
        // On PostgreSQL the database has its own disk: only uploads are affected.
        if (kind === 'postgres') expect(res.status, stage).toBe(201);
        else expect([503, 507], `${stage}: ${res.status} ${res.body}`).toContain(res.status);
      }
      const up = await upload();
      expect([503, 507], `${stage}: upload ${up.status} ${up.body}`).toContain(up.status);
      expect(JSON.parse(up.body)).toHaveProperty('message');
      await reads();
    }
    const log = server.output();
    expect(log).toContain('disk nearly full');

    // Space returns: writes work again, without a restart.
    rmSync(path.join(mountPoint, 'filler-1'));
    rmSync(path.join(mountPoint, 'filler-2'));
    expect((await pledge()).status).toBe(201);
    expect((await upload()).status).toBe(200);
    await reads();

    // Every acknowledged pledge is stored, and nothing else.
    const rows = await allPledges(base, cookie);
    expect(rows.length).toBe(acked.length);
    const ids = new Set(rows.map((r) => r.id));
    for (const id of acked) expect(ids.has(id)).toBe(true);
    // No half-written upload is left behind.
    const uploads = readdirSync(path.join(mountPoint, 'uploads'));
    expect(uploads.filter((f) => f.startsWith('.tmp-'))).toEqual([]);

    if (kind === 'postgres') {
      // Without the margin (MIN_FREE_DISK_MB=0) an upload really hits ENOSPC: 503/507, and
      // nothing half-written stays. (On PGlite a real ENOSPC can hang the database: that is
      // what the margin is for, so it is not switched off there.)
      await server.kill('SIGTERM');
      server = await spawnServer({
        dataDir: mountPoint,
        databaseUrl,
        env: { MIN_FREE_DISK_MB: '0' },
      });
      base = server.baseUrl;
      const cookie2 = await login(server.baseUrl);
      await fill(mountPoint, 'filler-3', 0);
      const signed = await request(server.baseUrl, 'POST', '/api/objects/upload', {
        cookie: cookie2,
      });
      const url = new URL((JSON.parse(signed.body) as { uploadURL: string }).uploadURL);
      const res = await request(server.baseUrl, 'PUT', url.pathname + url.search, {
        body: samplePng(),
        headers: { 'content-type': 'image/png' },
      });
      expect([503, 507], res.body).toContain(res.status);
      const id = url.pathname.split('/').pop()!;
      expect((await request(server.baseUrl, 'GET', `/api/objects/uploads/${id}`)).status).toBe(404);
      const files = readdirSync(path.join(mountPoint, 'uploads'));
      expect(files.filter((f) => f.startsWith('.tmp-'))).toEqual([]);
      expect(files).not.toContain(id);
      expect((await pledge()).status).toBe(201);
      rmSync(path.join(mountPoint, 'filler-3'));
    }
    console.log(
      `R5 ${kind}: ${acked.length} pledges acknowledged and stored; writes refused while full, reads served`,
    );
  }, 120_000);
});
