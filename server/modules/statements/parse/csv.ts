import { STATEMENT_MAX_LINES } from '@shared/schemas/statement';
import { badRequest } from '../../../lib/http-error';
import { parseAmount } from './amount';
import { isDateLike } from './date';
import { Slicer } from './slicer';

/**
 * Bank-statement CSV files as online banking exports them (docs/decisions/013-statement-matching.md):
 * comma, semicolon, tab or pipe delimited; account lines above the header, footers below; a header
 * row or none (the first row is then a transaction); data rows longer (a trailing comma) or shorter
 * than the header.
 */
interface CsvRow {
  /** The cells as read, trimmed. */
  cells: string[];
  /** 1-based line of the file where the row starts (what an editor shows). */
  line: number;
  /** 0-based place among the file's rows. */
  position: number;
}

export interface DecodedCsv {
  headers: string[];
  body: CsvRow[];
  delimiter: string;
  /** The first row of the table is a transaction (no header row). */
  firstRowIsData: boolean;
  /** What recognises the layout for a saved mapping: the header row, or the shape of a header-less one. */
  signature: string;
}

export const NOT_CSV =
  'This file is not a CSV file. In your online banking, export the statement as CSV (comma or semicolon separated values), OFX or CAMT.053 and try again.';

/** The delimiter that splits the first lines into the same number (> 1) of fields. */
function detectDelimiter(text: string): string {
  const lines = text
    .slice(0, 64 * 1024)
    .split(/\r?\n/)
    .filter((l) => l.trim())
    .slice(0, 30);
  let best = { delimiter: ',', score: -1 };
  for (const delimiter of [',', ';', '\t', '|']) {
    const counts = lines.map((l) => l.replace(/"[^"]*"/g, '').split(delimiter).length - 1);
    const modal = mode(counts);
    if (modal === 0) continue;
    const score = counts.filter((c) => c === modal).length * 100 + modal;
    if (score > best.score) best = { delimiter, score };
  }
  return best.delimiter;
}

function mode(values: number[]): number {
  const freq = new Map<number, number>();
  for (const v of values) freq.set(v, (freq.get(v) ?? 0) + 1);
  let best = 0;
  let bestN = 0;
  for (const [v, n] of freq) if (n > bestN || (n === bestN && v > best)) [best, bestN] = [v, n];
  return best;
}

const filled = (cells: string[]) => {
  let n = cells.length;
  while (n > 0 && cells[n - 1] === '') n--;
  return n;
};

const isAmountCell = (cell: string) =>
  /\d/.test(cell) && !isDateLike(cell) && parseAmount(cell, '.').kind === 'amount';

/** A row that holds a date and an amount is a transaction, not a header. */
const looksLikeData = (cells: string[]) => cells.some(isDateLike) && cells.some(isAmountCell);

/** d (date), n (amount), e (empty) or t (text): what a column holds, for a header-less signature. */
function shapeOf(cell: string): string {
  if (!cell) return 'e';
  if (isDateLike(cell)) return 'd';
  if (isAmountCell(cell)) return 'n';
  return 't';
}

/**
 * Splits the text into rows of trimmed cells (RFC 4180 quotes, "" inside them; a stray quote in an
 * unquoted cell is kept as is), pausing every 64 K characters so that a 5 MB file never holds the
 * event loop. Hand-written rather than csv-parse: its stream API cost 30-100 ms a slice with
 * line numbers on (info), and each line's number is needed to say which line was refused.
 */
async function parseRows(text: string, delimiter: string, slicer: Slicer): Promise<CsvRow[]> {
  const rows: CsvRow[] = [];
  const n = text.length;
  const sep = delimiter.charCodeAt(0);
  const QUOTE = 34;
  const CR = 13;
  const LF = 10;
  const stop = (c: number) => c === sep || c === LF || c === CR;
  let i = 0;
  let line = 1;
  let rowLine = 1;
  let row: string[] = [];
  let pauseAt = 64 * 1024;
  for (;;) {
    if (i >= pauseAt) {
      await slicer.pause();
      pauseAt = i + 64 * 1024;
    }
    let j = i;
    while (j < n && (text.charCodeAt(j) === 32 || (text.charCodeAt(j) === 9 && sep !== 9))) j++;
    let value: string;
    if (j < n && text.charCodeAt(j) === QUOTE) {
      j++;
      let quoted = '';
      for (;;) {
        const q = text.indexOf('"', j);
        if (q < 0) {
          quoted += text.slice(j);
          j = n;
          break;
        }
        quoted += text.slice(j, q);
        if (text.charCodeAt(q + 1) === QUOTE) {
          quoted += '"';
          j = q + 2;
        } else {
          j = q + 1;
          break;
        }
      }
      for (let at = quoted.indexOf('\n'); at >= 0; at = quoted.indexOf('\n', at + 1)) line++;
      let k = j;
      while (k < n && !stop(text.charCodeAt(k))) k++;
      value = quoted + text.slice(j, k);
      i = k;
    } else {
      let k = i;
      while (k < n && !stop(text.charCodeAt(k))) k++;
      value = text.slice(i, k);
      i = k;
    }
    row.push(value.trim());
    if (i < n && text.charCodeAt(i) === sep) {
      i++;
      continue;
    }
    if (row.some((c) => c !== '')) rows.push({ cells: row, line: rowLine, position: rows.length });
    if (i >= n) break;
    if (text.charCodeAt(i) === CR) i++;
    if (i < n && text.charCodeAt(i) === LF) i++;
    line++;
    rowLine = line;
    row = [];
    if (i >= n) break;
  }
  return rows;
}

export async function readCsv(
  text: string,
  options: { firstRowIsData?: boolean | undefined },
  slicer = new Slicer(),
): Promise<DecodedCsv> {
  const delimiter = detectDelimiter(text);
  const rows = await parseRows(text, delimiter, slicer);
  const width = mode(rows.map((r) => r.cells.length));
  if (rows.length < 1 || width < 2) throw badRequest(NOT_CSV);
  // Account details often come first: the table starts at the first row about as wide as it
  // (one less: a header without the data rows' trailing comma).
  const start = rows.findIndex(
    (r, i) =>
      filled(r.cells) >= 2 &&
      (r.cells.length >= width ||
        (r.cells.length === width - 1 &&
          rows[i + 1]?.cells.length === width &&
          rows[i + 1]!.cells[width - 1] === '')),
  );
  if (start < 0) throw badRequest(NOT_CSV);
  const first = rows[start]!.cells;
  const firstRowIsData = options.firstRowIsData ?? looksLikeData(first);
  const body = rows.slice(firstRowIsData ? start : start + 1);
  if (body.length === 0)
    throw badRequest('This file has a header row but no transactions under it.');
  if (body.length > STATEMENT_MAX_LINES)
    throw badRequest(
      `This statement has ${body.length.toLocaleString('en-US')} lines; at most ${STATEMENT_MAX_LINES.toLocaleString('en-US')} can be imported at once. Export a shorter period.`,
    );
  let columns = firstRowIsData ? 0 : filled(first);
  for (const r of body) columns = Math.max(columns, filled(r.cells));
  const headers: string[] = [];
  const seen = new Map<string, number>();
  for (let i = 0; i < columns; i++) {
    let name = (!firstRowIsData && first[i]) || `Column ${i + 1}`;
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    if (n > 1) name = `${name} (${n})`;
    headers.push(name);
  }
  const signature = firstRowIsData
    ? `headerless:${columns}:${headers
        .map((_, i) => mode(body.slice(0, 20).map((r) => shapeOf(r.cells[i] ?? '').charCodeAt(0))))
        .map((c) => String.fromCharCode(c))
        .join('')}`
    : `header:${headers.map((h) => h.toLowerCase().replace(/\s+/g, ' ')).join('|')}`;
  return { headers, body, delimiter, firstRowIsData, signature };
}
