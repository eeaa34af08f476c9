// `npm run backup -- --out FILE` and `npm run restore -- FILE [--force]` (built to dist/backup.js,
// so they also run in the production image: `node dist/backup.js backup --out FILE`).
import { existsSync, readFileSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError, loadConfig, type AppConfig } from '../config';
import { openDatabase } from '../db/client';
import { createObjectStorage } from '../storage/create-storage';
import type { ObjectStorage } from '../storage/object-storage';
import { writeAudit } from '../modules/audit/repo';
import { BACKUP_CLI_AGENT, BACKUP_FILE_SUFFIX } from './format';
import { writeBackupFile } from './dump';
import { inspectBackup, restoreBackup, RestoreRefused, type BackupSummary } from './restore';

const USAGE = `Usage:
  npm run backup -- --out FILE        write a backup of the database and the images
  npm run restore -- FILE [--force]   replace the database and the images with a backup
The database is the one the server uses: DATABASE_URL, or the embedded one in DATA_DIR; the
images are DATA_DIR/uploads, or the bucket of STORAGE_URL.`;

class UsageError extends Error {}
/** A clear reason to stop that is not about the command line. */
class Refused extends Error {}

function parseArgs(argv: string[]) {
  const [command, ...rest] = argv;
  const opts: { out?: string; file?: string; force: boolean; url?: string } = { force: false };
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    if (a === '--force') opts.force = true;
    else if (a === '--out' || a === '--url') {
      const v = rest[++i];
      if (!v) throw new UsageError(`${a} needs a value.`);
      opts[a === '--out' ? 'out' : 'url'] = v;
    } else if (a.startsWith('--')) throw new UsageError(`Unknown option ${a}.`);
    else if (!opts.file) opts.file = a;
    else throw new UsageError(`Unexpected argument ${a}.`);
  }
  if (command !== 'backup' && command !== 'restore') throw new UsageError('Say backup or restore.');
  if (command === 'backup' && !opts.out)
    opts.out = `relief-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-')}${BACKUP_FILE_SUFFIX}`;
  if (command === 'restore' && !opts.file) throw new UsageError('Which backup file?');
  return { command, ...opts };
}

/** The pid of a live server holding the embedded database's folder, if any. */
function runningServer(dataDir: string): number | undefined {
  const lock = path.join(dataDir, 'server.lock');
  if (!existsSync(lock)) return undefined;
  const pid = Number(readFileSync(lock, 'utf8').trim());
  try {
    if (pid) process.kill(pid, 0);
    return pid || undefined;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? pid : undefined;
  }
}

/**
 * The embedded database belongs to the running server (two processes on one folder corrupt it),
 * so the server writes the backup: sign in with the admin password, download it.
 */
async function backupThroughServer(config: AppConfig, pid: number, out: string, url?: string) {
  const base = (url ?? `http://127.0.0.1:${config.port}`).replace(/\/+$/, '');
  if (!config.adminPassword)
    throw new Refused(
      `The server (pid ${pid}) is running on ${config.dataDir}, so it takes the backup: set ADMIN_PASSWORD to the admin password (and --url if it does not listen on port ${config.port}), or stop the server.`,
    );
  const login = await fetch(`${base}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ password: config.adminPassword }),
  }).catch((err: Error) => {
    throw new UsageError(
      `Could not reach the running server at ${base}: ${err.message}. Pass --url.`,
    );
  });
  if (!login.ok) throw new Refused(`The server refused the admin password (${login.status}).`);
  const cookie = (login.headers.getSetCookie?.() ?? []).map((c) => c.split(';')[0]).join('; ');
  try {
    // The server writes the audit entry of this download.
    const res = await fetch(`${base}/api/admin/backup`, {
      headers: { cookie, 'user-agent': BACKUP_CLI_AGENT },
    });
    if (!res.ok) throw new Error(`The server answered ${res.status} to the backup request.`);
    const tmp = `${out}.partial`;
    await writeFile(tmp, Buffer.from(await res.arrayBuffer()), { mode: 0o600 });
    await rename(tmp, out);
  } finally {
    // The session ends with the command: no admin session is left open on the server.
    await fetch(`${base}/api/admin/logout`, {
      method: 'POST',
      headers: { cookie, 'user-agent': BACKUP_CLI_AGENT },
    }).catch(() => undefined);
  }
}

function describe(s: BackupSummary): string {
  const rows = Object.entries(s.trailer.rows)
    .map(([t, n]) => `${n.toLocaleString('en-US')} ${t}`)
    .join(', ');
  return `${rows}; ${s.trailer.files} image files; ${(s.bytes / 1e6).toFixed(1)} MB; made ${s.header.createdAt} from ${s.header.database} at migration ${s.header.lastMigration}`;
}

export async function main(argv = process.argv.slice(2)): Promise<number> {
  // A restore writes the embedded database and the photos: private, as the server keeps them.
  process.umask(0o077);
  let images: ObjectStorage | undefined;
  try {
    const args = parseArgs(argv);
    const config = loadConfig();
    // The photos: DATA_DIR/uploads, or the bucket STORAGE_URL names.
    images = await createObjectStorage(config);
    if (args.command === 'backup') {
      const out = path.resolve(args.out!);
      const pid = config.databaseUrl ? undefined : runningServer(config.dataDir);
      if (pid) {
        await backupThroughServer(config, pid, out, args.url);
      } else {
        const database = await openDatabase(config);
        try {
          await writeBackupFile(database, images, out);
          // Read straight from the database: the audit entry is written here.
          await writeAudit(
            database.db,
            { clientIp: null },
            {
              action: 'backup.download',
              targetType: 'backup',
              details: { via: 'cli' },
            },
          );
        } finally {
          await database.close();
        }
      }
      // Read back: a backup that cannot be restored is found now, not on the bad day.
      const summary = await inspectBackup(out).catch(async (err) => {
        await rm(out, { force: true });
        throw err;
      });
      console.log(`Backup written to ${out}\n  ${describe(summary)}`);
      return 0;
    }
    const file = path.resolve(args.file!);
    const summary = await inspectBackup(file);
    console.log(`Restoring ${file}\n  ${describe(summary)}`);
    const pid = config.databaseUrl ? undefined : runningServer(config.dataDir);
    if (pid)
      throw new Refused(
        `The server (pid ${pid}) is running on ${config.dataDir}: stop it first, restore, then start it again.`,
      );
    const database = await openDatabase(config);
    try {
      await restoreBackup(database, images, file, {
        force: args.force,
        log: (s) => console.log(`  ${s}`),
      });
    } finally {
      await database.close();
    }
    console.log(
      config.databaseUrl
        ? 'Restored. Restart every instance of the app so they load the restored data.'
        : 'Restored. Start the server.',
    );
    return 0;
  } catch (err) {
    if (err instanceof UsageError) console.error(`${err.message}\n\n${USAGE}`);
    else if (err instanceof Refused || err instanceof RestoreRefused || err instanceof ConfigError)
      console.error(err.message);
    else console.error(`Failed: ${(err as Error).message}`);
    return 1;
  } finally {
    images?.close();
  }
}

process.exitCode = await main();
