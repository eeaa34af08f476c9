import { ADMIN_JOIN_PATH, PAGE_PATHS, STATUS_PAGE_PREFIX } from '@shared/pages';
import { lazyPreloaded } from './lib/lazy-preloaded';

/**
 * The thank-you and donor status pages load on demand: a visitor landing on the home does not
 * download them with the first load (docs/decisions/017-server-rendering.md). The thank-you
 * page's files are prefetched when the browser is idle (lib/prefetch.ts), before a pledge can
 * lead there.
 */
export const paymentPageChunk = lazyPreloaded(() =>
  import('./routes/payment-instructions').then((m) => ({ default: m.PaymentInstructionsPage })),
);

/** A team member's set-password page: only people holding a link ever load it. */
export const joinPageChunk = lazyPreloaded(() =>
  import('./routes/admin-join').then((m) => ({ default: m.AdminJoinPage })),
);

export const statusPageChunk = lazyPreloaded(() =>
  import('./routes/pledge-status').then((m) => ({ default: m.PledgeStatusPage })),
);

/**
 * A page opened directly is loaded before the first render, so the server's HTML for it is
 * hydrated at once (a lazy component that suspends would not match the HTML).
 */
export function preloadPageChunk(pathname: string): Promise<unknown> {
  const load =
    pathname === PAGE_PATHS.paymentInstructions
      ? paymentPageChunk.preload()
      : pathname.startsWith(STATUS_PAGE_PREFIX)
        ? statusPageChunk.preload()
        : pathname === ADMIN_JOIN_PATH
          ? joinPageChunk.preload()
          : undefined;
  // A failed preload is not fatal: the lazy component retries and shows its fallback.
  return load?.catch(() => undefined) ?? Promise.resolve();
}
