import { afterAll, beforeAll } from 'vitest';
import { PUBLIC_PLEDGE_KEYS } from '@shared/schemas/pledge';
import { liveEventSchema, type LiveEvent } from '@shared/schemas/live';
import { createPledge, pledgeBody } from '../../../tests/support/api';
import { describe, expect, test } from '../../../tests/support/fixtures';
import { request } from '../../../tests/support/http';
import { eventually, sleep } from '../../../tests/support/net';
import { openEventStream, type EventStream, type SseEvent } from '../../../tests/support/sse';
import { startTestApp, type TestApp } from '../../../tests/support/test-app';
import { LIVE_FULL_MESSAGE } from './routes';

const STREAM = '/api/progress/stream';
const parse = (e: SseEvent): LiveEvent => liveEventSchema.parse(JSON.parse(e.data));

describe('GET /api/progress/stream', () => {
  test('answers an event stream that starts with the current progress and newest pledges', async ({
    app,
    pledge,
  }) => {
    await pledge();
    // Asked for brotli, as browsers do: the stream must not be compressed (it would be buffered).
    const stream = await openEventStream(app.baseUrl, STREAM, { 'accept-encoding': 'gzip, br' });
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
      expect(stream.headers['cache-control']).toBe('no-cache, no-transform');
      expect(stream.headers['x-accel-buffering']).toBe('no');
      expect(stream.headers['content-encoding']).toBeUndefined();
      const first = await stream.next();
      expect(first.event).toBe('progress');
      expect(stream.retryMs).toBe(5000);
      const event = parse(first);
      // The same bodies as the two endpoints the page reads.
      const progress = await (await app.request('/api/progress')).json();
      const pledges = await (await app.request('/api/pledges?limit=8')).json();
      expect(event.progress).toEqual(progress);
      expect(event.pledges).toEqual(pledges);
    } finally {
      stream.close();
    }
  });

  test('pushes an event after a pledge, with public fields only', async ({ app }) => {
    const stream = await openEventStream(app.baseUrl, STREAM);
    try {
      const before = parse(await stream.next()).progress;
      const body = pledgeBody({ amount: 220, isAnonymous: true });
      const sent = Date.now();
      await createPledge(app, body);
      const event = await stream.next((e) => parse(e).progress.pledgeCount > before.pledgeCount);
      const data = parse(event);
      expect(event.at - sent).toBeLessThan(1000);
      expect(data.progress.currentAmount).toBe(before.currentAmount + 2000);
      expect(data.progress.donorCount).toBe(before.donorCount + 1);
      const newest = data.pledges[0]!;
      expect(newest.amount).toBe(220);
      // Anonymous: the public name, never the real one, and no e-mail address.
      expect(newest.name).toBe('Anonymous');
      expect(event.data).not.toContain(body.name);
      expect(event.data).not.toContain(body.email);
      for (const p of data.pledges)
        expect(Object.keys(p).sort()).toEqual([...PUBLIC_PLEDGE_KEYS].sort());
    } finally {
      stream.close();
    }
  });

  test('coalesces a burst of pledges into events at most twice a second', async ({ app }) => {
    const stream = await openEventStream(app.baseUrl, STREAM);
    try {
      const before = parse(await stream.next()).progress.pledgeCount;
      const from = stream.events.length;
      const started = Date.now();
      // 30 pledges over about 1.5 s.
      for (let i = 0; i < 30; i++) {
        await createPledge(app);
        await sleep(50);
      }
      const last = await stream.next(
        (e) => parse(e).progress.pledgeCount === before + 30,
        3000,
        from,
      );
      const burst = stream.events.slice(from, stream.events.indexOf(last) + 1);
      expect(burst.length).toBeGreaterThanOrEqual(2);
      // Counted, not timed between arrivals: a busy machine may deliver two events close together
      // that the server sent 500 ms apart. One event at once, then one per 500 ms at most.
      expect(burst.length).toBeLessThanOrEqual(1 + Math.ceil((last.at - started) / 500));
      expect(burst.length).toBeLessThan(30);
    } finally {
      stream.close();
    }
  });

  test('sends nothing when a change leaves the public numbers alone', async ({
    app,
    adminClient,
    update,
  }) => {
    const posted = await update();
    const stream = await openEventStream(app.baseUrl, STREAM);
    try {
      await stream.next();
      // The update's own change (its containers count as delivered) may reach the stream just
      // after it opens: let it arrive first.
      await sleep(1200);
      const before = stream.events.length;
      // A new recipient changes the snapshot, not the progress or pledges.
      const edited = await adminClient.request(`/api/updates/${posted.id}`, {
        method: 'PATCH',
        json: { updates: { recipient: 'Renamed shelter' } },
      });
      expect(edited.status).toBe(200);
      await sleep(1200);
      expect(stream.events).toHaveLength(before);
      // The stream is still live: the next pledge arrives.
      await createPledge(app);
      await stream.next(() => true, 2000, before);
    } finally {
      stream.close();
    }
  });

  test('is not served to HEAD, and has no other methods', async ({ app }) => {
    expect((await request(app.baseUrl, 'HEAD', STREAM)).status).toBe(404);
    expect((await request(app.baseUrl, 'POST', STREAM, { json: {} })).status).toBe(404);
  });
});

