import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { CachedBody, sendCached } from '../../read-model/cached-body';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The OpenAPI document at GET /api/docs, generated from the same zod schemas the routes validate
 * and encode with. Registered before every other route: it collects them as they are added, and
 * refuses at start-up an /api route without a response schema (a contract is not optional).
 */
export async function docsRoutes(app: FastifyInstance, { config }: AppContext) {
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api/') && !route.schema?.response) {
      throw new Error(`Route ${String(route.method)} ${route.url} must declare schema.response`);
    }
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: `${config.campaign.name}: pledge API`,
        description:
          'Every rejected request answers {message, errors?}: a sentence for people, and one per field.',
        version: '1.0.0',
      },
    },
    // Routes without a schema are the built client's static files: not part of the API.
    transform: (doc) =>
      doc.schema ? jsonSchemaTransform(doc) : { schema: { hide: true }, url: doc.url },
  });

  // Built on first request, when every route is registered, then kept (routes do not change).
  let body: CachedBody | undefined;
  app.get(
    '/api/docs',
    {
      config: { access: 'public' },
      schema: {
        response: {
          200: {
            description: 'This document (OpenAPI 3.1)',
            content: { 'application/json': { schema: z.object({ openapi: z.string() }).loose() } },
          },
        },
      },
    },
    (request, reply) => {
      body ??= new CachedBody(JSON.stringify(app.swagger()), JSON_TYPE);
      sendCached(request, reply.header('Cache-Control', 'no-cache'), body);
    },
  );
}
