import { stringify } from 'csv-stringify';
import { Readable } from 'node:stream';
import type { Db } from '../../db/client';
import { PAYMENT_STATE_LABEL } from '@shared/received';
import { pledgePageAfter, toAdminPledge, type PledgeRow } from './repo';

export const CSV_COLUMNS = [
  'id',
  'name',
  'email',
  'amount',
  'currency',
  'containers',
  'anonymous',
  'status',
  'paymentConfirmedAt',
  'createdAt',
  // Added columns go last, so spreadsheets and scripts that read the earlier ones by position keep
  // working.
  'reference',
  // What arrived (docs/decisions/013-statement-matching.md), with cents: the charity issues
  // receipts from this file. outstanding is in the pledge's currency; dateReceived is the bank's
  // booking date of the latest payment when it came from a statement, else the day it was recorded.
  'amountReceived',
  'currencyReceived',
  'outstanding',
  'dateReceived',
] as const;

/**
 * Spreadsheets run a cell that starts with = + - @ (or a tab/CR before one) as a formula:
 * prefix it with ' so it is shown as text (OWASP "CSV injection").
 */
function neutraliseFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** 1234 cents -> "12.34": a plain number a spreadsheet reads, without a currency sign. */
function decimal(minor: number): string {
  return `${Math.trunc(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;
}

function toRecord(r: PledgeRow & { dateReceived: string | null }): string[] {
  const p = toAdminPledge(r);
  return [
    r.id,
    neutraliseFormula(r.name),
    neutraliseFormula(r.email),
    String(r.amount),
    r.currency,
    String(r.containers),
    r.isAnonymous ? 'yes' : 'no',
    PAYMENT_STATE_LABEL[p.paymentState],
    r.paymentConfirmedAt ? r.paymentConfirmedAt.toISOString() : '',
    r.createdAt.toISOString(),
    r.reference,
    p.amountReceivedMinor !== null && p.amountReceivedMinor !== undefined
      ? decimal(p.amountReceivedMinor)
      : '',
    p.currencyReceived ?? '',
    decimal(p.outstandingMinor ?? 0),
    r.dateReceived ?? '',
  ];
}

/** All pledges, newest first, streamed in keyset pages through csv-stringify. */
export function pledgesCsvStream(db: Db, pageSize = 1000): Readable {
  // bom: Excel reads a file without a UTF-8 byte-order mark as ANSI ("ZoÃ«"); csv-parse with
  // `bom: true` and most tools skip it.
  const csv = stringify({
    bom: true,
    header: true,
    columns: [...CSV_COLUMNS],
    quoted_match: /["\r\n,]/,
  });
  async function* pages() {
    let after: string | undefined;
    for (;;) {
      const rows = await pledgePageAfter(db, after, pageSize);
      for (const r of rows) yield toRecord(r);
      if (rows.length < pageSize) return;
      after = rows[rows.length - 1]!.id;
    }
  }
  const source = Readable.from(pages());
  source.on('error', (err) => csv.destroy(err));
  return source.pipe(csv);
}
