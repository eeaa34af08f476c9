import type { FastifyInstance, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { ADMIN_MESSAGES, loginSchema } from '@shared/schemas/admin';
import { SECOND_FACTOR_METHODS } from '@shared/schemas/two-factor';
import type { AppContext } from '../../context';
import { HttpError } from '../../lib/http-error';
import { clientKey } from '../../lib/client-key';
import { ADMIN_ROLES, type AdminRole } from '@shared/admin-roles';
import { OWNER_ACCOUNT_ID } from '../../db/schema';
import { hashPassword, verifyPassword } from './password';
import { PasswordCheckGate } from './password-check-gate';
import { writeAudit } from '../audit/repo';
import * as repo from './repo';
import { twoFactorLogin } from './two-factor-login';

const WINDOW_MS = 60_000;
/** An account's failed logins per minute, as a multiple of one address's. */
const PER_ACCOUNT_FACTOR = 3;
/** What an unknown e-mail's password is checked against (same cost as a real one). */
let unknownHash: Promise<string> | undefined;
const unknownAccountHash = () =>
  (unknownHash ??= hashPassword(randomBytes(16).toString('base64url')));

const sessionStateSchema = z.object({
  isAuthenticated: z.boolean(),
  /** Who is signed in: the client shows what the role may use. */
  account: z.object({ name: z.string(), role: z.enum(ADMIN_ROLES) }).optional(),
  /** Signed in only to set up a second factor, which the campaign requires. */
  secondFactorSetup: z.literal(true).optional(),
});
/**
 * The spec's `{ok, isAuthenticated: true}`; with a second factor to give (or to set up), not yet
 * authenticated and what comes next (extra fields only).
 */
const loginResultSchema = z.object({
  ok: z.literal(true),
  isAuthenticated: z.boolean(),
  secondFactor: z.object({ methods: z.array(z.enum(SECOND_FACTOR_METHODS)) }).optional(),
  secondFactorSetup: z.literal(true).optional(),
});
const logoutResultSchema = z.object({ ok: z.literal(true), isAuthenticated: z.literal(false) });

export async function adminRoutes(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, config } = ctx;
  /**
   * Password checks in flight: 2 per client; in all, one core's worth at a time (at most 2, and
   * 1 on a 2-core machine, where two scrypts starve the event loop), 30 more waiting
   * (docs/decisions/008).
   */
  const gate = new PasswordCheckGate({
    perClient: 2,
    running: Math.max(1, Math.min(2, availableParallelism() - 1)),
    queued: 30,
  });

  app.get(
    '/api/admin/check',
    { config: { access: 'public' }, schema: { response: { 200: sessionStateSchema } } },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      const a = request.admin;
      const setup = request.setupSession;
      if (setup) {
        return {
          isAuthenticated: false,
          account: { name: setup.name, role: setup.role },
          secondFactorSetup: true as const,
        };
      }
      // Signed out: the spec's answer, unchanged.
      return a
        ? { isAuthenticated: true, account: { name: a.name, role: a.role } }
        : { isAuthenticated: false };
    },
  );

  /** Counts one failed attempt under `key`; answers 429 once more than `limit` failed this window. */
  async function countAttempt(request: FastifyRequest, key: string, limit: number) {
    if (limit <= 0) return undefined;
    const hit = await repo.hitRateLimit(db, key, config.now(), WINDOW_MS);
    if (hit.count > limit) {
      const retryAfter = Math.max(
        1,
        Math.ceil((hit.resetAt.getTime() - config.now().getTime()) / 1000),
      );
      request.log.warn({ ip: request.ip }, 'login rate limit reached');
      throw new HttpError(
        429,
        'Too many login attempts. Please wait a minute and try again.',
        undefined,
        { 'Retry-After': String(retryAfter) },
      );
    }
    return key;
  }

  app.post(
    '/api/admin/login',
    {
      config: { access: 'public' },
      bodyLimit: 16 * 1024,
      schema: { body: loginSchema, response: { 200: loginResultSchema } },
    },
    async (request, reply) => {
      const limit = config.rateLimitLoginPerMinute;
      const key = `login:${clientKey(request.ip)}`;
      const email = request.body.email?.toLowerCase() || undefined;
      // Admitted synchronously, before any await, so parallel guesses cannot all pass the check.
      // With the limit off (benchmarks from one address) only the total is bounded.
      const attempt = gate.enter(key, limit > 0 ? undefined : 0);
      let account: { id: string; name: string; role: AdminRole };
      try {
        const { password } = request.body;
        // Counted before the check, in one atomic statement: parallel attempts each see their
        // own count, so at most `limit` of them reach scrypt in a window, across instances too.
        // Per address, and per account: guesses spread over many addresses meet the
        // account's limit, set higher so one address is stopped by its own limit first.
        const counted = [
          await countAttempt(request, key, limit),
          await countAttempt(
            request,
            `login-account:${email ?? OWNER_ACCOUNT_ID}`,
            limit * PER_ACCOUNT_FACTOR,
          ),
        ];
        const member = email ? await repo.findAccountByEmail(db, email) : undefined;
        // An unknown e-mail still costs one scrypt, so the answer's timing does not tell whether
        // the address has an account.
        const hash = email
          ? (member?.passwordHash ?? (await unknownAccountHash()))
          : ctx.passwordHash();
        const ok = await attempt.run(() => verifyPassword(password, hash));
        if (!ok || (email && (!member?.passwordHash || member.disabledAt))) {
          // Already counted above; only the audit entry is left to write.
          await writeAudit(db, request, {
            action: 'admin.login.failed',
            ...(member ? { targetType: 'admin_account', targetId: member.id } : {}),
            details: email ? { email } : { account: 'owner' },
          });
          request.log.warn({ ip: request.ip }, 'failed admin login');
          throw new HttpError(
            401,
            email ? ADMIN_MESSAGES.invalidMemberLogin : ADMIN_MESSAGES.invalidPassword,
          );
        }
        account = member
          ? { id: member.id, name: member.name, role: member.role as AdminRole }
          : await ownerIdentity();
        // Only failures count: a successful login gives its attempts back.
        for (const k of counted) if (k) await repo.undoRateLimitHit(db, k);
      } finally {
        attempt.leave();
      }
      // A session now (rotated: no fixation), or first a second factor (or its set-up).
      const next = await twoFactorLogin(ctx).afterPassword(request, reply, account);
      return reply
        .header('Cache-Control', 'no-store')
        .send(next ?? { ok: true as const, isAuthenticated: true as const });
    },
  );

  async function ownerIdentity() {
    const row = await repo.findAccount(db, OWNER_ACCOUNT_ID);
    return { id: OWNER_ACCOUNT_ID, name: row?.name ?? 'Owner', role: 'owner' as const };
  }

  app.post(
    '/api/admin/logout',
    { config: { access: 'public' }, schema: { response: { 200: logoutResultSchema } } },
    async (request, reply) => {
      // Logging out without a session (an expired one) changes nothing and is not recorded.
      if (request.sessionTokenHash) {
        const hash = request.sessionTokenHash;
        await db.transaction(async (tx) => {
          await repo.deleteSession(tx, hash);
          await writeAudit(tx, request, { action: 'admin.logout' });
        });
      }
      ctx.sessions.clearCookie(request, reply);
      return { ok: true as const, isAuthenticated: false as const };
    },
  );

  // "Sign out all sessions": every device signed in to the admin area, this one included.
  app.delete(
    '/api/admin/sessions',
    { config: { access: 'admin' }, schema: { response: { 200: logoutResultSchema } } },
    async (request, reply) => {
      await db.transaction(async (tx) => {
        await repo.deleteAllSessions(tx);
        await writeAudit(tx, request, { action: 'admin.sessions.revoke_all' });
      });
      request.log.info('admin signed out all sessions');
      ctx.sessions.clearCookie(request, reply);
      return { ok: true as const, isAuthenticated: false as const };
    },
  );
}
