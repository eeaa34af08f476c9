import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  dismissedLinesSchema,
  reviewLinesQuerySchema,
  reviewLinesSchema,
  statementDismissSchema,
  statementLineParamsSchema,
  statementLineStatusSchema,
  statementConfirmResultSchema,
  statementConfirmSchema,
  statementImportListSchema,
  statementImportParamsSchema,
  statementImportResultSchema,
  statementImportSchema,
  statementImportFileQuerySchema,
  statementPreviewFileQuerySchema,
  statementPreviewResultSchema,
  statementPreviewSchema,
  statementUndoResultSchema,
} from '@shared/schemas/statement';
import type { AppContext } from '../../context';
import { unsupportedMediaType } from '../../lib/http-error';
import { dismissLine, restoreLine } from './review';
import {
  confirmLines,
  dismissedLines,
  importStatement,
  previewStatement,
  recentImports,
  referencePrefixes,
  reviewLines,
  undoImport,
} from './service';

/**
 * Bank-statement import (docs/decisions/013-statement-matching.md): preview + mapping, import +
 * review, batch confirm. The use cases live in ./service.ts; these routes parse, call them and
 * shape the reply.
 */
export async function statementRoutes(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, snapshot, config, email } = ctx;
  const prefixes = referencePrefixes(config.campaign.payment.referencePrefix);
  const opts = { config: { access: 'admin' as const }, bodyLimit: 8 * 1024 * 1024 };

  // The spec-style JSON calls: the file's bytes as base64 in `content`.
  app.post(
    '/api/admin/statements/preview',
    {
      ...opts,
      schema: { body: statementPreviewSchema, response: { 200: statementPreviewResultSchema } },
    },
    async (request) => previewStatement(db, request.body.content, request.body.firstRowIsData),
  );

  app.post(
    '/api/admin/statements/import',
    {
      ...opts,
      schema: { body: statementImportSchema, response: { 200: statementImportResultSchema } },
    },
    async (request) => importStatement(db, request, request.body.content, request.body, prefixes),
  );

  // The same two calls with the file as the raw body (application/octet-stream) and the options
  // in the query: no base64 to build in the browser and no 7 MB JSON string to parse on the
  // server, which held the event loop for ~150 ms per 5 MB file (docs/performance.md).
  await fastify.register(async (scope) => {
    // Any type but JSON is the file itself (browsers label CSV files text/csv, or nothing).
    scope.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: opts.bodyLimit },
      (_request, body, done) => done(null, body),
    );
    const raw = scope.withTypeProvider<ZodTypeProvider>();
    const rawBody = (body: unknown): Buffer => {
      if (!Buffer.isBuffer(body))
        throw unsupportedMediaType(
          'Send the file itself as the request body (for example Content-Type: application/octet-stream), not JSON.',
        );
      return body;
    };
    raw.post(
      '/api/admin/statements/preview/file',
      {
        ...opts,
        schema: {
          querystring: statementPreviewFileQuerySchema,
          response: { 200: statementPreviewResultSchema },
        },
      },
      async (request) => previewStatement(db, rawBody(request.body), request.query.firstRowIsData),
    );
    raw.post(
      '/api/admin/statements/import/file',
      {
        ...opts,
        schema: {
          querystring: statementImportFileQuerySchema,
          response: { 200: statementImportResultSchema },
        },
      },
      async (request) =>
        importStatement(db, request, rawBody(request.body), request.query, prefixes),
    );
  });

  // The lines still open (imported earlier, not yet matched), one page with fresh proposals.
  app.get(
    '/api/admin/statements/lines',
    {
      config: { access: 'admin' },
      schema: { querystring: reviewLinesQuerySchema, response: { 200: reviewLinesSchema } },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return reviewLines(db, request.query, prefixes);
    },
  );

  // A line that is no gift (bank interest, not a donation): out of the review, audited, undoable.
  app.post(
    '/api/admin/statements/lines/:id/dismiss',
    {
      config: { access: 'admin' },
      schema: {
        params: statementLineParamsSchema,
        body: statementDismissSchema,
        response: { 200: statementLineStatusSchema },
      },
    },
    async (request) => {
      const line = await dismissLine(
        db,
        request,
        request.params.id,
        request.body.reason,
        config.now(),
      );
      return { id: line.id, status: line.status };
    },
  );

  app.post(
    '/api/admin/statements/lines/:id/restore',
    {
      config: { access: 'admin' },
      schema: { params: statementLineParamsSchema, response: { 200: statementLineStatusSchema } },
    },
    async (request) => {
      const line = await restoreLine(db, request, request.params.id);
      return { id: line.id, status: line.status };
    },
  );

  app.get(
    '/api/admin/statements/dismissed',
    {
      config: { access: 'admin' },
      schema: { querystring: reviewLinesQuerySchema, response: { 200: dismissedLinesSchema } },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return dismissedLines(db, request.query);
    },
  );

  app.post(
    '/api/admin/statements/confirm',
    {
      config: { access: 'admin' },
      schema: { body: statementConfirmSchema, response: { 200: statementConfirmResultSchema } },
    },
    async (request) => {
      const outcome = await snapshot.write(() =>
        confirmLines(db, request, request.body.lines, config.now()),
      );
      if (outcome.confirmed.length > 0) email.worker.kick();
      return {
        confirmed: outcome.confirmed.length,
        skipped: outcome.skippedLines.length,
        skippedLines: outcome.skippedLines,
      };
    },
  );

  // The newest imports, each with an "Undo import" in the review.
  app.get(
    '/api/admin/statements/imports',
    { config: { access: 'admin' }, schema: { response: { 200: statementImportListSchema } } },
    async (_request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return { imports: await recentImports(db) };
    },
  );

  // A whole import undone: its payments reversed, its lines removed (audited; see service.ts).
  app.post(
    '/api/admin/statements/imports/:id/undo',
    {
      config: { access: 'admin' },
      schema: {
        params: statementImportParamsSchema,
        response: { 200: statementUndoResultSchema },
      },
    },
    async (request) =>
      snapshot.write(() => undoImport(db, request, request.params.id, config.now())),
  );
}
