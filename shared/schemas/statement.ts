import { z } from 'zod';
import { currencySchema, paymentStateSchema } from './pledge';

/** The largest statement file accepted: bounds what one upload costs to decode and parse. */
export const STATEMENT_MAX_BYTES = 5 * 1024 * 1024;

const column = z.string().trim().min(1).max(200);

/**
 * Which column holds what, by header name; remembered between imports. Either one signed amount
 * column, or a credit column (and a debit column, ignored: money going out is not a gift).
 */
const statementMappingFields = z.object({
  date: column,
  amount: column.optional(),
  credit: column.optional(),
  debit: column.optional(),
  currency: column.optional(),
  fixedCurrency: currencySchema.optional(),
  description: column,
  payer: column.optional(),
  /** How to read 03/04/2025: day first (Jamaica, UK) or month first (US). */
  dateOrder: z.enum(['DMY', 'MDY', 'YMD']).default('DMY'),
});
export const statementMappingSchema = statementMappingFields
  .refine((m) => m.amount || m.credit, {
    error: 'Choose the amount column, or the credit (money in) column',
  })
  .refine((m) => m.currency || m.fixedCurrency, {
    error: 'Choose the currency column, or the currency of the whole statement',
  });
export type StatementMapping = z.output<typeof statementMappingSchema>;

const content = z
  .string({ error: 'Choose a CSV file' })
  .min(1, { error: 'The file is empty' })
  // Base64 of 5 MB.
  .max(Math.ceil(STATEMENT_MAX_BYTES / 3) * 4 + 4, {
    error: 'The file is larger than 5 MB. Export a shorter period.',
  });

export const statementPreviewSchema = z.object({
  fileName: z.string().max(300).optional(),
  content,
});
export const statementImportSchema = z.object({
  fileName: z.string().max(300).optional(),
  content,
  mapping: statementMappingSchema,
});
export const statementConfirmSchema = z.object({
  lines: z
    .array(
      z.object({
        lineId: z.uuid({ error: 'Invalid line id' }),
        pledgeId: z.uuid({ error: 'Invalid pledge id' }),
      }),
    )
    .min(1, { error: 'Tick at least one line to confirm' })
    .max(1000),
});

export const matchConfidenceSchema = z.enum(['certain', 'likely', 'unmatched']);
export type MatchConfidence = z.infer<typeof matchConfidenceSchema>;

/** POST /api/admin/statements/preview. */
export const statementPreviewResultSchema = z.object({
  headers: z.array(z.string()),
  sample: z.array(z.array(z.string())),
  delimiter: z.string(),
  encoding: z.string(),
  /** The remembered mapping when its columns exist in this file, else a guess. */
  mapping: statementMappingFields.partial(),
});
export type StatementPreview = z.infer<typeof statementPreviewResultSchema>;

export const proposedPledgeSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  reference: z.string(),
  amount: z.number().int(),
  currency: currencySchema,
  paymentState: paymentStateSchema,
  outstandingAmount: z.number(),
});

export const reviewLineSchema = z.object({
  id: z.string(),
  bookedOn: z.string(),
  amount: z.number(),
  currency: currencySchema,
  description: z.string(),
  payer: z.string(),
  status: z.enum(['open', 'matched', 'ignored']),
  confidence: matchConfidenceSchema,
  /** Why the match was proposed (or why there is none), for the admin to judge. */
  why: z.string(),
  pledge: proposedPledgeSchema.nullable(),
});
export type ReviewLine = z.infer<typeof reviewLineSchema>;

/** GET /api/admin/statements/lines: the lines still open, with fresh proposals. */
export const reviewLinesSchema = z.object({ lines: z.array(reviewLineSchema) });

/** POST /api/admin/statements/import. */
export const statementImportResultSchema = z.object({
  /** Credits in the file; new = not seen in an earlier import. */
  credits: z.number().int(),
  newLines: z.number().int(),
  alreadyImported: z.number().int(),
  /** Debits and zero lines, left out. */
  skipped: z.number().int(),
  lines: z.array(reviewLineSchema),
});
export type StatementImportResult = z.infer<typeof statementImportResultSchema>;

/** POST /api/admin/statements/confirm: how many lines confirmed a pledge, how many were skipped. */
export const statementConfirmResultSchema = z.object({
  confirmed: z.number().int(),
  skipped: z.number().int(),
  /** The lines skipped (already matched elsewhere, or their pledge deleted). */
  skippedLines: z.array(z.string()).optional(),
});
