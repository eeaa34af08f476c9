import { useEffect, useState, type ChangeEvent } from 'react';
import { CURRENCIES } from '@shared/constants';
import { formatMoney } from '@shared/format';
import {
  STATEMENT_MAX_BYTES,
  type MatchConfidence,
  type ReviewLine,
  type StatementImportResult,
  type StatementMapping,
  type StatementPreview,
} from '@shared/schemas/statement';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Label } from '../../../components/ui/label';
import { errorMessage } from '../../../lib/api-client';
import {
  importStatement,
  openStatementLines,
  previewStatement,
  useConfirmStatementLines,
} from '../api';

type Mapping = Partial<StatementMapping>;

const FIELDS: { key: keyof Mapping; label: string; optional?: boolean }[] = [
  { key: 'date', label: 'Date' },
  { key: 'amount', label: 'Amount (signed, one column)', optional: true },
  { key: 'credit', label: 'Credit / money in (if no amount column)', optional: true },
  { key: 'currency', label: 'Currency column', optional: true },
  { key: 'description', label: 'Description / reference' },
  { key: 'payer', label: 'Payer name', optional: true },
];

const CONFIDENCE: Record<
  MatchConfidence,
  { label: string; variant: 'default' | 'secondary' | 'outline' }
> = {
  certain: { label: 'Certain', variant: 'default' },
  likely: { label: 'Likely', variant: 'secondary' },
  unmatched: { label: 'Unmatched', variant: 'outline' },
};

const select =
  'h-10 w-full rounded-lg border border-ink-300 bg-white px-3 text-sm text-ink-900 focus-visible:border-brand-700 focus-visible:ring-3 focus-visible:ring-sun-400 focus-visible:outline-none';

