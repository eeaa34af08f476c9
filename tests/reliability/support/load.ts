import http from 'node:http';
import { TEST_ADMIN_PASSWORD } from '../../helpers/test-app';

export interface Answer {
  status: number;
  body: string;
  headers: http.IncomingHttpHeaders;
  ms: number;
}

/**
 * JSON over node:http with a keep-alive agent: the number of sockets is exactly what the test asks
 * for (fetch pools connections on its own terms), and a dead server shows as a socket error.
 */
export function request(
  baseUrl: string,
  method: string,
  path: string,
  opts: {
    json?: unknown;
    body?: string | Buffer;
    headers?: Record<string, string>;
    cookie?: string;
    agent?: http.Agent | false;
    timeoutMs?: number;
  } = {},
): Promise<Answer> {
  const url = new URL(baseUrl);
  const started = Date.now();
  const headers: Record<string, string> = { ...opts.headers };
  let body = opts.body;
  if (opts.json !== undefined) {
    body = JSON.stringify(opts.json);
    headers['content-type'] = 'application/json';
  }
  if (opts.cookie) headers.cookie = opts.cookie;
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers,
        agent: opts.agent ?? false,
        timeout: opts.timeoutMs ?? 30_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            headers: res.headers,
            ms: Date.now() - started,
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('client timeout')));
    req.on('error', reject);
    req.end(body);
  });
}

export async function login(baseUrl: string): Promise<string> {
  const res = await request(baseUrl, 'POST', '/api/admin/login', {
    json: { password: TEST_ADMIN_PASSWORD },
  });
  if (res.status !== 200) throw new Error(`login: ${res.status} ${res.body}`);
  const setCookie = res.headers['set-cookie']?.[0] ?? '';
  return setCookie.split(';')[0]!;
}

export interface StoredPledge {
  id: string;
  name: string;
  email: string;
  amount: number;
  currency: 'USD' | 'JMD';
  containers: number;
  isPaid: boolean;
}

/** Every pledge, as the admin sees them (GET /api/pledges with a session lists them all). */
export async function allPledges(baseUrl: string, cookie: string): Promise<StoredPledge[]> {
  const res = await request(baseUrl, 'GET', '/api/pledges', { cookie });
  if (res.status !== 200) throw new Error(`list: ${res.status} ${res.body}`);
  return JSON.parse(res.body) as StoredPledge[];
}

export interface Progress {
  currentAmount: number;
  manualAdjustment: number;
  confirmedAmount: number;
  pledgeCount: number;
  donorCount: number;
}

export async function progress(baseUrl: string): Promise<Progress> {
  const res = await request(baseUrl, 'GET', '/api/progress');
  if (res.status !== 200) throw new Error(`progress: ${res.status} ${res.body}`);
  return JSON.parse(res.body) as Progress;
}

/** Runs `task` with at most `concurrency` in flight; returns the results in order. */
export async function pool<T>(
  count: number,
  concurrency: number,
  task: (i: number) => Promise<T>,
): Promise<T[]> {
  const results = new Array<T>(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await task(i);
      }
    }),
  );
  return results;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const SOAK = Boolean(process.env.SOAK);
