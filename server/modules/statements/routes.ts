import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { DEFAULT_REFERENCE_PREFIX } from '@shared/payment-reference';
import {
  reviewLinesSchema,
  statementConfirmResultSchema,
  statementConfirmSchema,
  statementImportResultSchema,
  statementImportSchema,
  statementMappingSchema,
  statementPreviewResultSchema,
  statementPreviewSchema,
  type StatementImportResult,
  type StatementMapping,
  type StatementPreview,
} from '@shared/schemas/statement';
import type { AppContext } from '../../context';
import { badRequest } from '../../lib/http-error';
import * as adminRepo from '../admin/repo';
import { audited } from '../audit/repo';
import { lockPledges } from '../pledges/repo';
import { recordPayment } from '../pledges/service';
import { guessMapping, readCsv, statementCredits } from './parse';
import * as repo from './repo';
import { proposeMatches } from './review';

const MAPPING_SETTING = 'statement_mapping';

function bytesOf(content: string): Buffer {
  return Buffer.from(content, 'base64');
}

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

  app.post(
    '/api/admin/statements/preview',
    {
      ...opts,
      schema: { body: statementPreviewSchema, response: { 200: statementPreviewResultSchema } },
    },
    async (request) => {
      const { content } = request.body;
      const csv = readCsv(bytesOf(content));
      const remembered = await rememberedMapping();
      const fits =
        remembered &&
        [remembered.date, remembered.amount, remembered.credit, remembered.description]
          .filter(Boolean)
          .every((h) => csv.headers.includes(h!));
      const preview: StatementPreview = {
        headers: csv.headers,
        sample: csv.body.slice(0, 5),
        delimiter: csv.delimiter,
        encoding: csv.encoding,
        mapping: fits ? remembered : { dateOrder: 'DMY', ...guessMapping(csv.headers) },
      };
      return preview;
    },
  );

  app.post(
    '/api/admin/statements/import',
    {
      ...opts,
      schema: { body: statementImportSchema, response: { 200: statementImportResultSchema } },
    },
    async (request) => {
      const { content, mapping, fileName } = request.body;
      const csv = readCsv(bytesOf(content));
      const { lines, skipped } = statementCredits(csv, mapping);
      const newLines = await audited(db, request, async (tx) => {
        const added = await repo.insertNewLines(tx, lines);
        await adminRepo.setSetting(tx, MAPPING_SETTING, JSON.stringify(mapping));
        return {
          result: added,
          audit: {
            action: 'statement.import',
            targetType: 'statement',
            targetId: fileName,
            details: {
              fileName: fileName ?? null,
              credits: lines.length,
              newLines: added,
              alreadyImported: lines.length - added,
              skipped,
            },
          },
        };
      });
      const result: StatementImportResult = {
        credits: lines.length,
        newLines,
        alreadyImported: lines.length - newLines,
        skipped,
        lines: await proposeMatches(db, await repo.openLines(db), prefixes),
      };
      return result;
    },
  );

  // The lines still open (imported earlier, not yet matched), with fresh proposals.
  app.get(
    '/api/admin/statements/lines',
    { config: { access: 'admin' }, schema: { response: { 200: reviewLinesSchema } } },
    async (_request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return { lines: await proposeMatches(db, await repo.openLines(db), prefixes) };
    },
  );

  /**
   * Confirms the ticked lines in one transaction: each line once (an open line becomes matched)
   * and its money recorded as a payment of its pledge by the one use case (pledges/service.ts):
   * locked, added atomically, audited, receipt queued. A line already matched (a second tab, a
   * re-import) or whose pledge is gone is skipped and reported.
   */
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
      const outcome = await snapshot.write(() =>
        db.transaction(async (tx) => {
          const confirmed: string[] = [];
          const skippedLines: string[] = [];
          // Every pledge of the batch locked first, in id order (no deadlock with another batch);
          // a line is never marked matched for a pledge that is gone.
          const existing = new Set(
            (await lockPledges(tx, [...new Set(lines.map((l) => l.pledgeId))])).map((p) => p.id),
          );
          for (const { lineId, pledgeId } of lines) {
            const line = existing.has(pledgeId)
              ? await repo.markMatched(tx, lineId, pledgeId, config.now())
              : undefined;
            const recorded = line
              ? await recordPayment(tx, {
                  pledgeId,
                  amountMinor: line.amountCents,
                  currency: line.currency,
                  source: 'statement',
                  bookedOn: line.bookedOn,
                  statementLineId: line.id,
                  actor: request,
                  now: config.now(),
                  auditDetails: {
                    statementLine: {
                      id: line.id,
                      bookedOn: line.bookedOn,
                      amountMinor: line.amountCents,
                      currency: line.currency,
                      payer: line.payer,
                      description: line.description,
                    },
                  },
                })
              : undefined;
            if (!recorded) {
              skippedLines.push(lineId);
              continue;
            }
            confirmed.push(pledgeId);
          }
          return { confirmed, skippedLines };
        }),
      );
      if (outcome.confirmed.length > 0) email.worker.kick();
      return {
        confirmed: outcome.confirmed.length,
        skipped: outcome.skippedLines.length,
        skippedLines: outcome.skippedLines,
      };
    },
  );
}
