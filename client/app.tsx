import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { StrictMode, useEffect } from 'react';
import type { InitialData } from '@shared/api-types';
import { LazyToaster } from './components/ui/lazy-toaster';
import { TooltipProvider } from './components/ui/tooltip';
import { AdminAuthProvider } from './features/admin-auth/context';
import { ServerLocationProvider, type ServerLocation } from './lib/navigation';
import { RenderTimeContext } from './lib/render-time';
import { AppRouter } from './router';

declare global {
  interface Window {
    /** Set by client/public/boot.js on a server-rendered page until the app is interactive. */
    replayHeldClicks?: () => void;
  }
}

/** Set when the app has hydrated (or rendered) and its handlers are attached: see onInteractive. */
const INTERACTIVE_MARK = 'app-interactive';

function InteractiveMark() {
  useEffect(() => {
    // The bench and the budget test count the scripts loaded before this moment
    // (docs/decisions/017-server-rendering.md).
    performance.mark(INTERACTIVE_MARK);
    document.documentElement.dataset.interactive = 'true';
    // A tap on a button before the handlers were attached (client/public/boot.js).
    window.replayHeldClicks?.();
  }, []);
  return null;
}

/**
 * The whole app, the same tree on the server (client/entry-server.tsx) and in the browser
 * (client/main.tsx): hydration needs both to render the same elements from the same data.
 */
export function App({
  queryClient,
  initial,
  initialPathname,
  serverLocation,
}: {
  queryClient: QueryClient;
  initial: InitialData | undefined;
  /** The address the page was loaded at (the server's 404 decision applies to it only). */
  initialPathname: string;
  /** On the server only: the address being rendered. */
  serverLocation?: ServerLocation;
}) {
  return (
    <StrictMode>
      <ServerLocationProvider value={serverLocation ?? null}>
        <RenderTimeContext value={initial?.renderedAt}>
          <QueryClientProvider client={queryClient}>
            <AdminAuthProvider initialAuthenticated={initial?.isAuthenticated}>
              <TooltipProvider>
                <AppRouter notFoundPath={initial?.notFound ? initialPathname : undefined} />
                <LazyToaster />
              </TooltipProvider>
            </AdminAuthProvider>
          </QueryClientProvider>
        </RenderTimeContext>
      </ServerLocationProvider>
      <InteractiveMark />
    </StrictMode>
  );
}
