import type { FastifyInstance, FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from '../lib/http-error';
import { siteOrigins } from '../lib/site-url';

declare module 'fastify' {
  interface FastifyInstance {
    /** The headers every answer carries; also for the answers no hook sees (plugins/bad-address.ts). */
    securityHeaders?: Record<string, string>;
  }
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Helmet's headers, computed once. @fastify/helmet builds a new helmet middleware (and parses the
 * CSP again) on every request: that was about a tenth of the cost of a public read. Our policy
 * has no per-request parts (no nonces), so one fixed set of headers is exactly equivalent.
 */
function securityHeaders(options: Readonly<HelmetOptions>): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err) => {
    if (err) throw err;
  });
  return headers;
}

export async function registerSecurity(
  app: FastifyInstance,
  opts: { publicUrl?: string; hstsMaxAge?: number; uploadOrigins?: string[] },
) {
  const headers = securityHeaders({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Radix and Uppy set inline style attributes (positioning); no inline <style> or script.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'", ...(opts.uploadOrigins ?? [])],
        fontSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Only when the site's address is https. Not includeSubDomains: other hosts of
    // the organisation's domain may still be plain http.
    strictTransportSecurity: opts.hstsMaxAge
      ? { maxAge: opts.hstsMaxAge, includeSubDomains: false }
      : false,
  });
  app.decorate('securityHeaders', headers);
  // One synchronous hook for every request: hooks are on the hot path of every public read.
  app.addHook('onRequest', (request, reply, done) => {
    // On every response, errors and 404s included.
    reply.headers(headers);
    done(rejection(request, opts.publicUrl));
  });
}

/** Why a request is refused before routing, or undefined when it may go on. */
function rejection(request: FastifyRequest, publicUrl: string | undefined): HttpError | undefined {
  /**
   * CSRF: a state-changing call must come from our own pages. Browsers send Origin on cross-origin
   * POST/PUT/PATCH/DELETE and Sec-Fetch-Site on every request. Checked on every unsafe method
   * whatever the path: the router decodes the path, so a test of the raw URL (`/%61pi/...` is
   * `/api/...`) let encoded spellings through (docs/decisions/008-security-review-fixes.md).
   */
  if (MUTATING.has(request.method)) {
    const fetchSite = request.headers['sec-fetch-site'];
    if (fetchSite && fetchSite !== 'same-origin' && fetchSite !== 'none') {
      return new HttpError(403, 'Cross-site requests are not allowed.');
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !siteOrigins(request, publicUrl).includes(origin)) {
      return new HttpError(403, 'Cross-site requests are not allowed.');
    }
  }
  // Method override headers are never honoured (405: the method is not allowed as overridden);
  // TRACE is not routed (404 by Fastify).
  const h = request.headers;
  if (h['x-http-method-override'] || h['x-method-override'] || h['x-http-method']) {
    return new HttpError(405, 'Method override is not supported.');
  }
  return undefined;
}
