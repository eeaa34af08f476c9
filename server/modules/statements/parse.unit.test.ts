import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../lib/http-error';
import { openStatement, readLines } from './import';
import { parseAmount, type DecimalStyle } from './parse/amount';
import { parseDate } from './parse/date';
import { readCsv } from './parse/csv';
import { decodeStatement, detectFormat, fromBase64 } from './parse/decode';
import { Slicer } from './parse/slicer';

/** Every amount form a bank writes: [cell, cents (or REFUSED with part of the reason), currency]. */
const REFUSED = Symbol('refused');
const AMOUNTS: [string, number | typeof REFUSED, string?, DecimalStyle?][] = [
  // Plain, thousands both ways, decimals one or two.
  ['100', 10_000],
  ['100.00', 10_000],
  ['10.5', 1050],
  ['75,00', 7500],
  ['1,234.56', 123_456],
  ['1.234,56', 123_456],
  ['1,234,567.89', 123_456_789],
  ['1.234.567,89', 123_456_789],
  ['1,234,567', 123_456_700],
  ['1.234.567', 123_456_700],
  ['1 234,56', 123_456],
  ["1'234.56", 123_456],
  ['0.99', 99],
  // Currency symbols and codes, before or after, with or without a space.
  ['US$1,234.56', 123_456, 'USD'],
  ['J$15,200.00', 1_520_000, 'JMD'],
  ['$50.00', 5000],
  ['USD 50.00', 5000, 'USD'],
  ['50.00 USD', 5000, 'USD'],
  ['JMD 1.234,56', 123_456, 'JMD'],
  ['-J$10.00', -1000, 'JMD'],
  ['J$-10.00', -1000, 'JMD'],
  // Signs: leading, trailing, Unicode minus, parentheses, plus.
  ['-15.00', -1500],
  ['15.00-', -1500],
  ['\u221210.00', -1000],
  ['\u2212 10.00', -1000],
  ['(50.00)', -5000],
  ['($50.00)', -5000],
  ['(J$1,000.00)', -100_000, 'JMD'],
  ['+10.00', 1000],
  // Credit and debit markers, with or without a dot or a space, any case.
  ['10.00 Cr.', 1000],
  ['10.00 CR', 1000],
  ['10.00CR', 1000],
  ['10.00 cr', 1000],
  ['10.00 DR', -1000],
  ['10.00 Dr.', -1000],
  ['10.00DR', -1000],
  ['10.00 C', 1000],
  ['10.00 D', -1000],
  ['CR 10.00', 1000],
  ['DR 10.00', -1000],
  ['1,234.56 Cr.', 123_456],
  ['J$1,234.56 DR', -123_456, 'JMD'],
  ['10.00 JMD', 1000, 'JMD'],
  // With the file's decimal style known from its other amounts, 1,234 is certain.
  ['1,234', 123_400, undefined, '.'],
  ['1.234', 123_400, undefined, ','],
  // Refused, never guessed.
  ['1,234', REFUSED],
  ['1.234', REFUSED],
  ['J$15,200', REFUSED],
  ['1.234.5', REFUSED],
  ['1,23,456.00', REFUSED],
  ['10.00 20.00', REFUSED],
  ['10 20', REFUSED],
  ['1.2345', REFUSED],
  ['1,234.567', REFUSED],
  ['10.', REFUSED],
  ['-10.00 DR', REFUSED],
  ['(10.00) CR', REFUSED],
  ['-(10.00)', REFUSED],
  ['US$10.00 JMD', REFUSED],
  ['n/a', REFUSED],
  ['CR', REFUSED],
  ['12abc', REFUSED],
  ['1,234', REFUSED, undefined, ','],
];

describe('amounts (every form)', () => {
  it.each(AMOUNTS)('%s', (cell, expected, currency, style) => {
    const a = parseAmount(cell, style);
    if (expected === REFUSED) {
      expect(a.kind).toBe('refused');
      if (a.kind === 'refused') expect(a.reason).toContain(cell.trim());
    } else {
      expect(a).toEqual({ kind: 'amount', cents: expected, ...(currency ? { currency } : {}) });
    }
  });

  it('an empty cell is no amount', () => {
    expect(parseAmount('')).toEqual({ kind: 'empty' });
    expect(parseAmount('   ')).toEqual({ kind: 'empty' });
  });

  it('says why: 1,234 could be two sums', () => {
    expect(parseAmount('1,234')).toEqual({
      kind: 'refused',
      reason: '"1,234": could be 1234 or 1.234; export amounts with two decimals',
    });
  });
});

