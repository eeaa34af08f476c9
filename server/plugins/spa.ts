import fastifyStatic from '@fastify/static';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { InitialData } from '../../shared/api-types';
import { EMBEDDED_UPDATES, RECENT_PLEDGES_LIMIT } from '../../shared/constants';
import type { AppContext } from '../context';
import { pledgeForLink } from '../modules/email/routes';
import { sendCached } from '../read-model/cached-body';

/** Routes of the client app (SPEC 2); any other path gets the app with status 404. */
const APP_ROUTES = new Set(['/', '/payment-instructions', '/admin']);
const HTML_TYPE = 'text/html; charset=utf-8';
const PLACEHOLDER = '<!--initial-data-->';

const FALLBACK_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Relief pledge</title></head><body><div id="root"></div>${PLACEHOLDER}<p>The client has not been built: run npm run build.</p></body></html>`;

/** JSON inside a script tag: "<" escaped so a donor's name can never close the tag. */
export function embedJson(data: unknown): string {
  const json = JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return `<script type="application/json" id="initial-data">${json}</script>`;
}

export async function registerSpa(app: FastifyInstance, ctx: AppContext & { clientDir: string }) {
  const { clientDir, snapshot, config } = ctx;
  const indexFile = path.join(clientDir, 'index.html');
  const template = existsSync(indexFile) ? readFileSync(indexFile, 'utf8') : FALLBACK_HTML;

  if (existsSync(clientDir)) {
    await app.register(fastifyStatic, {
      root: clientDir,
      index: false,
      wildcard: false,
      setHeaders(res, filePath) {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header(
          'Cache-Control',
          hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
        );
      },
    });
  }

  // The first screen's data travels inside the HTML: no request chain before it renders.
  function html(isAuthenticated: boolean) {
    return snapshot.body(isAuthenticated ? 'html:admin' : 'html', HTML_TYPE, () => {
      const data: InitialData = {
        isAuthenticated,
        campaign: config.campaign,
        progress: snapshot.progress(),
        pledges: snapshot.recentPledges(RECENT_PLEDGES_LIMIT),
        updates: snapshot.deliveryUpdates().slice(0, EMBEDDED_UPDATES),
      };
      return template.replace(PLACEHOLDER, embedJson(data));
    });
  }

  function sendApp(request: FastifyRequest, reply: FastifyReply, status: number) {
    // Not cached by shared caches: it carries live campaign numbers.
    reply.code(status).header('Cache-Control', 'private, no-cache');
    return sendCached(request, reply, html(request.isAdmin));
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
              description: "The client app, with the first screen's data inside",
              content: { 'text/html': { schema: z.string() } },
            },
          },
        },
      },
      (request, reply) => sendApp(request, reply, 200),
    );
  }

  // The donor's status page (issue 12): the app with 200 only for a valid link; a wrong or missing
  // token gets exactly what an unknown path gets (404 and the app, which shows its 404 page).
  app.get(
    '/pledge/:id',
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
      const found = await pledgeForLink(ctx.db, id, (request.query as { t?: unknown }).t);
      // The token is in this page's URL: never sent on to other sites.
      reply.header('Referrer-Policy', 'no-referrer');
      return sendApp(request, reply, found ? 200 : 404);
    },
  );

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0]!;
    if (
      url.startsWith('/api/') ||
      url === '/api' ||
      (request.method !== 'GET' && request.method !== 'HEAD')
    ) {
      return reply.code(404).send({ message: `Not found: ${request.method} ${url}` });
    }
    return sendApp(request, reply, 404);
  });
}
