let started = false;

/**
 * Asks the browser to download, without running, the code a visitor is likely to need next (the
 * pledge form, the thank-you page): the list is written into index.html at build time
 * (vite.config.ts). Called when the browser is idle after the first render; opening the form then
 * only runs code already in the cache, instead of every visitor paying to run it up front
 * (docs/decisions/017-server-rendering.md).
 */
export function prefetchLaterChunks(): void {
  if (started) return;
  started = true;
  const list = document.getElementById('prefetch-chunks')?.textContent;
  if (!list) return; // the dev server: modules load on demand
  for (const href of JSON.parse(list) as string[]) {
    const link = document.createElement('link');
    link.rel = 'prefetch';
    link.href = href;
    // The same request mode as the module import that will use it, so the cached copy is reused.
    link.crossOrigin = '';
    document.head.append(link);
  }
}
