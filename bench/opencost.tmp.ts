import { PGlite } from '@electric-sql/pglite';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pgliteOptions, wrapPglite } from '../server/db/client';
import { runMigrations } from '../server/db/migrate';

class BufferBlob extends Blob {
  constructor(private readonly contents: ArrayBuffer) { super(); }
  override get size() { return this.contents.byteLength; }
  override arrayBuffer() { return Promise.resolve(this.contents); }
}
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const pg0 = await PGlite.create(pgliteOptions(false));
await runMigrations(wrapPglite(pg0));
const tables = (await pg0.query<{ t: string; n: number }>(`select schemaname||chr(46)||quote_ident(relname) as t, n_live_tup as n from pg_stat_user_tables order by 1`)).rows;
console.log('tables', tables.map((r) => r.t).join(' '));
for (const t of tables) { const c = await pg0.query<{ c: number }>(`select count(*)::int c from ${t.t}`); if (c.rows[0]!.c) console.log('seeded', t.t, c.rows[0]!.c); }
const dump = await pg0.dumpDataDir('none');
await pg0.close();
const blob = new BufferBlob(await dump.arrayBuffer());
const fsb = readFileSync(path.join(path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')), 'pglite.data'));
const fsBundle = new BufferBlob(fsb.buffer.slice(fsb.byteOffset, fsb.byteOffset + fsb.byteLength) as ArrayBuffer);
const opens: number[] = [], closes: number[] = [];
for (let i = 0; i < 6; i++) {
  let t = cpu();
  const pg = await PGlite.create({ loadDataDir: blob, fsBundle, ...pgliteOptions(false) });
  await pg.query('select 1');
  opens.push(cpu() - t); t = cpu();
  await pg.close();
  closes.push(cpu() - t);
}
console.log('open ms', opens.map(Math.round).join(' '), 'close ms', closes.map(Math.round).join(' '));
