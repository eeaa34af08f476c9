import { parse } from 'csv-parse/sync';
import { createHash } from 'node:crypto';
import type { Currency } from '@shared/constants';
import { STATEMENT_MAX_BYTES, type StatementMapping } from '@shared/schemas/statement';
import { badRequest } from '../../lib/http-error';

/**
 * Bank-statement CSV files as online banking exports them
 * (docs/decisions/013-statement-matching.md): any of UTF-8 (with or without BOM), UTF-16 or
 * Windows-1252; comma, semicolon, tab or pipe delimited; a few lines of account details before the
 * header; amounts like 1,234.56, 1.234,56, (50.00) or J$1,000.
 */
export interface DecodedCsv {
  rows: string[][];
  headers: string[];
  body: string[][];
  delimiter: string;
  encoding: string;
}

const NOT_CSV =
  'This file is not a CSV file. In your online banking, export the statement as CSV (comma or semicolon separated values) and try again.';

export function decodeStatement(bytes: Buffer): { text: string; encoding: string } {
  if (bytes.length === 0) throw badRequest('The file is empty');
  if (bytes.length > STATEMENT_MAX_BYTES)
    throw badRequest('The file is larger than 5 MB. Export a shorter period.');
  const head = bytes.subarray(0, 8);
  if (
    head.subarray(0, 4).toString('latin1') === '%PDF' ||
    head.subarray(0, 2).toString('latin1') === 'PK' ||
    head.readUInt32BE(0) === 0xd0cf11e0
  )
    throw badRequest(NOT_CSV);
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    return { text: new TextDecoder('utf-16le').decode(bytes.subarray(2)), encoding: 'UTF-16LE' };
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return { text: new TextDecoder('utf-16be').decode(bytes.subarray(2)), encoding: 'UTF-16BE' };
  // NUL bytes do not occur in text: a binary file (an image, a spreadsheet) renamed .csv.
  if (bytes.includes(0)) throw badRequest(NOT_CSV);
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  try {
    return {
      text: new TextDecoder('utf-8', { fatal: true }).decode(bom ? bytes.subarray(3) : bytes),
      encoding: 'UTF-8',
    };
  } catch {
    // Not valid UTF-8: older banking exports are Windows-1252 (a superset of Latin-1).
    return { text: new TextDecoder('windows-1252').decode(bytes), encoding: 'Windows-1252' };
  }
}

