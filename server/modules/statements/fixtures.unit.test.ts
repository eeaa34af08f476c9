import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StatementMapping } from '@shared/schemas/statement';
import { openStatement, readLines } from './import';
import type { ReadLines } from './parse';
import { Slicer } from './parse/slicer';

/**
 * Every line of every fixture (tests/fixtures/statements/, written after real export layouts):
 * stored with its date, currency and amount, or skipped or refused with the reason. Keys are the
 * line numbers in the file.
 */
const FIXTURES = path.resolve(import.meta.dirname, '../../../tests/fixtures/statements');

function outcomes(read: ReadLines): Record<string, string> {
  const out: Record<string, string> = {};
  // A CAMT.053 batch entry gives several lines from one place of the file: "71", "71 (2)".
  const put = (line: number, text: string) => {
    let key = String(line);
    for (let n = 2; key in out; n++) key = `${line} (${n})`;
    out[key] = text;
  };
  for (const l of read.lines)
    put(
      l.line,
      `stored ${l.bookedOn} ${l.currency} ${(l.amountCents / 100).toFixed(2)} | ${l.payer} | ${l.description}`,
    );
  for (const s of read.skippedLines) put(s.line, `skipped: ${s.kind}`);
  for (const r of read.refused) put(r.line, `refused: ${r.reason}`);
  return out;
}

async function read(file: string, mapping?: StatementMapping) {
  const opened = await openStatement(
    readFileSync(path.join(FIXTURES, file)),
    undefined,
    new Slicer(),
  );
  return { opened, read: await readLines(opened, mapping, new Slicer()) };
}

const ncb: StatementMapping = {
  date: 'Txn Date',
  credit: 'Credit',
  debit: 'Debit',
  fixedCurrency: 'JMD',
  description: 'Description',
  dateOrder: 'DMY',
};

