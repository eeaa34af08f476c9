import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { MIGRATIONS_FOLDER, migrationJournal, runMigrations } from '../db/migrate';
import { backupImages, type BackupImages } from './dump';
import {
  BACKUP_KIND,
  BACKUP_VERSION,
  NOT_BACKED_UP,
  type BackupHeader,
  type BackupLine,
  type BackupTrailer,
} from './format';
import { quoteIdent, sequenceColumns, writableColumns } from './tables';

/** The backup cannot be used, or restoring it would destroy data the user did not agree to. */
export class RestoreRefused extends Error {}

const ROWS_PER_INSERT = 500;

async function* readLines(file: string): AsyncGenerator<{ line: BackupLine; n: number }> {
  if (!existsSync(file)) throw new RestoreRefused(`No such file: ${file}`);
  const gunzip = createGunzip();
  const input = createReadStream(file).pipe(gunzip);
  let n = 0;
  try {
    for await (const text of createInterface({ input, crlfDelay: Infinity })) {
      n++;
      if (!text) continue;
      let line: BackupLine;
      try {
        line = JSON.parse(text) as BackupLine;
      } catch {
        throw new RestoreRefused(`${file} is damaged: line ${n} is not JSON.`);
      }
      yield { line, n };
    }
  } catch (err) {
    if (err instanceof RestoreRefused) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (
      code === 'Z_DATA_ERROR' ||
      code === 'Z_BUF_ERROR' ||
      /incorrect header|unexpected end/i.test(String(err))
    )
      throw new RestoreRefused(
        n === 0
          ? `${file} is not a backup of this app (not a gzip file).`
          : `${file} is cut off or damaged after line ${n}.`,
      );
    throw err;
  }
}

export interface BackupSummary {
  header: BackupHeader;
  trailer: BackupTrailer;
  bytes: number;
}

/**
 * Reads the whole file once before anything is changed: the header, every line's shape, every
 * image's checksum and the closing counts. A cut-off or damaged backup is refused up front.
 */
export async function inspectBackup(file: string): Promise<BackupSummary> {
  let header: BackupHeader | undefined;
  let trailer: BackupTrailer | undefined;
  const rows: Record<string, number> = {};
  let table: string | undefined;
  let files = 0;
  for await (const { line, n } of readLines(file)) {
    if (n === 1) {
      const h = line as BackupHeader;
      if (h.kind !== BACKUP_KIND) throw new RestoreRefused(`${file} is not a backup of this app.`);
      if (h.version !== BACKUP_VERSION)
        throw new RestoreRefused(
          `${file} is a version ${h.version} backup; this app reads version ${BACKUP_VERSION}.`,
        );
      header = h;
    } else if (trailer) {
      throw new RestoreRefused(`${file} is damaged: lines after the end marker.`);
    } else if ('table' in line) {
      table = line.table;
      rows[table] = 0;
    } else if ('row' in line) {
      if (!table)
        throw new RestoreRefused(`${file} is damaged: a row before any table (line ${n}).`);
      rows[table]++;
    } else if ('file' in line) {
      const sum = createHash('sha256').update(Buffer.from(line.data, 'base64')).digest('hex');
      if (sum !== line.sha256 || !safeRelative(line.file))
        throw new RestoreRefused(
          `${file} is damaged: image ${line.file} does not match its checksum.`,
        );
      files++;
    } else if ('end' in line) {
      trailer = line.end;
    } else {
      throw new RestoreRefused(`${file} is damaged: line ${n} is not part of a backup.`);
    }
  }
  if (!header) throw new RestoreRefused(`${file} is empty.`);
  if (!trailer)
    throw new RestoreRefused(`${file} is cut off: it has no end marker (copy the whole file).`);
  for (const [t, count] of Object.entries(trailer.rows))
    if (rows[t] !== count)
      throw new RestoreRefused(`${file} is damaged: ${t} has ${rows[t] ?? 0} rows of ${count}.`);
  if (files !== trailer.files)
    throw new RestoreRefused(`${file} is damaged: ${files} images of ${trailer.files}.`);
  const { size } = await stat(file);
  return { header, trailer, bytes: size };
}

/** A relative path inside the image folder (no `..`, not absolute). */
function safeRelative(p: string): boolean {
  return !!p && !path.isAbsolute(p) && !p.split(/[\\/]/).some((s) => s === '..' || s === '');
}

