/**
 * Whether a request asks for a page of the site (the app's HTML, or its 404 page) rather than the
 * API: a GET or HEAD outside /api. One rule for the not-found handler (plugins/spa.ts), the
 * session lookup of unknown pages (plugins/auth.ts) and addresses the router cannot decode
 * (plugins/bad-address.ts), so the three agree on which answer a request gets.
 */
export function isPageAddress(method: string, url: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  const path = url.split('?')[0]!;
  return !(path.startsWith('/api/') || path === '/api');
}
