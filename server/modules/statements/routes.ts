import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { DEFAULT_REFERENCE_PREFIX } from '@shared/payment-reference';
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
  type StatementImportOptions,
  statementMappingSchema,
  statementPreviewResultSchema,
  statementPreviewSchema,
  statementUndoResultSchema,
  type StatementImportResult,
  type StatementMapping,
} from '@shared/schemas/statement';
import type { AppContext } from '../../context';
import { badRequest, unsupportedMediaType } from '../../lib/http-error';
import * as adminRepo from '../admin/repo';
import { audited } from '../audit/repo';
import { defaultName, openStatement, previewOf, readLines, storeLines } from './import';
import { Slicer } from './parse/slicer';
import * as repo from './repo';
import { dismissLine, proposeMatches, restoreLine } from './review';
import { confirmLines, recentImports, undoImport } from './service';

const MAPPING_SETTING = 'statement_mapping';

/**
 * Bank-statement import (docs/decisions/013-statement-matching.md): preview + mapping, import +
 * review, batch confirm.
 */
export async function statementRoutes(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, snapshot, config, email } = ctx;
  const prefixes = [
    ...new Set([config.campaign.payment.referencePrefix, DEFAULT_REFERENCE_PREFIX]),
  ];
  const opts = { config: { access: 'admin' as const }, bodyLimit: 8 * 1024 * 1024 };

  async function rememberedMapping(): Promise<Partial<StatementMapping> | undefined> {
    const raw = await adminRepo.getSetting(db, MAPPING_SETTING);
    if (!raw) return undefined;
    const parsed = statementMappingSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  }

  /** The columns, first rows and matching saved mapping of a file (bytes, or base64 in JSON). */
  async function preview(bytes: Buffer | string, firstRowIsData: boolean | undefined) {
    const opened = await openStatement(bytes, firstRowIsData, new Slicer());
    return previewOf(db, opened, await rememberedMapping());
  }

  /** Reads, stores and proposes matches for a file's credits; audited as one import. */
  async function importFile(
    request: FastifyRequest,
    bytes: Buffer | string,
    options: StatementImportOptions,
  ): Promise<StatementImportResult> {
    const { mapping, fileName } = options;
    const slicer = new Slicer();
    const opened = await openStatement(bytes, mapping?.firstRowIsData, slicer);
    const read = await readLines(opened, mapping, slicer);
    // The name given, else the saved mapping's of this layout, else a default.
    const mappingName =
      opened.format === 'csv'
        ? (options.mappingName ??
          (await repo.mappingBySignature(db, opened.csv.signature))?.name ??
          defaultName(opened.csv))
        : null;
    const skipped = read.skippedBy.moneyOut + read.skippedBy.notCompleted + read.skippedBy.other;
    const stored = await audited(db, request, async (tx) => {
      const importId = await repo.insertImport(tx, {
        fileName: fileName ?? null,
        format: opened.format,
        mappingName,
      });
      const { added, duplicates } = await storeLines(tx, importId, read.lines, prefixes, slicer);
      await repo.setImportCounts(tx, importId, {
        creditCount: read.lines.length,
        newCount: added.size,
      });
      if (opened.format === 'csv' && mapping)
        await repo.saveMapping(tx, {
          name: mappingName!,
          signature: opened.csv.signature,
          mapping: { ...mapping, firstRowIsData: opened.csv.firstRowIsData },
        });
      return {
        result: { importId, added, duplicates },
        audit: {
          action: 'statement.import',
          targetType: 'statement',
          targetId: importId,
          details: {
            fileName: fileName ?? null,
            format: opened.format,
            mappingName,
            fileLines: read.fileLines,
            credits: read.lines.length,
            newLines: added.size,
            alreadyImported: read.lines.length - added.size,
            possibleDuplicates: duplicates,
            skipped: read.skippedBy,
            refused: read.refused.length,
          },
        },
      };
    });
    const open = await repo.firstOpenLinesAfterImport(db, stored.importId, slicer);
    const lines = await proposeMatches(db, open, prefixes, slicer);
    const pledges = new Set(
      lines.filter((l) => stored.added.has(l.id) && l.pledge).map((l) => l.pledge!.id),
    );
    return {
      importId: stored.importId,
      format: opened.format,
      fileLines: read.fileLines,
      credits: read.lines.length,
      newLines: stored.added.size,
      alreadyImported: read.lines.length - stored.added.size,
      possibleDuplicates: stored.duplicates,
      skipped,
      skippedBy: read.skippedBy,
      refused: read.refused,
      pledges: pledges.size,
      lines,
    };
  }

  // The spec-style JSON calls: the file's bytes as base64 in `content`.
  app.post(
    '/api/admin/statements/preview',
    {
      ...opts,
      schema: { body: statementPreviewSchema, response: { 200: statementPreviewResultSchema } },
    },
    async (request) => preview(request.body.content, request.body.firstRowIsData),
  );

  app.post(
    '/api/admin/statements/import',
    {
      ...opts,
      schema: { body: statementImportSchema, response: { 200: statementImportResultSchema } },
    },
    async (request) => importFile(request, request.body.content, request.body),
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
      async (request) => preview(rawBody(request.body), request.query.firstRowIsData),
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
      async (request) => importFile(request, rawBody(request.body), request.query),
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
      const { page, pageSize } = request.query;
      const { rows, total } = await repo.openLinesPage(db, { page, pageSize });
      return { lines: await proposeMatches(db, rows, prefixes), total, page, pageSize };
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
      const { page, pageSize } = request.query;
      const { rows, total } = await repo.dismissedLinesPage(db, { page, pageSize });
      return {
        lines: rows.map((l) => ({
          id: l.id,
          bookedOn: l.bookedOn,
          amountCents: l.amountCents,
          currency: l.currency,
          description: l.description,
          payer: l.payer,
          reason: l.dismissedReason ?? '',
          dismissedAt: (l.dismissedAt ?? l.importedAt).toISOString(),
        })),
        total,
        page,
        pageSize,
      };
    },
  );

  // The ticked lines, confirmed once each (service.ts confirmLines).
  app.post(
    '/api/admin/statements/confirm',
    {
      config: { access: 'admin' },
      schema: { body: statementConfirmSchema, response: { 200: statementConfirmResultSchema } },
    },
    async (request) => {
      const { lines } = request.body;
      if (new Set(lines.map((l) => l.lineId)).size !== lines.length)
        throw badRequest('A statement line can confirm only one pledge');
      const outcome = await snapshot.write(() => confirmLines(db, request, lines, config.now()));
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
