import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { pipeline, Readable } from 'node:stream';
import { pipeline as pipelineAsync } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { appliedMigrations, migrationJournal } from '../db/migrate';
import { LocalObjectStorage } from '../storage/local-storage';
import type { ObjectStorage } from '../storage/object-storage';
import { BACKUP_KIND, BACKUP_VERSION, type BackupHeader, type BackupTrailer } from './format';
import { backedUpTables, quoteIdent, sequencePositions } from './tables';

/**
 * Where a backup reads and a restore writes the photos: the image store the app uses, or a local
 * uploads folder by its path. With object storage the bucket's photos are in the backup too
 * (docs/decisions/015-object-storage.md), so a backup is whole wherever the photos live.
 */
export type BackupImages = Pick<ObjectStorage, 'listFiles' | 'readFile' | 'beginRestore'>;
export const backupImages = (images: string | BackupImages): BackupImages =>
  typeof images === 'string' ? new LocalObjectStorage(images) : images;

/** Files of the image store, except uploads being written and spent markers. */
export function listImageFiles(images: string | BackupImages): Promise<string[]> {
  return backupImages(images).listFiles();
}

/**
 * The backup as lines of JSON. The rows of all tables are read in one read-only, repeatable-read
 * transaction, so they are consistent with each other while the server keeps taking pledges;
 * images are immutable once stored, so reading them afterwards is safe.
 */
async function* backupLines(
  database: Database,
  images: string | BackupImages,
): AsyncGenerator<string> {
  const store = backupImages(images);
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
  for (const file of await store.listFiles()) {
    const data = await store.readFile(file);
    if (!data) continue; // removed after the listing (an unreferenced image swept)
    const sha256 = createHash('sha256').update(data).digest('hex');
    yield JSON.stringify({ file, sha256, data: data.toString('base64') }) + '\n';
    trailer.files++;
  }
  yield JSON.stringify({ end: trailer }) + '\n';
}

/**
 * The backup, gzip-compressed, as a stream (the admin download). Joined with pipeline, not pipe:
 * a failed read (a bucket that refuses the keys) must fail the gzip stream its reader holds,
 * not be an unhandled 'error' on the source that kills the process.
 */
export function backupStream(database: Database, images: string | BackupImages): Readable {
  return pipeline(Readable.from(backupLines(database, images)), createGzip(), () => {});
}

/** Writes the backup to `out` through a temporary file, so `out` is never half-written. */
export async function writeBackupFile(
  database: Database,
  images: string | BackupImages,
  out: string,
): Promise<void> {
  const tmp = `${out}.partial`;
  try {
    await pipelineAsync(backupStream(database, images), createWriteStream(tmp, { mode: 0o600 }));
    await rename(tmp, out);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}