function toBase64(buffer: ArrayBuffer): string {
  const bytes = new Uint8Array(buffer);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/**
 * "Import bank statement" (docs/decisions/013-statement-matching.md): choose the CSV, map its
 * columns once (remembered), review each credit with its proposed pledge and why, tick and confirm
 * in one batch.
 */
export function StatementImport() {
  const [file, setFile] = useState<{ name: string; content: string } | null>(null);
  const [preview, setPreview] = useState<StatementPreview | null>(null);
  const [mapping, setMapping] = useState<Mapping>({});
  const [result, setResult] = useState<StatementImportResult | null>(null);
  const [ticked, setTicked] = useState<Set<string>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const confirm = useConfirmStatementLines();

  // Lines left open by earlier imports are listed straight away, for later review.
  useEffect(() => {
    let live = true;
    void openStatementLines()
      .then((r) => {
        if (live && r.lines.length > 0)
          setResult(
            (current) =>
              current ?? {
                credits: 0,
                newLines: 0,
                alreadyImported: 0,
                skipped: 0,
                lines: r.lines,
              },
          );
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);

  async function onFile(e: ChangeEvent<HTMLInputElement>) {
    const f = e.target.files?.[0];
    setError(null);
    setPreview(null);
    setResult(null);
    if (!f) return;
    if (f.size > STATEMENT_MAX_BYTES) {
      setError('The file is larger than 5 MB. Export a shorter period.');
      return;
    }
    const content = toBase64(await f.arrayBuffer());
    setFile({ name: f.name, content });
    setBusy(true);
    try {
      const p = await previewStatement(content);
      setPreview(p);
      setMapping(p.mapping);
    } catch (err) {
      setError(errorMessage(err, 'This file could not be read.'));
    } finally {
      setBusy(false);
    }
  }

  async function runImport() {
    if (!file) return;
    setBusy(true);
    setError(null);
    try {
      const r = await importStatement(file.name, file.content, mapping as StatementMapping);
      setResult(r);
      setTicked(new Set(r.lines.filter(preTicked).map((l) => l.id)));
    } catch (err) {
      setError(errorMessage(err, 'The statement could not be imported.'));
    } finally {
      setBusy(false);
    }
  }

  function confirmTicked() {
    if (!result) return;
    const lines = result.lines
      .filter((l) => ticked.has(l.id) && l.pledge)
      .map((l) => ({ lineId: l.id, pledgeId: l.pledge!.id }));
    confirm.mutate(lines, {
      onSuccess: () =>
        setResult({ ...result, lines: result.lines.filter((l) => !ticked.has(l.id)) }),
    });
  }

  const set = (key: keyof Mapping, value: string) =>
    setMapping((m) => ({ ...m, [key]: value || undefined }));

  return (
    <section aria-labelledby="import-heading" className="grid gap-5">
      <div>
        <h2 id="import-heading" className="text-xl font-bold text-ink-900">
          Import bank statement
        </h2>
        <p className="mt-1 text-sm text-ink-700">
          Upload the CSV export of your online banking (at most 5 MB). Each incoming transfer is
          matched to a pledge by its payment reference, or by amount and payer name. Importing the
          same statement again never confirms a payment twice.
        </p>
      </div>
      <div className="grid max-w-md gap-1.5">
        <Label htmlFor="statement-file">Bank statement (CSV)</Label>
        <input
          id="statement-file"
          type="file"
          accept=".csv,text/csv,text/plain"
          onChange={(e) => void onFile(e)}
          className="text-sm file:mr-3 file:rounded-lg file:border file:border-ink-300 file:bg-white file:px-3 file:py-2 file:font-semibold"
        />
      </div>
      {error ? (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-red-800">
          {error}
        </p>
      ) : null}

      {preview ? (
        <Card className="grid gap-4 p-4">
          <h3 className="font-bold text-ink-900">Columns</h3>
          <p className="text-sm text-ink-700">
            {preview.headers.length} columns, {preview.encoding}, separated by{' '}
            {preview.delimiter === '\t' ? 'tabs' : `"${preview.delimiter}"`}. The mapping is
            remembered for the next statement.
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
            <Button onClick={() => void runImport()} disabled={busy}>
              {busy ? 'Importing...' : 'Import and review'}
            </Button>
          </div>
        </Card>
      ) : null}

      {result ? (
        <Card className="grid gap-3 p-4">
          <h3 className="font-bold text-ink-900">Review matches</h3>
          <p className="text-sm text-ink-700" aria-live="polite">
            {result.credits} incoming transfer(s): {result.newLines} new, {result.alreadyImported}{' '}
            imported before. Lines that match nothing stay here for later.
          </p>
          <div className="overflow-x-auto">
            <table className="w-full min-w-[900px] text-left text-sm">
              <caption className="sr-only">Statement lines and proposed pledges</caption>
              <thead className="bg-ink-50 text-ink-700">
                <tr>
                  {[
                    'Confirm',
                    'Date',
                    'Amount',
                    'Payer / description',
                    'Proposed pledge',
                    'Match',
                  ].map((h) => (
                    <th key={h} scope="col" className="px-3 py-2 font-semibold">
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {result.lines.length === 0 ? (
                  <tr className="border-t border-ink-100">
                    <td colSpan={6} className="px-3 py-6 text-center text-ink-600">
                      Every line is matched.
                    </td>
                  </tr>
                ) : (
                  result.lines.map((l) => (
                    <ReviewRow
                      key={l.id}
                      line={l}
                      checked={ticked.has(l.id)}
                      onToggle={(on) =>
                        setTicked((s) => {
                          const next = new Set(s);
                          if (on) next.add(l.id);
                          else next.delete(l.id);
                          return next;
                        })
                      }
                    />
                  ))
                )}
              </tbody>
            </table>
          </div>
          <div>
            <Button onClick={confirmTicked} disabled={ticked.size === 0 || confirm.isPending}>
              {confirm.isPending ? 'Confirming...' : `Confirm selected (${ticked.size})`}
            </Button>
          </div>
        </Card>
      ) : null}
    </section>
  );
}

/** Certain matches of pledges still owed money start ticked; likely ones wait for the admin. */
const preTicked = (l: ReviewLine) =>
  l.confidence === 'certain' && l.pledge !== null && l.pledge.paymentState !== 'paid';

function ReviewRow({
  line,
  checked,
  onToggle,
}: {
  line: ReviewLine;
  checked: boolean;
  onToggle: (on: boolean) => void;
}) {
  const c = CONFIDENCE[line.confidence];
  const label = `Confirm ${formatMoney(line.amount, line.currency)} from ${line.payer || line.description}`;
  return (
    <tr className="border-t border-ink-100 align-top">
      <td className="px-3 py-2">
        <input
          type="checkbox"
          className="h-5 w-5 accent-brand-700"
          aria-label={label}
          disabled={!line.pledge}
          checked={checked}
          onChange={(e) => onToggle(e.target.checked)}
        />
      </td>
      <td className="px-3 py-2 whitespace-nowrap">{line.bookedOn}</td>
      <td className="px-3 py-2 font-semibold whitespace-nowrap tabular-nums">
        {formatMoney(line.amount, line.currency)}
      </td>
      <td className="px-3 py-2">
        <div className="font-medium text-ink-900">{line.payer}</div>
        <div className="text-xs break-words text-ink-600">{line.description}</div>
      </td>
      <td className="px-3 py-2">
        {line.pledge ? (
          <>
            <div className="font-medium text-ink-900">{line.pledge.name}</div>
            <div className="font-mono text-xs text-ink-700">
              {line.pledge.reference} · {formatMoney(line.pledge.amount, line.pledge.currency)}
            </div>
          </>
        ) : (
          <span className="text-ink-600">None</span>
        )}
      </td>
      <td className="px-3 py-2">
        <Badge variant={c.variant}>{c.label}</Badge>
        <p className="mt-1 text-xs text-ink-700">{line.why}</p>
      </td>
    </tr>
  );
}
