import { Suspense, useEffect } from 'react';
import { ADMIN_JOIN_PATH, PAGE_PATHS, routeTitle, STATUS_PATH } from '@shared/pages';
import { adminPageChunk } from './admin-chunks';
import { AppLayout } from './layout/app-layout';
import { Skeleton } from './components/ui/skeleton';
import { usePathname } from './lib/navigation';
import { useCampaign } from './features/campaign/use-campaign';
import { joinPageChunk, paymentPageChunk, statusPageChunk } from './page-chunks';
import { HomePage } from './routes/home';
import { NotFoundPage } from './routes/not-found';

const AdminPage = adminPageChunk.Component;
const PaymentInstructionsPage = paymentPageChunk.Component;
const PledgeStatusPage = statusPageChunk.Component;
const AdminJoinPage = joinPageChunk.Component;

const pageFallback = (
  <div className="mx-auto max-w-3xl px-4 py-14" aria-busy="true">
    <Skeleton className="mx-auto h-10 w-80" />
    <Skeleton className="mt-8 h-64 w-full" />
  </div>
);

function statusPledgeId(pathname: string): string | undefined {
  const raw = STATUS_PATH.exec(pathname)?.[1];
  if (raw === undefined) return undefined;
  try {
    return decodeURIComponent(raw).toLowerCase();
  } catch {
    return undefined; // a malformed escape: no such pledge
  }
}

/**
 * The product's routes (docs/decisions/010-product-rules.md); any other path is the 404 page.
 * `notFoundPath` is an address the server already answered with 404 (e.g. a status link with a
 * wrong token): the 404 page is shown for it.
 */
export function AppRouter({ notFoundPath }: { notFoundPath?: string }) {
  const pathname = usePathname();
  const campaign = useCampaign();
  const forcedNotFound = pathname === notFoundPath;
  const statusId = forcedNotFound ? undefined : statusPledgeId(pathname);
  useEffect(() => {
    // The status page sets its own title (it may turn out to be the 404 page).
    if (!statusId && campaign) document.title = routeTitle(pathname, campaign, forcedNotFound);
  }, [pathname, statusId, forcedNotFound, campaign]);

  let page;
  if (forcedNotFound) page = <NotFoundPage />;
  else if (pathname === PAGE_PATHS.home) page = <HomePage />;
  else if (pathname === PAGE_PATHS.paymentInstructions)
    page = (
      <Suspense fallback={pageFallback}>
        <PaymentInstructionsPage />
      </Suspense>
    );
  else if (statusId)
    page = (
      <Suspense fallback={pageFallback}>
        <PledgeStatusPage key={statusId} id={statusId} />
      </Suspense>
    );
  else if (pathname === ADMIN_JOIN_PATH && !forcedNotFound)
    page = (
      <Suspense fallback={pageFallback}>
        <AdminJoinPage />
      </Suspense>
    );
  else if (pathname === PAGE_PATHS.admin)
    page = (
      <Suspense fallback={<p className="p-8 text-center text-ink-600">Loading…</p>}>
        <AdminPage />
      </Suspense>
    );
  else page = <NotFoundPage />;
  return <AppLayout>{page}</AppLayout>;
}
