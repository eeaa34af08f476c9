import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isPageAddress } from '../lib/page-address';

/** In words a person understands; the status is Fastify's (400, or 414 for an over-long part). */
const MESSAGES: Record<string, string> = {
  FST_ERR_BAD_URL:
    'This address is not valid: a "%" in it must be followed by two hexadecimal digits.',
  FST_ERR_MAX_PARAM_LENGTH: 'This address is too long.',
};

/**
 * Fastify's `frameworkErrors`: an address the router refuses before routing (`/%zz`, a broken
 * percent-escape in a shared link, or a part over 200 characters). No hook has run for it, so
 * Fastify's default answered with its own JSON and none of our headers (no CSP, no nosniff, no
 * X-Request-Id). A page address gets the site's 404 page, as any address that leads nowhere; an
 * API address or another method gets our JSON error.
 */
export function answerBadAddress(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): unknown {
  const server = request.server;
  reply.headers(server.securityHeaders ?? {}).header('X-Request-Id', request.id);
  if (server.notFoundPage && isPageAddress(request.method, request.raw.url ?? ''))
    return server.notFoundPage(request, reply);
  const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 400;
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send(JSON.stringify({ message: MESSAGES[error.code] ?? 'This address is not valid.' }));
}
