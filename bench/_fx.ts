import { readFileSync } from 'node:fs';
import { openStatement, readLines, previewOf } from '../server/modules/statements/import';
import { Slicer } from '../server/modules/statements/parse/slicer';
const maps: Record<string, any> = {
  'ncb-debit-credit.csv': { date: 'Txn Date', credit: 'Credit', debit: 'Debit', fixedCurrency: 'JMD', description: 'Description', dateOrder: 'DMY' },
  'ncb-debit-credit-next.csv': { date: 'Txn Date', credit: 'Credit', debit: 'Debit', fixedCurrency: 'JMD', description: 'Description', dateOrder: 'DMY' },
  'us-checking-headerless.csv': { date: 'Column 1', amount: 'Column 2', description: 'Column 5', fixedCurrency: 'USD', dateOrder: 'MDY' },
  'us-checking-trailing-comma.csv': { date: 'Posting Date', amount: 'Amount', description: 'Description', fixedCurrency: 'USD', dateOrder: 'MDY' },
  'fintech-direction-status.csv': { date: 'Finished on', amount: 'Amount', currency: 'Currency', description: 'Reference', payer: 'Source name', direction: 'Direction', status: 'Status', dateOrder: 'YMD' },
  'semicolon-day-first-eu.csv': { date: 'Buchungstag', amount: 'Betrag', currency: 'Währung', description: 'Verwendungszweck', payer: 'Auftraggeber/Empfänger', dateOrder: 'DMY' },
};
for (const f of [...Object.keys(maps), 'bank-ofx1.ofx', 'bank-ofx2.ofx', 'bank-camt053.xml']) {
  const o = await openStatement(readFileSync('tests/fixtures/statements/' + f), undefined, new Slicer());
  const fakeDb = { select: () => ({ from: () => ({ orderBy: async () => [] }) }) } as any;
  const p = await previewOf(fakeDb, o, undefined);
  const r = await readLines(o, maps[f], new Slicer());
  console.log('==', f, p.format, p.headers.join('|'), 'firstRowIsData', p.firstRowIsData, JSON.stringify(p.mapping));
  for (const l of r.lines) console.log('  ', l.position, l.bookedOn, l.amountCents, l.currency, JSON.stringify(l.description), JSON.stringify(l.payer));
  console.log('  skipped', JSON.stringify(r.skippedBy), 'refused', JSON.stringify(r.refused), 'fileLines', r.fileLines);
}
