import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, startTestApp, type TestApp } from '../../tests/support/test-app';
import { samplePng } from '../../tests/fixtures';
import { uploadImage } from '../../tests/support/api';
import { eventually } from '../../tests/support/net';
import { softwarePasskey } from '../../tests/support/software-passkey';
import { createMember } from '../../tests/support/team';
import type { Database } from '../db/client';
import { runMigrations } from '../db/migrate';
import { listImageFiles, writeBackupFile } from './dump';
import { NOT_BACKED_UP } from './format';
import { backedUpTables, sequencePositions } from './tables';
import { inspectBackup, restoreBackup, RestoreRefused } from './restore';

/** 2,000 in `npm test`; the soak run (npm run test:soak) round-trips 10,000. */
const PLEDGES = process.env.SOAK ? 10_000 : 2_000;

/** Tables the triggers rebuild on restore: compared after it like the others. */
const DERIVED = Object.fromEntries(
  Object.entries(NOT_BACKED_UP).filter(([, why]) => why.startsWith('derived')),
);

/** Every row of every table (derived ones too), in a stable order, as PostgreSQL prints it. */
async function everyRow(database: Database): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  const tables = [...(await backedUpTables(database.db)), ...Object.keys(DERIVED)];
  for (const t of tables) {
    const res = (await database.db.execute(
      sql.raw(`select row_to_json(x)::text as j from "${t}" x`),
    )) as unknown as { rows: { j: string }[] };
    // The totals row's version counts the statements that changed it, not a fact to compare.
    out[t] = res.rows
      .map((r) =>
        t === 'pledge_totals' ? JSON.stringify({ ...JSON.parse(r.j), version: 0 }) : r.j,
      )
      .sort();
  }
  out.__sequences = [JSON.stringify(await sequencePositions(database.db))];
  return out;
}

async function everyFile(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const f of await listImageFiles(dir))
    out[f] = createHash('sha256')
      .update(await readFile(path.join(dir, f)))
      .digest('hex');
  return out;
}