async function count(database: Database, query: string): Promise<number> {
  const res = (await database.db.execute(sql.raw(query))) as unknown as { rows: { n: number }[] };
  return Number(res.rows[0]?.n ?? 0);
}

/** What a restore would replace: our rows and images, and tables that are not ours. */
async function existingData(database: Database, images: BackupImages, ours: Set<string>) {
  const tables = (
    (await database.db.execute(
      sql`select table_name as name from information_schema.tables
          where table_schema = 'public' and table_type = 'BASE TABLE'`,
    )) as unknown as { rows: { name: string }[] }
  ).rows.map((r) => r.name);
  const has = (t: string) => tables.includes(t);
  return {
    pledges: has('pledges') ? await count(database, 'select count(*)::int as n from pledges') : 0,
    updates: has('delivery_updates')
      ? await count(database, 'select count(*)::int as n from delivery_updates')
      : 0,
    images: (await images.listFiles()).length,
    foreign: tables.filter((t) => !ours.has(t)),
  };
}

/** A copy of the migrations folder that stops after the first `n`: the backup's schema. */
async function migrationsUpTo(n: number): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'relief-migrations-'));
  await mkdir(path.join(dir, 'meta'));
  const journal = JSON.parse(
    await readFile(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8'),
  );
  journal.entries = journal.entries.slice(0, n);
  await writeFile(path.join(dir, 'meta', '_journal.json'), JSON.stringify(journal));
  for (const e of journal.entries as { tag: string }[])
    await copyFile(path.join(MIGRATIONS_FOLDER, `${e.tag}.sql`), path.join(dir, `${e.tag}.sql`));
  return dir;
}

export interface RestoreResult {
  rows: Record<string, number>;
  files: number;
}

/**
 * Replaces the database and the images with a backup's content:
 * 1. the whole file is checked first (nothing changes if it is cut off or damaged);
 * 2. a database holding pledges, updates or images is replaced only with `force`;
 * 3. images are written to a folder beside the live one (in a bucket: beside the others);
 * 4. the schema is rebuilt at the backup's migration level, its rows inserted in one transaction
 *    (the pledge triggers rebuild the totals), sequences moved past the restored ids;
 * 5. the remaining migrations bring it to this version of the app; the images go live (the folder
 *    is swapped in; in a bucket, the photos the backup does not have are deleted).
 * The app must not run meanwhile (the embedded database's lock enforces it; on PostgreSQL stop
 * every instance): a running instance would keep serving its old in-memory totals.
 */
