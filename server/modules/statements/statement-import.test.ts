import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import type {
  StatementImportResult,
  StatementMapping,
  StatementPreview,
} from '@shared/schemas/statement';
import { describe, expect, test } from '../../../tests/support/fixtures';
import { statementImports, statementLines } from '../../db/schema';

/**
 * Reading statements through the API: layouts of real exports, refusals
 * with a 4xx, fingerprints of the raw cells (another mapping of the same bytes adds nothing),
 * possible duplicates, saved mappings, OFX and CAMT.053 without a mapping. Every line's outcome
 * per fixture is in fixtures.unit.test.ts.
 */
const FIXTURES = path.resolve(import.meta.dirname, '../../../tests/fixtures/statements');
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name));
const b64 = (b: Buffer | string) => Buffer.from(b).toString('base64');

const ncb: StatementMapping = {
  date: 'Txn Date',
  credit: 'Credit',
  debit: 'Debit',
  fixedCurrency: 'JMD',
  description: 'Description',
  dateOrder: 'DMY',
};
const fintech: StatementMapping = {
  date: 'Finished on',
  amount: 'Amount',
  currency: 'Currency',
  description: 'Reference',
  payer: 'Source name',
  direction: 'Direction',
  status: 'Status',
  dateOrder: 'YMD',
};

