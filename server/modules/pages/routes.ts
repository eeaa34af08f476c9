import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';

import type { InitialData, ServerRenderer } from '@shared/api-types';
import { EMBEDDED_UPDATES, RECENT_PLEDGES_LIMIT } from '@shared/constants';
import {
  ADMIN_JOIN_PATH,
  APP_ROUTES,
  PAGE_PATHS,
  SITE_DESCRIPTION_PLACEHOLDER,
  SITE_TITLE_PLACEHOLDER,
  STATUS_PAGE_PREFIX,
} from '@shared/pages';
import type { DonorPledgeView } from '@shared/schemas/email';
import { campaignText } from '@shared/share';
import type { AppContext } from '../../context';
import { escapeHtml } from '../../lib/html';
import { pledgeForRequest } from '../email/service';
import { toDonorView } from '../pledges/views';
import { SHARE_META_PLACEHOLDER, shareMetaTags } from '../share/meta';
import { siteBaseUrl } from '../../lib/site-url';
import { CachedBody, sendCached } from '../../read-model/cached-body';

/**
 * The pages rendered on the server (docs/decisions/017-server-rendering.md). The thank-you and
 * admin pages are not: they read the tab's own storage or admin-only data, and come after a
 * pledge or a login, never as a first visit.
 */
const SERVER_RENDERED = new Set<string>([PAGE_PATHS.home]);
const HTML_TYPE = 'text/html; charset=utf-8';
const DATA_PLACEHOLDER = '<!--initial-data-->';
const ROOT_PLACEHOLDER = '<!--app-html-->';
/**
 * The rendered HTML says "5 minutes ago": rebuilt at least this often even when nothing changes,
 * as often as the page's own clock ticks once it runs.
 */
const HTML_MAX_AGE_MS = 60_000;

