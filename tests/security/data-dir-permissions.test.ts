import { chmodSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPledge } from '../support/api';
import { eventually } from '../support/net';
import { preparedDataDir, spawnServer, type ServerProcess } from '../support/server-process';
import { createTestDatabase, testDbKind } from '../support/test-app';

/** Every path under dir (dir included) with its permission bits. */
function modes(dir: string): { path: string; mode: number; dir: boolean }[] {
  const out = [{ path: dir, mode: statSync(dir).mode & 0o777, dir: true }];
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isSymbolicLink()) continue;
    const p = path.join(e.parentPath, e.name);
    out.push({ path: p, mode: statSync(p).mode & 0o777, dir: e.isDirectory() });
  }
  return out;
}
const openToOthers = (dir: string) =>
  modes(dir)
    .filter((m) => (m.mode & 0o077) !== 0)
    .map((m) => `${m.path} ${m.mode.toString(8)}`);

/**
 * Second review 2.2 (docs/SECURITY.md, threat 50): 968 of 1,057 files under DATA_DIR/pgdata were
 * 0666, DATA_DIR and outbox 0755, the .eml files 0644.
 */
describe('2.2 DATA_DIR is private to the server user', () => {
  const servers: ServerProcess[] = [];
  const folders: string[] = [];
  let db: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  afterAll(async () => {
    for (const s of servers) await s.kill('SIGTERM');
    for (const f of folders) rmSync(f, { recursive: true, force: true });
    if (db) {
      await db.database.close();
      await db.drop();
    }
  });

  it('2.2 the real server fixes what an earlier start left open, says so once, and writes 0600 files', async () => {
    const pglite = testDbKind() === 'pglite';
    const dataDir = pglite
      ? preparedDataDir()
      : mkdtempSync(path.join(os.tmpdir(), 'relief-perm-'));
    folders.push(dataDir);
    // What an earlier version left: world-writable database files, open folders, a readable .eml.
    chmodSync(dataDir, 0o755);
    mkdirSync(path.join(dataDir, 'outbox'), { mode: 0o755 });
    writeFileSync(path.join(dataDir, 'outbox', 'old.eml'), 'To: a@b.c\n\nold', { mode: 0o644 });
    chmodSync(path.join(dataDir, 'outbox'), 0o755);
    chmodSync(path.join(dataDir, 'outbox', 'old.eml'), 0o644);
    mkdirSync(path.join(dataDir, 'uploads'), { mode: 0o755 });
    chmodSync(path.join(dataDir, 'uploads'), 0o755);
    if (pglite)
      for (const m of modes(path.join(dataDir, 'pgdata'))) chmodSync(m.path, m.dir ? 0o777 : 0o666);
    const before = openToOthers(dataDir).length;
    expect(before).toBeGreaterThan(3);

    if (!pglite) db = await createTestDatabase('postgres');
    const server = await spawnServer({ dataDir, databaseUrl: db?.url });
    servers.push(server);
    expect(openToOthers(dataDir)).toEqual([]);
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    const said = server.output().match(/fixed the permissions of (\d+) files in DATA_DIR/g) ?? [];
    expect(said).toHaveLength(1);
    expect(said[0]).toBe(`fixed the permissions of ${before} files in DATA_DIR`);

    // What the running server writes now (the database, a new .eml) is private too. (PGlite may
    // rewrite its relation cache, pg_internal.init, 0644 whatever the umask: its folders are 0700,
    // so nobody else can reach it.)
    await createPledge(server.baseUrl, { email: 'perm@example.test' });
    await eventually(async () => readdirSync(path.join(dataDir, 'outbox')).length > 1, 20_000);
    expect(openToOthers(dataDir).filter((p) => !p.includes('/pg_internal.init '))).toEqual([]);
    expect(modes(dataDir).filter((m) => m.dir && m.mode !== 0o700)).toEqual([]);

    // A second start finds nothing to fix and says nothing.
    await server.kill('SIGTERM');
    const again = await spawnServer({ dataDir, databaseUrl: db?.url });
    servers.push(again);
    expect(again.output()).not.toMatch(/fixed the permissions/);
  }, 120_000);
});
