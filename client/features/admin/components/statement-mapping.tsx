import { CURRENCIES } from '@shared/constants';
import type { StatementMapping as Mapping0, StatementPreview } from '@shared/schemas/statement';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Label } from '../../../components/ui/label';

export type Mapping = Partial<Mapping0>;

const FIELDS: { key: keyof Mapping; label: string; optional?: boolean }[] = [
  { key: 'date', label: 'Date' },
  { key: 'amount', label: 'Amount (signed, one column)', optional: true },
  { key: 'credit', label: 'Credit / money in (if no amount column)', optional: true },
  { key: 'currency', label: 'Currency column', optional: true },
  { key: 'description', label: 'Description / reference' },
  { key: 'payer', label: 'Payer name', optional: true },
];

const select =
  'h-10 w-full rounded-lg border border-ink-300 bg-white px-3 text-sm text-ink-900 focus-visible:border-brand-700 focus-visible:ring-3 focus-visible:ring-sun-400 focus-visible:outline-none';

/** The mapping screen: which column of the bank's file holds what (remembered for next time). */
export function StatementMapping({
  preview,
  mapping,
  onChange,
  busy,
  onImport,
}: {
  preview: StatementPreview;
  mapping: Mapping;
  onChange: (update: (m: Mapping) => Mapping) => void;
  busy: boolean;
  onImport: () => void;
}) {
  const set = (key: keyof Mapping, value: string) =>
    onChange((m) => ({ ...m, [key]: value || undefined }));
  return (
    <Card className="grid gap-4 p-4">
      <h3 className="font-bold text-ink-900">Columns</h3>
      <p className="text-sm text-ink-700">
        {preview.headers.length} columns, {preview.encoding}, separated by{' '}
        {preview.delimiter === '\t' ? 'tabs' : `"${preview.delimiter}"`}. The mapping is remembered
        for the next statement.
      </p>
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {FIELDS.map((f) => (
          <div key={f.key} className="grid gap-1">
            <Label htmlFor={`map-${f.key}`}>{f.label}</Label>
            <select
              id={`map-${f.key}`}
              className={select}
              value={(mapping[f.key] as string | undefined) ?? ''}
              onChange={(e) => set(f.key, e.target.value)}
            >
              <option value="">{f.optional ? '(none)' : 'Choose a column'}</option>
              {preview.headers.map((h) => (
                <option key={h} value={h}>
                  {h}
                </option>
              ))}
            </select>
          </div>
        ))}
        <div className="grid gap-1">
          <Label htmlFor="map-fixed-currency">Currency of the whole statement</Label>
          <select
            id="map-fixed-currency"
            className={select}
            value={mapping.fixedCurrency ?? ''}
            onChange={(e) => set('fixedCurrency', e.target.value)}
          >
            <option value="">(from the currency column)</option>
            {CURRENCIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
        <div className="grid gap-1">
          <Label htmlFor="map-date-order">Date order</Label>
          <select
            id="map-date-order"
            className={select}
            value={mapping.dateOrder ?? 'DMY'}
            onChange={(e) => set('dateOrder', e.target.value)}
          >
            <option value="DMY">Day first (31/01/2025)</option>
            <option value="MDY">Month first (01/31/2025)</option>
            <option value="YMD">Year first (2025-01-31)</option>
          </select>
        </div>
      </div>
      <div>
        <Button onClick={onImport} disabled={busy}>
          {busy ? 'Importing...' : 'Import and review'}
        </Button>
      </div>
    </Card>
  );
}
