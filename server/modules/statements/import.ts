import { findReferences } from '@shared/payment-reference';
import type {
  SavedMapping,
  StatementFormat,
  StatementMapping,
  StatementPreview,
} from '@shared/schemas/statement';
import { statementMappingSchema } from '@shared/schemas/statement';
import type { DbOrTx } from '../../db/client';
import { badRequest } from '../../lib/http-error';
import {
  decodeStatement,
  detectFormat,
  guessMapping,
  readCsv,
  statementCredits,
  type DecodedCsv,
  type ReadLines,
  type StatementLine,
} from './parse';
import { readCamt } from './parse/camt';
import { fromBase64 } from './parse/decode';
import { isDateLike } from './parse/date';
import { readOfx } from './parse/ofx';
import { type Slicer } from './parse/slicer';
import * as repo from './repo';

/**
 * Reading a statement file and storing its lines (docs/decisions/013-statement-matching.md). The
 * routes call these; matching the stored lines to pledges is review.ts.
 */
export type OpenedStatement =
  | { format: 'csv'; encoding: string; csv: DecodedCsv }
  | { format: Exclude<StatementFormat, 'csv'>; encoding: string; read: ReadLines };

export async function openStatement(
  bytes: Buffer | string,
  firstRowIsData: boolean | undefined,
  slicer: Slicer,
): Promise<OpenedStatement> {
  const { text, encoding } = await decodeStatement(
    typeof bytes === 'string' ? await fromBase64(bytes, slicer) : bytes,
    slicer,
  );
  const format = detectFormat(text);
  if (format === 'ofx') return { format, encoding, read: await readOfx(text, slicer) };
  if (format === 'camt053') return { format, encoding, read: await readCamt(text, slicer) };
  return { format, encoding, csv: await readCsv(text, { firstRowIsData }, slicer) };
}

export async function readLines(
  opened: OpenedStatement,
  mapping: StatementMapping | undefined,
  slicer: Slicer,
): Promise<ReadLines> {
  if (opened.format !== 'csv') return opened.read;
  if (!mapping) throw badRequest('Choose which column holds what before importing.');
  return statementCredits(opened.csv, mapping, slicer);
}

const SAMPLE_ROWS = 5;

