import './lib/zod-csp';
import { preloadAdminChunks } from './admin-chunks';
import { App } from './app';
import { readInitialData, seedQueryCache } from './lib/initial-data';
import { createQueryClient } from './lib/query-client';
import { preloadPageChunk } from './page-chunks';
import { reactDom } from './react-init';
import './styles.css';

/**
 * Not a top-level await: this module shares its chunk with everything the first load needs
 * (vite.config.ts), and the lazy chunks preloaded here import from that chunk, which must have
 * finished evaluating first (with a top-level await the two would wait on each other for ever).
 */
async function start() {
  const initial = readInitialData();
  const queryClient = createQueryClient();
  seedQueryCache(queryClient, initial);
  const { pathname } = window.location;
  await Promise.all([
    preloadAdminChunks(pathname, initial?.isAuthenticated ?? false),
    preloadPageChunk(pathname),
  ]);

  const container = document.getElementById('root')!;
  const app = <App queryClient={queryClient} initial={initial} initialPathname={pathname} />;
  if (container.firstElementChild) {
    // The server rendered this page (docs/decisions/017-server-rendering.md): adopt its markup.
    // As a transition, hydration yields to the browser every few milliseconds instead of holding
    // the main thread for the whole tree (a default-priority render is not time-sliced); a tap
    // meanwhile still works, React hydrates that part first. A mismatch is a bug; it is logged
    // with a fixed prefix that the end-to-end tests look for.
    reactDom.startTransition(() => {
      reactDom.hydrateRoot(container, app, {
        onRecoverableError(error, info) {
          console.error('Hydration error:', error, info.componentStack ?? '');
        },
      });
    });
  } else {
    // No server rendering (the admin page, the dev server): render from scratch.
    reactDom.createRoot(container).render(app);
  }
}

void start();
