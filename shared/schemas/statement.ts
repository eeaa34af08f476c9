import { z } from 'zod';
import { currencySchema, paymentStateSchema } from './pledge';

/** The largest statement file accepted: bounds what one upload costs to decode and parse. */
export const STATEMENT_MAX_BYTES = 5 * 1024 * 1024;
/** The answer to a statement file over STATEMENT_MAX_BYTES (the form, the schema, the parser). */
export const STATEMENT_TOO_LARGE = 'The file is larger than 5 MB. Export a shorter period.';

/** The most transactions one file may hold: above it, "Export a shorter period". */
export const STATEMENT_MAX_LINES = 20_000;

/** Status values that count as completed when the treasurer names none. */
export const DEFAULT_COMPLETED = ['COMPLETED', 'POSTED', 'BOOKED'];
/** Direction values read as money in, and as money out, when the treasurer names none. */
export const DEFAULT_DIRECTION_IN = [
  'IN',
  'CR',
  'CREDIT',
  'C',
  'CRDT',
  'INCOMING',
  'DEPOSIT',
  'RECEIVED',
  'MONEY IN',
];
export const DEFAULT_DIRECTION_OUT = [
  'OUT',
  'DR',
  'DEBIT',
  'D',
  'DBIT',
  'OUTGOING',
  'WITHDRAWAL',
  'PAYMENT',
  'SENT',
  'MONEY OUT',
];

const column = z.string().trim().min(1).max(200);
const columnValues = z.array(z.string().trim().min(1).max(50)).max(30);

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
  /** A column saying money in or out (IN/OUT, CR/DR), and its values that mean money in. */
  direction: column.optional(),
  directionIn: columnValues.optional(),
  /** A column with the transfer's status, and its values that count as completed. */
  status: column.optional(),
  completed: columnValues.optional(),
  /** The file has no header row: its first row is a transaction (columns are "Column 1".."N"). */
  firstRowIsData: z.boolean().optional(),
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
    error: STATEMENT_TOO_LARGE,
  });

export const statementPreviewSchema = z.object({
  fileName: z.string().max(300).optional(),
  content,
  /** The treasurer's "The first row is a transaction" switch; absent: detected. */
  firstRowIsData: z.boolean().optional(),
});
const mappingName = z.string().trim().min(1).max(100);
export const statementImportSchema = z.object({
  fileName: z.string().max(300).optional(),
  content,
  /** CSV only: OFX and CAMT.053 files say what each field is. */
  mapping: statementMappingSchema.optional(),
  /** The name to save the mapping under ("NCB JMD account"). */
  mappingName: mappingName.optional(),
});
/** The options of an import, apart from the file itself. */
export type StatementImportOptions = Omit<z.output<typeof statementImportSchema>, 'content'>;

/** A query-string flag: "true"/"false" (absent: not given). */
const queryFlag = z
  .enum(['true', 'false'], { error: 'Use true or false' })
  .transform((v) => v === 'true');

/** POST /api/admin/statements/preview/file?fileName=&firstRowIsData= (the file is the body). */
export const statementPreviewFileQuerySchema = z.object({
  fileName: z.string().max(300).optional(),
  firstRowIsData: queryFlag.optional(),
});

/**
 * POST /api/admin/statements/import/file?fileName=&mappingName=&mapping= (the file is the body):
 * `mapping` is the JSON of the mapping, as in the JSON call.
 */
export const statementImportFileQuerySchema = z.object({
  fileName: z.string().max(300).optional(),
  mappingName: mappingName.optional(),
  mapping: z
    .string()
    .max(8000)
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'The mapping is not valid JSON' });
        return z.NEVER;
      }
    })
    .pipe(statementMappingSchema)
    .optional(),
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
const matchConfidenceSchema = z.enum(['certain', 'likely', 'review', 'unmatched']);
export type MatchConfidence = z.infer<typeof matchConfidenceSchema>;

const statementFormatSchema = z.enum(['csv', 'ofx', 'camt053']);
export type StatementFormat = z.infer<typeof statementFormatSchema>;

const savedMappingSchema = z.object({
  id: z.string(),
  name: z.string(),
  mapping: statementMappingFields.partial(),
});
export type SavedMapping = z.infer<typeof savedMappingSchema>;

