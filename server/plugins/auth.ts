import cookie from '@fastify/cookie';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ADMIN_MESSAGES } from '@shared/schemas/admin';
import type { AppConfig } from '../config';
import type { Db, DbOrTx } from '../db/client';
import { HttpError } from '../lib/http-error';
import { isPageAddress } from '../lib/page-address';
import * as repo from '../modules/admin/repo';
import { sha256 } from '../modules/admin/password';

const SESSION_COOKIE = 'sid';
/**
 * The cookie's name on a site whose PUBLIC_URL is https (second review 2.8): a browser accepts a
 * `__Host-` cookie only with Secure, Path=/ and no Domain, set over https, so a network attacker
 * or a sibling sub-domain cannot plant or overwrite it. The plain `sid` is not read there: an
 * admin signed in before the upgrade signs in once more.
 */
const SECURE_SESSION_COOKIE = '__Host-sid';
/** lastSeenAt is written at most this often, so admin reads do not each cost a write. */
const TOUCH_EVERY_MS = 60_000;
/** How far ahead of this server's clock another instance's may be when it touched a session. */
const CLOCK_SKEW_MS = 60_000;

export type RouteAccess = 'public' | 'admin' | 'signed';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call this route. Every /api route must say so (checked at start-up). */
    access?: RouteAccess;
  }
  interface FastifyRequest {
    isAdmin: boolean;
    sessionTokenHash: string | null;
  }
}

export function createSessions(
  db: Db,
  config: Pick<AppConfig, 'sessionTtlMs' | 'sessionIdleMs' | 'now' | 'publicUrl'>,
) {
  // Secure whenever the site's address is https, whatever the proxy says (TRUST_PROXY or not).
  const httpsSite = config.publicUrl?.startsWith('https:') ?? false;
  const cookieName = httpsSite ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
  const cookieOptions = (request: FastifyRequest) => ({
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: httpsSite || request.protocol === 'https',
  });
  return {
    cookieName,
    setCookie(request: FastifyRequest, reply: FastifyReply, token: string) {
      reply.setCookie(cookieName, token, {
        ...cookieOptions(request),
        maxAge: Math.floor(config.sessionTtlMs / 1000),
      });
    },
    clearCookie(request: FastifyRequest, reply: FastifyReply) {
      reply.clearCookie(cookieName, cookieOptions(request));
    },
    /** @param tx a transaction to write in (login writes its audit entry with it). */
    async create(tx: DbOrTx = db): Promise<{ token: string; expiresAt: Date }> {
      const token = randomBytes(32).toString('base64url');
      const now = config.now();
      const expiresAt = new Date(now.getTime() + config.sessionTtlMs);
      await repo.insertSession(tx, sha256(token), now, expiresAt);
      return { token, expiresAt };
    },
    /** The token's hash when the session is valid (not expired, not idle too long), else null. */
    async validate(token: string): Promise<string | null> {
      if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
      const hash = sha256(token);
      const row = await repo.findSession(db, hash);
      if (!row) return null;
      const now = config.now();
      const idleFor = now.getTime() - row.lastSeenAt.getTime();
      // Only what this server could have written is a session (second review 2.3): not one used
      // or made in the future (a planted row; CLOCK_SKEW_MS allows for instances' clocks), and
      // none older than the lifetime, whatever its expires_at says.
      const age = now.getTime() - row.createdAt.getTime();
      if (
        row.expiresAt <= now ||
        idleFor > config.sessionIdleMs ||
        idleFor < -CLOCK_SKEW_MS ||
        age < -CLOCK_SKEW_MS ||
        age > config.sessionTtlMs
      ) {
        await repo.deleteSession(db, hash);
        return null;
      }
      if (idleFor > TOUCH_EVERY_MS) await repo.touchSession(db, hash, now);
      return hash;
    },
    revoke: (hash: string) => repo.deleteSession(db, hash),
  };
}
export type Sessions = ReturnType<typeof createSessions>;

/**
 * Admin protection in one place: every /api route declares `config.access`, and a route marked
 * 'admin' answers 401 without a valid session before its body is even read.
 */
export async function registerAuth(app: FastifyInstance, sessions: Sessions) {
  await app.register(cookie);
  app.decorateRequest('isAdmin', false);
  app.decorateRequest('sessionTokenHash', null);

  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api/') && !route.config?.access) {
      throw new Error(`Route ${route.method} ${route.url} must declare config.access`);
    }
  });

  const refuse = (request: FastifyRequest) => {
    request.log.warn(
      { url: request.url.split('?')[0], method: request.method },
      'admin call without a valid session',
    );
    return new HttpError(401, ADMIN_MESSAGES.unauthorized);
  };

  // Callback style, so a request without a session cookie (every public read) costs no promise.
  app.addHook('onRequest', (request, _reply, done) => {
    const access = request.routeOptions.config?.access ?? notFoundPageAccess(request);
    if (!access) return done();
    const token = request.cookies[sessions.cookieName];
    if (!token) return done(access === 'admin' ? refuse(request) : undefined);
    sessions.validate(token).then((hash) => {
      request.sessionTokenHash = hash;
      request.isAdmin = hash !== null;
      done(access === 'admin' && !request.isAdmin ? refuse(request) : undefined);
    }, done);
  });
}

/**
 * An address that leads nowhere gets the site's 404 page, with the header of whoever asks: for the
 * admin (a session cookie), its admin tools, and the app then starts as the admin, not logged out.
 * API addresses and other methods stay plain 404s, with no session lookup.
 */
function notFoundPageAccess(request: FastifyRequest): RouteAccess | undefined {
  return request.is404 && isPageAddress(request.method, request.url) ? 'public' : undefined;
}
