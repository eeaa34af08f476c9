import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBackupFile } from '../../server/backup/dump';
import { restoreBackup } from '../../server/backup/restore';
import { OWNER_ACCOUNT_ID } from '../../server/db/schema';
import { createTestDatabase, startTestApp, type TestApp } from '../support/test-app';

const HOUR = 3_600_000;
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const isAdmin = async (t: TestApp, token: string) =>
  (await t.request('/api/admin/pledges', { cookie: `sid=${token}` })).status;

async function sessionCount(t: { database: TestApp['database'] }): Promise<number> {
  const res = (await t.database.db.execute(
    sql`select count(*)::int as n from admin_sessions`,
  )) as unknown as { rows: { n: number }[] };
  return Number(res.rows[0]!.n);
}

/**
 * Second review 2.3 (docs/SECURITY.md, threat 51): a backup file with an admin_sessions row (the
 * hash of a known token, last_seen_at and expires_at in 2099) was restored with --force, and after
 * a restart the token was an admin.
 */
describe('2.3 a crafted backup cannot plant an admin session', () => {
  let source: TestApp;
  let tmp: string;
  let file: string;
  beforeAll(async () => {
    source = await startTestApp();
    tmp = mkdtempSync(path.join(os.tmpdir(), 'relief-crafted-backup-'));
    file = path.join(tmp, 'real.gz');
    await writeBackupFile(source.database, path.join(source.dataDir, 'uploads'), file);
  });
  afterAll(async () => {
    await source?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  /** The real backup with an admin_sessions section before the end marker. */
  function craft(token: string, inTrailer: boolean): string {
    const lines = gunzipSync(readFileSync(file)).toString('utf8').trimEnd().split('\n');
    const end = JSON.parse(lines.pop()!) as { end: { rows: Record<string, number> } };
    if (inTrailer) end.end.rows.admin_sessions = 1;
    const row = {
      token_hash: sha256(token),
      created_at: '2099-01-01T00:00:00Z',
      last_seen_at: '2099-01-01T00:00:00Z',
      expires_at: '2099-12-31T00:00:00Z',
    };
    lines.push(
      JSON.stringify({ table: 'admin_sessions', columns: Object.keys(row) }),
      JSON.stringify({ row }),
      JSON.stringify({ table: 'rate_limits', columns: ['key', 'window_start', 'count'] }),
      JSON.stringify({
        row: { key: 'login:127.0.0.1', window_start: '2099-01-01T00:00:00Z', count: 999 },
      }),
      JSON.stringify(end),
    );
    const out = path.join(tmp, `crafted-${inTrailer}.gz`);
    writeFileSync(out, gzipSync(`${lines.join('\n')}\n`));
    return out;
  }

  for (const inTrailer of [false, true]) {
    it(`2.3 skips tables a backup does not hold and ends every session (listed in the end marker: ${inTrailer})`, async () => {
      const token = randomBytes(32).toString('base64url');
      const crafted = craft(token, inTrailer);
      const target = await createTestDatabase();
      const dataDir = mkdtempSync(path.join(tmp, 'target-'));
      try {
        // An admin signed in on the target before the restore.
        const before = await startTestApp({ database: target.database, dataDir });
        const earlier = (await before.login()).split('=')[1]!;
        await before.close();
        const logged: string[] = [];
        await restoreBackup(target.database, path.join(dataDir, 'uploads'), crafted, {
          force: true,
          log: (s) => logged.push(s),
        });
        expect(await sessionCount({ database: target.database })).toBe(0);
        const rl = (await target.database.db.execute(
          sql`select count(*)::int as n from rate_limits`,
        )) as unknown as { rows: { n: number }[] };
        expect(Number(rl.rows[0]!.n)).toBe(0);
        // Restarted on the restored database: neither token is an admin; the password still works.
        const after = await startTestApp({ database: target.database, dataDir });
        try {
          expect(await isAdmin(after, token)).toBe(401);
          expect(await isAdmin(after, earlier)).toBe(401);
          await after.login();
        } finally {
          await after.close();
        }
        expect(logged.join('\n')).toMatch(/skipped: admin_sessions/);
      } finally {
        await target.database.close();
        await target.drop();
      }
    });
  }
});

describe('2.3 a session row the server could not have written is refused', () => {
  let t: TestApp;
  const clock = Date.now();
  beforeAll(async () => {
    t = await startTestApp({ now: () => new Date(clock) });
  });
  afterAll(() => t.close());

  const plant = async (createdAt: Date, lastSeenAt: Date, expiresAt: Date) => {
    const token = randomBytes(32).toString('base64url');
    await t.database.db
      .execute(sql`insert into admin_sessions (token_hash, created_at, last_seen_at, expires_at, account_id)
      values (${sha256(token)}, ${createdAt.toISOString()}, ${lastSeenAt.toISOString()}, ${expiresAt.toISOString()}, ${OWNER_ACCOUNT_ID})`);
    return token;
  };

  it('2.3 last seen in the future, made in the future, or older than the lifetime: 401 and deleted', async () => {
    const now = new Date(clock);
    const far = new Date('2099-12-31T00:00:00Z');
    const future = await plant(now, new Date(clock + 24 * HOUR), far);
    const madeLater = await plant(new Date(clock + 24 * HOUR), now, far);
    const tooOld = await plant(new Date(clock - 13 * HOUR), now, far);
    const fine = await plant(new Date(clock - HOUR), now, new Date(clock + 11 * HOUR));
    for (const token of [future, madeLater, tooOld]) expect(await isAdmin(t, token)).toBe(401);
    expect(await isAdmin(t, fine)).toBe(200);
    expect(await sessionCount(t)).toBe(1);
    // A few seconds ahead (another instance's clock) is still a session.
    const skewed = await plant(now, new Date(clock + 5_000), new Date(clock + 12 * HOUR));
    expect(await isAdmin(t, skewed)).toBe(200);
  });
});
