// Runs PGlite's initdb for a new data folder in its own short-lived process: initdb leaves
// ~800 MB resident in whichever process ran it, so the server only ever reopens the folder.
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: pglite-init.mjs <pgdata folder>');
  process.exit(2);
}
mkdirSync(dir, { recursive: true });
const db = await PGlite.create(dir);
await db.query('select 1');
await db.close();
