import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../config';

const SESSION_COOKIE = 'sid';
/**
 * The cookie's name on a site whose PUBLIC_URL is https: a browser accepts a
 * `__Host-` cookie only with Secure, Path=/ and no Domain, set over https, so a network attacker
 * or a sibling sub-domain cannot plant or overwrite it. The plain `sid` is not read there: an
 * admin signed in before the upgrade signs in once more.
 */
const SECURE_SESSION_COOKIE = '__Host-sid';
/**
 * The admin session cookie of this site: its name, and how it is set and cleared (HttpOnly,
 * SameSite=Lax, Secure whenever the site's address is https, whatever the proxy says).
 */
export function sessionCookie(config: Pick<AppConfig, 'sessionTtlMs' | 'publicUrl'>) {
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
  };
}
