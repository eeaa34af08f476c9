import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ADMIN_ROUTE_ROLES, forbiddenMessage, roleMay, routeKey } from '@shared/admin-roles';
import { ADMIN_MESSAGES } from '@shared/schemas/admin';
import { TWO_FACTOR_MESSAGES } from '@shared/schemas/two-factor';
import { HttpError } from '../lib/http-error';
import { isPageAddress } from '../lib/page-address';
import type { AdminIdentity, RouteAccess } from '../lib/route-access';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call this route. Every /api route must say so (checked at start-up). */
    access?: RouteAccess;
    /** An admin route a set-up-only session may call (setting up a second factor). */
    secondFactorSetup?: boolean;
  }
  interface FastifyRequest {
    isAdmin: boolean;
    sessionTokenHash: string | null;
    /** The signed-in account (any role), or null. */
    admin: AdminIdentity | null;
    /**
     * A session limited to setting up a second factor, on a route that is not for that: it is not
     * `admin` there (no admin data, no admin action), only known, so /api/admin/check can say so.
     */
    setupSession: AdminIdentity | null;
  }
}

/**
 * What the auth hook needs of the sessions: the cookie's name and a check of its token. The admin
 * module's session store (modules/admin/sessions.ts) is passed in at start, so this plugin does not
 * import a module.
 */
export interface SessionResolver {
  cookieName: string;
  /** The session's account when the session is valid, else null. */
  validate(token: string): Promise<AdminIdentity | null>;
}

/**
 * Admin protection in one place: every /api route declares `config.access`, and a route marked
 * 'admin' answers 401 without a valid session and 403 to a role the table
 * (shared/admin-roles.ts) does not name, before its body is even read.
 */
export async function registerAuth(app: FastifyInstance, sessions: SessionResolver) {
  await app.register(cookie);
  app.decorateRequest('isAdmin', false);
  app.decorateRequest('sessionTokenHash', null);
  app.decorateRequest('admin', null);
  app.decorateRequest('setupSession', null);

  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api/') && !route.config?.access) {
      throw new Error(`Route ${route.method} ${route.url} must declare config.access`);
    }
    // Deny by default: an admin route nobody may call is a mistake to see at start, not a 403.
    if (route.config?.access === 'admin') {
      for (const method of [route.method].flat()) {
        if (!ADMIN_ROUTE_ROLES[routeKey(method, route.url)]) {
          throw new Error(
            `Route ${method} ${route.url} is an admin route missing from shared/admin-roles.ts`,
          );
        }
      }
    }
  });

  const forbid = (request: FastifyRequest, admin: AdminIdentity) => {
    request.log.warn(
      { url: request.url.split('?')[0], method: request.method, role: admin.role },
      'admin call refused to this role',
    );
    return new HttpError(403, forbiddenMessage(admin.role));
  };

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
    sessions.validate(token).then((session) => {
      request.sessionTokenHash = session?.sessionTokenHash ?? null;
      // A set-up-only session is an admin on the set-up's own routes and nowhere else.
      const limited =
        session?.setupOnly === true && request.routeOptions.config?.secondFactorSetup !== true;
      const admin = limited ? null : session;
      request.setupSession = limited ? session : null;
      request.admin = admin;
      request.isAdmin = admin !== null;
      if (access !== 'admin') return done();
      if (limited) return done(new HttpError(403, TWO_FACTOR_MESSAGES.setupOnly));
      if (!admin) return done(refuse(request));
      const url = request.routeOptions.url ?? '';
      done(roleMay(admin.role, request.method, url) ? undefined : forbid(request, admin));
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
