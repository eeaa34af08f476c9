import type { Dispatch, SetStateAction } from 'react';
import { formatMoney } from '@shared/format';
import type { MatchConfidence, ReviewLine, StatementImportResult } from '@shared/schemas/statement';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';

const CONFIDENCE: Record<
  MatchConfidence,
  { label: string; variant: 'default' | 'secondary' | 'destructive' | 'outline' }
> = {
  certain: { label: 'Certain', variant: 'default' },
  likely: { label: 'Likely', variant: 'secondary' },
  review: { label: 'Needs a look', variant: 'destructive' },
  unmatched: { label: 'Unmatched', variant: 'outline' },
};

/** The review of imported lines: each with its proposed pledge and why; tick and confirm. */
export function StatementReview({
  result,
  ticked,
  setTicked,
  onConfirm,
  confirming,
}: {
  result: StatementImportResult;
  ticked: Set<string>;
  setTicked: Dispatch<SetStateAction<Set<string>>>;
  onConfirm: () => void;
  confirming: boolean;
}) {
  return (
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
              {['Confirm', 'Date', 'Amount', 'Payer / description', 'Proposed pledge', 'Match'].map(
                (h) => (
                  <th key={h} scope="col" className="px-3 py-2 font-semibold">
                    {h}
                  </th>
                ),
              )}
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
        <Button onClick={onConfirm} disabled={ticked.size === 0 || confirming}>
          {confirming ? 'Confirming...' : `Confirm selected (${ticked.size})`}
        </Button>
      </div>
    </Card>
  );
}

/** The server's rule (certain, owed money, not a possible duplicate). */
export const preTicked = (l: ReviewLine) => l.preTicked && l.pledge !== null;

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
