import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  keyedReferenceFor,
  REFERENCE_KEY_SETTING,
  referenceFor,
  type ReferenceKey,
} from '@shared/payment-reference';
import type { AdminPledge } from '@shared/schemas/pledge';
import type {
  ReviewLine,
  StatementImportResult,
  StatementMapping,
  StatementPreview,
} from '@shared/schemas/statement';
import { type TestApp } from '../../../tests/support/test-app';
import { describe, expect, test } from '../../../tests/support/fixtures';
import { getSetting } from '../admin/repo';
import { nameCloseness } from './match';
import { parseAmountCents, parseDate } from './parse';

const FIXTURES = path.resolve(import.meta.dirname, '../../../tests/fixtures/statements');
const fixtureFile = (name: string) => readFileSync(path.join(FIXTURES, name));
const b64 = (b: Buffer | string) => Buffer.from(b).toString('base64');

describe('statement parsing (pure)', () => {
  test('reads amounts the way banks write them', () => {
    expect(parseAmountCents('1,234.56')).toBe(123_456);
    expect(parseAmountCents('1.234,56')).toBe(123_456);
    expect(parseAmountCents('75,00')).toBe(7500);
    expect(parseAmountCents('-15.00')).toBe(-1500);
    expect(parseAmountCents('(50.00)')).toBe(-5000);
    expect(parseAmountCents('J$15,200.00')).toBe(1_520_000);
    // 15,200 alone could be 15200 or 15.2: refused (parse.unit.test.ts has every form).
    expect(parseAmountCents('J$15,200')).toBeNull();
    expect(parseAmountCents('')).toBeNull();
    expect(parseAmountCents('n/a')).toBeNull();
  });

  test('reads dates day-first, month-first, ISO and with month names', () => {
    expect(parseDate('03.01.2025', 'DMY')).toBe('2025-01-03');
    expect(parseDate('01/03/2025', 'MDY')).toBe('2025-01-03');
    expect(parseDate('2025-01-03', 'DMY')).toBe('2025-01-03');
    expect(parseDate('05-Jan-2025', 'DMY')).toBe('2025-01-05');
    expect(parseDate('31/02/2025', 'DMY')).toBeNull();
    expect(parseDate('Closing balance', 'DMY')).toBeNull();
  });

  test('finds close names: initials, order, titles and accents do not matter', () => {
    expect(nameCloseness('J BROWN', 'Jane Brown')).toBe(1);
    expect(nameCloseness('BROWN JANE', 'Jane Brown')).toBe(1);
    expect(nameCloseness('MRS RENEE DUPONT', 'Renée Dupont')).toBe(1);
    expect(nameCloseness('KEMAR LEWIS', 'Jane Brown')).toBe(0);
  });
});

/**
 * The fixtures quote the public references of pledges 1-6 (referenceFor(1..6), e.g. MRJ-QAR7-T,
 * "mrj qar7 t", MRJ9EYVK). Each install has its own key (second review 2.9), so each is replaced
 * by the reference this install gave that pledge, spelled the same way (separators, case).
 */
function withInstallReferences(file: Buffer, refs: readonly string[]): Buffer {
  const byPublic = new Map(
    refs.map(
      (ref, i) =>
        [
          referenceFor(i + 1)
            .slice(4)
            .replace('-', ''),
          ref.slice(4),
        ] as const,
    ),
  );
  const text = file
    .toString('latin1')
    .replace(/MRJ([ -]?)([2-9A-Z]{4})([ -]?)([2-9A-Z])/gi, (m, s1, body, s2, check) => {
      const ours = byPublic.get(`${body}${check}`.toUpperCase());
      if (!ours) return m;
      const [b, c] = ours.split('-') as [string, string];
      const out = `${m.slice(0, 3)}${s1}${b}${s2}${c}`;
      return m === m.toLowerCase() ? out.toLowerCase() : out;
    });
  return Buffer.from(text, 'latin1');
}

