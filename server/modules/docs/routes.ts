import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { notFound } from '../../lib/http-error';
import { CachedBody, sendCached } from '../../read-model/cached-body';
import { describeApi, operationKey, type RouteFacts } from './describe';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The browsable reference: Swagger UI's own files (swagger-ui-dist, a dependency that is never
 * imported, so no page's JavaScript carries it), read from disk on first request only. The page
 * has no inline script, so the site's Content-Security-Policy holds for it unchanged.
 */
const UI_FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};
const INIT_SCRIPT = `window.ui = SwaggerUIBundle({
  url: '/api/docs/json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  withCredentials: true,
});
`;
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>API reference</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/api/docs/static/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/api/docs/static/swagger-ui-bundle.js"></script>
<script src="/api/docs/static/init.js"></script>
</body>
</html>
`;

/** Where swagger-ui-dist's files are: asked of the package on first use, not at start. */
const uiDir = async (): Promise<string> =>
  (await import('swagger-ui-dist/absolute-path.js')).default();

/**
 * The OpenAPI document at GET /api/docs/json (and at GET /api/docs for anything but a browser),
 * generated from the same zod schemas the routes validate and encode with, completed by the
 * table in operations.ts. Registered before every other route: it collects them as they are
 * added, and refuses at start-up an /api route without a response schema (a contract is not
 * optional).
 */
export async function docsRoutes(fastify: FastifyInstance, { config }: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const facts = new Map<string, RouteFacts>();
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api/') && !route.schema?.response) {
      throw new Error(`Route ${String(route.method)} ${route.url} must declare schema.response`);
    }
    for (const method of [route.method].flat()) {
      facts.set(operationKey(method, route.url), {
        access: route.config?.access,
        attachValidation: route.attachValidation === true,
      });
    }
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: `${config.campaign.name}: pledge API`,
        description:
          'Every rejected request answers {message, errors?}: a sentence for people, and one per field. Admin calls need the session cookie that POST /api/admin/login sets; a write from another site is refused.',
        version: '1.0.0',
      },
      servers: [{ url: config.publicUrl ?? '/' }],
    },
    // Routes without a schema are the built client's static files: not part of the API.
    transform: (doc) =>
      doc.schema ? jsonSchemaTransform(doc) : { schema: { hide: true }, url: doc.url },
    transformObject: (doc) =>
      describeApi('openapiObject' in doc ? doc.openapiObject : doc.swaggerObject, facts),
  });

  // Built on first request, when every route is registered, then kept (routes do not change).
  let json: CachedBody | undefined;
  const sendJson = (
    request: Parameters<typeof sendCached>[0],
    reply: Parameters<typeof sendCached>[1],
  ) => {
    json ??= new CachedBody(JSON.stringify(app.swagger()), JSON_TYPE);
    sendCached(request, reply.header('Cache-Control', 'no-cache'), json);
  };
  const documentSchema = z.object({ openapi: z.string() }).loose();
  const page = new CachedBody(PAGE, 'text/html; charset=utf-8');

  app.get(
    '/api/docs',
    {
      config: { access: 'public' },
      schema: {
        response: {
          200: {
            description:
              'For a browser (Accept: text/html), the browsable reference; otherwise this document (OpenAPI 3.1)',
            content: {
              'application/json': { schema: documentSchema },
              'text/html': { schema: z.string() },
            },
          },
        },
      },
    },
    (request, reply) => {
      reply.header('Vary', 'Accept');
      if (!request.headers.accept?.includes('text/html')) return sendJson(request, reply);
      sendCached(request, reply.header('Cache-Control', 'no-cache'), page);
    },
  );

  app.get(
    '/api/docs/json',
    {
      config: { access: 'public' },
      schema: {
        response: {
          200: {
            description: 'This document (OpenAPI 3.1)',
            content: { 'application/json': { schema: documentSchema } },
          },
        },
      },
    },
    (request, reply) => sendJson(request, reply),
  );

  const files = new Map<string, Promise<CachedBody>>([
    ['init.js', Promise.resolve(new CachedBody(INIT_SCRIPT, UI_FILES['swagger-ui-bundle.js']!))],
  ]);
  const uiFile = (name: string) => {
    let body = files.get(name);
    if (!body) {
      body = uiDir()
        .then((dir) => readFile(path.join(dir, name), 'utf8'))
        .then((text) => new CachedBody(text, UI_FILES[name]!));
      // A failed read is not kept: the next request tries again.
      body.catch(() => files.delete(name));
      files.set(name, body);
    }
    return body;
  };

  app.get(
    '/api/docs/static/:file',
    {
      config: { access: 'public' },
      schema: {
        params: z.object({ file: z.string() }),
        response: {
          200: {
            description: 'Swagger UI’s script or stylesheet',
            content: {
              'text/javascript': { schema: z.string() },
              'text/css': { schema: z.string() },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const { file } = request.params;
      if (file !== 'init.js' && !Object.hasOwn(UI_FILES, file)) throw notFound('Not found');
      const body = await uiFile(file);
      sendCached(request, reply.header('Cache-Control', 'public, max-age=3600'), body);
      return reply;
    },
  );
}