describe('backup and restore', () => {
  let source: TestApp;
  let file: string;
  let tmp: string;

  beforeAll(async () => {
    source = await startTestApp();
    tmp = mkdtempSync(path.join(os.tmpdir(), 'relief-backup-test-'));
    // Bulk rows by SQL (10,000 API calls would dominate the suite), plus real ones through the API.
    await source.database.db.execute(sql`
      insert into pledges (name, email, amount, currency, containers, is_anonymous, is_paid, payment_confirmed_at)
      select 'Donor ' || i, 'donor' || (i % 7000) || '@example.org', 1 + (i % 500),
        case when i % 3 = 0 then 'JMD' else 'USD' end, (1 + (i % 500)) * 9,
        i % 11 = 0, i % 4 = 0, case when i % 4 = 0 then now() end
      from generate_series(1, ${PLEDGES - 2}) i`);
    for (const name of ['Zoë Campbell', "O'Brien & Sons"]) {
      const res = await source.request('/api/pledges', {
        method: 'POST',
        json: { name, email: 'zoe@example.org', amount: 25, currency: 'USD', isAnonymous: false },
      });
      expect(res.status).toBe(201);
    }
    const cookie = await source.login();
    for (let i = 0; i < 3; i++) {
      const imageUrl = await uploadImage(source, cookie, samplePng());
      const res = await source.request('/api/updates', {
        method: 'POST',
        cookie,
        json: {
          imageUrl,
          recipient: `Shelter ${i}`,
          containerCount: 100 + i,
          deliveryDate: '2026-11-20',
        },
      });
      expect(res.status).toBe(201);
    }
    // A member with an authenticator app, recovery codes and a passkey (record 023).
    const member = await createMember(source, 'treasurer');
    const memberCookie = await member.login();
    const totp = (await (
      await source.request('/api/admin/security/totp', { method: 'POST', cookie: memberCookie })
    ).json()) as { secret: string };
    const code = new TOTP({ secret: Secret.fromBase32(totp.secret) }).generate();
    const confirmed = await source.request('/api/admin/security/totp/confirm', {
      method: 'POST',
      json: { code },
      cookie: memberCookie,
    });
    expect(confirmed.status).toBe(200);
    const options = (await (
      await source.request('/api/admin/security/passkeys/options', {
        method: 'POST',
        cookie: memberCookie,
      })
    ).json()) as { challenge: string; rp: { id?: string } };
    const passkey = await source.request('/api/admin/security/passkeys', {
      method: 'POST',
      json: { response: softwarePasskey().register(options, new URL(source.baseUrl).origin) },
      cookie: memberCookie,
    });
    expect(passkey.status).toBe(200);
    // Payments (one reversed, some in two parts) and sent reminders, for the report's rollups.
    await source.database.db.execute(sql`
      insert into payments (pledge_id, amount_minor, currency, credited_minor, booked_on, source,
        recorded_at, reversed_at)
      select p.id, part.minor, p.currency, part.minor, (p.created_at + make_interval(days => part.after))::date,
        'record', p.created_at + make_interval(days => part.after),
        case when part.after = 9 then p.created_at + make_interval(days => 10) end
      from (select id, currency, amount, created_at, row_number() over (order by id) as n
        from pledges) p,
        lateral (select p.amount::bigint * 50 as minor, 1 + (p.n % 20)::int as after
          union all select p.amount::bigint * 50, 25 where p.n % 2 = 0) part
      where p.n % 3 = 0`);
    await source.database.db.execute(sql`
      insert into outbox (pledge_id, kind, step, created_at, next_attempt_at, sent_at)
      select id, 'reminder', 1, created_at + interval '7 days', created_at + interval '7 days',
        created_at + interval '7 days'
      from pledges where amount % 5 = 0`);
    const rollup = (await source.database.db.execute(
      sql`select count(*) as n from report_payments`,
    )) as unknown as { rows: { n: unknown }[] };
    expect(Number(rollup.rows[0]!.n)).toBeGreaterThan(100);
    // The app's e-mail worker has sent what it queued (it sends the backlog of a burst of
    // pledges a moment after the burst), so the rows compared below are the rows backed up.
    await eventually(async () => {
      const waiting = (await source.database.db.execute(
        sql`select count(*) as n from outbox where sent_at is null and failed_at is null`,
      )) as unknown as { rows: { n: unknown }[] };
      return Number(waiting.rows[0]!.n) === 0;
    }, 20_000);
    file = path.join(tmp, 'campaign.relief-backup.jsonl.gz');
    // Taken while the source app runs and serves.
    await writeBackupFile(source.database, path.join(source.dataDir, 'uploads'), file);
  });

  afterAll(async () => {
    await source?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('round-trips every row and every image file into an empty database', async () => {
    const summary = await inspectBackup(file);
    expect(summary.trailer.rows.pledges).toBe(PLEDGES);
    expect(summary.trailer.rows.delivery_updates).toBe(3);
    // Second factors as stored: the encrypted TOTP secret, hashed recovery codes, public keys.
    expect(summary.trailer.rows.admin_totp).toBe(1);
    expect(summary.trailer.rows.admin_recovery_codes).toBe(10);
    expect(summary.trailer.rows.admin_passkeys).toBe(1);
    expect(summary.trailer.files).toBeGreaterThanOrEqual(3);
    for (const t of Object.keys(NOT_BACKED_UP)) expect(summary.trailer.rows[t]).toBeUndefined();

    const target = await createTestDatabase();
    const uploads = path.join(mkdtempSync(path.join(tmp, 'target-')), 'uploads');
    try {
      const result = await restoreBackup(target.database, uploads, file);
      expect(result.rows.pledges).toBe(PLEDGES);
      const [before, after] = [await everyRow(source.database), await everyRow(target.database)];
      expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
      for (const t of Object.keys(before))
        expect({ t, rows: after[t] }).toEqual({ t, rows: before[t] });
      expect(await everyFile(uploads)).toEqual(
        await everyFile(path.join(source.dataDir, 'uploads')),
      );

      // The restored database works as the app's: new ids follow the restored ones.
      const res = (await target.database.db.execute(
        sql`insert into delivery_updates (image_url, recipient, container_count, delivery_date)
            select image_url, 'New', 1, delivery_date from delivery_updates limit 1 returning id`,
      )) as unknown as { rows: { id: unknown }[] };
      expect(res.rows).toHaveLength(1);
    } finally {
      await target.database.close();
      await target.drop();
    }
  });

  it('is downloadable by the admin only', async () => {
    expect((await source.request('/api/admin/backup')).status).toBe(401);
    const res = await source.request('/api/admin/backup', { cookie: await source.login() });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(
      /attachment; filename="relief-.*\.relief-backup\.jsonl\.gz"/,
    );
    const downloaded = path.join(tmp, 'downloaded.gz');
    writeFileSync(downloaded, Buffer.from(await res.arrayBuffer()));
    expect((await inspectBackup(downloaded)).trailer.rows.pledges).toBe(PLEDGES);
  });

  it('refuses to overwrite a database that holds pledges unless forced', async () => {
    const target = await createTestDatabase();
    const uploads = path.join(mkdtempSync(path.join(tmp, 'busy-')), 'uploads');
    try {
      await runMigrations(target.database); // an app that ran once (a PGlite template already has)
      await target.database.db.execute(
        sql`insert into pledges (name, email, amount, containers) values ('Kept', 'kept@example.org', 5, 45)`,
      );
      await expect(restoreBackup(target.database, uploads, file)).rejects.toThrow(
        /not empty: it holds 1 pledge\b.*--force/,
      );
      const kept = (await target.database.db.execute(
        sql`select count(*)::int as n from pledges`,
      )) as unknown as { rows: { n: number }[] };
      expect(Number(kept.rows[0].n)).toBe(1);

      await restoreBackup(target.database, uploads, file, { force: true });
      const after = (await target.database.db.execute(
        sql`select count(*)::int as n, count(*) filter (where name = 'Kept')::int as kept from pledges`,
      )) as unknown as { rows: { n: number; kept: number }[] };
      expect(Number(after.rows[0].n)).toBe(PLEDGES);
      expect(Number(after.rows[0].kept)).toBe(0);
    } finally {
      await target.database.close();
      await target.drop();
    }
  });

  it('refuses a cut-off or damaged file before changing anything', async () => {
    const whole = gunzipSync(readFileSync(file));
    const cut = path.join(tmp, 'cut.gz');
    writeFileSync(cut, gzipSync(whole.subarray(0, Math.floor(whole.length / 2))));
    const notBackup = path.join(tmp, 'not.gz');
    writeFileSync(notBackup, 'date,amount\n2026-11-20,100\n');
    const target = await createTestDatabase();
    try {
      await runMigrations(target.database);
      await expect(restoreBackup(target.database, '/nonexistent/uploads', cut)).rejects.toThrow(
        RestoreRefused,
      );
      await expect(inspectBackup(cut)).rejects.toThrow(/cut off|damaged/);
      await expect(inspectBackup(notBackup)).rejects.toThrow(/not a backup of this app/);
      const n = (await target.database.db.execute(
        sql`select count(*)::int as n from progress`,
      )) as unknown as { rows: { n: number }[] };
      expect(Number(n.rows[0].n)).toBe(1); // the migrated schema and its seed row are untouched
    } finally {
      await target.database.close();
      await target.drop();
    }
  });
});