describe('reading bank statements', () => {
  type Client = {
    request: (p: string, init?: RequestInit & { json?: unknown }) => Promise<Response>;
  };
  const post = (c: Client, url: string, json: unknown) => c.request(url, { method: 'POST', json });
  async function preview(c: Client, file: Buffer | string, extra: object = {}) {
    const res = await post(c, '/api/admin/statements/preview', { content: b64(file), ...extra });
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as StatementPreview;
  }
  async function importFile(
    c: Client,
    file: Buffer | string,
    mapping?: StatementMapping,
    mappingName?: string,
  ) {
    const res = await post(c, '/api/admin/statements/import', {
      fileName: 'statement',
      content: b64(file),
      mapping,
      mappingName,
    });
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as StatementImportResult;
  }
  const message = async (res: Response) => ((await res.json()) as { message: string }).message;

  test('a header-less export keeps its first payment; columns are Column 1..N; the switch overrides', async ({
    adminClient,
  }) => {
    const file = fixture('us-checking-headerless.csv');
    const p = await preview(adminClient, file);
    expect(p).toMatchObject({
      format: 'csv',
      firstRowIsData: true,
      headers: ['Column 1', 'Column 2', 'Column 3', 'Column 4', 'Column 5'],
      lineCount: 8,
      mapping: { date: 'Column 1', amount: 'Column 2', description: 'Column 5', dateOrder: 'MDY' },
    });
    expect(p.sample).toHaveLength(5);
    expect(p.sample[0]![4]).toContain('ZELLE FROM JANE BROWN');
    // "The first row is a transaction" switched off: the first row becomes the header.
    const off = await preview(adminClient, file, { firstRowIsData: false });
    expect(off.firstRowIsData).toBe(false);
    expect(off.headers[0]).toBe('01/02/2025');
    expect(off.lineCount).toBe(7);

    const r = await importFile(adminClient, file, {
      date: 'Column 1',
      amount: 'Column 2',
      description: 'Column 5',
      fixedCurrency: 'USD',
      dateOrder: 'MDY',
      firstRowIsData: true,
    });
    expect(r).toMatchObject({
      format: 'csv',
      fileLines: 8,
      credits: 5,
      newLines: 5,
      alreadyImported: 0,
      skipped: 2,
      skippedBy: { moneyOut: 2, notCompleted: 0, other: 0 },
      refused: [
        {
          line: 8,
          reason: '"01/32/2025" is not a date (as MDY). Check the date column and the date order.',
        },
      ],
    });
    const first = r.lines.find((l) => l.description.includes('ZELLE FROM JANE BROWN'));
    expect(first).toMatchObject({ bookedOn: '2025-01-02', amount: 100, currency: 'USD' });
  });

  test('data rows one field longer than the header (trailing comma) are read, not a 500', async ({
    adminClient,
  }) => {
    const file = fixture('us-checking-trailing-comma.csv');
    const p = await preview(adminClient, file);
    expect(p.headers).toHaveLength(7);
    expect(p.mapping).toMatchObject({ date: 'Posting Date', amount: 'Amount' });
    const r = await importFile(adminClient, file, {
      date: 'Posting Date',
      amount: 'Amount',
      description: 'Description',
      fixedCurrency: 'USD',
      dateOrder: 'MDY',
    });
    expect(r).toMatchObject({ credits: 3, skippedBy: { moneyOut: 1 }, refused: [] });
  });

  test('direction and status: only completed money in is stored; refused lines say why', async ({
    adminClient,
    app,
  }) => {
    const file = fixture('fintech-direction-status.csv');
    const p = await preview(adminClient, file);
    expect(p.mapping).toMatchObject({
      direction: 'Direction',
      status: 'Status',
      date: 'Finished on',
    });
    const r = await importFile(adminClient, file, fintech, 'Fintech USD');
    expect(r).toMatchObject({
      credits: 3,
      newLines: 3,
      skipped: 3,
      skippedBy: { moneyOut: 2, notCompleted: 1, other: 0 },
      refused: [{ line: 8, reason: 'Currency "EUR" is neither USD nor JMD.' }],
    });
    // The refund quoting a reference and the cancelled transfer were never stored.
    const { db } = app.database;
    const rows = await db
      .select()
      .from(statementLines)
      .where(eq(statementLines.importId, r.importId!));
    expect(rows.map((l) => [l.position, l.amountCents, l.currency]).sort()).toEqual([
      [1, 10_000, 'USD'],
      [5, 24_000, 'USD'],
      [6, 1234, 'JMD'],
    ]);
    expect(rows.find((l) => l.position === 1)!.raw).toEqual([
      'TRANSFER-1001',
      'COMPLETED',
      'IN',
      '2025-03-01 10:02:11',
      '2025-03-01 10:02:15',
      'Jane Brown',
      '100.00',
      'USD',
      'MRJ-QAR7-T',
    ]);
    // The treasurer says which values mean money in: "OUT" does not, nothing else changes.
    const strict = await importFile(adminClient, file, { ...fintech, directionIn: ['in'] });
    expect(strict).toMatchObject({ credits: 3, newLines: 0, alreadyImported: 3 });
    // Counting CANCELLED as completed is the treasurer's choice, never the default
    const lax = await importFile(adminClient, file, {
      ...fintech,
      completed: ['COMPLETED', 'CANCELLED'],
    });
    // (it has no finished date, so it is refused, not guessed).
    expect(lax).toMatchObject({ credits: 3, newLines: 0, skippedBy: { notCompleted: 0 } });
    expect(lax.refused).toContainEqual({ line: 3, reason: 'No date in the column "Finished on".' });
  });

  test('the same bytes under another mapping are already imported; an overlapping export adds only new lines and flags a possible duplicate', async ({
    adminClient,
    app,
  }) => {
    const file = fixture('semicolon-day-first-eu.csv');
    const mapping: StatementMapping = {
      date: 'Buchungstag',
      amount: 'Betrag',
      currency: 'Währung',
      description: 'Verwendungszweck',
      payer: 'Auftraggeber/Empfänger',
      dateOrder: 'DMY',
    };
    const first = await importFile(adminClient, file, mapping);
    expect(first).toMatchObject({ credits: 5, newLines: 5 });
    // Payer unmapped, the other date column and another date order: still the same lines.
    const again = await importFile(adminClient, file, {
      ...mapping,
      payer: undefined,
      date: 'Valuta',
      dateOrder: 'MDY',
    });
    expect(again).toMatchObject({ newLines: 0, possibleDuplicates: 0 });
    expect(again.alreadyImported).toBe(again.credits);

    const a = await importFile(
      adminClient,
      fixture('ncb-debit-credit.csv'),
      ncb,
      'NCB JMD account',
    );
    expect(a).toMatchObject({ credits: 6, newLines: 6, skippedBy: { moneyOut: 2, other: 1 } });
    const d = await importFile(adminClient, fixture('ncb-debit-credit-next.csv'), ncb);
    // 07-Feb and both 10-Feb lines are the same rows; 11-Feb is printed with a balance now, so it
    // is a new row but equal on date, amount and text: a possible duplicate of the first.
    expect(d).toMatchObject({ credits: 5, newLines: 2, alreadyImported: 3, possibleDuplicates: 1 });
    const { db } = app.database;
    const [dup] = await db
      .select()
      .from(statementLines)
      .where(eq(statementLines.importId, d.importId!))
      .orderBy(statementLines.position);
    const original = await db
      .select()
      .from(statementLines)
      .where(eq(statementLines.importId, a.importId!));
    expect(dup!.duplicateOf).toBe(original.find((l) => l.bookedOn === '2025-02-11')!.id);
    const imports = await db
      .select()
      .from(statementImports)
      .where(inArray(statementImports.id, [a.importId!, d.importId!]));
    expect(imports.map((i) => [i.format, i.mappingName, i.creditCount, i.newCount]).sort()).toEqual(
      [
        ['csv', 'NCB JMD account', 5, 2],
        ['csv', 'NCB JMD account', 6, 6],
      ],
    );
  });

  test('several saved mappings, recognised by the header row or a header-less shape', async ({
    adminClient,
  }) => {
    await importFile(adminClient, fixture('ncb-debit-credit.csv'), ncb, 'NCB JMD account');
    await importFile(adminClient, fixture('fintech-direction-status.csv'), fintech, 'Fintech USD');
    const headerless = {
      date: 'Column 1',
      amount: 'Column 2',
      description: 'Column 5',
      fixedCurrency: 'USD' as const,
      dateOrder: 'MDY' as const,
      firstRowIsData: true,
    };
    await importFile(adminClient, fixture('us-checking-headerless.csv'), headerless, 'US checking');
    const p = await preview(adminClient, fixture('ncb-debit-credit-next.csv'));
    expect(p.mappingName).toBe('NCB JMD account');
    expect(p.mappings.map((m) => m.name)).toEqual(
      expect.arrayContaining(['NCB JMD account', 'Fintech USD', 'US checking']),
    );
    expect(p.matchedMappingId).toBe(p.mappings.find((m) => m.name === 'NCB JMD account')!.id);
    expect(p.mapping).toMatchObject({ credit: 'Credit', fixedCurrency: 'JMD' });
    const f = await preview(adminClient, fixture('fintech-direction-status.csv'));
    expect(f.mappingName).toBe('Fintech USD');
    // Another header-less export of the same account: same columns, same shapes.
    const next =
      '"02/03/2025","75.00","*","","ZELLE FROM KEMAR LEWIS",\r\n"02/04/2025","-5.00","*","","FEE",\r\n';
    const h = await preview(adminClient, next);
    expect(h).toMatchObject({ firstRowIsData: true, mappingName: 'US checking' });
    expect(h.mapping).toMatchObject({ fixedCurrency: 'USD', dateOrder: 'MDY' });
  });

  test('OFX 1.x, OFX 2 and CAMT.053 go straight through; re-imports add nothing', async ({
    adminClient,
  }) => {
    for (const [name, format, credits] of [
      ['bank-ofx1.ofx', 'ofx', 4],
      ['bank-ofx2.ofx', 'ofx', 3],
      ['bank-camt053.xml', 'camt053', 5],
    ] as const) {
      const p = await preview(adminClient, fixture(name));
      expect(p.format).toBe(format);
      expect(p.sample.length).toBeGreaterThan(0);
      const r = await importFile(adminClient, fixture(name));
      expect(r).toMatchObject({ format, credits, newLines: credits });
      const again = await importFile(adminClient, fixture(name));
      expect(again).toMatchObject({ credits, newLines: 0, alreadyImported: credits });
    }
  });

  test('files that cannot be a statement get a clear 400, never a 500', async ({ adminClient }) => {
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('Date,Amount\r\n2025-01-03,\u000010.00\r\n', 'utf16le'),
    ]);
    const many = `Date,Amount,Payer\n${Array.from({ length: 20_001 }, (_, i) => `2025-01-03,1.00,P${i}`).join('\n')}`;
    const cases: [Buffer | string, RegExp][] = [
      ['\n', /too short to hold a statement/],
      ['x', /too short to hold a statement/],
      ['   ', /too short to hold a statement/],
      [utf16, /control characters/],
      [
        many,
        /^This statement has 20,001 lines; at most 20,000 can be imported at once\. Export a shorter period\.$/,
      ],
      ['<?xml version="1.0"?><html><body/></html>', /not a bank statement/],
      [
        '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaa">]><Document><BkToCstmrStmt><Stmt>&a;</Stmt></BkToCstmrStmt></Document>',
        /DOCTYPE/,
      ],
      ['Date,Amount\n', /no transactions/],
    ];
    for (const [bytes, expected] of cases) {
      for (const url of ['/api/admin/statements/preview', '/api/admin/statements/import']) {
        const res = await post(adminClient, url, {
          content: b64(bytes),
          mapping: { date: 'Date', amount: 'Amount', description: 'Date', fixedCurrency: 'USD' },
        });
        expect(res.status, `${url} ${String(bytes).slice(0, 40)}`).toBe(400);
        expect(await message(res)).toMatch(expected);
      }
    }
    // A CSV import without a mapping.
    const none = await post(adminClient, '/api/admin/statements/import', {
      content: b64(fixture('ncb-debit-credit.csv')),
    });
    expect(none.status).toBe(400);
    expect(await message(none)).toMatch(/Choose which column/);
  });

  test('a 20,000-line statement imports', async ({ adminClient }) => {
    const rows = Array.from(
      { length: 20_000 },
      (_, i) =>
        `2025-01-${String((i % 28) + 1).padStart(2, '0')},"INCOMING TRANSFER ${i}",PAYER ${i},${(i % 500) + 1}.25,USD`,
    );
    const file = `Date,Description,Payer,Amount,Currency\n${rows.join('\n')}`;
    const r = await importFile(adminClient, file, {
      date: 'Date',
      amount: 'Amount',
      currency: 'Currency',
      description: 'Description',
      payer: 'Payer',
      dateOrder: 'YMD',
    });
    expect(r).toMatchObject({ fileLines: 20_000, credits: 20_000, newLines: 20_000 });
  }, 120_000);
});
