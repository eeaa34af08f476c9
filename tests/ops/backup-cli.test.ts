import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_ADMIN_PASSWORD } from '../support/test-app';
import {
  preparedDataDir,
  spawnServer,
  testServerFlags,
  type ServerProcess,
} from '../support/server-process';

const BACKUP_SCRIPT = path.resolve('dist/backup.js');

/**
 * `npm run backup|restore` as a user runs it (the built command `npm run` launches), on the test
 * servers' V8 tier (testServerFlags: the same program, no optimising compiles in a process of a
 * few seconds; 17 -> 11 CPU-s for this file).
 */
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

describe('npm run backup / restore on the embedded database', () => {
  const servers: ServerProcess[] = [];
  const folders: string[] = [];
  afterAll(async () => {
    for (const s of servers) await s.kill('SIGTERM');
    for (const f of folders) rmSync(f, { recursive: true, force: true });
  });

  it('backs up through the running server, refuses to restore under it, restores once stopped', async () => {
    const dataDir = preparedDataDir();
    folders.push(dataDir);
    const server = await spawnServer({ dataDir });
    servers.push(server);
    for (const name of ['Ann', 'Bob', 'Cleo']) {
      const res = await fetch(`${server.baseUrl}/api/pledges`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          name,
          email: `${name}@example.org`,
          amount: 20,
          currency: 'USD',
          isAnonymous: false,
        }),
      });
      expect(res.status).toBe(201);
    }
    const outDir = mkdtempSync(path.join(os.tmpdir(), 'relief-cli-'));
    folders.push(outDir);
    const out = path.join(outDir, 'b.jsonl.gz');
    const env = { DATA_DIR: dataDir, PORT: String(server.port) };

    // Without the password the running server cannot be asked, and the message says what to do.
    const refused = cli(['backup', '--out', out], env);
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('set ADMIN_PASSWORD to the admin password');
    expect(existsSync(out)).toBe(false);

    const ok = cli(['backup', '--out', out], { ...env, ADMIN_PASSWORD: TEST_ADMIN_PASSWORD });
    expect(ok.out).toContain(`Backup written to ${out}`);
    expect(ok.out).toContain('3 pledges');
    expect(ok.code).toBe(0);

    const busy = cli(['restore', out], env);
    expect(busy.code).toBe(1);
    expect(busy.out).toMatch(/is running on .*: stop it first/);

    await server.kill('SIGTERM');
    const notEmpty = cli(['restore', out], env);
    expect(notEmpty.code).toBe(1);
    expect(notEmpty.out).toContain('holds 3 pledges');

    // Into a new folder, then the restored site serves the same progress.
    const fresh = preparedDataDir();
    folders.push(fresh);
    const restored = cli(['restore', out], { DATA_DIR: fresh });
    expect(restored.out).toContain('Restored.');
    expect(restored.code).toBe(0);
    const again = await spawnServer({ dataDir: fresh });
    servers.push(again);
    const progress = (await (await fetch(`${again.baseUrl}/api/progress`)).json()) as {
      pledgeCount: number;
      currentAmount: number;
    };
    expect(progress.pledgeCount).toBe(3);

    const usage = cli(['restore'], { DATA_DIR: fresh });
    expect(usage.code).toBe(1);
    expect(usage.out).toContain('Which backup file?');
  }, 180_000);
});
