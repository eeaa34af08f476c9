import { CURRENCIES } from '@shared/constants';
import {
  DEFAULT_COMPLETED,
  type StatementImportResult,
  type StatementMapping as Mapping0,
  type StatementPreview,
} from '@shared/schemas/statement';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Checkbox } from '../../../components/ui/checkbox';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';

export type Mapping = Partial<Mapping0>;

const FIELDS: { key: keyof Mapping; label: string; optional?: boolean }[] = [
  { key: 'date', label: 'Date' },
  { key: 'amount', label: 'Amount (signed, one column)', optional: true },
  { key: 'credit', label: 'Credit / money in (if no amount column)', optional: true },
  { key: 'debit', label: 'Debit / money out', optional: true },
  { key: 'currency', label: 'Currency column', optional: true },
  { key: 'description', label: 'Description / reference' },
  { key: 'payer', label: 'Payer name', optional: true },
  { key: 'direction', label: 'Direction (in / out)', optional: true },
  { key: 'status', label: 'Status', optional: true },
];

const FORMAT_NAMES: Record<StatementPreview['format'], string> = {
  csv: 'CSV',
  ofx: 'OFX',
  camt053: 'ISO 20022 CAMT.053',
};

const select =
  'h-10 w-full rounded-lg border border-ink-300 bg-white px-3 text-sm text-ink-900 focus-visible:border-brand-700 focus-visible:ring-3 focus-visible:ring-sun-400 focus-visible:outline-none';

const list = (text: string) =>
  text
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

/**
 * The mapping screen: which column of the bank's file holds what, under a name, saved for the
 * next file of the same layout; the first rows under the pickers show what each column holds.
 * OFX and CAMT.053 files say it themselves: only the first rows and the import button.
 */
export function StatementMapping({
  preview,
  mapping,
  onChange,
  mappingName,
  onMappingName,
  onFirstRowIsData,
  busy,
  onImport,
}: {
  preview: StatementPreview;
  mapping: Mapping;
  onChange: (update: (m: Mapping) => Mapping) => void;
  mappingName: string;
  onMappingName: (name: string) => void;
  /** The "first row is a transaction" switch: the columns are read again. */
  onFirstRowIsData: (value: boolean) => void;
  busy: boolean;
  onImport: () => void;
}) {
  const set = (key: keyof Mapping, value: string) =>
    onChange((m) => ({ ...m, [key]: value || undefined }));
  const setList = (key: 'directionIn' | 'completed', text: string) =>
    onChange((m) => ({ ...m, [key]: list(text).length ? list(text) : undefined }));
  const structured = preview.format !== 'csv';
  const savedId = preview.mappings.find((m) => m.name === mappingName)?.id ?? '';
  const chooseSaved = (id: string) => {
    const saved = preview.mappings.find((m) => m.id === id);
    if (!saved) return;
    onChange(() => ({ ...saved.mapping, firstRowIsData: preview.firstRowIsData }));
    onMappingName(saved.name);
  };
  return (
    <Card className="grid gap-4 p-4">
      <h3 className="font-bold text-ink-900">{structured ? 'Statement' : 'Columns'}</h3>
      {structured ? (
        <p className="text-sm text-ink-700">
          {FORMAT_NAMES[preview.format]} statement, {preview.lineCount} transaction
          {preview.lineCount === 1 ? '' : 's'}. This format says what each field is: no mapping
          needed. Only completed incoming transfers are imported.
        </p>
      ) : (
        <>
          <p className="text-sm text-ink-700">
            {preview.lineCount} line{preview.lineCount === 1 ? '' : 's'}, {preview.headers.length}{' '}
            columns, {preview.encoding}, separated by{' '}
            {preview.delimiter === '\t' ? 'tabs' : `"${preview.delimiter}"`}.{' '}
            {preview.matchedMappingId
              ? `Recognised as "${preview.mappingName}".`
              : 'The mapping is saved under its name for the next statement of this layout.'}
          </p>
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {preview.mappings.length > 0 ? (
              <div className="grid gap-1">
                <Label htmlFor="map-saved">Saved mapping</Label>
                <select
                  id="map-saved"
                  className={select}
                  value={savedId}
                  onChange={(e) => chooseSaved(e.target.value)}
                >
                  <option value="">(new mapping)</option>
                  {preview.mappings.map((m) => (
                    <option key={m.id} value={m.id}>
                      {m.name}
                    </option>
                  ))}
                </select>
              </div>
            ) : null}
            <div className="grid gap-1">
              <Label htmlFor="map-name">Name of this mapping</Label>
              <Input
                id="map-name"
                className="h-10 text-sm"
                maxLength={100}
                placeholder="NCB JMD account"
                value={mappingName}
                onChange={(e) => onMappingName(e.target.value)}
              />
            </div>
            <div className="flex items-center gap-2 self-end pb-2">
              <Checkbox
                id="map-first-row"
                checked={preview.firstRowIsData}
                onCheckedChange={(v) => onFirstRowIsData(v === true)}
                disabled={busy}
              />
              <Label htmlFor="map-first-row">The first row is a transaction</Label>
            </div>
          </div>
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
            {mapping.direction ? (
              <div className="grid gap-1">
                <Label htmlFor="map-direction-in">Direction values meaning money in</Label>
                <Input
                  key={`in-${savedId}`}
                  id="map-direction-in"
                  className="h-10 text-sm"
                  placeholder="IN, CR, Credit, C"
                  defaultValue={mapping.directionIn?.join(', ') ?? ''}
                  onBlur={(e) => setList('directionIn', e.target.value)}
                />
              </div>
            ) : null}
            {mapping.status ? (
              <div className="grid gap-1">
                <Label htmlFor="map-completed">Status values counting as completed</Label>
                <Input
                  key={`completed-${savedId}`}
                  id="map-completed"
                  className="h-10 text-sm"
                  placeholder={DEFAULT_COMPLETED.join(', ')}
                  defaultValue={mapping.completed?.join(', ') ?? ''}
                  onBlur={(e) => setList('completed', e.target.value)}
                />
              </div>
            ) : null}
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
        </>
      )}
      <SampleTable preview={preview} />
      <div>
        <Button onClick={onImport} disabled={busy}>
          {busy ? 'Importing...' : 'Import and review'}
        </Button>
      </div>
    </Card>
  );
}

