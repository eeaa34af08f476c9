import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openPostgres } from '../server/db/client';
import { runMigrations } from '../server/db/migrate';
import { seed } from '../bench/lib/report';
const url = 'postgres://postgres@127.0.0.1:5432/relief_exp_report';
if (process.argv[2] === 'seed') {
  const c = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/test' });
  await c.connect(); await c.query('drop database if exists relief_exp_report with (force)'); await c.query('create database relief_exp_report'); await c.end();
  const d = openPostgres(url, 2); await runMigrations(d); await seed(d.db, 100_000); await d.close();
  console.log('seeded');
}
