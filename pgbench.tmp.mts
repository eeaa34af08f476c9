import { PGlite } from '@electric-sql/pglite';
import { readFileSync } from 'node:fs';
const t0=performance.now();
const pg0 = await PGlite.create();
console.log('fresh initdb', Math.round(performance.now()-t0));
const { runMigrations } = await import('/work/main/server/db/migrate.ts');
const { wrapPglite } = await import('/work/main/server/db/client.ts');
let t=performance.now();
await runMigrations(wrapPglite(pg0));
console.log('migrate', Math.round(performance.now()-t));
t=performance.now();
const dump = await pg0.dumpDataDir('none');
console.log('dump', Math.round(performance.now()-t), dump.size);
for (let i=0;i<3;i++){
t=performance.now();
const a = await PGlite.create({ loadDataDir: dump });
await a.query('select 1');
console.log('create from dump', Math.round(performance.now()-t));
t=performance.now();
const b = await (a as any).clone();
await b.query('select 1');
console.log('clone', Math.round(performance.now()-t));
await a.close(); await b.close();
}
const c = await PGlite.create({ loadDataDir: dump });
const tables = (await c.query<{tablename:string}>("select tablename from pg_tables where schemaname='public'")).rows.map(r=>r.tablename);
console.log(tables);
for (let i=0;i<3;i++){ t=performance.now(); await c.exec(`truncate ${tables.map(x=>'"'+x+'"').join(',')} restart identity cascade`); console.log('truncate', Math.round(performance.now()-t)); }
console.log(process.memoryUsage().rss/1e6);
