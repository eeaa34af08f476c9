import { execSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import pg from 'pg';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ADMIN_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** The admin connection string with another database name. */
export function databaseUrl(name: string): string {
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** One statement on the admin connection (CREATE/DROP DATABASE cannot run in a pool's transaction). */
export async function adminQuery<T = unknown>(query: string): Promise<T[]> {
  const admin = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await admin.connect();
  try {
    return (await admin.query(query)).rows as T[];
  } finally {
    await admin.end();
  }
}

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Finds the local PostgreSQL (or TEST_DATABASE_URL) and starts the Debian cluster if it is down. */
export async function ensurePostgres(): Promise<void> {
  if (await canConnect(ADMIN_DATABASE_URL)) return;
  if (!process.env.TEST_DATABASE_URL && existsSync('/etc/postgresql')) {
    for (const version of readdirSync('/etc/postgresql')) {
      spawnSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start'], {
        stdio: 'inherit',
      });
    }
    for (let i = 0; i < 30; i++) {
      if (await canConnect(ADMIN_DATABASE_URL)) return;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  throw new Error(
    `PostgreSQL is not reachable at ${ADMIN_DATABASE_URL}: install and start PostgreSQL (apt-get install -y postgresql) or set TEST_DATABASE_URL.`,
  );
}

/** Installs Debian's Chromium when it is missing and we are root; otherwise says what to install. */
export function ensureChromium(): void {
  if (existsSync(CHROMIUM_PATH)) return;
  if (process.getuid?.() === 0) {
    execSync('apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium', {
      stdio: 'inherit',
    });
    if (existsSync(CHROMIUM_PATH)) return;
  }
  throw new Error(
    `Chromium is missing at ${CHROMIUM_PATH}: install it with "apt-get install -y chromium" (or set CHROMIUM_PATH).`,
  );
}
