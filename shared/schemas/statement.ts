import { z } from 'zod';
import { currencySchema } from './pledge';

/** The largest statement file accepted (issue 11). */
export const STATEMENT_MAX_BYTES = 5 * 1024 * 1024;

const column = z.string().trim().min(1).max(200);

/**
 * Which column holds what, by header name; remembered between imports. Either one signed amount
 * column, or a credit column (and a debit column, ignored: money going out is not a gift).
 */
export const statementMappingSchema = z
  .object({
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
  })
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

export type MatchConfidence = 'certain' | 'likely' | 'unmatched';

export interface StatementPreview {
  headers: string[];
  sample: string[][];
  delimiter: string;
  encoding: string;
  /** The remembered mapping when its columns exist in this file, else a guess. */
  mapping: Partial<StatementMapping>;
}

export interface ProposedPledge {
  id: string;
  name: string;
  reference: string;
  amount: number;
  currency: 'USD' | 'JMD';
  paymentState: 'pending' | 'part-paid' | 'paid';
  outstandingAmount: number;
}

export interface ReviewLine {
  id: string;
  bookedOn: string;
  amount: number;
  currency: 'USD' | 'JMD';
  description: string;
  payer: string;
  status: 'open' | 'matched' | 'ignored';
  confidence: MatchConfidence;
  /** Why the match was proposed (or why there is none), for the admin to judge. */
  why: string;
  pledge: ProposedPledge | null;
}

export interface StatementImportResult {
  /** Credits in the file; new = not seen in an earlier import. */
  credits: number;
  newLines: number;
  alreadyImported: number;
  /** Debits and zero lines, left out. */
  skipped: number;
  lines: ReviewLine[];
}