const FALLBACK_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Relief pledge</title></head><body><div id="root">${ROOT_PLACEHOLDER}</div>${DATA_PLACEHOLDER}<p>The client has not been built: run npm run build.</p></body></html>`;

/** JSON inside a script tag: "<" escaped so a donor's name can never close the tag. */
function embedJson(data: unknown): string {
  const json = JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return `<script type="application/json" id="initial-data">${json}</script>`;
}

/**
 * The server-side renderer built by `npm run build:ssr`. Without it (tests or development before a
 * build) the pages are served as before, with an empty root that the browser renders.
 */
async function loadRenderer(
  file: string,
  log: FastifyBaseLogger,
): Promise<ServerRenderer | undefined> {
  if (!existsSync(file)) return undefined;
  try {
    const { renderer } = (await import(pathToFileURL(file).href)) as { renderer: ServerRenderer };
    await renderer.prepare();
    return renderer;
  } catch (err) {
    // The site still works, rendered by the browser: a broken renderer must not stop the server.
    log.error({ err }, 'server-side renderer failed to load; pages render in the browser only');
    return undefined;
  }
}

/**
 * The site's pages: the fixed pages (the home rendered on the server), the donor's status page and
 * the 404 page, each with the first screen's data inside. The SPA plugin's not-found handler and
 * the bad-address plugin serve the 404 page through app.notFoundPage.
 */
export async function pageRoutes(app: FastifyInstance, ctx: AppContext & { clientDir: string }) {
  const { clientDir, snapshot, config } = ctx;
  const indexFile = path.join(clientDir, 'index.html');
  // The campaign's title and description go in once: they change with the config, not per request.
  const template = (existsSync(indexFile) ? readFileSync(indexFile, 'utf8') : FALLBACK_HTML)
    .replaceAll(SITE_TITLE_PLACEHOLDER, () => escapeHtml(config.campaign.siteTitle))
    .replaceAll(SITE_DESCRIPTION_PLACEHOLDER, () =>
      escapeHtml(campaignText(config.campaign.siteDescription, config.campaign)),
    );
  const renderer = await loadRenderer(
    path.resolve(clientDir, '..', 'ssr', 'entry-server.js'),
    app.log,
  );

  function initialData(isAuthenticated: boolean): InitialData {
    return {
      isAuthenticated,
      campaign: config.campaign,
      progress: snapshot.progress(),
      pledges: snapshot.recentPledges(RECENT_PLEDGES_LIMIT),
      updates: snapshot.deliveryUpdates().slice(0, EMBEDDED_UPDATES),
      renderedAt: new Date().toISOString(),
    };
  }

  /**
   * The page: the first screen's data inside (no request chain before it renders) and, for the
   * server-rendered pages, the first screen's markup in #root, hydrated by the browser.
   */
  function page(pathname: string, search: string, data: InitialData, render: boolean): string {
    let appHtml = '';
    let title: string | undefined;
    if (render && renderer) {
      try {
        ({ html: appHtml, title } = renderer.render({ pathname, search, data }));
      } catch (err) {
        // Served as a browser-rendered page instead: the visitor still gets the site.
        app.log.error({ err, pathname }, 'server-side rendering failed');
      }
    }
    // Replacement functions, not strings: in a string "$'" or "$&" (a donor may type them in a
    // name) would paste parts of the template into the page.
    let html = template
      .replace(ROOT_PLACEHOLDER, () => appHtml)
      .replace(DATA_PLACEHOLDER, () => embedJson(data))
      .replace(SHARE_META_PLACEHOLDER, () =>
        shareMetaTags(config.campaign, data.progress, siteBaseUrl(config)),
      );
    if (title)
      html = html.replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(title)}</title>`);
    return html;
  }

  /** A route's page, cached per snapshot version, per admin or public (and re-rendered each minute). */
  function cachedPage(route: string, isAuthenticated: boolean): CachedBody {
    const notFound = route === '404';
    return snapshot.body(
      `html:${route}:${isAuthenticated ? 'admin' : 'public'}`,
      HTML_TYPE,
      () => {
        const data = initialData(isAuthenticated);
        if (notFound) data.notFound = true;
        // Every unknown address shows the same 404 page: one rendering serves them all.
        return page(notFound ? '/404' : route, '', data, notFound || SERVER_RENDERED.has(route));
      },
      HTML_MAX_AGE_MS,
    );
  }

  function sendPage(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    body: CachedBody,
    cacheControl = 'private, no-cache',
  ) {
    // Not cached by shared caches: it carries live campaign numbers.
    reply.code(status).header('Cache-Control', cacheControl);
    return sendCached(request, reply, body);
  }

  /** Every address that leads nowhere gets the same 404 page (public or admin). */
  function notFoundPage(request: FastifyRequest, reply: FastifyReply, cacheControl?: string) {
    return sendPage(request, reply, 404, cachedPage('404', request.isAdmin), cacheControl);
  }

  /** The donor's status page, rendered for this request only: it is their pledge, not a shared page. */
  function statusPage(request: FastifyRequest, pledge: DonorPledgeView): CachedBody {
    const [pathname, query = ''] = request.url.split('?', 2) as [string, string?];
    const data: InitialData = { ...initialData(request.isAdmin), pledgeStatus: pledge };
    return new CachedBody(page(pathname, query ? `?${query}` : '', data, true), HTML_TYPE);
  }

  for (const route of APP_ROUTES) {
    // access 'public' makes the auth hook resolve the session, so the page knows if it is an admin.
    // compress: false: sendCached sends the HTML pre-compressed.
    app.get(
      route,
      {
        config: { access: 'public' },
        compress: false,
        schema: {
          response: {
            200: {
              description: "The client app, with the first screen's data (and markup) inside",
              content: { 'text/html': { schema: z.string() } },
            },
          },
        },
      },
      (request, reply) => sendPage(request, reply, 200, cachedPage(route, request.isAdmin)),
    );
  }

  // The donor's status page (docs/decisions/014-email-outbox.md): the app with 200 only for a valid
  // link; a wrong or missing token gets exactly what an unknown path gets (404 and the app, which
  // shows its 404 page).
  app.get(
    `${STATUS_PAGE_PREFIX}:id`,
    {
      config: { access: 'public' },
      compress: false,
      schema: {
        // The id and ?t= are checked by the handler: anything wrong is the 404 page, not a 400.
        response: {
          200: {
            description: 'The client app showing the donor status page',
            content: { 'text/html': { schema: z.string() } },
          },
          404: {
            description: 'The client app showing its 404 page (unknown pledge, wrong token)',
            content: { 'text/html': { schema: z.string() } },
          },
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params as { id: string };
      const found = await pledgeForRequest(
        ctx.db,
        ctx.email,
        request,
        id,
        (request.query as { t?: unknown }).t,
      );
      // The token is in this page's URL: never sent on to other sites.
      reply.header('Referrer-Policy', 'no-referrer');
      // A donor's name, amount and reference: not kept by the browser of a shared computer (its
      // history and back button would show them to the next person), as the status API is not.
      if (!found) return notFoundPage(request, reply, 'no-store');
      return sendPage(
        request,
        reply,
        200,
        statusPage(request, toDonorView(found.pledge, found.link)),
        'no-store',
      );
    },
  );

  // A team member's invitation or reset link: the app, which asks the API whose link it
  // is. The token is in the address: not kept by caches or the browser, never sent on as referrer.
  app.get(
    ADMIN_JOIN_PATH,
    {
      config: { access: 'public' },
      compress: false,
      schema: {
        response: {
          200: {
            description: 'The client app showing the set-password page',
            content: { 'text/html': { schema: z.string() } },
          },
        },
      },
    },
    (request, reply) => {
      reply.header('Referrer-Policy', 'no-referrer');
      return sendPage(
        request,
        reply,
        200,
        cachedPage(ADMIN_JOIN_PATH, request.isAdmin),
        'no-store',
      );
    },
  );

  app.decorate('notFoundPage', notFoundPage);
}