describe('dates', () => {
  it.each([
    ['03.01.2025', 'DMY', '2025-01-03'],
    ['01/03/2025', 'MDY', '2025-01-03'],
    ['2025-01-03', 'DMY', '2025-01-03'],
    ['20250103', 'DMY', '2025-01-03'],
    ['05-Jan-2025', 'DMY', '2025-01-05'],
    ['Jan 5, 2025', 'DMY', '2025-01-05'],
    ['01/03/25', 'MDY', '2025-01-03'],
    ['31/02/2025', 'DMY', null],
    ['Closing balance', 'DMY', null],
    ['100.00', 'DMY', null],
  ] as const)('%s (%s)', (cell, order, expected) => {
    expect(parseDate(cell, order)).toBe(expected);
  });
});

const csv = (text: string, firstRowIsData?: boolean) => readCsv(text, { firstRowIsData });

describe('CSV tables', () => {
  it('a first row of a date and an amount is a transaction: columns are Column 1..N', async () => {
    const t = await csv(
      '"01/03/2025","-15.00","*","","BANK FEE",\n"01/04/2025","100.00","*","","MRJ-QAR7-T JANE",\n',
    );
    expect(t.firstRowIsData).toBe(true);
    expect(t.headers).toEqual(['Column 1', 'Column 2', 'Column 3', 'Column 4', 'Column 5']);
    expect(t.body).toHaveLength(2);
    expect(t.signature).toBe('headerless:5:dnteT'.replace('T', 't'));
  });

  it('a header row stays the header; the switch makes it a transaction', async () => {
    const text = 'Date,Amount,Description\n01/03/2025,10.00,X\n';
    expect((await csv(text)).headers).toEqual(['Date', 'Amount', 'Description']);
    const forced = await csv(text, true);
    expect(forced.headers).toEqual(['Column 1', 'Column 2', 'Column 3']);
    expect(forced.body).toHaveLength(2);
  });

  it('reads data rows longer (trailing comma) or shorter than the header', async () => {
    const t = await csv(
      'Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #\nCREDIT,01/03/2025,ZELLE FROM JANE,100.00,QUICKPAY_CREDIT,1100.00,,\nDEBIT,01/04/2025,FEE,-15.00\n',
    );
    expect(t.headers).toHaveLength(7);
    expect(t.body.map((r) => r.cells.length)).toEqual([8, 4]);
    expect(t.body.map((r) => r.line)).toEqual([2, 3]);
  });

  it('skips account lines above the header', async () => {
    const t = await csv('Account,123\nPeriod,Jan\n\nDate,Amount,Payer\n2025-01-03,1.00,A\n');
    expect(t.headers).toEqual(['Date', 'Amount', 'Payer']);
    expect(t.body[0]!.line).toBe(5);
  });

  it('refuses more than 20,000 lines with the count', async () => {
    const rows = Array.from({ length: 20_001 }, (_, i) => `2025-01-03,1.00,P${i}`);
    await expect(csv(`Date,Amount,Payer\n${rows.join('\n')}`)).rejects.toThrow(
      'This statement has 20,001 lines; at most 20,000 can be imported at once. Export a shorter period.',
    );
  });

  it('reads a large file in slices: no slice holds the event loop for 50 ms', async () => {
    const file = (n: number) =>
      'Date,Description,Payer,Amount,Currency\n' +
      Array.from(
        { length: n },
        (_, i) =>
          `2025-01-03,"INCOMING TRANSFER ${'X'.repeat(150)} ${i}",PAYER ${i},"1,000.00",USD`,
      ).join('\n');
    await readCsv(file(2000), {}); // compiled once, as a running server has
    // Flat, as TextDecoder gives it (a concatenated string is flattened on first read).
    const text = Buffer.from(file(20_000)).toString('utf8');
    const slicer = new Slicer();
    const t = await readCsv(text, {}, slicer);
    expect(t.body).toHaveLength(20_000);
    // CPU time: on a machine shared with other processes, wall time also counts their turns.
    expect(slicer.longestCpu).toBeLessThan(50);
  });
});

