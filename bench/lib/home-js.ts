import type { Page, Request } from 'playwright-core';

/** What client/app.tsx marks once the app has hydrated and its handlers are attached. */
const INTERACTIVE_MARK = 'app-interactive';

export interface ScriptsBeforeInteractive {
  /** Each script the browser fetched before the page was interactive: path and gzip bytes. */
  files: { path: string; gzipBytes: number }[];
  gzipBytes: number;
  gzipKb: number;
  /** Milliseconds from navigation start to the interactive mark. */
  interactiveMs: number;
}

/**
 * The one count of the home's JavaScript (docs/decisions/017-server-rendering.md), used by
 * `npm run bench` and by the budget test: the body bytes, gzip-encoded as the server sends them,
 * of every script Chromium's network log shows requested before the app's interactive mark.
 * Scripts fetched later (the pledge form, loaded when the browser is idle) are not counted.
 * `page` must be fresh (an empty cache), so every script is really downloaded.
 */
export async function scriptsBeforeInteractive(
  page: Page,
  url: string,
): Promise<ScriptsBeforeInteractive> {
  // gzip only: the budget is in gzip bytes, and the server would otherwise pick brotli.
  await page.setExtraHTTPHeaders({ 'Accept-Encoding': 'gzip' });
  const scripts: Request[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request);
  });
  await page.goto(url);
  await page.waitForFunction(
    (mark) => performance.getEntriesByName(mark).length > 0,
    INTERACTIVE_MARK,
  );
  // Which requests started before the mark, on the page's own clock (Resource Timing): the
  // network log's wall-clock times can be off from it by some milliseconds.
  const { before, interactiveMs } = await page.evaluate((mark) => {
    const at = performance.getEntriesByName(mark)[0]!.startTime;
    const entries = performance.getEntriesByType('resource');
    return {
      before: entries.filter((e) => e.startTime <= at).map((e) => e.name),
      interactiveMs: at,
    };
  }, INTERACTIVE_MARK);
  const startedBefore = new Set(before);

  const files: ScriptsBeforeInteractive['files'] = [];
  for (const request of scripts) {
    if (!startedBefore.has(request.url())) continue;
    const response = await request.response();
    if (!response) throw new Error(`no response for ${request.url()}`);
    const encoding = (await response.allHeaders())['content-encoding'];
    // Every script is large enough to be compressed (threshold 1 KB); anything else would make
    // the count meaningless, so it is an error rather than a silent raw byte count.
    const { responseBodySize } = await request.sizes();
    if (encoding !== 'gzip' && responseBodySize >= 1024)
      throw new Error(`${request.url()} was sent with content-encoding ${encoding ?? 'none'}`);
    files.push({ path: new URL(request.url()).pathname, gzipBytes: responseBodySize });
  }
  const gzipBytes = files.reduce((sum, f) => sum + f.gzipBytes, 0);
  return {
    files,
    gzipBytes,
    gzipKb: Math.round(gzipBytes / 102.4) / 10,
    interactiveMs: Math.round(interactiveMs),
  };
}
