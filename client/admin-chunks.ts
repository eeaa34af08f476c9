import { PAGE_PATHS } from '@shared/pages';
import { lazyPreloaded } from './lib/lazy-preloaded';

/** The admin page (and everything only it uses, e.g. Uppy) loads on demand. */
export const adminPageChunk = lazyPreloaded(() =>
  import('./routes/admin').then((m) => ({ default: m.AdminPage })),
);

/** Admin code stays out of the public bundle: the header loads it only for an authenticated admin. */
export const headerControlsChunk = lazyPreloaded(
  () => import('./features/admin/components/header-controls'),
);

/** The dashboard's Reports tab and its chart code, loaded when the tab opens. */
export const reportsTabChunk = lazyPreloaded(
  () => import('./features/admin/components/reports-tab'),
);

/** The "Admin Access" dialog, opened in place by the header's admin login icon. */
export const loginDialogChunk = lazyPreloaded(() =>
  import('./features/admin/components/login-dialog').then((m) => ({ default: m.LoginDialog })),
);

/**
 * For an admin only, the admin code is loaded before the first render, so it renders at once. Left
 * to Suspense, each lazy boundary commits a fallback and React then holds back the reveal by up to
 * 300 ms: measured, /admin showed its table at ~700 ms instead of ~300 ms
 * (docs/decisions/006-admin-table-paging.md). Visitors wait for nothing.
 */
export function preloadAdminChunks(pathname: string, isAuthenticated: boolean): Promise<unknown> {
  const loads: Promise<unknown>[] = [];
  if (pathname === PAGE_PATHS.admin) loads.push(adminPageChunk.preload());
  if (isAuthenticated) loads.push(headerControlsChunk.preload());
  // A failed preload is not fatal: the lazy component retries and shows its fallback.
  return Promise.all(loads).catch(() => undefined);
}