describe('bank statement import', () => {
  let t: TestApp;
  let cookie: string;
  const ids: Record<string, string> = {};
  const refs: string[] = [];
  const fixture = (name: string) => withInstallReferences(fixtureFile(name), refs);
  test.beforeAll(async ({ app, adminClient }) => {
    t = app;
    cookie = adminClient.cookie;
    const key = JSON.parse(
      (await getSetting(t.database.db, REFERENCE_KEY_SETTING))!,
    ) as ReferenceKey;
    // Created in order on a fresh database: their references are the install's keyed ones for
    // 1..6, never the public referenceFor(1..6).
    const donors: [string, number, 'USD' | 'JMD'][] = [
      ['Jane Brown', 100, 'USD'],
      ['Marcus Campbell', 15_200, 'JMD'],
      ['Sophia Williams', 50, 'USD'],
      ['Devon Clarke', 250, 'USD'],
      ['Andrea Thompson', 5000, 'JMD'],
      ['Kemar Lewis', 75, 'USD'],
    ];
    for (const [i, [name, amount, currency]] of donors.entries()) {
      const res = await t.request('/api/pledges', {
        method: 'POST',
        json: { name, email: `donor${i}@donors.test`, amount, currency },
      });
      const body = (await res.json()) as { id: string; reference: string };
      expect(body.reference).toBe(keyedReferenceFor(i + 1, key));
      expect(body.reference).not.toBe(referenceFor(i + 1));
      refs.push(body.reference);
      ids[name] = body.id;
    }
  });

  const post = (url: string, json: unknown) => t.request(url, { method: 'POST', cookie, json });
  async function preview(file: Buffer) {
    const res = await post('/api/admin/statements/preview', { content: b64(file) });
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as StatementPreview;
  }
  async function importFile(file: Buffer | string, mapping: StatementMapping) {
    const res = await post('/api/admin/statements/import', {
      fileName: 'statement.csv',
      content: b64(file),
      mapping,
    });
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as StatementImportResult;
  }
  const line = (r: StatementImportResult, text: string) =>
    r.lines.find((l) => `${l.description} ${l.payer}`.includes(text))!;
  const pledgesNow = async () =>
    (await (await t.request('/api/pledges', { cookie })).json()) as AdminPledge[];
  const byName = async (name: string) => (await pledgesNow()).find((p) => p.name === name)!;

  const signedMapping: StatementMapping = {
    date: 'Date',
    amount: 'Amount',
    currency: 'Currency',
    description: 'Description',
    payer: 'Payer',
    dateOrder: 'MDY',
  };

  test('layout 1 (BOM, account lines first, one signed amount column): preview and matches', async () => {
    const p = await preview(fixture('signed-amount.csv'));
    expect(p.headers).toEqual(['Date', 'Description', 'Payer', 'Amount', 'Currency', 'Balance']);
    expect(p.delimiter).toBe(',');
    expect(p.encoding).toBe('UTF-8');
    expect(p.mapping).toMatchObject({ date: 'Date', amount: 'Amount', currency: 'Currency' });

    const r = await importFile(fixture('signed-amount.csv'), signedMapping);
    // 6 credits (two identical ones), the fee and the closing line left out.
    expect(r).toMatchObject({ credits: 5, newLines: 5, alreadyImported: 0, skipped: 2 });
    const jane = line(r, 'JANE BROWN');
    expect(jane).toMatchObject({ confidence: 'certain', amount: 100, currency: 'USD' });
    expect(jane.pledge!.id).toBe(ids['Jane Brown']);
    expect(jane.why).toContain(refs[0]);
    const sophia = line(r, 'S WILLIAMS');
    expect(sophia.confidence).toBe('likely');
    expect(sophia.pledge!.id).toBe(ids['Sophia Williams']);
    expect(sophia.why).toMatch(/Same amount \(US\$50\)/);
    const devon = line(r, 'DEVON CLARKE');
    expect(devon).toMatchObject({ confidence: 'certain', amount: 240 });
    const unknown = r.lines.filter((l) => l.payer === 'UNKNOWN PERSON');
    expect(unknown).toHaveLength(2);
    for (const u of unknown) expect(u).toMatchObject({ confidence: 'unmatched', pledge: null });
  });

  test('confirms a batch, once; a re-import and an overlapping statement confirm nothing twice', async () => {
    const r = await importFile(fixture('signed-amount.csv'), signedMapping);
    expect(r).toMatchObject({ newLines: 0, alreadyImported: 5 });
    const picks = ['JANE BROWN', 'S WILLIAMS', 'DEVON CLARKE'].map((text) => {
      const l = line(r, text);
      return { lineId: l.id, pledgeId: l.pledge!.id };
    });
    // One line named twice in a batch (for two pledges): refused before anything is written.
    const twice = await post('/api/admin/statements/confirm', {
      lines: [picks[0], { lineId: picks[0]!.lineId, pledgeId: ids['Kemar Lewis'] }],
    });
    expect(twice.status).toBe(400);
    expect((await twice.json()).message).toBe('A statement line can confirm only one pledge');
    expect(await byName('Jane Brown')).toMatchObject({ paymentState: 'pending' });
    expect(await byName('Kemar Lewis')).toMatchObject({ paymentState: 'pending' });
    const before = (await (await t.request('/api/progress')).json()) as { confirmedAmount: number };
    const res = await post('/api/admin/statements/confirm', { lines: picks });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toEqual({ confirmed: 3, skipped: 0, skippedLines: [] });
    expect(await byName('Jane Brown')).toMatchObject({ paymentState: 'paid', amountReceived: 100 });
    expect(await byName('Devon Clarke')).toMatchObject({
      paymentState: 'part-paid',
      amountReceived: 240,
      outstandingAmount: 10,
    });
    const after = (await (await t.request('/api/progress')).json()) as { confirmedAmount: number };
    expect(after.confirmedAmount).toBeGreaterThan(before.confirmedAmount);

    // The same batch again (a second tab): nothing happens.
    expect(await (await post('/api/admin/statements/confirm', { lines: picks })).json()).toEqual({
      confirmed: 0,
      skipped: 3,
      skippedLines: picks.map((p) => p.lineId),
    });
    // An overlapping statement: the last lines again plus one new transfer.
    const text = fixture('signed-amount.csv').toString('utf8');
    const overlapping = [
      'Date,Description,Payer,Amount,Currency,Balance',
      ...text.split('\n').filter((l) => /^01\/0[67]\/2025/.test(l)),
      `01/09/2025,WIRE IN ${refs[3]} BALANCE,DEVON CLARKE,10.00,USD,"1,451.00"`,
    ].join('\n');
    const again = await importFile(overlapping, signedMapping);
    expect(again).toMatchObject({ credits: 4, newLines: 1, alreadyImported: 3 });
    // Only the open lines are listed: the two unknown transfers and Devon's second instalment.
    expect(again.lines.map((l) => l.payer).sort()).toEqual([
      'DEVON CLARKE',
      'UNKNOWN PERSON',
      'UNKNOWN PERSON',
    ]);
    const balance = again.lines.find((l) => l.payer === 'DEVON CLARKE')!;
    expect(balance.confidence).toBe('certain');
    await post('/api/admin/statements/confirm', {
      lines: [{ lineId: balance.id, pledgeId: balance.pledge!.id }],
    });
    expect(await byName('Devon Clarke')).toMatchObject({
      paymentState: 'paid',
      amountReceived: 250,
    });
    // The unmatched lines stay for later.
    const open = (await (await t.request('/api/admin/statements/lines', { cookie })).json()) as {
      lines: ReviewLine[];
    };
    expect(open.lines.map((l) => l.payer)).toEqual(['UNKNOWN PERSON', 'UNKNOWN PERSON']);
    // Every confirmation is in the Activity log, marked as from the statement.
    const log = (await (await t.request('/api/admin/activity', { cookie })).json()) as {
      items: { action: string; details: { source?: string } }[];
    };
    expect(
      log.items.filter((e) => e.action === 'pledge.confirm' && e.details.source === 'statement'),
    ).toHaveLength(4);
    expect(log.items.filter((e) => e.action === 'statement.import')).toHaveLength(3);
  });

  test('layout 2 (Windows-1252, debit and credit columns, month names, one currency)', async () => {
    const p = await preview(fixture('debit-credit.csv'));
    expect(p.encoding).toBe('Windows-1252');
    expect(p.headers).toContain('Narrative');
    expect(p.mapping).toMatchObject({ credit: 'Credit', debit: 'Debit' });
    const r = await importFile(fixture('debit-credit.csv'), {
      date: 'Transaction Date',
      credit: 'Credit',
      debit: 'Debit',
      fixedCurrency: 'JMD',
      description: 'Narrative',
      dateOrder: 'DMY',
    });
    expect(r).toMatchObject({ credits: 3, newLines: 3, skipped: 1 });
    expect(line(r, 'MARCUS')).toMatchObject({ confidence: 'certain', amount: 15_200 });
    expect(line(r, 'MARCUS').pledge!.id).toBe(ids['Marcus Campbell']);
    expect(line(r, 'ANDREA')).toMatchObject({ confidence: 'likely', currency: 'JMD' });
    expect(line(r, 'ANDREA').pledge!.id).toBe(ids['Andrea Thompson']);
    const renee = line(r, 'RENÉE');
    expect(renee).toMatchObject({ confidence: 'unmatched', amount: 1000 });
  });

  test('layout 3 (semicolon, day-first dates, decimal comma, reference in lower case)', async () => {
    const p = await preview(fixture('semicolon-day-first.csv'));
    expect(p.delimiter).toBe(';');
    expect(p.headers).toEqual([
      'Buchungstag',
      'Auftraggeber',
      'Verwendungszweck',
      'Betrag',
      'Währung',
    ]);
    const r = await importFile(fixture('semicolon-day-first.csv'), {
      date: 'Buchungstag',
      amount: 'Betrag',
      currency: 'Währung',
      description: 'Verwendungszweck',
      payer: 'Auftraggeber',
      dateOrder: 'DMY',
    });
    const kemar = r.lines.find((l) => l.bookedOn === '2025-01-03')!;
    expect(kemar).toMatchObject({ confidence: 'certain', amount: 75, currency: 'USD' });
    expect(kemar.pledge!.id).toBe(ids['Kemar Lewis']);
    const later = r.lines.find((l) => l.bookedOn === '2025-01-13')!;
    expect(later).toMatchObject({ amount: 1250, currency: 'JMD' });
  });

  test('remembers the mapping for the next file with the same columns', async () => {
    const p = await preview(fixture('semicolon-day-first.csv'));
    expect(p.mapping).toMatchObject({
      date: 'Buchungstag',
      amount: 'Betrag',
      payer: 'Auftraggeber',
    });
  });

  test('refuses what is not a CSV statement with a clear 400', async () => {
    const cases: [Buffer, RegExp][] = [
      [Buffer.from('%PDF-1.7 binary'), /not a CSV file/],
      [Buffer.from([0x50, 0x4b, 3, 4, 0, 0, 1, 2]), /not a CSV file/],
      [Buffer.from([1, 2, 0, 4, 5, 0, 7]), /not a CSV file/],
      [Buffer.from('just one line of text'), /not a CSV file/],
      [Buffer.alloc(5 * 1024 * 1024 + 10, 'a'), /larger than 5 MB/],
    ];
    for (const [bytes, message] of cases) {
      const res = await post('/api/admin/statements/preview', { content: b64(bytes) });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toMatch(message);
    }
    const wrongColumn = await post('/api/admin/statements/import', {
      content: b64(fixture('semicolon-day-first.csv')),
      mapping: { ...signedMapping, date: 'Datum' },
    });
    expect(wrongColumn.status).toBe(400);
    expect(((await wrongColumn.json()) as { message: string }).message).toBe(
      'This file has no column "Datum". Check the column mapping.',
    );
    const noAmount = await post('/api/admin/statements/import', {
      content: b64(fixture('semicolon-day-first.csv')),
      mapping: { date: 'Buchungstag', description: 'Verwendungszweck', fixedCurrency: 'USD' },
    });
    expect(noAmount.status).toBe(400);
    expect((await t.request('/api/admin/statements/lines')).status).toBe(401);
  });
});