describe('fixtures: every line read as a careful treasurer would', () => {
  it("(a) debit/credit export: account lines above the header, a footer, cents kept; 2,500 is read as 2500 because the file's other amounts use the decimal point", async () => {
    const { opened, read: r } = await read('ncb-debit-credit.csv', ncb);
    expect(opened.format).toBe('csv');
    expect(outcomes(r)).toEqual({
      7: 'stored 2025-02-03 JMD 15200.00 |  | INTERNET TRF FROM MARCUS CAMPBELL MRJ-9EYV-K',
      8: 'skipped: moneyOut',
      9: 'stored 2025-02-05 JMD 5000.00 |  | TRF FROM A THOMPSON RELIEF',
      10: 'skipped: moneyOut',
      11: 'stored 2025-02-07 JMD 12.34 |  | INTEREST CREDIT',
      12: 'stored 2025-02-10 JMD 1000.00 |  | TRF FROM R DUPONT',
      13: 'stored 2025-02-10 JMD 1000.00 |  | TRF FROM R DUPONT',
      14: 'stored 2025-02-11 JMD 2500.00 |  | TRF FROM K LEWIS',
      15: 'skipped: other',
    });
  });

  it('(d) the next export of (a), overlapping it: the same lines read the same way', async () => {
    const { opened, read: r } = await read('ncb-debit-credit-next.csv', ncb);
    expect(opened.format).toBe('csv');
    expect(outcomes(r)).toEqual({
      7: 'stored 2025-02-07 JMD 12.34 |  | INTEREST CREDIT',
      8: 'stored 2025-02-10 JMD 1000.00 |  | TRF FROM R DUPONT',
      9: 'stored 2025-02-10 JMD 1000.00 |  | TRF FROM R DUPONT',
      10: 'stored 2025-02-11 JMD 2500.00 |  | TRF FROM K LEWIS',
      11: 'stored 2025-03-03 JMD 5000.00 |  | INTERNET TRF FROM ANDREA THOMPSON MRJ-WUQW-9',
      12: 'skipped: moneyOut',
      13: 'skipped: other',
    });
  });

  it("(b) header-less export (a large US bank's checking export): month-first dates, signed amounts, a trailing comma", async () => {
    const { opened, read: r } = await read('us-checking-headerless.csv', {
      date: 'Column 1',
      amount: 'Column 2',
      description: 'Column 5',
      fixedCurrency: 'USD',
      dateOrder: 'MDY',
      firstRowIsData: true,
    });
    expect(opened.format).toBe('csv');
    expect(outcomes(r)).toEqual({
      1: 'stored 2025-01-02 USD 100.00 |  | ZELLE FROM JANE BROWN ON 01/02 REF # MRJ-QAR7-T',
      2: 'skipped: moneyOut',
      3: 'stored 2025-01-06 USD 240.00 |  | WIRE TRANS SVC TRN#250106-0042 ORG=DEVON CLARKE MRJ-CQG8-G',
      4: 'skipped: moneyOut',
      5: 'stored 2025-01-14 USD 33.00 |  | ONLINE TRANSFER FROM UNKNOWN PERSON',
      6: 'stored 2025-01-14 USD 33.00 |  | ONLINE TRANSFER FROM UNKNOWN PERSON',
      7: 'stored 2025-01-15 USD 1234.00 |  | MOBILE DEPOSIT',
      8: 'refused: "01/32/2025" is not a date (as MDY). Check the date column and the date order.',
    });
  });

  it('(b2) a header with data rows one field longer (trailing comma)', async () => {
    const { opened, read: r } = await read('us-checking-trailing-comma.csv', {
      date: 'Posting Date',
      amount: 'Amount',
      description: 'Description',
      fixedCurrency: 'USD',
      dateOrder: 'MDY',
    });
    expect(opened.format).toBe('csv');
    expect(outcomes(r)).toEqual({
      2: 'stored 2025-01-02 USD 100.00 |  | ZELLE PAYMENT FROM JANE BROWN MRJ-QAR7-T',
      3: 'skipped: moneyOut',
      4: 'stored 2025-01-06 USD 240.00 |  | WIRE FROM DEVON CLARKE MRJ-CQG8-G',
      5: 'stored 2025-01-07 USD 50.00 |  | DEPOSIT ID NUMBER 123456',
    });
  });

  it('(c) transaction history with Direction and Status: CANCELLED and OUT (a refund quoting a reference) skipped, J$12.34 keeps its cents', async () => {
    const { opened, read: r } = await read('fintech-direction-status.csv', {
      date: 'Finished on',
      amount: 'Amount',
      currency: 'Currency',
      description: 'Reference',
      payer: 'Source name',
      direction: 'Direction',
      status: 'Status',
      dateOrder: 'YMD',
    });
    expect(opened.format).toBe('csv');
    expect(outcomes(r)).toEqual({
      2: 'stored 2025-03-01 USD 100.00 | Jane Brown | MRJ-QAR7-T',
      3: 'skipped: notCompleted',
      4: 'skipped: moneyOut',
      5: 'skipped: moneyOut',
      6: 'stored 2025-03-05 USD 240.00 | Devon Clarke | MRJ-CQG8-G',
      7: 'stored 2025-03-06 JMD 12.34 | Marcus Campbell | MRJ-9EYV-K part',
      8: 'refused: Currency "EUR" is neither USD nor JMD.',
    });
  });

  it('(e) semicolon-delimited, day-first, 1.234,56 amounts, Cr./DR markers and a Unicode minus', async () => {
    const { opened, read: r } = await read('semicolon-day-first-eu.csv', {
      date: 'Buchungstag',
      amount: 'Betrag',
      currency: 'Währung',
      description: 'Verwendungszweck',
      payer: 'Auftraggeber/Empfänger',
      dateOrder: 'DMY',
    });
    expect(opened.format).toBe('csv');
    expect(outcomes(r)).toEqual({
      2: 'stored 2025-02-03 USD 75.00 | Kemar Lewis | Spende MRJ-FYYK-6 Hurrikan',
      3: 'skipped: moneyOut',
      4: 'stored 2025-02-05 JMD 5000.00 | Andrea Thompson | MRJ-WUQW-9 Hurrikanhilfe',
      5: 'stored 2025-02-13 JMD 1250.00 | Renée Dupont | Spende',
      6: 'stored 2025-02-14 JMD 1234.00 | Sophia Williams | MRJ-TK8J-K',
      7: 'stored 2025-02-17 USD 10.00 | Devon Clarke | Spende',
      8: 'skipped: moneyOut',
      9: 'skipped: moneyOut',
      10: 'refused: Amount "1.234.5": separators in the wrong places.',
    });
  });

  it('(f) OFX 1.x (SGML): TRNAMT > 0 only, CURRENCY of a transaction, a zero line', async () => {
    const { opened, read: r } = await read('bank-ofx1.ofx');
    expect(opened.format).toBe('ofx');
    expect(outcomes(r)).toEqual({
      39: 'stored 2025-02-03 USD 100.00 | JANE BROWN | ZELLE MRJ-QAR7-T',
      47: 'skipped: moneyOut',
      54: 'stored 2025-02-05 USD 33.00 | UNKNOWN PERSON | ONLINE TRANSFER',
      62: 'stored 2025-02-05 USD 33.00 | UNKNOWN PERSON | ONLINE TRANSFER',
      70: 'stored 2025-02-06 JMD 15200.00 | MARCUS CAMPBELL | MRJ-9EYV-K',
      82: 'skipped: other',
    });
  });

  it('(g) OFX 2 (XML): PAYEE aggregate, an entity in MEMO', async () => {
    const { opened, read: r } = await read('bank-ofx2.ofx');
    expect(opened.format).toBe('ofx');
    expect(outcomes(r)).toEqual({
      25: 'stored 2025-03-03 JMD 5000.00 | ANDREA THOMPSON | MRJ-WUQW-9 RELIEF & THANKS',
      33: 'skipped: moneyOut',
      40: 'stored 2025-03-05 JMD 12.34 | INTEREST CREDIT | INTEREST CREDIT',
      47: 'stored 2025-03-06 JMD 1000.00 | RENEE DUPONT | DONATION',
    });
  });

  it('(h) CAMT.053: CRDT and BOOK only, Ccy attribute, EndToEndId when no Ustrd, a batch entry as two lines', async () => {
    const { opened, read: r } = await read('bank-camt053.xml');
    expect(opened.format).toBe('camt053');
    expect(outcomes(r)).toEqual({
      23: 'stored 2025-03-03 USD 100.00 | JANE BROWN | MRJ-QAR7-T donation',
      40: 'skipped: moneyOut',
      49: 'skipped: notCompleted',
      58: 'stored 2025-03-06 USD 240.00 | DEVON CLARKE | MRJ-CQG8-G',
      71: 'stored 2025-03-07 USD 33.00 | UNKNOWN PERSON | ONLINE TRANSFER',
      '71 (2)': 'stored 2025-03-07 USD 33.00 | UNKNOWN PERSON | ONLINE TRANSFER',
      92: 'stored 2025-03-08 JMD 15200.00 | MARCUS CAMPBELL | RELIEF MRJ-9EYV-K',
      101: 'refused: Currency "EUR" is neither USD nor JMD.',
    });
  });
});
