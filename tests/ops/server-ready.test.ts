import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { preparedDataDir, spawnServer } from '../support/server-process';

/**
 * How a parent learns that `node dist/server.js` is ready: with PORT=0 the kernel chooses the port
 * and the server reports the one it bound, in its "ready on" line and, when it has an IPC channel
 * (a test harness), in a message. A port taken by another process fails the start loudly, instead
 * of that process answering the parent's checks.
 */
describe('the server reports where it listens', () => {
  const dataDirs: string[] = [];
  afterAll(() => {
    for (const d of dataDirs) rmSync(d, { recursive: true, force: true });
  });

  it('on PORT=0: the port the kernel chose, in the message and the log line', async () => {
    const dataDir = preparedDataDir('relief-ready-');
    dataDirs.push(dataDir);
    const server = await spawnServer({ dataDir, env: { LOG_LEVEL: 'info' } });
    try {
      expect(server.port).toBeGreaterThan(0);
      const health = await fetch(`${server.baseUrl}/api/health`);
      expect(health.status).toBe(200);
      expect(server.output()).toContain(`ready on http://localhost:${server.port}`);
    } finally {
      expect(await server.kill('SIGTERM')).toEqual({ code: 0, signal: null });
    }
  }, 60_000);

  it('on a port another process holds: the start fails, even though that process answers health checks', async () => {
    const impostor = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"status":"ok"}');
    });
    await new Promise<void>((resolve) => impostor.listen(0, '127.0.0.1', resolve));
    const port = (impostor.address() as AddressInfo).port;
    const dataDir = preparedDataDir('relief-ready-');
    dataDirs.push(dataDir);
    try {
      await expect(spawnServer({ dataDir, port })).rejects.toThrow(
        new RegExp(`server exited during start[\\s\\S]*Could not listen on port ${port}`),
      );
    } finally {
      await new Promise((resolve) => impostor.close(resolve));
    }
  }, 60_000);
});
