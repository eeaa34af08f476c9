import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ADMIN_MESSAGES } from '@shared/schemas/admin';
import { HttpError } from '../lib/http-error';
import { isPageAddress } from '../lib/page-address';
import type { RouteAccess } from '../lib/route-access';

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

/**
 * What the auth hook needs of the sessions: the cookie's name and a check of its token. The admin
 * module's session store (modules/admin/sessions.ts) is passed in at start, so this plugin does not
 * import a module.
 */
export interface SessionResolver {
  cookieName: string;
  /** The token's hash when the session is valid, else null. */
  validate(token: string): Promise<string | null>;
}

/**
 * Admin protection in one place: every /api route declares `config.access`, and a route marked
 * 'admin' answers 401 without a valid session before its body is even read.
 */
export async function registerAuth(app: FastifyInstance, sessions: SessionResolver) {
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
