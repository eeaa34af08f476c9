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
} from '@shared/schemas/statement';
import { convertAmount } from '@shared/received';
import type { AppContext } from '../../context';
import { badRequest } from '../../lib/http-error';
import * as adminRepo from '../admin/repo';
import { audited, type AuditInput } from '../audit/repo';
import * as pledgeRepo from '../pledges/repo';
import { confirmAudit } from '../pledges/routes';
import { defaultName, openStatement, previewOf, readLines, storeLines } from './import';
import { Slicer } from './parse/slicer';
import * as repo from './repo';
import { proposeMatches } from './review';

const MAPPING_SETTING = 'statement_mapping';

/**
 * Bank-statement import (docs/decisions/013-statement-matching.md): preview + mapping, import +
 * review, batch confirm.
 */
export async function statementRoutes(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, snapshot, config } = ctx;
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
      const { content, firstRowIsData } = request.body;
      const opened = await openStatement(content, firstRowIsData, new Slicer());
      return previewOf(db, opened, await rememberedMapping());
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
      const slicer = new Slicer();
      const opened = await openStatement(content, mapping?.firstRowIsData, slicer);
      const read = await readLines(opened, mapping, slicer);
      // The name given, else the saved mapping's of this layout, else a default.
      const mappingName =
        opened.format === 'csv'
          ? (request.body.mappingName ??
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
      const lines = await proposeMatches(db, await repo.openLines(db), prefixes);
      const pledges = new Set(
        lines.filter((l) => stored.added.has(l.id) && l.pledge).map((l) => l.pledge!.id),
      );
      const result: StatementImportResult = {
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
   * Confirms the ticked lines in one transaction: each line once (an open line becomes matched),
   * each pledge with the money of its line: a pending pledge is confirmed with it, a part-paid
   * one gets it added. A line already matched (a second tab, a re-import) is skipped.
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
        audited(db, request, async (tx) => {
          const entries: AuditInput[] = [];
          const confirmed: string[] = [];
          const skippedLines: string[] = [];
          for (const { lineId, pledgeId } of lines) {
            const line = await repo.markMatched(tx, lineId, pledgeId, config.now());
            const pledge = line ? await pledgeRepo.findPledge(tx, pledgeId) : undefined;
            if (!line || !pledge) {
              skippedLines.push(lineId);
              continue;
            }
            const amount = Math.floor(line.amountCents / 100);
            let row: pledgeRepo.PledgeRow | undefined;
            if (!pledge.isPaid) {
              const r = await pledgeRepo.confirmPledge(
                tx,
                pledgeId,
                config.now(),
                pledgeRepo.receivedValues(pledge, {
                  amountReceived: amount,
                  currencyReceived: line.currency,
                }),
              );
              row = r?.row;
            } else {
              // A later instalment: added to what arrived before, in the currency of the pledge.
              const before = pledgeRepo.toAdminPledge(pledge);
              const sameCurrency = before.currencyReceived === line.currency;
              row = await pledgeRepo.updatePledge(tx, pledge, {
                amountReceived: sameCurrency
                  ? (before.amountReceived ?? 0) + amount
                  : (before.amountReceived ?? 0) +
                    convertAmount(
                      amount,
                      line.currency,
                      before.currencyReceived ?? pledge.currency,
                    ),
              });
            }
            if (!row) {
              skippedLines.push(lineId);
              continue;
            }
            confirmed.push(pledgeId);
            entries.push(
              confirmAudit(row, 'statement', {
                statementLine: {
                  id: line.id,
                  bookedOn: line.bookedOn,
                  amount,
                  currency: line.currency,
                  payer: line.payer,
                  description: line.description,
                },
              }),
            );
          }
          return { result: { confirmed, skippedLines }, audit: entries };
        }),
      );
      return { confirmed: outcome.confirmed.length, skipped: outcome.skippedLines.length };
    },
  );
}
