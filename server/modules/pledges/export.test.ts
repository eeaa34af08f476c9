import { parse } from 'csv-parse/sync';
import { containersFor } from '@shared/containers';
import { describe, expect, test as base } from '../../../tests/support/fixtures';
import { CSV_COLUMNS } from './csv';
import { statementLines } from '../../db/schema';
import { insertPledges } from './repo';

const test = base.extend('exportCsv', { scope: 'file' }, async ({ adminClient }) => {
  return async () => {
    const res = await adminClient.request('/api/pledges/export');
    expect(res.status).toBe(200);
    return { res, text: await res.text() };
  };
});
const rows = (text: string) =>
  parse(text, { columns: true, skip_empty_lines: true }) as Record<string, string>[];

describe('GET /api/pledges/export', () => {
  test('sends a UTF-8 CSV attachment named pledges.csv, never cached', async ({ exportCsv }) => {
    const { res, text } = await exportCsv();
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="pledges.csv"');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(text.split(/\r?\n/)[0]).toBe(CSV_COLUMNS.join(','));
    expect(CSV_COLUMNS).toEqual([
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
      'reference',
      'amountReceived',
      'currencyReceived',
      'outstanding',
      'dateReceived',
    ]);
  });

  test('holds every pledge with the right cells, and parses back', async ({
    app,
    adminClient,
    pledge,
    exportCsv,
  }) => {
    const paid = await pledge({
      name: 'Zoë "Z" Müller, Jr.',
      email: 'zoe@donors.test',
      amount: 110,
    });
    await app.request(`/api/pledges/${paid.id}/confirm`, {
      method: 'PUT',
      json: {},
      cookie: adminClient.cookie,
    });
    const anon = await pledge({
      name: 'Hidden Name',
      email: 'h@donors.test',
      amount: 1672,
      currency: 'JMD',
      isAnonymous: true,
    });

    const { text } = await exportCsv();
    const list = rows(text);
    const z = list.find((r) => r.id === paid.id)!;
    expect(z).toMatchObject({
      name: 'Zoë "Z" Müller, Jr.',
      email: 'zoe@donors.test',
      amount: '110',
      currency: 'USD',
      containers: '1000',
      anonymous: 'no',
      status: 'Paid',
    });
    expect(new Date(z.paymentConfirmedAt!).toISOString()).toBe(z.paymentConfirmedAt);
    expect(z).toMatchObject({
      amountReceived: '110.00',
      currencyReceived: 'USD',
      outstanding: '0.00',
    });
    expect(z.dateReceived).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const h = list.find((r) => r.id === anon.id)!;
    // The admin's export holds the real name of an anonymous donor.
    expect(h).toMatchObject({
      name: 'Hidden Name',
      anonymous: 'yes',
      status: 'Pending',
      paymentConfirmedAt: '',
      containers: '100',
      amountReceived: '',
      currencyReceived: '',
      outstanding: '1672.00',
      dateReceived: '',
    });
    expect(list[0]!.id).toBe(anon.id);
  });

  test('prefixes cells that a spreadsheet would run as a formula with an apostrophe', async ({
    app,
    pledge,
    exportCsv,
  }) => {
    const viaApi = ['=HYPERLINK("http://evil.test","x")', '+1 876 555 0100', '-2+3', '@SUM(A1:A9)'];
    const ids = new Map<string, string>();
    for (const name of viaApi) ids.set((await pledge({ name, email: 'f@donors.test' })).id, name);
    // Tab and carriage-return prefixes cannot come through the API (names are trimmed and
    // single-line), but rows written by other tools can hold them.
    const direct = await insertPledges(app.database.db, [
      { name: '\t=1+1', email: '\r=2+2@donors.test', amount: 1, currency: 'USD', containers: 9 },
      { name: '\r@cmd', email: '-x@donors.test', amount: 1, currency: 'USD', containers: 9 },
    ]);
    ids.set(direct[0]!.id, '\t=1+1');
    ids.set(direct[1]!.id, '\r@cmd');
    const emailPlus = await pledge({ name: 'Plain', email: '+plus@donors.test' });

    const list = rows((await exportCsv()).text);
    for (const [id, name] of ids) {
      expect(list.find((r) => r.id === id)!.name).toBe(`'${name}`);
    }
    expect(list.find((r) => r.id === direct[0]!.id)!.email).toBe("'\r=2+2@donors.test");
    expect(list.find((r) => r.id === direct[1]!.id)!.email).toBe("'-x@donors.test");
    expect(list.find((r) => r.id === emailPlus.id)!.email).toBe("'+plus@donors.test");
    expect(list.find((r) => r.id === emailPlus.id)!.name).toBe('Plain');
  });

  test('says Part paid and Over paid, with what arrived, what is owed and the bank booking date', async ({
    app,
    adminClient,
    pledge,
    exportCsv,
  }) => {
    const part = await pledge({ amount: 50 });
    const over = await pledge({ amount: 50 });
    const put = (id: string, json: unknown) =>
      adminClient.request(`/api/pledges/${id}/confirm`, { method: 'PUT', json });
    expect((await put(over.id, { amountReceived: 150 })).status).toBe(200);
    // A statement line of J$1,234.56 booked on 2026-11-03 pays part of the US$50 pledge.
    const [line] = await app.database.db
      .insert(statementLines)
      .values({
        fingerprint: `export-${part.id}`,
        bookedOn: '2026-11-03',
        amountCents: 123_456,
        currency: 'JMD',
        description: 'TRANSFER',
        payer: 'A DONOR',
      })
      .returning({ id: statementLines.id });
    const res = await adminClient.request('/api/admin/statements/confirm', {
      method: 'POST',
      json: { lines: [{ lineId: line!.id, pledgeId: part.id }] },
    });
    expect(res.status).toBe(200);

    const list = rows((await exportCsv()).text);
    // J$1,234.56 = US$8.12 at the campaign's rate (rounded down): US$41.88 to go.
    expect(list.find((r) => r.id === part.id)).toMatchObject({
      status: 'Part paid',
      amountReceived: '1234.56',
      currencyReceived: 'JMD',
      outstanding: '41.88',
      dateReceived: '2026-11-03',
    });
    expect(list.find((r) => r.id === over.id)).toMatchObject({
      status: 'Over paid',
      amountReceived: '150.00',
      currencyReceived: 'USD',
      outstanding: '0.00',
    });
  });

  test('streams exports larger than one page (keyset paging), each pledge once, newest first', async ({
    app,
    exportCsv,
  }) => {
    const values = Array.from({ length: 2500 }, (_, i) => ({
      name: `Bulk ${i}`,
      email: `bulk${i}@donors.test`,
      amount: 1 + (i % 50),
      currency: 'USD' as const,
      containers: containersFor(1 + (i % 50), 'USD'),
    }));
    await insertPledges(app.database.db, values);
    const list = rows((await exportCsv()).text);
    const bulk = list.filter((r) => r.name!.startsWith('Bulk '));
    expect(bulk).toHaveLength(2500);
    expect(new Set(list.map((r) => r.id)).size).toBe(list.length);
    // Rows of one INSERT can share a created_at (PGlite's clock ticks per millisecond): the
    // export still orders by (createdAt, id) and its keyset paging neither skips nor repeats.
    const times = list.map((r) => Date.parse(r.createdAt!));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });
});
