import { sql } from 'drizzle-orm';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import {
  keyedReferenceFor,
  parseReference,
  REFERENCE_KEY_SETTING,
  referenceFor,
} from '@shared/payment-reference';
import { describe, expect, test } from '../../../tests/support/fixtures';
import { createTestDatabase, startTestApp, type TestApp } from '../../../tests/support/test-app';
import { openPostgres, type Database } from '../../db/client';
import { MIGRATIONS_FOLDER, runMigrations } from '../../db/migrate';
import { insertPledges } from './repo';
import { writeBackupFile } from '../../backup/dump';
import { restoreBackup } from '../../backup/restore';
import { getSetting } from '../admin/repo';
import { resolveReferenceKey } from '../../lifecycle';
import type { ReferenceKey } from '@shared/payment-reference';

const FORMAT = /^MRJ-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]$/;

async function installKey(database: Database): Promise<ReferenceKey> {
  return JSON.parse((await getSetting(database.db, REFERENCE_KEY_SETTING))!) as ReferenceKey;
}

async function pledgeOnce(t: TestApp, name = 'First Donor') {
  const res = await t.request('/api/pledges', {
    method: 'POST',
    json: { name, email: 'first@donors.test', amount: 10, currency: 'USD' },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { reference: string }).reference;
}

// Their own apps: two installs side by side, a restart and a restore.
describe('keyed payment references per install (second review 2.9)', () => {
  test('two fresh installs give pledge #1 different references, neither referenceFor(1)', async () => {
    const [a, b] = [await startTestApp(), await startTestApp()];
    try {
      const [refA, refB] = [await pledgeOnce(a), await pledgeOnce(b)];
      expect(refA).not.toBe(refB);
      expect(refA).not.toBe(referenceFor(1));
      expect(refB).not.toBe(referenceFor(1));
      expect(parseReference(refA)).toBe(refA);
      expect(refA).toBe(keyedReferenceFor(1, await installKey(a.database)));
      expect(refB).toBe(keyedReferenceFor(1, await installKey(b.database)));
    } finally {
      await a.close();
      await b.close();
    }
  });

  test('keeps its key across a restart and a backup/restore round trip', async () => {
    const db = await createTestDatabase();
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'relief-refkey-'));
    const target = await createTestDatabase();
    try {
      let t = await startTestApp({ database: db.database });
      const key = await installKey(db.database);
      expect(await pledgeOnce(t)).toBe(keyedReferenceFor(1, key));
      await t.close();
      t = await startTestApp({ database: db.database });
      expect(await installKey(db.database)).toEqual(key);
      expect(await pledgeOnce(t, 'Second')).toBe(keyedReferenceFor(2, key));
      const file = path.join(tmp, 'b.relief-backup.jsonl.gz');
      await writeBackupFile(db.database, path.join(t.dataDir, 'uploads'), file);
      await t.close();

      await restoreBackup(target.database, path.join(tmp, 'uploads'), file);
      const restored = await startTestApp({ database: target.database });
      try {
        expect(await installKey(target.database)).toEqual(key);
        expect(await pledgeOnce(restored, 'Third')).toBe(keyedReferenceFor(3, key));
      } finally {
        await restored.close();
      }
    } finally {
      await db.database.close();
      await db.drop();
      await target.database.close();
      await target.drop();
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});

describe('payment reference in the database', () => {
  let t: TestApp;
  test.beforeAll(async ({ app }) => {
    t = app;
  });

  test("SQL's pledge_reference() equals shared referenceFor()", async () => {
    const ns = [1, 2, 3, 30, 31, 961, 29_791, 500_000, 923_520, 923_521, 923_522, 5_000_000];
    const res = (await t.database.db.execute(
      sql`select n, pledge_reference(n, 'MRJ') as ref from unnest(${sql.param(ns)}::bigint[]) as n`,
    )) as unknown as { rows: { n: number | string; ref: string }[] };
    expect(res.rows.map((r) => [Number(r.n), r.ref])).toEqual(ns.map((n) => [n, referenceFor(n)]));
  });

  test("SQL's pledge_reference_keyed() equals shared keyedReferenceFor() (2,000 numbers and boundaries)", async () => {
    const ns = [
      ...Array.from({ length: 2000 }, (_, i) => i + 1),
      29_791,
      500_000,
      923_520,
      923_521,
      923_522,
      5_000_000,
    ];
    for (const key of [
      { key: '5146919071236785119', from: 1 },
      { key: '9223372036854775807', from: 700 },
      { key: '0', from: 1 },
    ]) {
      const res = (await t.database.db.execute(
        sql`select n, pledge_reference_keyed(n, 'MRJ', ${key.key}::bigint, ${key.from}::bigint) as ref
            from unnest(${sql.param(ns)}::bigint[]) as n`,
      )) as unknown as { rows: { n: number | string; ref: string }[] };
      const refs = res.rows.map((r) => r.ref);
      expect(refs).toEqual(ns.map((n) => keyedReferenceFor(n, key)));
      expect(new Set(refs).size).toBe(ns.length);
    }
  });

  test('plain SQL inserts (the column default) use the install key too', async () => {
    const res = (await t.database.db.execute(
      sql`insert into pledges (name, email, amount, currency, containers)
          values ('Plain', 'plain@donors.test', 1, 'USD', 9) returning reference`,
    )) as unknown as { rows: { reference: string }[] };
    const n = (await t.database.db.execute(
      sql`select last_value from pledge_reference_seq`,
    )) as unknown as { rows: { last_value: number | string }[] };
    expect(res.rows[0]!.reference).toBe(
      keyedReferenceFor(Number(n.rows[0]!.last_value), await installKey(t.database)),
    );
  });

  test('gives every new pledge its own reference with the campaign prefix', async () => {
    const bodies = Array.from({ length: 20 }, (_, i) =>
      t.request('/api/pledges', {
        method: 'POST',
        json: { name: `Donor ${i}`, email: `d${i}@donors.test`, amount: 10 + i, currency: 'USD' },
      }),
    );
    const created = await Promise.all(
      (await Promise.all(bodies)).map(async (r) => {
        expect(r.status).toBe(201);
        return (await r.json()) as { id: string; reference: string };
      }),
    );
    const refs = created.map((c) => c.reference);
    for (const r of refs) expect(r).toMatch(FORMAT);
    expect(new Set(refs).size).toBe(refs.length);
    for (const r of refs) expect(parseReference(r)).toBe(r);
  });

  test('refuses a duplicate reference (unique constraint)', async () => {
    const [a] = await insertPledges(t.database.db, [
      { name: 'A', email: 'a@donors.test', amount: 1, currency: 'USD', containers: 9 },
    ]);
    await expect(
      t.database.db.execute(
        sql`insert into pledges (name, email, amount, currency, containers, reference)
            values ('B', 'b@donors.test', 1, 'USD', 9, ${a!.reference})`,
      ),
    ).rejects.toThrow();
  });

  test('is never shown to the public, only to the admin and to the donor who pledged', async () => {
    const res = await t.request('/api/pledges', {
      method: 'POST',
      json: { name: 'Private Ref', email: 'pr@donors.test', amount: 5, currency: 'USD' },
    });
    const { id, reference } = (await res.json()) as { id: string; reference: string };
    for (const p of ['/api/pledges', '/api/pledges?limit=8', '/api/pledges?limit=100', '/'])
      expect(await (await t.request(p)).text(), p).not.toContain(reference);
    const cookie = await t.login();
    const page = (await (
      await t.request(`/api/admin/pledges?search=${encodeURIComponent(reference.toLowerCase())}`, {
        cookie,
      })
    ).json()) as { items: { id: string; reference: string }[] };
    expect(page.items.map((p) => p.id)).toEqual([id]);
    const spaced = reference.replace(/-/g, ' ');
    const page2 = (await (
      await t.request(`/api/admin/pledges?search=${encodeURIComponent(spaced)}`, { cookie })
    ).json()) as { items: { id: string }[] };
    expect(page2.items.map((p) => p.id)).toEqual([id]);
    const csv = await (await t.request('/api/pledges/export', { cookie })).text();
    expect(csv).toContain(`,${reference}`);
  });
});

// Its own database, migrated up to 0008 and then on.
describe('migration 0009 on a database with pledges', () => {
  let database: Database;
  let cleanup: () => Promise<void>;
  let folder: string;
  beforeAll(async () => {
    // The migrations up to 0008 first (a database from before payment references), then the rest.
    folder = mkdtempSync(path.join(os.tmpdir(), 'relief-migrations-'));
    cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
    const journalFile = path.join(folder, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as {
      entries: { tag: string }[];
    };
    const upTo = journal.entries.findIndex((e) => e.tag.startsWith('0009_'));
    writeFileSync(
      journalFile,
      JSON.stringify({ ...journal, entries: journal.entries.slice(0, upTo) }),
    );
    if (process.env.TEST_DB === 'postgres') {
      const empty = await createTestDatabase('postgres');
      await empty.database.close();
      database = openPostgres(empty.url!);
      cleanup = async () => {
        await database.close();
        await empty.drop();
      };
    } else {
      database = (await createTestDatabase('pglite', { empty: true })).database;
      cleanup = () => database.close();
    }
  });
  afterAll(async () => {
    await cleanup();
    rmSync(folder, { recursive: true, force: true });
  });

  test('gives existing pledges references, oldest first', async () => {
    const { migrate: migratePg } = await import('drizzle-orm/node-postgres/migrator');
    const { migrate: migratePglite } = await import('drizzle-orm/pglite/migrator');
    const migrateTo = (migrationsFolder: string) =>
      database.kind === 'postgres'
        ? // eslint-disable-next-line @typescript-eslint/no-explicit-any
          migratePg(database.db as any, { migrationsFolder })
        : // eslint-disable-next-line @typescript-eslint/no-explicit-any
          migratePglite(database.db as any, { migrationsFolder });
    await migrateTo(folder);
    await database.db.execute(sql`
      insert into pledges (name, email, amount, currency, containers, created_at)
      select 'Old ' || g, 'old' || g || '@donors.test', g, 'USD', g * 9,
        now() - make_interval(days => 100 - g)
      from generate_series(1, 30) g`);
    await runMigrations(database);
    const res = (await database.db.execute(
      sql`select name, reference from pledges order by created_at`,
    )) as unknown as { rows: { name: string; reference: string }[] };
    expect(res.rows).toHaveLength(30);
    expect(res.rows.map((r) => r.reference)).toEqual(
      Array.from({ length: 30 }, (_, i) => referenceFor(i + 1)),
    );
    // New pledges continue the sequence.
    const [next] = await insertPledges(database.db, [
      { name: 'New', email: 'new@donors.test', amount: 1, currency: 'USD', containers: 9 },
    ]);
    expect(next!.reference).toBe(referenceFor(31));

    // The first start after the upgrade makes the key: it applies from the next number on, so
    // the 31 references handed out stay as they are and none of them comes back.
    const key = await resolveReferenceKey(database.db);
    expect(key.from).toBe(32);
    const [keyed] = await insertPledges(database.db, [
      { name: 'Keyed', email: 'keyed@donors.test', amount: 1, currency: 'USD', containers: 9 },
    ]);
    expect(keyed!.reference).toBe(keyedReferenceFor(32, key));
    const after = (await database.db.execute(
      sql`select reference from pledges order by created_at`,
    )) as unknown as { rows: { reference: string }[] };
    expect(after.rows.slice(0, 31).map((r) => r.reference)).toEqual(
      Array.from({ length: 31 }, (_, i) => referenceFor(i + 1)),
    );
    expect(new Set(after.rows.map((r) => r.reference)).size).toBe(32);
  });
});
