import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkCharacter,
  findReferences,
  parseReference,
  REFERENCE_ALPHABET,
  referenceFor,
} from '@shared/payment-reference';
import { createTestDatabase, startTestApp, type TestApp } from '../../../tests/support/test-app';
import { openPostgres, pgliteOptions, wrapPglite, type Database } from '../../db/client';
import { MIGRATIONS_FOLDER, runMigrations } from '../../db/migrate';
import { insertPledges } from './repo';

const FORMAT = /^MRJ-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]$/;

describe('payment reference (pure)', () => {
  it('has the MRJ-XXXX-C shape, without 0/O/1/I/L', () => {
    expect(REFERENCE_ALPHABET).toHaveLength(31);
    expect(REFERENCE_ALPHABET).not.toMatch(/[01OIL]/);
    for (let n = 1; n < 2000; n++) expect(referenceFor(n)).toMatch(FORMAT);
    expect(referenceFor(5, 'ABC')).toMatch(/^ABC-/);
  });

  it('never repeats: the first 100,000 pledges get 100,000 references', () => {
    const seen = new Set<string>();
    for (let n = 1; n <= 100_000; n++) seen.add(referenceFor(n));
    expect(seen.size).toBe(100_000);
    // Past 31^4 the body grows instead of wrapping around.
    expect(referenceFor(31 ** 4)).toMatch(/^MRJ-[2-9A-Z]{5}-[2-9A-Z]$/);
  });

  it('detects every single wrong character and every swap of neighbours', () => {
    for (const n of [1, 2, 77, 4242, 99_999]) {
      const ref = referenceFor(n);
      const [prefix, body, check] = ref.split('-') as [string, string, string];
      expect(parseReference(ref)).toBe(ref);
      for (let i = 0; i < body.length; i++) {
        for (const c of REFERENCE_ALPHABET) {
          if (c === body[i]) continue;
          const typo = body.slice(0, i) + c + body.slice(i + 1);
          expect(parseReference(`${prefix}-${typo}-${check}`), typo).toBeNull();
        }
        if (i < body.length - 1 && body[i] !== body[i + 1]) {
          const swapped = body.slice(0, i) + body[i + 1] + body[i] + body.slice(i + 2);
          expect(parseReference(`${prefix}-${swapped}-${check}`)).toBeNull();
        }
      }
      for (const c of REFERENCE_ALPHABET)
        if (c !== check) expect(parseReference(`${prefix}-${body}-${c}`)).toBeNull();
    }
  });

  it('reads references typed with spaces, lower case or no dashes', () => {
    const ref = referenceFor(321);
    const [prefix, body, check] = ref.split('-') as [string, string, string];
    expect(parseReference(`${prefix} ${body} ${check}`.toLowerCase())).toBe(ref);
    expect(parseReference(prefix + body + check)).toBe(ref);
    expect(parseReference('MRJ-0000-0')).toBeNull();
    expect(parseReference('hello')).toBeNull();
    expect(checkCharacter(body)).toBe(check);
    expect(
      findReferences(`TRF FROM J BROWN ref ${prefix.toLowerCase()} ${body}-${check} thanks`, [
        'MRJ',
      ]),
    ).toEqual([ref]);
    expect(findReferences(`INV${prefix}${body}X`, ['MRJ'])).toEqual(
      checkCharacter(body) === 'X' ? [ref] : [],
    );
  });
});

describe('payment reference in the database', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it("SQL's pledge_reference() equals shared referenceFor()", async () => {
    const ns = [1, 2, 3, 30, 31, 961, 29_791, 500_000, 923_520, 923_521, 923_522, 5_000_000];
    const res = (await t.database.db.execute(
      sql`select n, pledge_reference(n, 'MRJ') as ref from unnest(${sql.param(ns)}::bigint[]) as n`,
    )) as unknown as { rows: { n: number | string; ref: string }[] };
    expect(res.rows.map((r) => [Number(r.n), r.ref])).toEqual(ns.map((n) => [n, referenceFor(n)]));
  });

  it('gives every new pledge its own reference with the campaign prefix', async () => {
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

  it('refuses a duplicate reference (unique constraint)', async () => {
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

  it('is never shown to the public, only to the admin and to the donor who pledged', async () => {
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
      database = wrapPglite(await PGlite.create(pgliteOptions(false)));
      cleanup = () => database.close();
    }
  });
  afterAll(async () => {
    await cleanup();
    rmSync(folder, { recursive: true, force: true });
  });

  it('gives existing pledges references, oldest first', async () => {
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
  });
});
