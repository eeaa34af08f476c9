import { simpleParser } from 'mailparser';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { AdminRole } from '@shared/admin-roles';
import { hashPassword, SCRYPT_PARAMS } from '../../server/modules/admin/password';
import * as adminRepo from '../../server/modules/admin/repo';
import type { TestApp } from './test-app';

/** A team member's own password in the tests (12+ characters, not a common one). */
export const MEMBER_PASSWORD = 'member-password-7Kq2';

export interface Member {
  id: string;
  name: string;
  email: string;
  role: AdminRole;
  password: string;
  /** Signs in with e-mail and password; the Cookie header value. */
  login(): Promise<string>;
}

/**
 * A member with a password already set, written straight to the database (the invitation flow
 * has its own tests), hashed at the test templates' cheap cost (tests/support/admin-password.ts).
 */
export async function createMember(
  t: TestApp,
  role: AdminRole,
  overrides: { name?: string; email?: string; password?: string } = {},
): Promise<Member> {
  const tag = randomUUID().slice(0, 8);
  const name = overrides.name ?? `${role} ${tag}`;
  const email = overrides.email ?? `${role}-${tag}@team.example.test`;
  const password = overrides.password ?? MEMBER_PASSWORD;
  const row = await adminRepo.insertAccount(t.database.db, {
    name,
    email,
    role,
    passwordHash: await hashPassword(password, { ...SCRYPT_PARAMS, N: 1024 }),
    now: t.config.now(),
  });
  if (!row) throw new Error(`createMember: ${email} exists`);
  return {
    id: row.id,
    name,
    email,
    role,
    password,
    login: () => memberLogin(t, email, password),
  };
}

export async function memberLogin(t: TestApp, email: string, password: string): Promise<string> {
  const res = await t.request('/api/admin/login', { method: 'POST', json: { email, password } });
  if (res.status !== 200) throw new Error(`member login: ${res.status} ${await res.text()}`);
  return (res.headers.get('set-cookie') ?? '').split(';')[0]!;
}

const MTIME_SLACK_MS = 50;

/**
 * The newest invitation link sent to `email`, read from the outbox's .eml files (DATA_DIR/outbox,
 * no SMTP_URL): what the member would click. Waits for the e-mail worker, up to 30 s.
 *
 * `after` is a Date.now() taken before the request that sends the e-mail (taken after it, the
 * worker may already have written the file: a wait that never ends). `except` is a link already
 * read, for a second link to the same address.
 */
export async function invitationToken(
  t: { dataDir: string },
  email: string,
  after = 0,
  except?: string,
): Promise<string> {
  const dir = path.join(t.dataDir, 'outbox');
  // 30 s: in a full run on two cores the worker's turn can come late. Each file is parsed once.
  const deadline = Date.now() + 30_000;
  const parsedFiles = new Map<string, { to: string[]; link: string | undefined }>();
  for (;;) {
    let files: string[] = [];
    try {
      files = readdirSync(dir).filter((f) => f.endsWith('.eml'));
    } catch {
      /* not there yet */
    }
    const found: { at: number; token: string }[] = [];
    for (const f of files) {
      const full = path.join(dir, f);
      const at = statSync(full).mtimeMs;
      // File times come from the kernel's coarse clock, a few ms behind Date.now().
      if (at < after - MTIME_SLACK_MS) continue;
      const key = `${f}@${at}`;
      let mail = parsedFiles.get(key);
      if (!mail) {
        const parsed = await simpleParser(readFileSync(full));
        mail = {
          to: [parsed.to ?? []].flat().flatMap((a) => a.value.map((v) => v.address ?? '')),
          link: /\/admin\/join\?t=([A-Za-z0-9_-]+)/.exec(parsed.text ?? '')?.[1],
        };
        parsedFiles.set(key, mail);
      }
      if (mail.to.includes(email) && mail.link && mail.link !== except)
        found.push({ at, token: mail.link });
    }
    if (found.length) return found.sort((a, b) => b.at - a.at)[0]!.token;
    if (Date.now() > deadline) throw new Error(`no invitation e-mail to ${email}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