export async function restoreBackup(
  database: Database,
  images: string | BackupImages,
  file: string,
  opts: { force?: boolean; log?: (s: string) => void } = {},
): Promise<RestoreResult> {
  const store = backupImages(images);
  const log = opts.log ?? (() => undefined);
  const { header, trailer } = await inspectBackup(file);
  const journal = migrationJournal();
  if (header.migrations > journal.length)
    throw new RestoreRefused(
      `This backup was made by a newer version of the app (${header.migrations} migrations; this one knows ${journal.length}). Update the app first.`,
    );
  if (header.lastMigration && journal[header.migrations - 1]?.tag !== header.lastMigration)
    throw new RestoreRefused(
      `This backup's schema (${header.lastMigration}) is not one this app's migrations produce.`,
    );

  const ours = new Set([...Object.keys(trailer.rows), ...Object.keys(NOT_BACKED_UP)]);
  const existing = await existingData(database, store, ours);
  if (
    !opts.force &&
    (existing.pledges || existing.updates || existing.images || existing.foreign.length)
  ) {
    const count = (n: number, one: string, many: string) =>
      `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
    const what = [
      existing.pledges && count(existing.pledges, 'pledge', 'pledges'),
      existing.updates && count(existing.updates, 'delivery update', 'delivery updates'),
      existing.images && count(existing.images, 'image file', 'image files'),
      existing.foreign.length && `other tables (${existing.foreign.join(', ')})`,
    ].filter(Boolean);
    throw new RestoreRefused(
      `The target is not empty: it holds ${what.join(', ')}. Restoring replaces all of it; run again with --force to do that.`,
    );
  }

  // 3. Images beside the live ones first: a failure here changes nothing.
  const staging = await store.beginRestore();
  let files = 0;
  let committed = false;
  try {
    for await (const { line } of readLines(file)) {
      if (!('file' in line)) continue;
      await staging.write(line.file, Buffer.from(line.data, 'base64'));
      files++;
    }
    log(`images staged: ${files}`);

    // 4. The backup's schema, then its rows.
    await database.db.execute(sql.raw('drop schema if exists drizzle cascade'));
    await database.db.execute(sql.raw('drop schema public cascade'));
    await database.db.execute(sql.raw('create schema public'));
    const folder = await migrationsUpTo(header.migrations);
    try {
      await runMigrations(database, folder);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
    const rows = await insertRows(database, file, header, trailer, log);
    log(
      `rows restored: ${Object.entries(rows)
        .map(([t, n]) => `${t} ${n}`)
        .join(', ')}`,
    );

    // 5. This app's later migrations, then the images go live. No session survives a restore:
    // the sign-ins of the database that was replaced (or any a backup smuggled in) end here.
    await runMigrations(database);
    await database.db.execute(sql.raw('delete from admin_sessions'));
    await staging.commit();
    committed = true;
    return { rows, files };
  } finally {
    if (!committed) await staging.abort();
  }
}

/**
 * Whether a table's rows in a backup are restored: only the tables a backup holds, those its end
 * marker counts and that are not in NOT_BACKED_UP. A crafted file could otherwise plant an admin
 * session or rate-limit counters.
 */
function restoresTable(table: string, trailer: BackupTrailer): boolean {
  return !Object.hasOwn(NOT_BACKED_UP, table) && Object.hasOwn(trailer.rows, table);
}

async function insertRows(
  database: Database,
  file: string,
  header: BackupHeader,
  trailer: BackupTrailer,
  log: (s: string) => void,
): Promise<Record<string, number>> {
  const restored: Record<string, number> = {};
  await database.db.transaction(async (tx) => {
    // Migrations seed some rows (the progress row): the backup's rows replace them.
    const seeded = (
      (await tx.execute(
        sql`select table_name as name from information_schema.tables
            where table_schema = 'public' and table_type = 'BASE TABLE'`,
      )) as unknown as { rows: { name: string }[] }
    ).rows.map((r) => r.name);
    for (const t of seeded)
      if (!(t in NOT_BACKED_UP)) await tx.execute(sql.raw(`delete from ${quoteIdent(t)}`));

    const identityAlways = new Set(
      (await sequenceColumns(tx)).filter((c) => c.always).map((c) => c.table),
    );
    let table: string | undefined;
    let columns: string[] = [];
    let batch: unknown[] = [];
    const flush = async () => {
      if (!table || !batch.length) return;
      const cols = columns.map(quoteIdent).join(', ');
      const overriding = identityAlways.has(table) ? ' overriding system value' : '';
      await tx.execute(
        sql`${sql.raw(`insert into ${quoteIdent(table)} (${cols})${overriding} select ${cols} from json_populate_recordset(null::${quoteIdent(table)}, `)}${JSON.stringify(batch)}${sql.raw('::json)')}`,
      );
      restored[table] = (restored[table] ?? 0) + batch.length;
      batch = [];
    };
    for await (const { line } of readLines(file)) {
      if ('table' in line) {
        await flush();
        if (!restoresTable(line.table, trailer)) {
          log(`skipped: ${line.table} (not a table a backup holds)`);
          table = undefined;
          continue;
        }
        table = line.table;
        const writable = await writableColumns(tx, table);
        if (!writable.length)
          throw new RestoreRefused(
            `The backup's table ${table} does not exist at its schema level.`,
          );
        columns = line.columns.filter((c) => writable.includes(c));
        restored[table] = 0;
      } else if ('row' in line && table) {
        batch.push(line.row);
        if (batch.length >= ROWS_PER_INSERT) await flush();
      }
    }
    await flush();
    for (const [name, { value, called }] of Object.entries(header.sequences ?? {})) {
      await tx.execute(sql`select setval(${quoteIdent(name)}::regclass, ${value}, ${called})`);
    }
    for (const { table: t, column } of await sequenceColumns(tx)) {
      await tx.execute(
        sql.raw(
          `select setval(pg_get_serial_sequence('${quoteIdent(t)}', '${column}'), coalesce((select max(${quoteIdent(column)}) from ${quoteIdent(t)}), 0) + 1, false)`,
        ),
      );
    }
  });
  return restored;
}
