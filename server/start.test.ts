import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from './config';
import { watchServerProcess, waitReady, type ServerProcess } from '../tests/support/server-process';
import { createTestDatabase, testDbKind } from '../tests/support/test-app';

/**
 * The start path itself, the way `npm start` runs it: `node scripts/start.mjs` as a child process
 * with no ADMIN_PASSWORD, on PGlite under DATA_DIR (api-pglite) or on a fresh PostgreSQL database
 * through DATABASE_URL (api-postgres).
 */

const kind = testDbKind();

const running: ServerProcess[] = [];

/**
 * `node scripts/start.mjs` on PORT=0, with an IPC channel: the server reports the port the kernel
 * chose once it listens (tests/support/server-process.ts).
 */
function start(env: Record<string, string>): ServerProcess {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env, PORT: '0' };
  delete childEnv.ADMIN_PASSWORD;
  if (!env.DATABASE_URL) delete childEnv.DATABASE_URL;
  const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'scripts', 'start.mjs')], {
    cwd: PROJECT_ROOT,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const server = watchServerProcess(child);
  running.push(server);
  return server;
}

/** Waits until the server is ready, then returns its address. */
async function started(server: ServerProcess): Promise<string> {
  await waitReady(server);
  return server.baseUrl;
}

async function stop(server: ServerProcess, signal: NodeJS.Signals = 'SIGTERM') {
  return (await server.kill(signal)).code;
}

const passwordLines = (out: string) => out.split('\n').filter((l) => l.includes('Admin password:'));

describe(`npm start on ${kind}`, () => {
  let dataDir: string;
  let env: Record<string, string>;
  let dropDatabase = async () => {};

  beforeAll(async () => {
    dataDir = path.join(mkdtempSync(path.join(os.tmpdir(), 'relief-start-')), 'nested', 'data');
    env = { DATA_DIR: dataDir, HOST: '127.0.0.1', LOG_LEVEL: 'info' };
    if (kind === 'postgres') {
      // An empty database: the start path runs the migrations itself.
      const created = await createTestDatabase('postgres', { empty: true });
      await created.database.close();
      env.DATABASE_URL = created.url!;
      dropDatabase = created.drop;
    }
  });
  afterEach(async () => {
    // A failed assertion must not leave a server running.
    for (const s of running.splice(0)) await s.kill('SIGKILL');
  });
  afterAll(async () => {
    await dropDatabase();
    rmSync(path.dirname(path.dirname(dataDir)), { recursive: true, force: true });
  });

  it('starts, prints the generated password once, serves the API, and exits 0 on SIGTERM; a restart keeps data and password and exits 0 on SIGINT', async () => {
    const first = start(env);
    const base = await started(first);

    const health = await (await fetch(`${base}/api/health`)).json();
    expect(health).toEqual({ status: 'ok', database: kind });

    const lines = passwordLines(first.output());
    expect(lines).toHaveLength(1);
    const password = /Admin password: (\S+)/.exec(lines[0]!)![1]!;
    expect(password).toMatch(/^[A-Za-z0-9]{24}$/);
    // The password appears in the banner only, never in a log line.
    expect(first.output().split(password).length - 1).toBe(1);

    const login = await fetch(`${base}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password }),
    });
    expect(login.status).toBe(200);
    const created = await fetch(`${base}/api/pledges`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Start Test', email: 'start@donors.test', amount: 110 }),
    });
    expect(created.status).toBe(201);
    // The built client is served with its initial data.
    const html = await (await fetch(`${base}/`)).text();
    expect(html).toContain('id="initial-data"');
    expect(html).toContain('<div id="root">');

    if (kind === 'pglite') {
      // A second process on the same DATA_DIR refuses to start, with a clear message.
      expect(existsSync(path.join(dataDir, 'server.lock'))).toBe(true);
      const intruder = start(env);
      expect((await intruder.exited).code).not.toBe(0);
      expect(intruder.output()).toMatch(
        /Another server process \(pid \d+\) is already using DATA_DIR/,
      );
    }

    expect(await stop(first)).toBe(0);
    if (kind === 'pglite') expect(existsSync(path.join(dataDir, 'server.lock'))).toBe(false);

    // Restart: the data and the password survive; nothing is printed again.
    const second = start(env);
    const base2 = await started(second);
    expect(passwordLines(second.output())).toHaveLength(0);
    const progress = await (await fetch(`${base2}/api/progress`)).json();
    expect(progress).toMatchObject({ currentAmount: 1000, pledgeCount: 1 });
    const again = await fetch(`${base2}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password }),
    });
    expect(again.status).toBe(200);
    // Ctrl-C closes as cleanly as SIGTERM.
    expect(await stop(second, 'SIGINT')).toBe(0);
    if (kind === 'pglite') expect(existsSync(path.join(dataDir, 'server.lock'))).toBe(false);
  }, 120_000);

  it('stops with one message listing every bad setting', async () => {
    const bad = start({
      ...env,
      RATE_LIMIT_LOGIN_PER_MINUTE: 'lots',
      LOG_LEVEL: 'chatty',
      PUBLIC_URL: 'ftp://x',
    });
    expect((await bad.exited).code).toBe(1);
    const out = bad.output();
    expect(out).toContain('Invalid configuration:');
    expect(out).toContain('RATE_LIMIT_LOGIN_PER_MINUTE');
    expect(out).toContain('LOG_LEVEL');
    expect(out).toContain('PUBLIC_URL');
  }, 60_000);
});
