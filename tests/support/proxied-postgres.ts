import { TcpProxy } from './tcp-proxy';
import { createTestDatabase } from './test-app';

/**
 * A fresh PostgreSQL test database that the app reaches only through a TcpProxy, so a test can cut
 * the app's connections (an outage) without touching the cluster other test files share.
 */
export async function proxiedPostgres(): Promise<{
  /** The database's URL through the proxy: give it to the app. */
  url: string;
  proxy: TcpProxy;
  /** Closes the proxy and drops the database. */
  dispose(): Promise<void>;
}> {
  const created = await createTestDatabase('postgres');
  // The app opens its own pool through the proxy; the direct one is not needed.
  await created.database.close();
  const direct = new URL(created.url!);
  const proxy = new TcpProxy(direct.hostname, Number(direct.port || 5432));
  await proxy.start();
  return {
    url: proxy.rewrite(created.url!),
    proxy,
    async dispose() {
      await proxy.close();
      await created.drop();
    },
  };
}
