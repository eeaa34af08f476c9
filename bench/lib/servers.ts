import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');

export interface Memory {
  /** Resident set size now, MB. */
  rssMb: number;
  /** Peak resident set size since the process started (VmHWM), MB. */
  peakMb: number;
}

export interface RunningServer {
  name: string;
  pid: number;
  baseUrl: string;
  memory(): Memory;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** VmRSS and VmHWM of one process, from /proc (Linux). */
export function readMemory(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
  return { rssMb: Math.round(kb('VmRSS') / 1024), peakMb: Math.round(kb('VmHWM') / 1024) };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitUntilUp(child: ChildProcess, url: string, timeoutMs: number, log: string) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`server exited with code ${child.exitCode} before it was ready; see ${log}`);
    }
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    await sleep(100);
  }
  throw new Error(`server not ready after ${timeoutMs} ms; see ${log}`);
}

/**
 * Starts a server as a child process of its own (so its RSS is only the server's), with its output
 * in a log file, and waits until `readyPath` answers 200.
 */
export async function startServer(opts: {
  name: string;
  args: string[];
  env: Record<string, string>;
  port: number;
  logFile: string;
  readyPath: string;
  timeoutMs?: number;
}): Promise<RunningServer & { startMs: number }> {
  const out = openSync(opts.logFile, 'w');
  const started = Date.now();
  const child = spawn(process.execPath, opts.args, {
    cwd: ROOT,
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', out, out],
  });
  const baseUrl = `http://127.0.0.1:${opts.port}`;
  try {
    await waitUntilUp(child, baseUrl + opts.readyPath, opts.timeoutMs ?? 120_000, opts.logFile);
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  const startMs = Date.now() - started;
  return {
    name: opts.name,
    pid: child.pid!,
    baseUrl,
    startMs,
    memory: () => readMemory(child.pid!),
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
