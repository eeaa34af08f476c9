import { Suspense, useEffect } from 'react';
import { adminPageChunk } from './admin-chunks';
import { AppLayout } from './components/layout/app-layout';
import { usePathname } from './lib/navigation';
import { HomePage } from './routes/home';
import { NotFoundPage } from './routes/not-found';
import { PaymentInstructionsPage } from './routes/payment-instructions';
import { PledgeStatusPage } from './routes/pledge-status';

const AdminPage = adminPageChunk.Component;

const TITLES: Record<string, string> = {
  '/': 'Meals for Recovery Jamaica — Pledge meal containers',
  '/payment-instructions': 'Thank You for Your Pledge — Payment instructions',
  '/admin': 'Admin Dashboard',
};

/** SPEC 2 routes; any other path is the 404 page. */
export function AppRouter() {
  const pathname = usePathname();
  // The donor's status page, /pledge/{id}?t={token} (issue 12).
  const statusId = /^\/pledge\/([^/]+)$/.exec(pathname)?.[1];
  useEffect(() => {
    // The status page sets its own title (it may turn out to be the 404 page).
    if (!statusId) document.title = TITLES[pathname] ?? '404 Page Not Found';
  }, [pathname, statusId]);

  let page;
  if (pathname === '/') page = <HomePage />;
  else if (pathname === '/payment-instructions') page = <PaymentInstructionsPage />;
  else if (statusId) page = <PledgeStatusPage key={statusId} id={decodeURIComponent(statusId)} />;
  else if (pathname === '/admin')
    page = (
      <Suspense fallback={<p className="p-8 text-center text-ink-600">Loading…</p>}>
        <AdminPage />
      </Suspense>
    );
  else page = <NotFoundPage />;
  return <AppLayout>{page}</AppLayout>;
}
