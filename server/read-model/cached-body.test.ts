import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { type TestApp } from '../../tests/support/test-app';
import { describe, expect, test } from '../../tests/support/fixtures';
import { preferredEncoding } from './cached-body';

/** Raw bytes and headers (fetch would decompress behind our back). */
function get(t: TestApp, path: string, acceptEncoding?: string) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>(
    (resolve, reject) => {
      const req = http.get(
        t.baseUrl + path,
        { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
          );
        },
      );
      req.on('error', reject);
    },
  );
}

const decode = (r: Awaited<ReturnType<typeof get>>) =>
  r.headers['content-encoding'] === 'br'
    ? brotliDecompressSync(r.body).toString()
    : r.headers['content-encoding'] === 'gzip'
      ? gunzipSync(r.body).toString()
      : r.body.toString();

test.override('appOptions', { env: { RATE_LIMIT_PLEDGES_PER_MINUTE: '0' } });

describe('pre-compressed bodies', () => {
  let t: TestApp;
  test.beforeAll(async ({ app }) => {
    t = app;
    for (let i = 0; i < 30; i++) {
      await t.request('/api/pledges', {
        method: 'POST',
        json: { name: `Donor ${i}`, email: `d${i}@donors.test`, amount: 10 + i },
      });
    }
  });

  test('picks br, else gzip, as the client accepts (q=0 refuses)', () => {
    expect(preferredEncoding(undefined)).toBe('identity');
    expect(preferredEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(preferredEncoding('gzip, deflate')).toBe('gzip');
    expect(preferredEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(preferredEncoding('br;q=0, gzip;q=0')).toBe('identity');
    expect(preferredEncoding('*')).toBe('br');
    expect(preferredEncoding('identity')).toBe('identity');
  });

  for (const path of ['/', '/api/pledges?limit=8', '/api/pledges', '/api/updates']) {
    test(`${path}: the same content whatever the encoding, with Vary`, async () => {
      const plain = await get(t, path);
      expect(plain.status).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      for (const [accept, expected] of [
        ['gzip, deflate, br', 'br'],
        ['gzip', 'gzip'],
        ['br;q=0, gzip', 'gzip'],
      ] as const) {
        const r = await get(t, path, accept);
        expect(r.status).toBe(200);
        if (plain.body.length >= 1024) {
          expect(r.headers['content-encoding']).toBe(expected);
          expect(r.headers.vary).toMatch(/accept-encoding/i);
          expect(r.body.length).toBeLessThan(plain.body.length);
        } else {
          expect(r.headers['content-encoding']).toBeUndefined();
        }
        expect(decode(r)).toBe(plain.body.toString());
        expect(Number(r.headers['content-length'])).toBe(r.body.length);
      }
    });
  }
});
