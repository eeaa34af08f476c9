import type { ReactNode } from 'react';
import { useCampaign } from '../features/campaign';
import { PledgeDialogProvider } from '../features/pledges';
import { Footer } from './footer';
import { Header } from './header';

/** Header (Pledge Now, admin icons), the page, and the disclaimer footer on every route. */
export function AppLayout({ children }: { children: ReactNode }) {
  const campaign = useCampaign();
  return (
    <PledgeDialogProvider>
      <div className="flex min-h-dvh flex-col">
        <a
          href="#main"
          className="sr-only z-50 rounded-lg bg-white px-4 py-2 font-semibold text-brand-800 shadow focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:ring-3 focus:ring-sun-400 focus:outline-none"
        >
          Skip to main content
        </a>
        <Header campaignName={campaign?.name ?? ''} />
        <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
          {children}
        </main>
        <Footer campaign={campaign} />
      </div>
    </PledgeDialogProvider>
  );
}
