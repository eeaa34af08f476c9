import { randomBytes } from 'node:crypto';
import type { AdminRole } from '@shared/admin-roles';
import type { AppConfig } from '../../config';
import type { Db, DbOrTx } from '../../db/client';
import type { AdminIdentity } from '../../lib/route-access';
import { sessionCookie } from '../../lib/cookies';
import { sha256 } from './password';
import * as repo from './repo';

/** lastSeenAt is written at most this often, so admin reads do not each cost a write. */
const TOUCH_EVERY_MS = 60_000;
/** How far ahead of this server's clock another instance's may be when it touched a session. */
const CLOCK_SKEW_MS = 60_000;

/**
 * The admin sessions: created at login, checked by the auth plugin on every admin request (it gets
 * this store at start), revoked at logout.
 */
export function createSessions(
  db: Db,
  config: Pick<AppConfig, 'sessionTtlMs' | 'sessionIdleMs' | 'now' | 'publicUrl'>,
) {
  return {
    ...sessionCookie(config),
    /**
     * A session of one account.
     * @param tx a transaction to write in (login writes its audit entry with it).
     * @param clientIp where it was opened, for the owner's session list.
     * @param setupOnly a session that may only set up a second factor (the campaign requires one).
     */
    async create(
      accountId: string,
      tx: DbOrTx = db,
      clientIp: string | null = null,
      setupOnly = false,
    ): Promise<{ token: string; expiresAt: Date }> {
      const token = randomBytes(32).toString('base64url');
      const now = config.now();
      const expiresAt = new Date(now.getTime() + config.sessionTtlMs);
      await repo.insertSession(tx, sha256(token), accountId, now, expiresAt, clientIp, setupOnly);
      return { token, expiresAt };
    },
    /**
     * Who the session is (its hash, account, name and role) when it is valid: not expired, not idle
     * too long, its account not disabled. Else null.
     */
    async validate(token: string): Promise<AdminIdentity | null> {
      if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
      const hash = sha256(token);
      const row = await repo.findSession(db, hash);
      if (!row) return null;
      const now = config.now();
      const idleFor = now.getTime() - row.lastSeenAt.getTime();
      // Only what this server could have written is a session: not one used
      // or made in the future (a planted row; CLOCK_SKEW_MS allows for instances' clocks), and
      // none older than the lifetime, whatever its expires_at says.
      const age = now.getTime() - row.createdAt.getTime();
      if (
        row.expiresAt <= now ||
        idleFor > config.sessionIdleMs ||
        idleFor < -CLOCK_SKEW_MS ||
        age < -CLOCK_SKEW_MS ||
        age > config.sessionTtlMs ||
        row.disabledAt !== null
      ) {
        await repo.deleteSession(db, hash);
        return null;
      }
      if (idleFor > TOUCH_EVERY_MS) await repo.touchSession(db, hash, now);
      return {
        sessionTokenHash: hash,
        accountId: row.accountId,
        name: row.name,
        role: row.role as AdminRole,
        ...(row.setupOnly ? { setupOnly: true } : {}),
      };
    },
    revoke: (hash: string) => repo.deleteSession(db, hash),
  };
}
export type Sessions = ReturnType<typeof createSessions>;
