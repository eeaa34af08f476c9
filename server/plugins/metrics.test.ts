import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../tests/support/test-app';

const TOKEN = 'metrics-token-0123456789';
const pledge = {
  name: 'Ann Lee',
  email: 'ann@example.org',
  amount: 20,
  currency: 'USD',
  isAnonymous: false,
};

describe('metrics behind a token', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { METRICS_TOKEN: TOKEN } });
  });
  afterAll(async () => t?.close());

  const scrape = (auth?: string) =>
    t.request('/metrics', auth ? { headers: { authorization: auth } } : {});

  it('refuses a missing or wrong token', async () => {
    expect((await scrape()).status).toBe(401);
    const wrong = await scrape(`Bearer ${TOKEN.slice(0, -1)}x`);
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { message: string }).message).toBe(
      'A valid metrics token is required.',
    );
  });

  it('counts requests by route pattern, pledges created, outbox backlog, event-loop lag and the pool', async () => {
    expect((await t.request('/api/pledges', { method: 'POST', json: pledge })).status).toBe(201);
    await t.request('/api/pledges/not-a-uuid/confirm', { method: 'PUT' });
    await t.request('/no/such/page/123');
    const res = await scrape(`Bearer ${TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const body = await res.text();
    expect(body).toMatch(
      /http_requests_total\{method="POST",route="\/api\/pledges",status="201"\} 1/,
    );
    // The pattern, not the raw path: ids never become label values.
    expect(body).toContain('route="/api/pledges/:id/confirm"');
    expect(body).not.toContain('not-a-uuid');
    expect(body).not.toContain('/no/such/page');
    expect(body).toMatch(
      /http_request_duration_seconds_bucket\{le="0.05",method="POST",route="\/api\/pledges"\}/,
    );
    expect(body).toMatch(/^pledges_created_total 1$/m);
    expect(body).toMatch(/^email_outbox_waiting \d+$/m);
    expect(body).toMatch(/^nodejs_eventloop_lag_seconds /m);
    expect(body).toMatch(/^db_pool_connections\{state="total"\} \d+$/m);
  });

  it('gives every response a request id, keeping a well-formed one from a proxy', async () => {
    const own = await t.request('/api/health');
    expect(own.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await t.request('/api/health', { headers: { 'x-request-id': 'lb-7f3a9c21e4' } });
    expect(kept.headers.get('x-request-id')).toBe('lb-7f3a9c21e4');
    const junk = await t.request('/api/health', {
      headers: { 'x-request-id': 'bad id\u00e9<script>' },
    });
    expect(junk.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('is ready when the database answers and every migration is applied, not while draining', async () => {
    const ready = await t.request('/api/ready');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready' });
    void t.app.drain(200);
    const draining = await t.request('/api/ready');
    expect(draining.status).toBe(503);
  });
});

describe('metrics on their own port', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { METRICS_PORT: '0' } });
  });
  afterAll(async () => t?.close());

  it('serves /metrics on the separate listener only', async () => {
    const port = t.app.metricsPort!();
    expect(port).toBeGreaterThan(0);
    await t.request('/api/progress');
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('route="/api/progress"');
    const main = await t.request('/metrics');
    expect(await main.text()).not.toContain('http_requests_total');
  });
});

describe('metrics off by default', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('has no /metrics without a token or a port', async () => {
    const res = await t.request('/metrics');
    expect(await res.text()).not.toContain('http_requests_total');
  });
});
