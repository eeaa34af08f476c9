import { createHash } from 'node:crypto';
import type { Currency } from '@shared/constants';
import {
  DEFAULT_COMPLETED,
  DEFAULT_DIRECTION_IN,
  DEFAULT_DIRECTION_OUT,
  type StatementMapping,
} from '@shared/schemas/statement';
import { badRequest } from '../../lib/http-error';
import { decimalStyleOf, parseAmount, type Amount } from './parse/amount';
import type { DecodedCsv } from './parse/csv';
import { parseDate } from './parse/date';
import { Slicer } from './parse/slicer';

/**
 * Reading bank statements (docs/decisions/013-statement-matching.md): decoding and the format
 * (parse/decode.ts), CSV tables (parse/csv.ts), amounts (parse/amount.ts), dates (parse/date.ts),
 * OFX (parse/ofx.ts), CAMT.053 (parse/camt.ts). This file turns rows into the statement's lines:
 * only completed incoming money is kept; the rest is skipped (counted by kind) or refused (with the
 * line number and the reason) line by line, never guessed.
 */
export { decodeStatement, detectFormat } from './parse/decode';
export { readCsv, type DecodedCsv } from './parse/csv';
export { parseDate } from './parse/date';

/** Cents from a bank's amount text; null when it is not an amount or could mean two sums. */
export function parseAmountCents(raw: string): number | null {
  const a = parseAmount(raw);
  return a.kind === 'amount' ? a.cents : null;
}

export interface StatementLine {
  fingerprint: string;
  bookedOn: string;
  amountCents: number;
  currency: Currency;
  description: string;
  payer: string;
  /** The line's place in its file (0-based), and its 1-based line number in the file. */
  position: number;
  line: number;
  /** The cells (CSV) or fields (OFX, CAMT.053) as the file had them. */
  raw: unknown;
}

export type SkipKind = 'moneyOut' | 'notCompleted' | 'other';
interface Refusal {
  line: number;
  reason: string;
}

export interface ReadLines {
  /** Transactions read (data rows, OFX transactions, CAMT entries). */
  fileLines: number;
  lines: StatementLine[];
  skippedBy: Record<SkipKind, number>;
  /** Each skipped line's number and kind (the tests check every line). */
  skippedLines: { line: number; kind: SkipKind }[];
  refused: Refusal[];
}

export function skipLine(read: ReadLines, line: number, kind: SkipKind) {
  read.skippedBy[kind]++;
  read.skippedLines.push({ line, kind });
}

export const emptyRead = (): ReadLines => ({
  fileLines: 0,
  lines: [],
  skippedBy: { moneyOut: 0, notCompleted: 0, other: 0 },
  skippedLines: [],
  refused: [],
});

/**
 * Fingerprints that tell apart identical transactions of one file by their rank among them (two
 * equal transfers on one day stay two lines), so the same lines in an overlapping statement get
 * the same fingerprints again.
 */
export class Fingerprints {
  private seen = new Map<string, number>();
  of(kind: string, parts: readonly string[]): string {
    const base = `${kind}\u001f${parts.join('\u001f')}`;
    const rank = this.seen.get(base) ?? 0;
    this.seen.set(base, rank + 1);
    return createHash('sha256').update(`${base}\u001e${rank}`).digest('hex');
  }
}

/** "USD", "US$", "JMD", "J$" in a currency cell. */
export function currencyOf(text: string): Currency | null {
  const t = text.toUpperCase();
  const jmd = /JMD|J\$/.test(t);
  const usd = /USD|US\$/.test(t);
  return jmd === usd ? null : jmd ? 'JMD' : 'USD';
}

const FOOTER = /balance|total|closing|opening|brought forward|carried forward|summary/i;
const oneSpace = (s: string) => s.replace(/\s+/g, ' ');

/**
 * A first guess of the mapping from the header names (English banking exports; the first
 * alternative that names a header wins), and the first rows' values for the direction column.
 */
export function guessMapping(
  headers: string[],
  sample: string[][] = [],
): Partial<StatementMapping> {
  const find = (...patterns: RegExp[]) => {
    for (const re of patterns) {
      const h = headers.find((name) => re.test(name.toLowerCase()));
      if (h) return h;
    }
    return undefined;
  };
  const credit = find(/credit|paid in|money in|deposit/);
  const known = new Set([...DEFAULT_DIRECTION_IN, ...DEFAULT_DIRECTION_OUT]);
  // A direction column only when every value in the first rows is a known one.
  const direction = headers.find((_, i) => {
    const values = sample.map((r) => (r[i] ?? '').trim().toUpperCase()).filter(Boolean);
    return values.length > 0 && values.every((v) => known.has(v)) && headers[i] !== credit;
  });
  return {
    date: find(/date|booked|posted|valuta|buchung/, /finished|completed/, /created|time/),
    amount: credit ? undefined : find(/amount|betrag|value/),
    credit,
    debit: find(/debit|paid out|money out|withdrawal/),
    currency: find(/currency|ccy|curr|währung/),
    description: find(
      /description|narrative|reference|memo|purpose|verwendung/,
      /details|remark|particulars/,
    ),
    payer: find(/payer|counterparty|sender|remitter|auftraggeber/, /name|from/),
    direction,
    status: find(/^(status|state)$/),
  };
}

/**
 * The completed incoming transfers of a CSV statement, with the mapping applied. The fingerprint
 * is of the raw cells (trimmed, trailing empty cells dropped), not of the mapped fields, so the
 * same bytes under another mapping are the same lines.
 */
