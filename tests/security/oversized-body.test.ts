import http from 'node:http';
import { type TestApp } from '../support/test-app';
import { describe, expect, test } from '../support/fixtures';

const PIECE = 64 * 1024;
const TOTAL = 2 * 1024 * 1024;

/**
 * Sends a 2 MB JSON body in 64 KB pieces, 10 ms apart, the way node's http client (or a browser
 * on a slow upload) keeps sending after the server has answered. Resolves with the answer, or with
 * the socket error the client saw instead.
 */
function slowUpload(baseUrl: string, path: string, chunked: boolean) {
  const url = new URL(baseUrl);
  return new Promise<{ status?: number; body?: string; error?: string; sent: number }>(
    (resolve) => {
      let sent = 0;
      const req = http.request({
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path,
        agent: false,
        headers: {
          'content-type': 'application/json',
          ...(chunked ? {} : { 'content-length': String(TOTAL) }),
        },
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString(), sent }),
        );
        res.on('error', (err) => resolve({ error: err.message, sent }));
      });
      req.on('error', (err) => resolve({ error: (err as NodeJS.ErrnoException).code, sent }));
      const piece = Buffer.alloc(PIECE, 'a');
      piece[0] = '['.charCodeAt(0);
      const next = () => {
        if (req.destroyed) return;
        if (sent >= TOTAL) return void req.end();
        req.write(sent === 0 ? piece : Buffer.alloc(PIECE, ' '));
        sent += PIECE;
        setTimeout(next, 10);
      };
      next();
    },
  );
}

/**
 * Review finding 9.9 (docs/SECURITY.md): the 413 for an oversized body was lost in a connection
 * reset.
 */
describe('9.9 the 413 reaches a client that is still sending', () => {
  let t: TestApp;
  test.beforeAll(async ({ app }) => {
    t = app;
  });

  test.each([
    ['with Content-Length', false],
    ['chunked', true],
  ])('answers 413 with a JSON message (%s)', async (_what, chunked) => {
    const answer = await slowUpload(t.baseUrl, '/api/pledges', chunked);
    expect(answer.error, `sent ${answer.sent} bytes`).toBeUndefined();
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body!)).toEqual({ message: expect.stringMatching(/too large/i) });
  });

  test('still serves other requests afterwards', async () => {
    expect((await t.request('/api/progress')).status).toBe(200);
  });
});