/** A guess for a header-less file: the first date column, the first amount column, the widest text. */
function guessByShape(csv: DecodedCsv): Partial<StatementMapping> {
  const rows = csv.body.slice(0, 20);
  // Most of the column's cells (a malformed one does not hide the column).
  const columnIs = (i: number, test: (c: string) => boolean) => {
    const cells = rows.map((r) => r.cells[i] ?? '').filter(Boolean);
    return cells.length > 0 && cells.filter(test).length >= cells.length * 0.8;
  };
  const index = csv.headers.map((_, i) => i);
  const date = index.find((i) => columnIs(i, isDateLike));
  const amount = index.find(
    (i) =>
      i !== date && columnIs(i, (c) => /^[-+($\d\u2212]/.test(c) && /\d/.test(c) && !isDateLike(c)),
  );
  const width = (i: number) => rows.reduce((n, r) => n + (r.cells[i]?.length ?? 0), 0);
  const text = index
    .filter((i) => i !== date && i !== amount && columnIs(i, (c) => /[A-Za-z]{2}/.test(c)))
    .sort((a, b) => width(b) - width(a));
  const name = (i: number | undefined) => (i === undefined ? undefined : csv.headers[i]);
  return { date: name(date), amount: name(amount), description: name(text[0]) };
}

/** Day first or month first, from dates where one part is above 12; DMY when nothing says. */
function guessDateOrder(
  csv: DecodedCsv,
  dateColumn: string | undefined,
): StatementMapping['dateOrder'] {
  const i = dateColumn ? csv.headers.indexOf(dateColumn) : -1;
  if (i < 0) return 'DMY';
  for (const r of csv.body.slice(0, 200)) {
    const m = /^(\d{1,2})[-/.](\d{1,2})[-/.]\d{2,4}/.exec(r.cells[i] ?? '');
    if (!m) {
      if (/^\d{4}[-/.]\d/.test(r.cells[i] ?? '')) return 'YMD';
      continue;
    }
    if (Number(m[1]) > 12) return 'DMY';
    if (Number(m[2]) > 12) return 'MDY';
  }
  return 'DMY';
}

function toSaved(row: repo.StatementMappingRow): SavedMapping | null {
  const parsed = statementMappingSchema.safeParse(row.mapping);
  return parsed.success ? { id: row.id, name: row.name, mapping: parsed.data } : null;
}

/** What the mapping screen shows: columns, the first rows, and the saved mapping that fits. */
export async function previewOf(
  db: DbOrTx,
  opened: OpenedStatement,
  legacy: Partial<StatementMapping> | undefined,
): Promise<StatementPreview> {
  if (opened.format !== 'csv') {
    const { read } = opened;
    return {
      format: opened.format,
      headers: ['Date', 'Amount', 'Currency', 'Payer', 'Description'],
      sample: read.lines
        .slice(0, SAMPLE_ROWS)
        .map((l) => [
          l.bookedOn,
          (l.amountCents / 100).toFixed(2),
          l.currency,
          l.payer,
          l.description,
        ]),
      delimiter: '',
      encoding: opened.encoding,
      firstRowIsData: false,
      lineCount: read.fileLines,
      mapping: {},
      mappings: [],
      matchedMappingId: null,
      mappingName: '',
    };
  }
  const { csv } = opened;
  const rows = await repo.listMappings(db);
  const saved = rows.map(toSaved).filter((s) => s !== null);
  const fits = (m: Partial<StatementMapping>) =>
    !m.firstRowIsData === !csv.firstRowIsData &&
    [m.date, m.amount, m.credit, m.debit, m.currency, m.description, m.payer, m.direction, m.status]
      .filter(Boolean)
      .every((h) => csv.headers.includes(h!));
  const bySignature = rows.find((r) => r.signature === csv.signature);
  const matched =
    saved.find((s) => s.id === bySignature?.id) ?? saved.find((s) => fits(s.mapping)) ?? null;
  let mapping: Partial<StatementMapping>;
  if (matched) mapping = matched.mapping;
  else if (legacy && fits(legacy)) mapping = legacy;
  else {
    const guess = csv.firstRowIsData
      ? guessByShape(csv)
      : guessMapping(
          csv.headers,
          csv.body.slice(0, 50).map((r) => r.cells),
        );
    mapping = { ...guess, dateOrder: guessDateOrder(csv, guess.date) };
  }
  return {
    format: 'csv',
    headers: csv.headers,
    sample: csv.body.slice(0, SAMPLE_ROWS).map((r) => csv.headers.map((_, i) => r.cells[i] ?? '')),
    delimiter: csv.delimiter,
    encoding: opened.encoding,
    firstRowIsData: csv.firstRowIsData,
    lineCount: csv.body.length,
    mapping: { ...mapping, firstRowIsData: csv.firstRowIsData },
    mappings: saved,
    matchedMappingId: matched?.id ?? null,
    mappingName: matched?.name ?? defaultName(csv),
  };
}

export function defaultName(csv: DecodedCsv): string {
  return csv.firstRowIsData
    ? `Statement without header, ${csv.headers.length} columns`
    : `Statement with ${csv.headers.slice(0, 3).join(', ')}…`.slice(0, 100);
}

/** What tells a line apart from another on the same day with the same amount. */
function duplicateKey(l: { description: string; payer: string }, prefixes: readonly string[]) {
  const refs = findReferences(`${l.description} ${l.payer}`, prefixes).sort();
  if (refs.length > 0) return `ref:${refs.join(',')}`;
  const words = (s: string) =>
    s
      .toUpperCase()
      .replace(/[^A-Z0-9]+/g, ' ')
      .trim();
  return words(l.payer) ? `payer:${words(l.payer)}` : `text:${words(l.description)}`;
}

/**
 * Stores the new lines of one import and flags each new line equal on booking date, amount,
 * currency and reference-or-payer to a line of an earlier import as a possible duplicate of it.
 */
export async function storeLines(
  tx: DbOrTx,
  importId: string,
  lines: StatementLine[],
  prefixes: readonly string[],
  slicer: Slicer,
): Promise<{ added: Set<string>; duplicates: number }> {
  const inserted = await repo.insertNewLines(tx, importId, lines, slicer);
  const idOf = new Map(inserted.map((r) => [r.fingerprint, r.id]));
  const fresh = lines.filter((l) => idOf.has(l.fingerprint));
  let duplicates = 0;
  for (let i = 0; i < fresh.length; i += 500) {
    const chunk = fresh.slice(i, i + 500);
    const earlier = await repo.earlierLinesLike(tx, importId, chunk);
    await slicer.pause();
    if (earlier.length === 0) continue;
    const first = new Map<string, string>();
    for (const e of earlier) {
      const key = `${e.bookedOn}|${e.amountCents}|${e.currency}|${duplicateKey(e, prefixes)}`;
      if (!first.has(key)) first.set(key, e.id);
    }
    for (const l of chunk) {
      const of = first.get(
        `${l.bookedOn}|${l.amountCents}|${l.currency}|${duplicateKey(l, prefixes)}`,
      );
      if (!of) continue;
      await repo.markDuplicate(tx, idOf.get(l.fingerprint)!, of);
      duplicates++;
    }
  }
  return { added: new Set(inserted.map((r) => r.id)), duplicates };
}