export async function statementCredits(
  csv: DecodedCsv,
  mapping: StatementMapping,
  slicer = new Slicer(),
): Promise<ReadLines> {
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
    debit: col(mapping.debit),
    currency: col(mapping.currency),
    description: col(mapping.description),
    payer: col(mapping.payer),
    direction: col(mapping.direction),
    status: col(mapping.status),
  };
  const upper = (values: readonly string[]) => new Set(values.map((v) => v.trim().toUpperCase()));
  const directionIn = mapping.directionIn?.length ? upper(mapping.directionIn) : null;
  const knownIn = upper(DEFAULT_DIRECTION_IN);
  const knownOut = upper(DEFAULT_DIRECTION_OUT);
  const completed = upper(mapping.completed?.length ? mapping.completed : DEFAULT_COMPLETED);
  const amountColumns = [c.amount, c.credit, c.debit].filter((i) => i >= 0);
  // 1,234 is 1234 or 1.234: the file's other amounts say which, when they agree.
  const style = await decimalStyleOf(
    (function* () {
      for (const r of csv.body) for (const i of amountColumns) yield r.cells[i] ?? '';
    })(),
    slicer,
  );
  const out = emptyRead();
  const prints = new Fingerprints();
  for (const row of csv.body) {
    await slicer.pause();
    out.fileLines++;
    const cell = (at: number) => (at >= 0 ? (row.cells[at] ?? '').trim() : '');
    const refuse = (reason: string) => out.refused.push({ line: row.line, reason });
    const skip = (kind: SkipKind) => skipLine(out, row.line, kind);
    const dateText = cell(c.date);
    const bookedOn = parseDate(dateText, mapping.dateOrder);
    // A footer or a balance line: no date, and a word saying what it is.
    const footer = !bookedOn && FOOTER.test(row.cells.join(' '));

    // 1. Which way the money went: a direction column, a debit column, a sign or a DR marker.
    let into: boolean | null = null;
    if (c.direction >= 0) {
      const d = cell(c.direction).toUpperCase();
      if (directionIn) into = directionIn.has(d);
      else if (knownIn.has(d)) into = true;
      else if (knownOut.has(d)) into = false;
      else if (footer) {
        skip('other');
        continue;
      } else {
        refuse(
          `Direction "${cell(c.direction)}" is neither money in nor out: say on the mapping screen which values mean money in.`,
        );
        continue;
      }
      if (!into) {
        skip('moneyOut');
        continue;
      }
    }
    let amount: Amount;
    if (c.amount >= 0) amount = parseAmount(cell(c.amount), style);
    else {
      amount = parseAmount(cell(c.credit), style);
      const debit = c.debit >= 0 ? parseAmount(cell(c.debit), style) : { kind: 'empty' as const };
      if (amount.kind === 'empty' && debit.kind !== 'empty') {
        skip('moneyOut');
        continue;
      }
      if (amount.kind !== 'empty' && debit.kind === 'amount' && debit.cents !== 0) {
        refuse(`Both a credit (${cell(c.credit)}) and a debit (${cell(c.debit)}) on one line.`);
        continue;
      }
    }
    if (amount.kind === 'empty' || (amount.kind === 'refused' && footer)) {
      if (footer || !dateText) skip('other');
      else refuse(`No amount on this line.`);
      continue;
    }
    if (amount.kind === 'refused') {
      refuse(`Amount ${amount.reason}.`);
      continue;
    }
    if (amount.cents < 0) {
      if (into) refuse(`The direction says money in but the amount ${cell(c.amount)} is negative.`);
      else skip('moneyOut');
      continue;
    }
    if (amount.cents === 0) {
      skip('other');
      continue;
    }
    // 2. Completed only (when the file says).
    if (c.status >= 0 && !completed.has(cell(c.status).toUpperCase())) {
      skip('notCompleted');
      continue;
    }
    if (!bookedOn) {
      if (footer) skip('other');
      else if (!dateText) refuse(`No date in the column "${mapping.date}".`);
      else
        refuse(
          `"${dateText}" is not a date (as ${mapping.dateOrder}). Check the date column and the date order.`,
        );
      continue;
    }
    // 3. The currency: its column, else what the amount says, else the whole statement's.
    let currency: Currency | null;
    if (c.currency >= 0) {
      currency = currencyOf(cell(c.currency));
      if (!currency) {
        refuse(`Currency "${cell(c.currency)}" is neither USD nor JMD.`);
        continue;
      }
    } else currency = amount.currency ?? mapping.fixedCurrency ?? null;
    if (!currency) {
      refuse('No currency: choose the currency column or the currency of the whole statement.');
      continue;
    }
    if (amount.currency && amount.currency !== currency) {
      refuse(`The amount says ${amount.currency} but the line is in ${currency}.`);
      continue;
    }
    const raw = row.cells.slice(0, Math.max(1, lastFilled(row.cells)));
    out.lines.push({
      fingerprint: prints.of('csv', raw),
      bookedOn,
      amountCents: amount.cents,
      currency,
      description: oneSpace(cell(c.description)),
      payer: oneSpace(cell(c.payer)),
      position: row.position,
      line: row.line,
      raw,
    });
  }
  return out;
}

function lastFilled(cells: string[]): number {
  let n = cells.length;
  while (n > 0 && !cells[n - 1]) n--;
  return n;
}