describe('decoding', () => {
  it.each([['\n'], ['x'], ['   '], ['\r\n\r\n']])(
    '%j is too short to hold a statement',
    async (text) => {
      await expect(decodeStatement(Buffer.from(text))).rejects.toThrow(
        'too short to hold a statement',
      );
    },
  );

  it('refuses control characters, also in UTF-16', async () => {
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('Date,Amount\u0000\n1,2\n', 'utf16le'),
    ]);
    await expect(decodeStatement(utf16)).rejects.toThrow('control characters');
    await expect(decodeStatement(Buffer.from('Date,Amount\u0007\n2025-01-01,2\n'))).rejects.toThrow(
      'control characters',
    );
  });

  it('reads base64 in slices, also with line breaks', async () => {
    const text = 'Date,Amount\n' + 'x'.repeat(2_000_000);
    const b64 = Buffer.from(text).toString('base64');
    expect((await fromBase64(b64, new Slicer())).toString()).toBe(text);
    const wrapped = b64.replace(/.{76}/g, '$&\r\n');
    expect((await fromBase64(wrapped, new Slicer())).toString()).toBe(text);
  });

  it('tells OFX, CAMT.053 and CSV apart by content', () => {
    expect(detectFormat('OFXHEADER:100\nDATA:OFXSGML\n<OFX>')).toBe('ofx');
    expect(detectFormat('<?xml version="1.0"?>\n<?OFX OFXHEADER="200"?>\n<OFX>')).toBe('ofx');
    expect(
      detectFormat(
        '<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">',
      ),
    ).toBe('camt053');
    expect(detectFormat('Date,Amount\n')).toBe('csv');
    expect(() => detectFormat('<?xml version="1.0"?><html/>')).toThrow('not a bank statement');
  });
});

describe('any input: a statement, or a 400 that says why (never another error)', () => {
  const mapping = {
    date: 'Column 1',
    amount: 'Column 2',
    description: 'Column 3',
    fixedCurrency: 'USD' as const,
    dateOrder: 'DMY' as const,
  };
  async function readAny(bytes: Buffer) {
    try {
      const opened = await openStatement(bytes, undefined, new Slicer());
      if (opened.format !== 'csv') return;
      const withColumns = {
        ...mapping,
        date: opened.csv.headers[0]!,
        amount: opened.csv.headers[1] ?? opened.csv.headers[0]!,
        description: opened.csv.headers[0]!,
      };
      await readLines(opened, withColumns, new Slicer());
    } catch (err) {
      expect(err).toBeInstanceOf(HttpError);
      expect((err as HttpError).statusCode).toBe(400);
    }
  }

  it('random text, CSV-like text, OFX-like and CAMT-like fragments', async () => {
    const pieces = [
      ',',
      ';',
      '\n',
      '\r\n',
      '"',
      '""',
      ' ',
      '01/02/2025',
      '-10.00',
      '1,234',
      'CR',
      'J$',
      '(5)',
      '<OFX>',
      '<STMTRS>',
      '</STMTRS>',
      '<STMTTRN>',
      '</STMTTRN>',
      '<TRNAMT>',
      'OFXHEADER:100\n',
      '<?xml version="1.0"?>',
      '<Document>',
      '<BkToCstmrStmt>',
      '<Stmt>',
      '</Stmt>',
      '<Ntry>',
      '</Ntry>',
      '<Amt Ccy="USD">',
      '</Amt>',
      'camt.053',
      '\uFEFF',
      'é',
      '\t',
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc
            .array(fc.constantFrom(...pieces), { maxLength: 60 })
            .map((p) => Buffer.from(p.join(''))),
          fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)),
          fc.string({ maxLength: 300 }).map((s) => Buffer.from(s)),
        ),
        readAny,
      ),
      { numRuns: 400 },
    );
  });
});
