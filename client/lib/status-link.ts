import { STATUS_PAGE_PREFIX } from '@shared/pages';
/**
 * The donor's status page link (docs/decisions/014-email-outbox.md), from the POST /api/pledges
 * answer to the thank-you page. Kept in sessionStorage so a reload of the thank-you page still
 * shows it; never in localStorage (a shared computer would keep it).
 */
const KEY = 'pledgeStatusUrl';

export function rememberStatusLink(body: unknown): void {
  const url = (body as { statusUrl?: unknown } | undefined)?.statusUrl;
  try {
    if (typeof url === 'string' && url.startsWith(STATUS_PAGE_PREFIX))
      sessionStorage.setItem(KEY, url);
    else sessionStorage.removeItem(KEY);
  } catch {
    /* storage disabled: the link is still in the e-mail */
  }
}

export function rememberedStatusLink(): string | undefined {
  try {
    return sessionStorage.getItem(KEY) ?? undefined;
  } catch {
    return undefined;
  }
}
