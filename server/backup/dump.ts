import { createHash } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { readdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { appliedMigrations, migrationJournal } from '../db/migrate';
import { BACKUP_KIND, BACKUP_VERSION, type BackupHeader, type BackupTrailer } from './format';
import { backedUpTables, quoteIdent, sequencePositions } from './tables';

/** Files of the image store, except uploads being written (.tmp-*) and spent markers. */
export async function listImageFiles(uploadsDir: string): Promise<string[]> {
  if (!existsSync(uploadsDir)) return [];
  const out: string[] = [];
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.tmp-') || entry.name.endsWith('.claimed')) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile()) out.push(path.relative(uploadsDir, full).split(path.sep).join('/'));
    }
  };
  await walk(uploadsDir);
  return out.sort();
}

/**
 * The backup as lines of JSON. The rows of all tables are read in one read-only, repeatable-read
 * transaction, so they are consistent with each other while the server keeps taking pledges;
 * images are immutable once stored, so reading them afterwards is safe.
 */
export async function* backupLines(database: Database, uploadsDir: string): AsyncGenerator<string> {
  const tables: { name: string; columns: string[]; rows: string[] }[] = [];
  let migrations = 0;
  let sequences: BackupHeader['sequences'] = {};
  await database.db.transaction(
    async (tx) => {
      migrations = await appliedMigrations(tx);
      sequences = await sequencePositions(tx);
      for (const name of await backedUpTables(tx)) {
        const res = (await tx.execute(
          sql.raw(`select row_to_json(t)::text as j from ${quoteIdent(name)} t`),
        )) as unknown as { rows: { j: string }[]; fields?: unknown };
        const cols = (await tx.execute(
          sql`select column_name as c from information_schema.columns
              where table_schema = 'public' and table_name = ${name} order by ordinal_position`,
        )) as unknown as { rows: { c: string }[] };
        tables.push({ name, columns: cols.rows.map((r) => r.c), rows: res.rows.map((r) => r.j) });
      }
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
  const journal = migrationJournal();
  const header: BackupHeader = {
    kind: BACKUP_KIND,
    version: BACKUP_VERSION,
    createdAt: new Date().toISOString(),
    database: database.kind,
    migrations,
    lastMigration: journal[migrations - 1]?.tag ?? null,
    sequences,
  };
  yield JSON.stringify(header) + '\n';
  const trailer: BackupTrailer = { rows: {}, files: 0 };
  for (const t of tables) {
    yield JSON.stringify({ table: t.name, columns: t.columns }) + '\n';
    for (const r of t.rows) yield `{"row":${r}}\n`;
    trailer.rows[t.name] = t.rows.length;
  }
  for (const file of await listImageFiles(uploadsDir)) {
    const data = await readFile(path.join(uploadsDir, file)).catch(() => undefined);
    if (!data) continue; // removed after the listing (an unreferenced image swept)
    const sha256 = createHash('sha256').update(data).digest('hex');
    yield JSON.stringify({ file, sha256, data: data.toString('base64') }) + '\n';
    trailer.files++;
  }
  yield JSON.stringify({ end: trailer }) + '\n';
}

/** The backup, gzip-compressed, as a stream (the admin download). */
export function backupStream(database: Database, uploadsDir: string): Readable {
  return Readable.from(backupLines(database, uploadsDir)).pipe(createGzip());
}

/** Writes the backup to `out` through a temporary file, so `out` is never half-written. */
export async function writeBackupFile(
  database: Database,
  uploadsDir: string,
  out: string,
): Promise<void> {
  const tmp = `${out}.partial`;
  try {
    await pipeline(backupStream(database, uploadsDir), createWriteStream(tmp, { mode: 0o600 }));
    await rename(tmp, out);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}
