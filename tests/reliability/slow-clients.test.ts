import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samplePng } from '../fixtures';
import { login } from '../support/api';
import { request } from '../support/http';
import { sleep } from '../support/net';
import { SOAK } from './support/load';
import type { ServerProcess } from '../support/server-process';
import { createTarget, type Target } from './support/target';

/** Short timeouts for the test; production uses 15 s and 120 s (the mechanism is the same). */
const HEADERS_TIMEOUT_MS = 1_000;
const REQUEST_TIMEOUT_MS = 2_000;
const SLOWLORIS = SOAK ? 500 : 100;

interface SlowSocket {
  socket: net.Socket;
  openedAt: number;
  closedAt?: number;
  received: string;
}

/** A client that sends its request a few bytes at a time and never finishes. */
function slowClient(port: number, head: string, dribble: string, everyMs: number): SlowSocket {
  const socket = net.connect(port, '127.0.0.1');
  const s: SlowSocket = { socket, openedAt: Date.now(), received: '' };
  socket.on('data', (d: Buffer) => (s.received += d.toString('latin1')));
  socket.on('error', () => undefined);
  socket.on('close', () => {
    s.closedAt = Date.now();
    clearInterval(timer);
  });
  socket.write(head);
  const timer = setInterval(() => {
    if (!socket.destroyed) socket.write(dribble);
  }, everyMs);
  return s;
}

/** R6: slow headers (slowloris) and a slow upload body. */
describe(`R6 slow clients (${SLOWLORIS} slow-header connections and a slow upload)`, () => {
  let target: Target;
  let server: ServerProcess;
  beforeAll(async () => {
    target = await createTarget();
    server = await target.start({
      env: {
        HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
        REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      },
    });
  });
  afterAll(async () => {
    await server?.kill('SIGTERM');
    await target?.dispose();
  });

  it('keeps serving everyone else, and the timeouts close the slow ones', async () => {
    const base = server.baseUrl;
    const cookie = await login(base);
    const signed = await request(base, 'POST', '/api/objects/upload', { cookie });
    const uploadUrl = new URL((JSON.parse(signed.body) as { uploadURL: string }).uploadURL);
    const uploadId = uploadUrl.pathname.split('/').pop()!;

    const started = Date.now();
    // Slow headers: one more header byte every 200 ms, never the blank line.
    const loris = Array.from({ length: SLOWLORIS }, (_, i) =>
      slowClient(server.port, `GET /?${i} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-a: `, 'a', 200),
    );
    // A slow upload body: 5 MB announced, 1 KB every 100 ms (10 KB/s).
    const slowUpload = slowClient(
      server.port,
      `PUT ${uploadUrl.pathname}${uploadUrl.search} HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
        `Content-Type: image/jpeg\r\nContent-Length: ${5 * 1024 * 1024}\r\n\r\n\xff\xd8\xff`,
      'x'.repeat(1024),
      100,
    );

    // Everyone else: reads and writes, one after another, while the slow ones hang on.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    const latencies: number[] = [];
    let i = 0;
    while (Date.now() - started < REQUEST_TIMEOUT_MS + 1_000) {
      const res =
        i % 3 === 0
          ? await request(base, 'POST', '/api/pledges', {
              json: { name: `Patient ${i}`, email: `p${i}@example.test`, amount: 20 },
              agent,
            })
          : await request(base, 'GET', i % 3 === 1 ? '/api/progress' : '/', { agent });
      expect([200, 201]).toContain(res.status);
      latencies.push(res.ms);
      i++;
      await sleep(20);
    }
    agent.destroy();

    // Give the last checks a moment, then look at the slow sockets.
    await sleep(500);
    const closedIn = loris.map((s) => (s.closedAt ?? Infinity) - s.openedAt);
    const worst = Math.max(...closedIn);
    // Closed by the headers timeout (plus one checking interval), long before they finished.
    expect(worst).toBeLessThan(HEADERS_TIMEOUT_MS + 2_000);
    for (const s of loris)
      expect(s.received === '' || /^HTTP\/1\.1 408/.test(s.received)).toBe(true);
    const uploadClosedIn = (slowUpload.closedAt ?? Infinity) - slowUpload.openedAt;
    expect(uploadClosedIn).toBeLessThan(REQUEST_TIMEOUT_MS + 2_000);
    expect(slowUpload.received === '' || /^HTTP\/1\.1 408/.test(slowUpload.received)).toBe(true);
    // The cut upload stored nothing, and its link is not spent: the real upload still works.
    expect((await request(base, 'GET', `/api/objects/uploads/${uploadId}`)).status).toBe(404);
    const retry = await request(base, 'PUT', uploadUrl.pathname + uploadUrl.search, {
      body: samplePng(),
      headers: { 'content-type': 'image/png' },
    });
    expect(retry.status).toBe(200);

    latencies.sort((a, b) => a - b);
    const p99 = latencies[Math.floor(latencies.length * 0.99)]!;
    expect(p99).toBeLessThan(1_000);
    console.log(
      `R6 ${target.kind}: ${SLOWLORIS} slowloris sockets closed within ${worst} ms (headers ` +
        `timeout ${HEADERS_TIMEOUT_MS} ms), slow upload closed after ${uploadClosedIn} ms ` +
        `(request timeout ${REQUEST_TIMEOUT_MS} ms); ${latencies.length} other requests served, ` +
        `p50 ${latencies[Math.floor(latencies.length / 2)]} ms, p99 ${p99} ms`,
    );
  }, 60_000);
});
