import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../lib/http-error';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Origins this site answers as: the configured PUBLIC_URL and the address the request came to. */
export function siteOrigins(request: FastifyRequest, publicUrl?: string): string[] {
  const origins = [`${request.protocol}://${request.host}`];
  if (publicUrl) origins.push(new URL(publicUrl).origin);
  return origins;
}

export async function registerSecurity(app: FastifyInstance, opts: { publicUrl?: string }) {
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Radix and Uppy set inline style attributes (positioning); no inline <style> or script.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'"],
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
    // HSTS only makes sense over HTTPS; a proxy in front adds it.
    strictTransportSecurity: false,
  });

  /**
   * CSRF: a state-changing API call must come from our own pages. Browsers send Origin on
   * cross-origin POST/PUT/PATCH/DELETE and Sec-Fetch-Site on every request.
   */
  app.addHook('onRequest', async (request) => {
    if (!MUTATING.has(request.method) || !request.url.startsWith('/api/')) return;
    const fetchSite = request.headers['sec-fetch-site'];
    if (fetchSite && fetchSite !== 'same-origin' && fetchSite !== 'none') {
      throw new HttpError(403, 'Cross-site requests are not allowed.');
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !siteOrigins(request, opts.publicUrl).includes(origin)) {
      throw new HttpError(403, 'Cross-site requests are not allowed.');
    }
  });

  // Method override headers are never honoured; TRACE is not routed (404/405 by Fastify).
  app.addHook('onRequest', async (request) => {
    if (request.headers['x-http-method-override'] || request.headers['x-method-override']) {
      throw new HttpError(400, 'Method override is not supported.');
    }
  });
}
