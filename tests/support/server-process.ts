import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { TEST_ADMIN_PASSWORD } from './admin-password';

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
  /** Known once the server said it is ready (see waitReady); reading it earlier throws. */
  readonly baseUrl: string;
  readonly port: number;
  /** Resolves with the port the server bound, when it is ready. */
  ready: Promise<number>;
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
  /** By default 0: the server binds a port the kernel chooses and reports it (see waitReady). */
  port?: number;
  /** Resolve as soon as the process is spawned, without waiting until it is ready. */
  noWait?: boolean;
  readyTimeoutMs?: number;
}

/**
 * V8 flags of the test servers, which live seconds, not weeks. By default V8 recompiles hot code
 * with its optimising compilers in the background, code that pays back only in a long-running
 * server, and `npm test` starts about a hundred of them:
 * - `--liftoff-only`: the database's WebAssembly keeps the baseline compiler's code (Liftoff), not
 *   TurboFan's: about 0.45 CPU-seconds of every start (1.86 -> 1.40 s measured).
 * - `--no-opt`: the same for JavaScript (no TurboFan): 1.60 -> 1.33 CPU-s per start (means of 5),
 *   and 4.65 -> 4.05 CPU-s for a start plus 300 pledges (means of 4): even under load, the
 *   background compiles cost more than they save in a process of a few seconds.
 * The same program, a different V8 tier. `npm start`, the Dockerfile's CMD and
 * server/start.test.ts run with V8's defaults. Checked once, so a Node whose V8 dropped a flag
 * still runs the tests.
 */
let serverFlags: string[] | undefined;
export function testServerFlags(): string[] {
  const wanted = ['--liftoff-only', '--no-opt'];
  const accepted = (flags: string[]) =>
    spawnSync(process.execPath, [...flags, '-e', '0']).status === 0;
  // One check in the usual case, one per flag only when Node refuses the pair.
  serverFlags ??= accepted(wanted) ? wanted : wanted.filter((flag) => accepted([flag]));
  return serverFlags;
}

/**
 * The production server (`node dist/server.js`) as a child process. It binds the port the kernel
 * chooses (PORT=0) and reports it over an IPC channel once it listens. Choosing a free port in the
 * test and polling /api/health on it was racy: between the choice and the server's bind, another
 * test file's server could take the port and answer the health check, and a test then wrote to
 * the wrong server (seen once: R3 "lost" the acknowledged pledges of one cycle).
 */
export async function spawnServer(opts: SpawnOptions): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...testServerFlags(), SERVER_SCRIPT], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      NODE_ENV: 'production',
      PORT: String(opts.port ?? 0),
      HOST: '127.0.0.1',
      DATA_DIR: opts.dataDir,
      ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PLEDGES_PER_MINUTE: '0',
      ...(opts.databaseUrl ? { DATABASE_URL: opts.databaseUrl } : {}),
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const server = watchServerProcess(child);
  if (!opts.noWait) await waitReady(server, opts.readyTimeoutMs ?? 60_000);
  return server;
}

/**
 * A spawned server process (`dist/server.js`, or `scripts/start.mjs`, which runs it in the same
 * process) with an IPC channel: its output, its exit, and the port it reports once it listens.
 */
export function watchServerProcess(child: ChildProcess): ServerProcess {
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
  let port: number | undefined;
  const ready = new Promise<number>((resolve) => {
    child.on('message', (message: { type?: string; port?: number }) => {
      if (message?.type === 'ready' && typeof message.port === 'number') {
        port = message.port;
        resolve(message.port);
      }
    });
  });
  const notReady = () => new Error('the server has not said it is ready yet: await waitReady()');
  return {
    get baseUrl() {
      if (port === undefined) throw notReady();
      return `http://127.0.0.1:${port}`;
    },
    get port() {
      if (port === undefined) throw notReady();
      return port;
    },
    ready,
    child,
    output: () => out,
    exited,
    async kill(signal = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Waits until the server reports that it listens, or fails with its output. */
export async function waitReady(server: ServerProcess, timeoutMs = 60_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    server.ready.then(() => 'ready' as const),
    server.exited.then(() => 'exited' as const),
    new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs))),
  ]);
  clearTimeout(timer);
  if (outcome === 'exited')
    throw new Error(`server exited during start:\n${server.output().slice(-3000)}`);
  if (outcome === 'timeout')
    throw new Error(`server not ready after ${timeoutMs} ms:\n${server.output().slice(-3000)}`);
}