/** POST /api/admin/statements/preview. */
export const statementPreviewResultSchema = z.object({
  /** csv needs a mapping; ofx and camt053 go straight through. */
  format: statementFormatSchema,
  headers: z.array(z.string()),
  /** The first rows as read, for the mapping screen's table. */
  sample: z.array(z.array(z.string())),
  delimiter: z.string(),
  encoding: z.string(),
  /** Detected (or as the switch said): no header row, the first row is a transaction. */
  firstRowIsData: z.boolean(),
  /** Transactions (data rows) in the file. */
  lineCount: z.number().int(),
  /** The saved mapping this file's layout matched, else a guess from the headers. */
  mapping: statementMappingFields.partial(),
  mappings: z.array(savedMappingSchema),
  matchedMappingId: z.string().nullable(),
  /** The name to save the mapping under: the matched one's, else a suggestion. */
  mappingName: z.string(),
});
export type StatementPreview = z.infer<typeof statementPreviewResultSchema>;

const proposedPledgeSchema = z.object({
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
const duplicateOfSchema = z.object({
  id: z.string(),
  bookedOn: z.string(),
  amountCents: z.number().int(),
  currency: currencySchema,
  payer: z.string(),
  status: z.enum(['open', 'matched', 'ignored']),
});
export type DuplicateOf = z.infer<typeof duplicateOfSchema>;

const reviewLineSchema = z.object({
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

const REVIEW_PAGE_SIZE = 50;
const REVIEW_PAGE_SIZE_MAX = 200;
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

const skippedByKindSchema = z.object({
  /** Money going out (a debit, an OUT refund quoting a reference). */
  moneyOut: z.number().int(),
  /** A status other than completed (CANCELLED, PENDING). */
  notCompleted: z.number().int(),
  /** Balances, totals, zero amounts. */
  other: z.number().int(),
});

/** POST /api/admin/statements/import: lines (of the file) and pledges (proposed) apart. */
export const statementImportResultSchema = z.object({
  importId: z.string().nullable().optional(),
  format: statementFormatSchema.optional(),
  /** Transactions read from the file. */
  fileLines: z.number().int().optional(),
  /** Completed incoming transfers in the file; new = not seen in an earlier import. */
  credits: z.number().int(),
  newLines: z.number().int(),
  alreadyImported: z.number().int(),
  /** New lines equal on date, amount and reference or payer to an earlier one (left unticked). */
  possibleDuplicates: z.number().int().optional(),
  /** Lines left out: money out, not completed, balances and zeros. */
  skipped: z.number().int(),
  skippedBy: skippedByKindSchema.optional(),
  /** Lines that could not be read for certain, with their line number in the file and why. */
  refused: z.array(z.object({ line: z.number().int(), reason: z.string() })).optional(),
  /** Distinct pledges proposed for this file's new lines. */
  pledges: z.number().int().optional(),
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

export const statementLineParamsSchema = z.object({
  id: z.uuid({ error: 'Invalid line id' }),
});

export const statementImportParamsSchema = z.object({
  id: z.uuid({ error: 'Invalid import id' }),
});

const dismissedLineSchema = z.object({
  id: z.string(),
  bookedOn: z.string(),
  amountCents: z.number().int(),
  currency: currencySchema,
  description: z.string(),
  payer: z.string(),
  reason: z.string(),
  dismissedAt: z.iso.datetime(),
});

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

/** One import as GET /api/admin/statements/imports lists it (newest first). */
const statementImportSummarySchema = z.object({
  id: z.string(),
  fileName: z.string().nullable(),
  format: z.string(),
  importedAt: z.iso.datetime(),
  /** Completed incoming transfers in the file, and the new ones among them. */
  credits: z.number().int(),
  newLines: z.number().int(),
  /** Its lines still open, and those that recorded a payment. */
  openLines: z.number().int(),
  matchedLines: z.number().int(),
  undoneAt: z.iso.datetime().nullable(),
});
export type StatementImportSummary = z.infer<typeof statementImportSummarySchema>;
export const statementImportListSchema = z.object({
  imports: z.array(statementImportSummarySchema),
});
export type StatementImportList = z.infer<typeof statementImportListSchema>;

/** POST /api/admin/statements/imports/{id}/undo: what undoing the import changed. */
export const statementUndoResultSchema = z.object({
  id: z.string(),
  /** Lines of the file removed (they can be imported again). */
  linesRemoved: z.number().int(),
  /** Payments recorded from its lines, reversed; and the pledges they belonged to. */
  paymentsReversed: z.number().int(),
  pledgesChanged: z.number().int(),
});
export type StatementUndoResult = z.infer<typeof statementUndoResultSchema>;
