import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from './config';
import { createTestDatabase, testDbKind } from '../tests/support/test-app';

/**
 * The start path itself, the way `npm start` runs it: `node scripts/start.mjs` as a child process
 * with no ADMIN_PASSWORD, on PGlite under DATA_DIR (api-pglite) or on a fresh PostgreSQL database
 * through DATABASE_URL (api-postgres).
 */

const kind = testDbKind();

interface Server {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

const running: Server[] = [];

/**
 * On PORT=0, the port the kernel chose: the server's own "ready on" line says which (a port chosen
 * here in advance could be taken by another test's server before this one binds it).
 */
function start(env: Record<string, string>): Server {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env, PORT: '0' };
  delete childEnv.ADMIN_PASSWORD;
  if (!env.DATABASE_URL) delete childEnv.DATABASE_URL;
  let out = '';
  const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'scripts', 'start.mjs')], {
    cwd: PROJECT_ROOT,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const server = { child, output: () => out, exited };
  running.push(server);
  return server;
}

/** Waits for the "ready on" log line, then checks /api/health; fails early if the process exits. */
async function waitHealthy(server: Server, timeoutMs = 60_000): Promise<string> {
  const started = Date.now();
  let exited = false;
  void server.exited.then(() => (exited = true));
  while (Date.now() - started < timeoutMs) {
    if (exited) throw new Error(`server exited before it was healthy:\n${server.output()}`);
    const port = /ready on http:\/\/localhost:(\d+)/.exec(server.output())?.[1];
    if (port) {
      const base = `http://127.0.0.1:${port}`;
      const res = await fetch(`${base}/api/health`);
      if (res.status !== 200) throw new Error(`ready, but /api/health answered ${res.status}`);
      return base;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`server not healthy after ${timeoutMs} ms:\n${server.output()}`);
}

async function stop(server: Server, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  server.child.kill(signal);
  return server.exited;
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
    for (const s of running.splice(0)) {
      if (s.child.exitCode === null && s.child.signalCode === null) {
        s.child.kill('SIGKILL');
        await s.exited;
      }
    }
  });
  afterAll(async () => {
    await dropDatabase();
    rmSync(path.dirname(path.dirname(dataDir)), { recursive: true, force: true });
  });

  it('starts, prints the generated password once, serves the API, and exits 0 on SIGTERM; a restart keeps data and password and exits 0 on SIGINT', async () => {
    const first = start(env);
    const base = await waitHealthy(first);

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
      expect(await intruder.exited).not.toBe(0);
      expect(intruder.output()).toMatch(
        /Another server process \(pid \d+\) is already using DATA_DIR/,
      );
    }

    expect(await stop(first)).toBe(0);
    if (kind === 'pglite') expect(existsSync(path.join(dataDir, 'server.lock'))).toBe(false);

    // Restart: the data and the password survive; nothing is printed again.
    const second = start(env);
    const base2 = await waitHealthy(second);
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
    expect(await bad.exited).toBe(1);
    const out = bad.output();
    expect(out).toContain('Invalid configuration:');
    expect(out).toContain('RATE_LIMIT_LOGIN_PER_MINUTE');
    expect(out).toContain('LOG_LEVEL');
    expect(out).toContain('PUBLIC_URL');
  }, 60_000);
});
