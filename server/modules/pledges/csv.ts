import { stringify } from 'csv-stringify';
import { Readable } from 'node:stream';
import type { Db } from '../../db/client';
import { pledgePageAfter } from './repo';
import { toCsvRecord } from './views';

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
      for (const r of rows) yield toCsvRecord(r);
      if (rows.length < pageSize) return;
      after = rows[rows.length - 1]!.id;
    }
  }
  const source = Readable.from(pages());
  source.on('error', (err) => csv.destroy(err));
  return source.pipe(csv);
}
