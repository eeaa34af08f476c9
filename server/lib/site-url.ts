import type { FastifyRequest } from 'fastify';
import type { AppConfig } from '../config';

/**
 * The site's public address, for links that leave the site (e-mails, share previews): PUBLIC_URL,
 * or this machine for a local install. Never the request's Host header: those links end up in
 * cached pages and sent e-mails, where a forged Host must not reach.
 */
export function siteBaseUrl(config: AppConfig): string {
  return config.publicUrl ?? `http://localhost:${config.port}`;
}

/** Origins this site answers as: the configured PUBLIC_URL and the address the request came to. */
export function siteOrigins(request: FastifyRequest, publicUrl?: string): string[] {
  const origins = [`${request.protocol}://${request.host}`];
  if (publicUrl) origins.push(new URL(publicUrl).origin);
  return origins;
}
