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

/**
 * certain (a reference, ticked when owed money), likely (a near reference or the donor's name),
 * review ("Needs a look": two references, another currency, a possible duplicate, a tie) and
 * unmatched. docs/decisions/013-statement-matching.md.
 */
export const matchConfidenceSchema = z.enum(['certain', 'likely', 'review', 'unmatched']);
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
export type ProposedPledge = z.infer<typeof proposedPledgeSchema>;

/** The earlier line a line may repeat (same date, amount and reference or payer). */
export const duplicateOfSchema = z.object({
  id: z.string(),
  bookedOn: z.string(),
  amountCents: z.number().int(),
  currency: currencySchema,
  payer: z.string(),
  status: z.enum(['open', 'matched', 'ignored']),
});
export type DuplicateOf = z.infer<typeof duplicateOfSchema>;

export const reviewLineSchema = z.object({
  id: z.string(),
  bookedOn: z.string(),
  /** In units of the currency, cents included (12.34); amountCents is exact. */
  amount: z.number(),
  amountCents: z.number().int(),
  currency: currencySchema,
  description: z.string(),
  payer: z.string(),
  status: z.enum(['open', 'matched', 'ignored']),
  confidence: matchConfidenceSchema,
  /** Why the match was proposed (or why there is none) and what differs, for the admin to judge. */
  why: z.string(),
  pledge: proposedPledgeSchema.nullable(),
  /** Pledges that fit equally well, or all those the line names: the admin chooses one. */
  candidates: z.array(proposedPledgeSchema),
  /** Ticked when the review opens (one rule, the server's): certain, owed money, not a duplicate. */
  preTicked: z.boolean(),
  duplicateOf: duplicateOfSchema.nullable(),
});
export type ReviewLine = z.infer<typeof reviewLineSchema>;

export const REVIEW_PAGE_SIZE = 50;
export const REVIEW_PAGE_SIZE_MAX = 200;
const pageError = { error: 'page must be a whole number from 1' };
const pageSizeError = {
  error: `pageSize must be a whole number from 1 to ${REVIEW_PAGE_SIZE_MAX}`,
};

/** ?page=&pageSize= of the review's lists. */
export const reviewLinesQuerySchema = z.object({
  page: z.coerce
    .number(pageError)
    .int(pageError)
    .min(1, pageError)
    .max(1_000_000, pageError)
    .optional()
    .default(1),
  pageSize: z.coerce
    .number(pageSizeError)
    .int(pageSizeError)
    .min(1, pageSizeError)
    .max(REVIEW_PAGE_SIZE_MAX, pageSizeError)
    .optional()
    .default(REVIEW_PAGE_SIZE),
});
export type ReviewLinesQuery = z.infer<typeof reviewLinesQuerySchema>;

/**
 * GET /api/admin/statements/lines: one page of the lines still open, with fresh proposals, in the
 * bank file's order, newest import first.
 */
export const reviewLinesSchema = z.object({
  lines: z.array(reviewLineSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type ReviewLinesPage = z.infer<typeof reviewLinesSchema>;

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

/** The reasons the review offers for dismissing a line; "Other" asks for the admin's words. */
export const DISMISS_REASONS = ['Bank interest', 'Not a donation', 'Duplicate', 'Other'] as const;

/** POST /api/admin/statements/lines/{id}/dismiss: the line is no gift to match (audited). */
export const statementDismissSchema = z.object({
  reason: z
    .string({ error: 'Say why the line is dismissed' })
    .trim()
    .min(1, { error: 'Say why the line is dismissed' })
    .max(200, { error: 'The reason can have at most 200 characters' }),
});
export type StatementDismiss = z.infer<typeof statementDismissSchema>;

export const statementLineParamsSchema = z.object({
  id: z.uuid({ error: 'Invalid line id' }),
});

export const dismissedLineSchema = z.object({
  id: z.string(),
  bookedOn: z.string(),
  amountCents: z.number().int(),
  currency: currencySchema,
  description: z.string(),
  payer: z.string(),
  reason: z.string(),
  dismissedAt: z.iso.datetime(),
});
export type DismissedLine = z.infer<typeof dismissedLineSchema>;

/** GET /api/admin/statements/dismissed: the dismissed lines, most recently dismissed first. */
export const dismissedLinesSchema = z.object({
  lines: z.array(dismissedLineSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type DismissedLinesPage = z.infer<typeof dismissedLinesSchema>;

/** Dismiss and restore answer with the line's new status. */
export const statementLineStatusSchema = z.object({
  id: z.string(),
  status: z.enum(['open', 'matched', 'ignored']),
});