function SampleTable({ preview }: { preview: StatementPreview }) {
  if (preview.sample.length === 0) return null;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-xs">
        <caption className="pb-1 text-left text-sm font-semibold text-ink-700">
          The first {preview.sample.length} line{preview.sample.length === 1 ? '' : 's'} of the file
        </caption>
        <thead className="bg-ink-50 text-ink-700">
          <tr>
            {preview.headers.map((h) => (
              <th key={h} scope="col" className="px-2 py-1 font-semibold whitespace-nowrap">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {preview.sample.map((row, i) => (
            <tr key={i} className="border-t border-ink-100">
              {preview.headers.map((h, j) => (
                <td key={h} className="max-w-64 truncate px-2 py-1 text-ink-900">
                  {row[j] ?? ''}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const KIND_LABELS: [keyof NonNullable<StatementImportResult['skippedBy']>, string][] = [
  ['moneyOut', 'money out'],
  ['notCompleted', 'not completed'],
  ['other', 'balances, totals or zero'],
];

/**
 * What the import did, lines and pledges apart: "12 incoming transfers: 9 new, 3 imported before;
 * 3 lines skipped: 2 money out, 1 not completed; 1 line refused: line 8, ...".
 */
export function ImportSummary({ result }: { result: StatementImportResult }) {
  const n = (count: number, one: string, many = `${one}s`) =>
    `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
  const kinds = KIND_LABELS.filter(([k]) => (result.skippedBy?.[k] ?? 0) > 0)
    .map(([k, label]) => `${result.skippedBy![k]} ${label}`)
    .join(', ');
  const refused = result.refused ?? [];
  return (
    <div className="grid gap-1 text-sm text-ink-700" role="status">
      <p>
        {n(result.credits, 'incoming transfer')} in the file: {result.newLines} new,{' '}
        {result.alreadyImported} imported before
        {result.possibleDuplicates ? `, ${n(result.possibleDuplicates, 'possible duplicate')}` : ''}
        {result.pledges !== undefined ? `; ${n(result.pledges, 'pledge')} proposed` : ''}.
        {result.skipped > 0
          ? ` ${n(result.skipped, 'line')} skipped${kinds ? `: ${kinds}` : ''}.`
          : ''}
      </p>
      {refused.length > 0 ? (
        <div
          role="alert"
          className="rounded-lg border border-amber-200 bg-amber-50 p-3 text-amber-900"
        >
          <p className="font-semibold">
            {n(refused.length, 'line')} could not be read for certain and{' '}
            {refused.length === 1 ? 'was' : 'were'} not imported:
          </p>
          <ul className="mt-1 list-disc pl-5">
            {refused.slice(0, 50).map((r, i) => (
              <li key={`${r.line}-${i}`}>
                Line {r.line}: {r.reason}
              </li>
            ))}
          </ul>
          {refused.length > 50 ? <p>and {refused.length - 50} more.</p> : null}
        </div>
      ) : null}
    </div>
  );
}
