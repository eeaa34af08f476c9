import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import type { AdminRole } from '@shared/admin-roles';
import { TWO_FACTOR_MESSAGES, type SecondFactorMethod } from '@shared/schemas/two-factor';
import type { AppContext } from '../../context';
import { clientKey } from '../../lib/client-key';
import { HttpError } from '../../lib/http-error';
import { actingAs } from '../audit/actor';
import { writeAudit } from '../audit/repo';
import { createPasskeys } from './passkeys';
import { sha256 } from './password';
import * as repo from './repo';
import { createTwoFactor } from './two-factor';
import * as tfRepo from './two-factor-repo';

/** How long the second step may take after the password (then the password again). */
const STEP_TTL_MS = 5 * 60_000;
const WINDOW_MS = 60_000;
const DAY_MS = 24 * 3600_000;
/**
 * Wrong codes an account may have in a day, as a multiple of the per-minute limit: the minute's
 * limit alone would let someone with the password try 14,400 codes a day (a 4 % chance of a hit).
 */
const PER_DAY_FACTOR = 5;

interface SignInAccount {
  id: string;
  name: string;
  role: AdminRole;
}

const flows = new WeakMap<AppContext, ReturnType<typeof makeFlow>>();

/**
 * The sign-in after a correct password (docs/decisions/023-two-factor.md): a session at once for an
 * account without a second factor (the spec's login, unchanged), else a second step that the
 * `sid_2fa` cookie (HttpOnly, five minutes, only its SHA-256 stored) carries to a code or a
 * passkey; while the owner requires a second factor, an account without one gets a session that
 * may only set one up. One instance per app, shared by the login and the security routes.
 */
export function twoFactorLogin(ctx: AppContext) {
  let flow = flows.get(ctx);
  if (!flow) flows.set(ctx, (flow = makeFlow(ctx)));
  return flow;
}

function makeFlow(ctx: AppContext) {
  const { db, config, sessions } = ctx;
  const twoFactor = createTwoFactor(db, config);
  const passkeys = createPasskeys(db, config);
  const httpsSite = config.publicUrl?.startsWith('https:') ?? false;
  // `__Host-` on an https site, as the session cookie (record 003).
  const stepCookie = httpsSite ? '__Host-sid_2fa' : 'sid_2fa';
  const stepCookieOptions = (request: FastifyRequest) => ({
    path: '/',
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: httpsSite || request.protocol === 'https',
  });

  /** A session for `account`, replacing the browser's earlier one (no fixation), audited. */
  async function openSession(
    request: FastifyRequest,
    reply: FastifyReply,
    account: SignInAccount,
    opts: { setupOnly?: boolean; secondFactor?: SecondFactorMethod } = {},
  ) {
    if (request.sessionTokenHash) await sessions.revoke(request.sessionTokenHash);
    const { token } = await db.transaction(async (tx) => {
      const created = await sessions.create(account.id, tx, request.ip, opts.setupOnly ?? false);
      await writeAudit(tx, actingAs(request, account), {
        action: 'admin.login',
        ...(opts.secondFactor || opts.setupOnly
          ? {
              details: {
                ...(opts.secondFactor ? { secondFactor: opts.secondFactor } : {}),
                ...(opts.setupOnly ? { secondFactorSetup: 'required' } : {}),
              },
            }
          : {}),
      });
      return created;
    });
    sessions.setCookie(request, reply, token);
    request.log.info({ role: account.role }, 'admin logged in');
  }

  /** Counts one failed code per address and per account; 429 once either is over the limit. */
  async function countFailure(request: FastifyRequest, accountId: string) {
    const limit = config.rateLimitLoginPerMinute;
    if (limit <= 0) return [];
    const limits = [
      { key: `2fa:${clientKey(request.ip)}`, limit, windowMs: WINDOW_MS },
      // A code has a million values and the password is already known: the account's limit is
      // the address's, not a multiple of it, and there is a daily one too.
      { key: `2fa-account:${accountId}`, limit, windowMs: WINDOW_MS },
      { key: `2fa-account-day:${accountId}`, limit: limit * PER_DAY_FACTOR, windowMs: DAY_MS },
    ];
    for (const { key, limit: max, windowMs } of limits) {
      const hit = await repo.hitRateLimit(db, key, config.now(), windowMs);
      if (hit.count > max) {
        const retryAfter = Math.max(
          1,
          Math.ceil((hit.resetAt.getTime() - config.now().getTime()) / 1000),
        );
        request.log.warn({ ip: request.ip }, 'second factor rate limit reached');
        const message =
          windowMs === DAY_MS
            ? TWO_FACTOR_MESSAGES.tooManyToday
            : TWO_FACTOR_MESSAGES.tooManyAttempts;
        throw new HttpError(429, message, undefined, {
          'Retry-After': String(retryAfter),
        });
      }
    }
    return limits.map((l) => l.key);
  }

  return {
    twoFactor,
    passkeys,
    openSession,
    countFailure,
    async giveBack(keys: string[]) {
      for (const k of keys) await repo.undoRateLimitHit(db, k);
    },

    /**
     * After a correct password: `undefined` when the session is open (no second factor, nothing
     * required: the spec's answer follows), else what the client must do next.
     */
    async afterPassword(request: FastifyRequest, reply: FastifyReply, account: SignInAccount) {
      const methods = await twoFactor.methods(account.id);
      if (methods.length) {
        const token = randomBytes(32).toString('base64url');
        const now = config.now();
        await tfRepo.deleteExpiredChallenges(db, now);
        await tfRepo.insertChallenge(db, {
          tokenHash: sha256(token),
          accountId: account.id,
          purpose: 'login',
          now,
          expiresAt: new Date(now.getTime() + STEP_TTL_MS),
        });
        reply.setCookie(stepCookie, token, {
          ...stepCookieOptions(request),
          maxAge: STEP_TTL_MS / 1000,
        });
        return { ok: true as const, isAuthenticated: false, secondFactor: { methods } };
      }
      if (await twoFactor.isRequired()) {
        await openSession(request, reply, account, { setupOnly: true });
        return { ok: true as const, isAuthenticated: false, secondFactorSetup: true as const };
      }
      await openSession(request, reply, account);
      return undefined;
    },

    /** The second step under way (its cookie's challenge and account), or a 401 to start again. */
    async pendingStep(request: FastifyRequest) {
      const token = request.cookies[stepCookie];
      const hash = token && /^[A-Za-z0-9_-]{43}$/.test(token) ? sha256(token) : undefined;
      const step = hash && (await tfRepo.findChallenge(db, hash, 'login', config.now()));
      const account = step && (await repo.findAccount(db, step.accountId));
      if (!hash || !step || !account || account.disabledAt) {
        throw new HttpError(401, TWO_FACTOR_MESSAGES.stepExpired);
      }
      return {
        hash,
        account: { id: account.id, name: account.name, role: account.role as AdminRole },
      };
    },

    async endStep(request: FastifyRequest, reply: FastifyReply, hash: string) {
      await tfRepo.deleteChallenge(db, hash);
      reply.clearCookie(stepCookie, stepCookieOptions(request));
    },
  };
}
