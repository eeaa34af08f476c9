import path from 'node:path';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { openDatabase, type Database } from './db/client';
import { securePermissions } from './lib/data-dir-permissions';

function fail(message: string): never {
  process.stderr.write(`\n${message}\n\n`);
  process.exit(1);
}

function printGeneratedPassword(password: string) {
  // Written straight to the terminal once, never through the logger.
  process.stdout.write(
    [
      '',
      '================================================================',
      '  No ADMIN_PASSWORD was set, so one was generated for you.',
      `  Admin password: ${password}`,
      '  It is shown only this once; only its hash is stored.',
      '  To choose your own, start with ADMIN_PASSWORD=... (8+ characters).',
      '================================================================',
      '',
    ].join('\n'),
  );
}

async function main() {
  const started = Date.now();
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message);
    throw err;
  }

  // Before anything is written to DATA_DIR: private files from now on, and earlier ones made so.
  let fixedPermissions: number;
  try {
    fixedPermissions = securePermissions(config.dataDir);
  } catch (err) {
    fail(`Could not secure DATA_DIR (${config.dataDir}): ${(err as Error).message}`);
  }

  let database: Database;
  try {
    database = await openDatabase(config);
  } catch (err) {
    fail(`Could not open the database: ${(err as Error).message}`);
  }

  let app;
  try {
    app = await buildApp({ config, database, onGeneratedPassword: printGeneratedPassword });
  } catch (err) {
    await database.close().catch(() => undefined);
    fail(`Could not start: ${(err as Error).message}`);
  }

  // PGlite writes its relation cache (pg_internal.init) 0644 whatever the umask: its folder once
  // more after it opened (not the photos). Folders are 0700, so nobody else could reach it anyway.
  if (database.kind === 'pglite') securePermissions(path.join(config.dataDir, 'pgdata'));
  if (fixedPermissions > 0)
    app.log.warn(
      { dataDir: config.dataDir, files: fixedPermissions },
      `fixed the permissions of ${fixedPermissions} files in DATA_DIR: only this user may read them now`,
    );

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, 15_000);
    force.unref();
    try {
      // New requests get 503 while the ones in flight finish; then stop listening.
      await app.drain(10_000);
      await app.close();
      await database.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    await database.close().catch(() => undefined);
    fail(`Could not listen on port ${config.port}: ${(err as Error).message}`);
  }
  // PORT=0 lets the kernel choose a free port: report the one actually bound.
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  app.log.info(
    { database: database.kind, port, startMs: Date.now() - started },
    `ready on http://localhost:${port}`,
  );
  // A parent that started this process with an IPC channel (the test harness) learns that it is
  // ready and on which port from the process itself: a health poll on a port chosen in advance
  // could be answered by another process that took that port meanwhile.
  if (process.send) {
    process.send({ type: 'ready', port });
    // The channel must not keep the process alive on its own.
    process.channel?.unref();
  }
}

void main();