/** The delimiter that splits the first lines into the same number (> 1) of fields. */
function detectDelimiter(text: string): string {
  const lines = text
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

export function readCsv(bytes: Buffer): DecodedCsv {
  const { text, encoding } = decodeStatement(bytes);
  const delimiter = detectDelimiter(text);
  let rows: string[][];
  try {
    rows = parse(text, {
      delimiter,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      trim: true,
    }) as string[][];
  } catch (err) {
    throw badRequest(`This file could not be read as CSV: ${(err as Error).message}`);
  }
  const width = mode(rows.map((r) => r.length));
  if (rows.length < 2 || width < 2) throw badRequest(NOT_CSV);
  // Account details often come first: the header is the first row as wide as the table.
  const headerAt = rows.findIndex((r) => r.length === width && r.every((c) => c !== ''));
  const start = headerAt >= 0 ? headerAt : rows.findIndex((r) => r.length === width);
  const headers = rows[start]!.map((h, i) => h || `Column ${i + 1}`);
  const body = rows.slice(start + 1).filter((r) => r.some((c) => c !== ''));
  return { rows, headers, body, delimiter, encoding };
}

/** Cents from a bank's amount text; null when it is not an amount. */
export function parseAmountCents(raw: string): number | null {
  let s = raw.trim();
  if (!s) return null;
  let negative = false;
  if (/^\(.*\)$/.test(s)) {
    negative = true;
    s = s.slice(1, -1);
  }
  if (/-\s*$/.test(s) || /^-/.test(s.replace(/^[A-Za-z$\s]+/, ''))) negative = true;
  s = s.replace(/[^0-9.,]/g, '');
  if (!/[0-9]/.test(s)) return null;
  const lastDot = s.lastIndexOf('.');
  const lastComma = s.lastIndexOf(',');
  let decimal: string | null = null;
  if (lastDot >= 0 && lastComma >= 0) decimal = lastDot > lastComma ? '.' : ',';
  else if (lastComma >= 0 && /,\d{1,2}$/.test(s)) decimal = ',';
  else if (lastDot >= 0 && /\.\d{1,2}$/.test(s)) decimal = '.';
  let whole = s;
  let frac = '';
  if (decimal) {
    const at = s.lastIndexOf(decimal);
    whole = s.slice(0, at);
    frac = s.slice(at + 1);
  }
  whole = whole.replace(/[.,]/g, '');
  const cents = Number(whole || '0') * 100 + Number((frac + '00').slice(0, 2));
  if (!Number.isSafeInteger(cents)) return null;
  return negative ? -cents : cents;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** A booking date as YYYY-MM-DD; null when it is not a real date. */
export function parseDate(raw: string, order: StatementMapping['dateOrder']): string | null {
  const s = raw.trim().toLowerCase();
  let y: number, m: number, d: number;
  let match = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})/.exec(s);
  if (match) [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  else if ((match = /^(\d{1,2})[-/. ]([a-z]{3})[a-z]*[-/. ,]+(\d{2,4})/.exec(s))) {
    d = Number(match[1]);
    m = MONTHS.indexOf(match[2]!) + 1;
    y = Number(match[3]);
  } else if ((match = /^([a-z]{3})[a-z]* (\d{1,2}),? (\d{4})/.exec(s))) {
    m = MONTHS.indexOf(match[1]!) + 1;
    d = Number(match[2]);
    y = Number(match[3]);
  } else if ((match = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{2,4})/.exec(s))) {
    const [a, b] = [Number(match[1]), Number(match[2])];
    y = Number(match[3]);
    [d, m] = order === 'MDY' ? [b, a] : [a, b];
  } else return null;
  if (y < 100) y += 2000;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (m < 1 || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return date.toISOString().slice(0, 10);
}

/** A first guess of the mapping from the header names (English banking exports). */
export function guessMapping(headers: string[]): Partial<StatementMapping> {
  const find = (re: RegExp) => headers.find((h) => re.test(h.toLowerCase()));
  const credit = find(/credit|paid in|money in|deposit/);
  return {
    date: find(/date|booked|posted|valuta/),
    amount: credit ? undefined : find(/amount|betrag|value/),
    credit,
    debit: find(/debit|paid out|money out|withdrawal/),
    currency: find(/currency|ccy|curr/),
    description: find(/description|details|narrative|reference|memo|purpose|remark/),
    payer: find(/payer|name|counterparty|from|sender|remitter/),
  };
}

export interface StatementLine {
  fingerprint: string;
  bookedOn: string;
  amountCents: number;
  currency: Currency;
  description: string;
  payer: string;
}

/**
 * The credits of a statement with the mapping applied. Every line gets a fingerprint; identical
 * lines in one file (two equal transfers on one day) are told apart by their rank among them, so
 * the same lines in an overlapping statement get the same fingerprints again.
 */
export function statementCredits(csv: DecodedCsv, mapping: StatementMapping) {
  const col = (name: string | undefined) => {
    if (!name) return -1;
    const i = csv.headers.indexOf(name);
    if (i < 0) throw badRequest(`This file has no column "${name}". Check the column mapping.`);
    return i;
  };
  const c = {
    date: col(mapping.date),
    amount: col(mapping.amount),
    credit: col(mapping.credit),
    currency: col(mapping.currency),
    description: col(mapping.description),
    payer: col(mapping.payer),
  };
  const lines: StatementLine[] = [];
  let skipped = 0;
  const seen = new Map<string, number>();
  for (const [i, row] of csv.body.entries()) {
    const cell = (at: number) => (at >= 0 ? (row[at] ?? '').trim() : '');
    const bookedOn = parseDate(cell(c.date), mapping.dateOrder);
    const amountCents = parseAmountCents(cell(c.amount >= 0 ? c.amount : c.credit));
    if (!bookedOn && !amountCents) {
      skipped++; // a footer ("Closing balance"), a blank
      continue;
    }
    if (!bookedOn)
      throw badRequest(
        `Line ${i + 2}: "${cell(c.date)}" is not a date. Check the date column and order.`,
      );
    if (amountCents === null || amountCents <= 0) {
      skipped++; // money going out, or nothing
      continue;
    }
    const currencyText = c.currency >= 0 ? cell(c.currency).toUpperCase() : mapping.fixedCurrency!;
    const currency: Currency | null = /JMD|J\$/.test(currencyText)
      ? 'JMD'
      : /USD|US\$/.test(currencyText)
        ? 'USD'
        : null;
    if (!currency)
      throw badRequest(`Line ${i + 2}: currency "${currencyText}" is neither USD nor JMD.`);
    const description = cell(c.description).replace(/\s+/g, ' ');
    const payer = cell(c.payer).replace(/\s+/g, ' ');
    const base = [
      bookedOn,
      amountCents,
      currency,
      description.toUpperCase(),
      payer.toUpperCase(),
    ].join('|');
    const rank = seen.get(base) ?? 0;
    seen.set(base, rank + 1);
    const fingerprint = createHash('sha256').update(`${base}|${rank}`).digest('hex');
    lines.push({ fingerprint, bookedOn, amountCents, currency, description, payer });
  }
  return { lines, skipped };
}
