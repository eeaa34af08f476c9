import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ADMIN_MESSAGES, loginSchema } from '../../../shared/schemas/admin';
import type { AppContext } from '../../context';
import { HttpError } from '../../lib/http-error';
import { clearSessionCookie, setSessionCookie } from '../../plugins/auth';
import { verifyPassword } from './password';
import * as repo from './repo';

const WINDOW_MS = 60_000;

const sessionStateSchema = z.object({ isAuthenticated: z.boolean() });
const loginResultSchema = z.object({ ok: z.literal(true), isAuthenticated: z.literal(true) });
const logoutResultSchema = z.object({ ok: z.literal(true), isAuthenticated: z.literal(false) });

export async function adminRoutes(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, sessions, config } = ctx;
  const limit = config.rateLimitLoginPerMinute;
  const loginKey = (request: FastifyRequest) => `login:${request.ip}`;

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
      // Before the body is validated: a client over the limit gets 429 whatever it sends.
      preValidation: async (request) => {
        if (limit <= 0) return;
        const state = await repo.peekRateLimit(db, loginKey(request), config.now(), WINDOW_MS);
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
      },
    },
    async (request, reply) => {
      const ok = await verifyPassword(request.body.password, ctx.passwordHash());
      if (!ok) {
        if (limit > 0) await repo.hitRateLimit(db, loginKey(request), config.now(), WINDOW_MS);
        request.log.warn({ ip: request.ip }, 'failed admin login');
        throw new HttpError(401, ADMIN_MESSAGES.invalidPassword);
      }
      // Rotate: whatever session the browser had before is revoked (no fixation).
      if (request.sessionTokenHash) await sessions.revoke(request.sessionTokenHash);
      const { token } = await sessions.create();
      setSessionCookie(request, reply, token, config.sessionTtlMs);
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
      if (request.sessionTokenHash) await sessions.revoke(request.sessionTokenHash);
      clearSessionCookie(request, reply);
      return { ok: true as const, isAuthenticated: false as const };
    },
  );
}
