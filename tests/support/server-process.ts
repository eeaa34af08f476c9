import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { freePort } from './net';
import { TEST_ADMIN_PASSWORD } from './test-app';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SERVER_SCRIPT = path.join(ROOT, 'dist/server.js');

/**
 * A DATA_DIR whose PGlite folder is a copy of the migrated template the global setup made: the
 * server reopens it (~0.4 s) instead of running initdb (3-7 s) at its first start.
 */
export function preparedDataDir(prefix = 'relief-rel-'): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  const pgdata = path.join(dir, 'pgdata');
  mkdirSync(pgdata);
  const res = spawnSync('tar', ['-xf', inject('pgliteTemplate'), '-C', pgdata]);
  if (res.status !== 0) throw new Error(`tar failed: ${res.stderr.toString()}`);
  return dir;
}

export interface ServerProcess {
  baseUrl: string;
  port: number;
  child: ChildProcess;
  /** Everything the process wrote (stdout and stderr), for messages and log checks. */
  output(): string;
  /** Resolves when the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface SpawnOptions {
  dataDir: string;
  databaseUrl?: string;
  env?: Record<string, string>;
  port?: number;
  /** Resolve as soon as the process is spawned, without waiting for /api/health. */
  noWait?: boolean;
  readyTimeoutMs?: number;
}

/**
 * V8 flags of the test servers, which live seconds, not weeks. By default V8 recompiles the
 * database's hot WebAssembly functions with its optimising compiler (TurboFan) in the background:
 * about 0.45 CPU-seconds of every start (1.86 -> 1.40 s measured), for code that pays back only in
 * a long-running server, and `npm test` starts about a hundred of them. `--liftoff-only` keeps the
 * baseline compiler's code: the same program, a different V8 tier. `npm start`, the Dockerfile's
 * CMD and server/start.test.ts run with V8's defaults. Checked once, so a Node whose V8 dropped
 * the flag still runs the tests.
 */
let serverFlags: string[] | undefined;
function testServerFlags(): string[] {
  serverFlags ??= ['--liftoff-only'].filter(
    (flag) => spawnSync(process.execPath, [flag, '-e', '0']).status === 0,
  );
  return serverFlags;
}

/** The production server (`node dist/server.js`) as a child process. */
export async function spawnServer(opts: SpawnOptions): Promise<ServerProcess> {
  const port = opts.port ?? (await freePort());
  const child = spawn(process.execPath, [...testServerFlags(), SERVER_SCRIPT], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: opts.dataDir,
      ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PLEDGES_PER_MINUTE: '0',
      ...(opts.databaseUrl ? { DATABASE_URL: opts.databaseUrl } : {}),
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (chunk: Buffer) => {
    out += chunk.toString('utf8');
    if (out.length > 200_000) out = out.slice(-100_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const server: ServerProcess = {
    baseUrl: `http://127.0.0.1:${port}`,
    port,
    child,
    output: () => out,
    exited,
    async kill(signal = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  if (!opts.noWait) await waitReady(server, opts.readyTimeoutMs ?? 60_000);
  return server;
}

/** Polls /api/health until it answers 200, or fails with the server's output. */
export async function waitReady(server: ServerProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void server.exited.then(() => (exited = true));
  while (Date.now() < deadline) {
    if (exited) throw new Error(`server exited during start:\n${server.output().slice(-3000)}`);
    try {
      const res = await fetch(`${server.baseUrl}/api/health`);
      if (res.status === 200) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 15));
  }
  throw new Error(`server not ready after ${timeoutMs} ms:\n${server.output().slice(-3000)}`);
}
