import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { TestApp } from '../../helpers/test-app';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A request exactly as written: fetch normalises paths ("../"), and refuses some header values,
 * so attacks on the raw protocol go through node:http instead.
 */
export function rawRequest(
  baseUrl: string,
  opts: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<RawResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: opts.method ?? 'GET',
        path: opts.path,
        headers: opts.headers,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

let seq = 0;
/** A valid pledge body with a unique name, so tests can find their own rows. */
export function pledgeBody(overrides: Record<string, unknown> = {}) {
  seq += 1;
  return {
    name: `Donor ${seq} ${randomUUID().slice(0, 8)}`,
    email: `donor${seq}@example.test`,
    amount: 110,
    currency: 'USD',
    isAnonymous: false,
    ...overrides,
  };
}

export interface AdminPledgeView {
  id: string;
  name: string;
  email: string;
  amount: number;
  currency: 'USD' | 'JMD';
  containers: number;
  isAnonymous: boolean;
  isPaid: boolean;
  paymentConfirmedAt: string | null;
  createdAt: string;
}

export async function createPledge(
  t: TestApp,
  overrides: Record<string, unknown> = {},
): Promise<{ id: string; body: ReturnType<typeof pledgeBody> }> {
  const body = pledgeBody(overrides);
  const res = await t.request('/api/pledges', { method: 'POST', json: body });
  expect(res.status, await res.clone().text()).toBe(201);
  const { id } = (await res.json()) as { id: string };
  return { id, body };
}

/** The admin's view of one pledge (GET /api/pledges with a session lists everything). */
export async function adminPledge(t: TestApp, cookie: string, id: string) {
  const list = await adminPledges(t, cookie);
  return list.find((p) => p.id === id);
}

export async function adminPledges(t: TestApp, cookie: string): Promise<AdminPledgeView[]> {
  const res = await t.request('/api/pledges', { cookie });
  expect(res.status).toBe(200);
  return (await res.json()) as AdminPledgeView[];
}

/** Everything an attacker could try to change, read with an admin session: compare before/after. */
export async function everything(t: TestApp, cookie: string) {
  const [pledges, progress, updates, settings] = await Promise.all([
    adminPledges(t, cookie),
    t.request('/api/progress').then((r) => r.json()),
    t.request('/api/updates').then((r) => r.json()),
    t.request('/api/admin/check', { cookie }).then((r) => r.json()),
  ]);
  return { pledges, progress, updates, settings };
}

/** Asserts a JSON error body that is short and shows no internals (stack, SQL, file paths). */
export function expectCleanError(body: string) {
  const parsed = JSON.parse(body) as Record<string, unknown>;
  expect(typeof parsed.message).toBe('string');
  expect(Object.keys(parsed).every((k) => k === 'message' || k === 'errors')).toBe(true);
  expect(body.length).toBeLessThan(600);
  expect(body).not.toMatch(/\bat .+:\d+:\d+|node_modules|\/work\/|\/tmp\/|\.ts\b|\.js\b/);
  expect(body).not.toMatch(/\b(select|insert into|update .+ set|delete from)\b/i);
  expect(body).not.toMatch(/"?stack"?:/);
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface RouteInfo {
  method: string;
  url: string;
}

/** Every route of the app, read from Fastify's route tree (so a new route is covered at once). */
export function listRoutes(app: TestApp['app']): RouteInfo[] {
  const out: RouteInfo[] = [];
  const stack: { depth: number; path: string }[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^([\s│├└─]*)(\S.*?) \(([A-Z, ]+)\)$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length;
    while (stack.length && stack[stack.length - 1]!.depth >= depth) stack.pop();
    const parent = stack[stack.length - 1]?.path ?? '';
    const segment = m[2]!;
    const path = parent === '' ? segment : parent === '/' ? `/${segment}` : parent + segment;
    stack.push({ depth, path });
    for (const method of m[3]!.split(',').map((s) => s.trim())) out.push({ method, url: path });
  }
  return out;
}
