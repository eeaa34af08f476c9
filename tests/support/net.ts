import net from 'node:net';

/** A TCP port nobody listens on right now (the kernel picks it; we close it before returning). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls `check` until it holds; fails after `limitMs` (for changes that arrive asynchronously). */
export async function eventually(check: () => Promise<boolean>, limitMs = 5_000, everyMs = 50) {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > limitMs) throw new Error(`not within ${limitMs} ms`);
    await sleep(everyMs);
  }
  return Date.now() - started;
}
