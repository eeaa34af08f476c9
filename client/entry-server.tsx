// The server-side renderer: built by `vite build --ssr` into dist/ssr/entry-server.js, which
// server/plugins/spa.ts imports at start (docs/decisions/017-server-rendering.md). No styles and no
// zod-csp here: the page's stylesheet is linked by index.html, and zod's browser setting must not
// change the server's zod.
import { renderToString } from 'react-dom/server';
import type { ServerRenderer, ServerRenderInput } from '@shared/api-types';
import { headerControlsChunk } from './admin-chunks';
import { App } from './app';
import { seedQueryCache } from './lib/initial-data';
import { createQueryClient } from './lib/query-client';
import { paymentPageChunk, statusPageChunk } from './page-chunks';
import { routeTitle } from '@shared/pages';

/**
 * Loads every lazy part a server-rendered page may show (the browser preloads the same before it
 * hydrates), so rendering never meets a component that suspends.
 */
async function prepare(): Promise<void> {
  await Promise.all([
    headerControlsChunk.preload(),
    paymentPageChunk.preload(),
    statusPageChunk.preload(),
  ]);
}

function render({ pathname, search, data }: ServerRenderInput) {
  // One cache per render: nothing of one page (a donor's status) can leak into another.
  const queryClient = createQueryClient();
  seedQueryCache(queryClient, data);
  try {
    const html = renderToString(
      <App
        queryClient={queryClient}
        initial={data}
        initialPathname={pathname}
        serverLocation={{ pathname, search }}
      />,
    );
    return { html, title: routeTitle(pathname, data.campaign, data.notFound) };
  } finally {
    queryClient.clear();
  }
}

export const renderer: ServerRenderer = { prepare, render };
