import { PGlite } from '@electric-sql/pglite';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { wrapPglite } from '../../server/db/client';
import { runMigrations } from '../../server/db/migrate';
import { ensureChromium, ensurePostgres } from './services';
// @ts-expect-error plain ESM helper shared with `npm start`
import { buildIfNeeded } from '../../scripts/build-if-needed.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

/**
 * Once per `npm test`: the services the suites need, the production build the end-to-end tests
 * run, and a migrated PGlite data folder that each test file loads instead of running initdb.
 */
let prepared: Promise<string> | undefined;

export default async function setup(project: TestProject) {
  // Each project runs the global setup; the work is done once per process.
  prepared ??= prepare();
  project.provide('pgliteTemplate', await prepared);
}

async function prepare(): Promise<string> {
  await ensurePostgres();
  ensureChromium();
  if (!(buildIfNeeded as (log?: (s: string) => void) => boolean)())
    throw new Error('npm run build failed');

  const pg = await PGlite.create();
  await runMigrations(wrapPglite(pg));
  const dump = await pg.dumpDataDir('none');
  await pg.close();
  const file = path.join(os.tmpdir(), `relief-pglite-template-${process.pid}.tar`);
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  return file;
}
