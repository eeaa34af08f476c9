import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll } from 'vitest';
import { describe, expect, test } from '../../tests/support/fixtures';
import { createMember, memberLogin, type Member } from '../../tests/support/team';
import { hashPassword, SCRYPT_PARAMS } from '../modules/admin/password';
import * as adminRepo from '../modules/admin/repo';
import { writeBackupFile } from './dump';
import { restoreBackup } from './restore';

/**
 * A backup carries the team (accounts with their password hashes, never a password or a
 * session) and a restore brings the accounts back and ends every session, the owner's too.
 */
describe('backups and the team', () => {
  let tmp: string;
  let file: string;
  let member: Member;

  test.beforeAll(async ({ app }) => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'relief-backup-team-'));
    member = await createMember(app, 'treasurer', { password: 'backed-up-passphrase-9' });
    await member.login();
    file = path.join(tmp, 'team.relief-backup.jsonl.gz');
    await writeBackupFile(app.database, path.join(app.dataDir, 'uploads'), file);
  });

  afterAll(() => {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  test('holds the accounts with their hashes, and no password or session', async ({ app }) => {
    const lines = gunzipSync(readFileSync(file))
      .toString('utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const tables = lines.flatMap((l) => (typeof l.table === 'string' ? [l.table] : []));
    expect(tables).toContain('admin_accounts');
    expect(tables).not.toContain('admin_sessions');
    const text = JSON.stringify(lines);
    const stored = await adminRepo.findAccount(app.database.db, member.id);
    expect(stored?.passwordHash).toMatch(/^scrypt\$/);
    expect(text).toContain(stored!.passwordHash!);
    expect(text).not.toContain(member.password);
  });

  test('a restore brings the accounts back and ends every session', async ({ app }) => {
    const owner = await app.login();
    const memberCookie = await member.login();
    // After the backup the member's password changed: the restore puts the backed-up hash back.
    await adminRepo.updateAccount(app.database.db, member.id, {
      passwordHash: await hashPassword('changed-after-backup-7', { ...SCRYPT_PARAMS, N: 1024 }),
    });
    await restoreBackup(app.database, path.join(app.dataDir, 'uploads'), file, { force: true });

    for (const cookie of [owner, memberCookie]) {
      const res = await app.request('/api/admin/check', { cookie });
      expect(await res.json()).toEqual({ isAuthenticated: false });
    }
    const refused = await app.request('/api/admin/login', {
      method: 'POST',
      json: { email: member.email, password: 'changed-after-backup-7' },
    });
    expect(refused.status).toBe(401);
    const cookie = await memberLogin(app, member.email, 'backed-up-passphrase-9');
    const check = await app.request('/api/admin/check', { cookie });
    expect(await check.json()).toEqual({
      isAuthenticated: true,
      account: { name: member.name, role: 'treasurer' },
    });
  });
});
