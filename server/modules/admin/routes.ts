import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { ADMIN_MESSAGES, loginSchema } from '@shared/schemas/admin';
import type { AppContext } from '../../context';
import { HttpError } from '../../lib/http-error';
import { clientKey } from '../../lib/client-key';
import { verifyPassword } from './password';
import { PasswordCheckGate } from './password-check-gate';
import { writeAudit } from '../audit/repo';
import * as repo from './repo';

const WINDOW_MS = 60_000;

const sessionStateSchema = z.object({ isAuthenticated: z.boolean() });
const loginResultSchema = z.object({ ok: z.literal(true), isAuthenticated: z.literal(true) });
const logoutResultSchema = z.object({ ok: z.literal(true), isAuthenticated: z.literal(false) });

export async function adminRoutes(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, sessions, config } = ctx;
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
      return { isAuthenticated: request.isAdmin };
    },
  );

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
      // Admitted synchronously, before any await, so parallel guesses cannot all pass the check.
      // With the limit off (benchmarks from one address) only the total is bounded.
      const attempt = gate.enter(key, limit > 0 ? undefined : 0);
      try {
        const { password } = request.body;
        // Counted before the check, in one atomic statement: parallel attempts each see their
        // own count, so at most `limit` of them reach scrypt in a window, across instances too.
        const hit =
          limit > 0 ? await repo.hitRateLimit(db, key, config.now(), WINDOW_MS) : undefined;
        if (hit && hit.count > limit) {
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
        const ok = await attempt.run(() => verifyPassword(password, ctx.passwordHash()));
        if (!ok) {
          // Already counted above; only the audit entry is left to write.
          await writeAudit(db, request, { action: 'admin.login.failed' });
          request.log.warn({ ip: request.ip }, 'failed admin login');
          throw new HttpError(401, ADMIN_MESSAGES.invalidPassword);
        }
        // Only failures count: a successful login gives its attempt back.
        if (hit) await repo.undoRateLimitHit(db, key);
      } finally {
        attempt.leave();
      }
      // Rotate: whatever session the browser had before is revoked (no fixation).
      if (request.sessionTokenHash) await sessions.revoke(request.sessionTokenHash);
      const { token } = await db.transaction(async (tx) => {
        const created = await sessions.create(tx);
        await writeAudit(tx, request, { action: 'admin.login' });
        return created;
      });
      ctx.sessions.setCookie(request, reply, token);
      request.log.info('admin logged in');
      return reply
        .header('Cache-Control', 'no-store')
        .send({ ok: true as const, isAuthenticated: true as const });
    },
  );

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
