import type { FastifyInstance } from 'fastify';
import { ADMIN_MESSAGES, loginSchema } from '../../../shared/schemas/admin';
import type { AppContext } from '../../context';
import { HttpError, parseWith } from '../../lib/http-error';
import { clearSessionCookie, setSessionCookie } from '../../plugins/auth';
import { verifyPassword } from './password';
import * as repo from './repo';

const WINDOW_MS = 60_000;

export async function adminRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db, sessions, config } = ctx;

  app.get('/api/admin/check', { config: { access: 'public' } }, async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    return { isAuthenticated: request.isAdmin };
  });

  app.post(
    '/api/admin/login',
    { config: { access: 'public' }, bodyLimit: 16 * 1024 },
    async (request, reply) => {
      const limit = config.rateLimitLoginPerMinute;
      const key = `login:${request.ip}`;
      if (limit > 0) {
        const state = await repo.peekRateLimit(db, key, config.now(), WINDOW_MS);
        if (state && state.count >= limit) {
          const retryAfter = Math.max(
            1,
            Math.ceil((state.resetAt.getTime() - config.now().getTime()) / 1000),
          );
          request.log.warn({ ip: request.ip }, 'login rate limit reached');
          throw new HttpError(
            429,
            'Too many login attempts. Please wait a minute and try again.',
            undefined,
            { 'Retry-After': String(retryAfter) },
          );
        }
      }
      const { password } = parseWith(loginSchema, request.body);
      const ok = await verifyPassword(password, ctx.passwordHash());
      if (!ok) {
        if (limit > 0) await repo.hitRateLimit(db, key, config.now(), WINDOW_MS);
        request.log.warn({ ip: request.ip }, 'failed admin login');
        throw new HttpError(401, ADMIN_MESSAGES.invalidPassword);
      }
      // Rotate: whatever session the browser had before is revoked (no fixation).
      if (request.sessionTokenHash) await sessions.revoke(request.sessionTokenHash);
      const { token } = await sessions.create();
      setSessionCookie(request, reply, token, config.sessionTtlMs);
      request.log.info('admin logged in');
      return reply.header('Cache-Control', 'no-store').send({ ok: true, isAuthenticated: true });
    },
  );

  app.post('/api/admin/logout', { config: { access: 'public' } }, async (request, reply) => {
    if (request.sessionTokenHash) await sessions.revoke(request.sessionTokenHash);
    clearSessionCookie(request, reply);
    return { ok: true, isAuthenticated: false };
  });
}
