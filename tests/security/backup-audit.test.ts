import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { login } from '../support/api';
import { test } from '../support/fixtures';
import {
  preparedDataDir,
  spawnServer,
  testServerFlags,
  type ServerProcess,
} from '../support/server-process';
import { createTestDatabase, TEST_ADMIN_PASSWORD, testDbKind } from '../support/test-app';

const BACKUP_SCRIPT = path.resolve('dist/backup.js');
interface Entry {
  action: string;
  clientIp: string | null;
  details: Record<string, unknown> | null;
}

async function activity(baseUrl: string, cookie: string): Promise<Entry[]> {
  const res = await fetch(`${baseUrl}/api/admin/activity?limit=200`, { headers: { cookie } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { items: Entry[] }).items;
}

/** The backup CLI on the test servers' V8 tier (tests/support/server-process.ts). */
function cli(args: string[], env: Record<string, string>) {
  const res = spawnSync(process.execPath, [...testServerFlags(), BACKUP_SCRIPT, ...args], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      LOG_LEVEL: 'warn',
      ...env,
    },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: res.status, out: `${res.stdout}${res.stderr}` };
}

/**
 * Second review 2.7 (docs/SECURITY.md, threat 55): a CLI backup and GET /api/admin/backup left
 * only login entries in the audit log, and the CLI's session stayed open.
 */
describe('2.7 backups are audited', () => {
  test('2.7 GET /api/admin/backup writes an audit entry', async ({ app, adminClient }) => {
    const before = (await activity(app.baseUrl, adminClient.cookie)).filter(
      (e) => e.action === 'backup.download',
    ).length;
    const res = await adminClient.request('/api/admin/backup');
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    const after = (await activity(app.baseUrl, adminClient.cookie)).filter(
      (e) => e.action === 'backup.download',
    );
    expect(after).toHaveLength(before + 1);
    expect(after[0]).toMatchObject({ clientIp: '127.0.0.1', details: { via: 'web' } });
  });
});

describe('2.7 npm run backup is audited and signs out', () => {
  const folders: string[] = [];
  const servers: ServerProcess[] = [];
  afterAll(async () => {
    for (const s of servers) await s.kill('SIGTERM');
    for (const f of folders) rmSync(f, { recursive: true, force: true });
  });
  const outFile = () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'relief-backup-audit-'));
    folders.push(dir);
    return path.join(dir, 'b.jsonl.gz');
  };

  // The CLI reaches a running server only on the embedded database (on PostgreSQL it reads the
  // database straight away, the next test); defined on PGlite alone, so no run shows it skipped.
  if (testDbKind() === 'pglite')
    it('2.7 through the running server: one download entry, then a logout', async () => {
      const dataDir = preparedDataDir();
      folders.push(dataDir);
      const server = await spawnServer({ dataDir });
      servers.push(server);
      const out = outFile();
      const res = cli(['backup', '--out', out], {
        DATA_DIR: dataDir,
        PORT: String(server.port),
        ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
      });
      expect(res.out).toContain('Backup written to');
      expect(res.code).toBe(0);
      const cookie = await login(server.baseUrl);
      const actions = (await activity(server.baseUrl, cookie)).map((e) => e.action).reverse();
      // Oldest first: the CLI's login, its download, its logout, then this test's login.
      expect(actions).toEqual(['admin.login', 'backup.download', 'admin.logout', 'admin.login']);
      const download = (await activity(server.baseUrl, cookie)).find(
        (e) => e.action === 'backup.download',
      );
      expect(download?.details).toEqual({ via: 'cli' });
    }, 120_000);

  it('2.7 straight from the database (PostgreSQL, or no server running): one download entry', async () => {
    const own = await createTestDatabase();
    const dataDir =
      testDbKind() === 'pglite'
        ? preparedDataDir()
        : mkdtempSync(path.join(os.tmpdir(), 'relief-backup-audit-'));
    folders.push(dataDir);
    try {
      const out = outFile();
      const env: Record<string, string> = { DATA_DIR: dataDir };
      if (own.url) env.DATABASE_URL = own.url;
      const res = cli(['backup', '--out', out], env);
      expect(res.out).toContain('Backup written to');
      expect(res.code).toBe(0);
      if (testDbKind() === 'postgres') {
        const rows = (await own.database.db.execute(
          sql`select action, client_ip, details from audit_log where action = 'backup.download'`,
        )) as unknown as { rows: { action: string; client_ip: string | null; details: unknown }[] };
        expect(rows.rows).toEqual([
          { action: 'backup.download', client_ip: null, details: { via: 'cli' } },
        ]);
      } else {
        // The embedded database of DATA_DIR, read by the server started on it afterwards.
        const server = await spawnServer({ dataDir });
        servers.push(server);
        const items = await activity(server.baseUrl, await login(server.baseUrl));
        expect(items.filter((e) => e.action === 'backup.download')).toEqual([
          {
            ...items.find((e) => e.action === 'backup.download'),
            clientIp: null,
            details: { via: 'cli' },
          },
        ]);
      }
    } finally {
      await own.database.close();
      await own.drop();
    }
  }, 120_000);
});
