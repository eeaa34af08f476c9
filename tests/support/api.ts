import { randomUUID } from 'node:crypto';
import type { AdminPledge, CreatedPledge } from '@shared/schemas/pledge';
import type { Progress } from '@shared/schemas/progress';
import { expect } from 'vitest';
import { samplePng } from '../fixtures';
import { request } from './http';
import { TEST_ADMIN_PASSWORD } from './admin-password';

/**
 * The app's HTTP API as the tests drive it, for an in-process app (anything with a baseUrl) and
 * for a child-process server (its baseUrl) alike. Failures throw with the status and body.
 */
/** A well-formed id that no row has. */
export const MISSING_ID = '00000000-0000-4000-8000-000000000000';

export type Target = string | { baseUrl: string };
const base = (target: Target) => (typeof target === 'string' ? target : target.baseUrl);

async function call<T>(
  target: Target,
  method: string,
  path: string,
  expected: number,
  opts: { json?: unknown; cookie?: string; body?: Buffer; headers?: Record<string, string> } = {},
): Promise<T> {
  const res = await request(base(target), method, path, opts);
  if (res.status !== expected)
    throw new Error(`${method} ${path}: ${res.status} (wanted ${expected}) ${res.body}`);
  return JSON.parse(res.body) as T;
}

/** Logs in and returns the Cookie header value ("name=value"). */
export async function login(target: Target, password = TEST_ADMIN_PASSWORD): Promise<string> {
  const res = await request(base(target), 'POST', '/api/admin/login', { json: { password } });
  if (res.status !== 200) throw new Error(`login: ${res.status} ${res.body}`);
  const setCookie = res.headers['set-cookie']?.[0] ?? '';
  return setCookie.split(';')[0]!;
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

/** Whether the Cookie header value is a live admin session (GET /api/admin/check). */
export async function isSignedIn(target: Target, cookie?: string): Promise<boolean> {
  const check = await call<{ isAuthenticated: boolean }>(target, 'GET', '/api/admin/check', 200, {
    cookie,
  });
  return check.isAuthenticated;
}

/** POST /api/pledges (expects 201) with exactly this body; its id and the status link it got. */
export async function pledgeWithLink(target: Target, body: Record<string, unknown>) {
  const created = await call<CreatedPledge>(target, 'POST', '/api/pledges', 201, { json: body });
  if (!created.statusUrl) throw new Error(`POST /api/pledges gave no statusUrl`);
  return { ...created, statusUrl: created.statusUrl };
}

/** POST /api/pledges (expects 201); returns the public answer. */
export function createPledge(target: Target, overrides: Record<string, unknown> = {}) {
  return call<CreatedPledge>(target, 'POST', '/api/pledges', 201, {
    json: pledgeBody(overrides),
  });
}

/** Every pledge as the admin sees them (GET /api/pledges with a session lists them all). */
export function adminPledges(target: Target, cookie: string): Promise<AdminPledge[]> {
  return call(target, 'GET', '/api/pledges', 200, { cookie });
}

/** The admin's view of one pledge. */
export async function adminPledge(target: Target, cookie: string, id: string) {
  return (await adminPledges(target, cookie)).find((p) => p.id === id);
}

export function progress(target: Target): Promise<Progress> {
  return call(target, 'GET', '/api/progress', 200);
}

/** Everything an attacker could try to change, read with an admin session: compare before/after. */
export async function everything(target: Target, cookie: string) {
  const [pledges, progressNow, updates, settings] = await Promise.all([
    adminPledges(target, cookie),
    progress(target),
    call(target, 'GET', '/api/updates', 200),
    // Whatever the session check answers is part of the state (a 401 too).
    request(base(target), 'GET', '/api/admin/check', { cookie }).then((r) => JSON.parse(r.body)),
  ]);
  return { pledges, progress: progressNow, updates, settings };
}

/** Asks for a signed upload URL (admin) and returns it. */
export async function uploadUrl(target: Target, cookie: string): Promise<string> {
  return (await uploadLinks(target, cookie)).uploadURL;
}

/**
 * POST /api/objects/upload: the upload URL and, with object storage, the completion link (the
 * bucket's presigned URL is then signed for `size` bytes when it is given).
 */
export function uploadLinks(
  target: Target,
  cookie: string,
  size?: number,
): Promise<{ uploadURL: string; completeURL?: string }> {
  return call(target, 'POST', '/api/objects/upload', 200, {
    cookie,
    ...(size === undefined ? {} : { json: { size } }),
  });
}

/**
 * Uploads bytes the way the browser does and returns the image URL: a raw PUT to the signed URL,
 * and with object storage (a completion link in the answer) a PUT to the bucket, then the POST
 * that has the server check and store the image.
 */
export async function uploadImage(
  target: Target,
  cookie: string,
  bytes: Buffer = samplePng(),
  type = 'image/png',
): Promise<string> {
  // With its size, as the browser sends it (a bucket's link is signed for it).
  const links = await uploadLinks(target, cookie, bytes.length);
  const url = new URL(links.uploadURL);
  if (links.completeURL) {
    const put = await request(url.origin, 'PUT', url.pathname + url.search, {
      body: bytes,
      headers: { 'content-type': type },
    });
    if (put.status !== 200) throw new Error(`PUT to the bucket: ${put.status} ${put.body}`);
    const done = new URL(links.completeURL);
    return (await call<{ url: string }>(done.origin, 'POST', done.pathname + done.search, 200)).url;
  }
  const put = await call<{ url: string }>(url.origin, 'PUT', url.pathname + url.search, 200, {
    body: bytes,
    headers: { 'content-type': type },
  });
  return put.url;
}

export interface UpdateSeed {
  recipient: string;
  containerCount: number;
  deliveryDate: string;
  imageUrl?: string;
}

/** Uploads the sample PNG (unless given an image) and posts a delivery update, as an admin would. */
export async function createUpdate(
  target: Target,
  cookie: string,
  update: Partial<UpdateSeed> = {},
): Promise<{ id: string; imageUrl: string } & Record<string, unknown>> {
  const imageUrl = update.imageUrl ?? (await uploadImage(target, cookie));
  return call(target, 'POST', '/api/updates', 201, {
    cookie,
    json: {
      recipient: 'Shelter',
      containerCount: 5,
      deliveryDate: '2025-01-05',
      ...update,
      imageUrl,
    },
  });
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