describe('the stream at its limit, on drain and on close', () => {
  let t: TestApp;
  const open: EventStream[] = [];
  beforeAll(async () => {
    t = await startTestApp({ env: { LIVE_MAX_CLIENTS: '2' } });
  });
  afterAll(async () => {
    for (const s of open) s.close();
    await t?.close();
  });

  test('refuses a client beyond LIVE_MAX_CLIENTS with a 503 and a message, and has room again when one leaves', async () => {
    const a = await openEventStream(t.baseUrl, STREAM);
    const b = await openEventStream(t.baseUrl, STREAM);
    open.push(a, b);
    expect([a.status, b.status]).toEqual([200, 200]);
    const refused = await openEventStream(t.baseUrl, STREAM);
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('30');
    expect(JSON.parse(refused.body)).toEqual({ message: LIVE_FULL_MESSAGE });

    a.close();
    await eventually(async () => {
      const c = await openEventStream(t.baseUrl, STREAM);
      if (c.status === 200) open.push(c);
      return c.status === 200;
    });
  });

  test('drain ends every stream at once instead of waiting for them', async () => {
    const streams = open.filter((s) => s.status === 200);
    for (const s of streams) await s.next();
    const started = Date.now();
    await t.app.drain(10_000);
    expect(Date.now() - started).toBeLessThan(1000);
    await Promise.all(streams.map((s) => s.ended));
    // And the app closes (Node's server.close waits for open responses).
    const closing = Date.now();
    await t.app.close();
    expect(Date.now() - closing).toBeLessThan(3000);
  });
});

describe('closing the app with streams open', () => {
  test('ends them and closes promptly', async () => {
    const t = await startTestApp();
    try {
      const streams = await Promise.all([1, 2, 3].map(() => openEventStream(t.baseUrl, STREAM)));
      for (const s of streams) await s.next();
      const started = Date.now();
      await t.app.close();
      expect(Date.now() - started).toBeLessThan(3000);
      await Promise.all(streams.map((s) => s.ended));
    } finally {
      await t.close();
    }
  });
});

/**
 * Second review 2.5 (docs/SECURITY.md, threat 53): one client opened all 5,000 streams in 4 s and
 * everyone else got 503.
 */
describe('2.5 streams per client', () => {
  let t: TestApp;
  const open: EventStream[] = [];
  const TOKEN = 'metrics-token-0123456789';
  beforeAll(async () => {
    t = await startTestApp({
      env: {
        LIVE_MAX_PER_CLIENT: '3',
        LIVE_MAX_CLIENTS: '20',
        METRICS_TOKEN: TOKEN,
        // Clients told apart by X-Forwarded-For, as behind the site's proxy.
        TRUST_PROXY: 'true',
      },
    });
  });
  afterAll(async () => {
    for (const s of open) s.close();
    await t?.close();
  });
  const metric = async (name: string) => {
    const res = await t.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    const line = (await res.text()).split('\n').find((l) => l.startsWith(`${name} `));
    return Number(line?.split(' ')[1]);
  };

  test('2.5 one address gets LIVE_MAX_PER_CLIENT streams, then a clear 429; the rest stay for others; /metrics counts them', async () => {
    const from = (ip: string) => openEventStream(t.baseUrl, STREAM, { 'x-forwarded-for': ip });
    for (let i = 0; i < 3; i++) open.push(await from('203.0.113.9'));
    expect(open.map((s) => s.status)).toEqual([200, 200, 200]);
    const refused = await from('203.0.113.9');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('30');
    expect(JSON.parse(refused.body).message).toMatch(/Too many live updates.*at most 3/);
    // Another address of the same IPv6 /64 counts as the same client; another client is served.
    const v6 = await from('2001:db8:1:2::1');
    open.push(v6);
    expect(v6.status).toBe(200);
    for (const ip of ['2001:db8:1:2::2', '2001:db8:1:2:ffff::9']) open.push(await from(ip));
    expect((await from('2001:db8:1:2::77')).status).toBe(429);
    const other = await from('198.51.100.4');
    open.push(other);
    expect(other.status).toBe(200);
    expect(await metric('live_streams_open')).toBe(7);
    expect(await metric('live_stream_clients')).toBe(3);
    expect(await metric('live_streams_refused_per_client')).toBe(2);
    // One closes: that address has room again.
    open.shift()!.close();
    await eventually(async () => {
      const again = await from('203.0.113.9');
      if (again.status === 200) open.push(again);
      return again.status === 200;
    });
  });
});
