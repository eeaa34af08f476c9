import fastifyStatic from '@fastify/static';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isPageAddress } from '../lib/page-address';

declare module 'fastify' {
  interface FastifyInstance {
    /** The site's 404 page; also for addresses the router cannot decode (plugins/bad-address.ts). */
    notFoundPage?: (request: FastifyRequest, reply: FastifyReply) => unknown;
  }
}

/**
 * The built client's files (hashed assets cached for a year), and the fallback for every address
 * no route answers: the site's 404 page for a page address (served by the pages module), a JSON
 * 404 for the API.
 */
export async function registerSpa(app: FastifyInstance, { clientDir }: { clientDir: string }) {
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

  app.setNotFoundHandler((request, reply) => {
    if (app.notFoundPage && isPageAddress(request.method, request.url))
      return app.notFoundPage(request, reply);
    const url = request.url.split('?')[0]!;
    return reply.code(404).send({ message: `Not found: ${request.method} ${url}` });
  });
}
