import { useEffect, useId, useState } from 'react';
import { formatMoney } from '@shared/format';
import { formatCents } from '@shared/format-cents';
import { PAYMENT_STATE_LABEL, type PaymentState } from '@shared/received';
import { describeDifference } from '@shared/statement-difference';
import type { AdminPledge } from '@shared/schemas/pledge';
import {
  DISMISS_REASONS,
  type MatchConfidence,
  type ProposedPledge,
  type ReviewLine,
} from '@shared/schemas/statement';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Dialog, DialogContent, DialogFooter } from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import {
  useConfirmStatementLines,
  useDismissedLines,
  useDismissLine,
  usePledgeSearch,
  useRestoreLine,
  useStatementLines,
} from '../api';
import { isTicked, pledgeOf, reviewStore, useReviewState } from '../review-store';

const CONFIDENCE: Record<
  MatchConfidence,
  { label: string; variant: 'default' | 'secondary' | 'destructive' | 'outline' }
> = {
  certain: { label: 'Certain', variant: 'default' },
  likely: { label: 'Likely', variant: 'secondary' },
  review: { label: 'Needs a look', variant: 'destructive' },
  unmatched: { label: 'Unmatched', variant: 'outline' },
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const amountOf = (l: { amountCents: number; currency: ReviewLine['currency'] }) =>
  formatCents(l.amountCents, l.currency);
const who = (l: { payer: string; description: string }) => l.payer || l.description;
const rowId = (id: string) => `statement-line-${id}`;

function toProposed(p: AdminPledge): ProposedPledge {
  const s = p.paymentState;
  return {
    id: p.id,
    name: p.name,
    reference: p.reference,
    amount: p.amount,
    currency: p.currency,
    paymentState: s === 'pending' || s === 'part-paid' ? s : 'paid',
    outstandingAmount: p.outstandingAmount,
  };
}

/**
 * The review of open statement lines (docs/decisions/013-statement-matching.md): each with its
 * proposed pledge, why and what differs; tick, choose another pledge, or dismiss; confirm the ticked
 * lines of the page in one batch. Its state lives in review-store.ts and the query cache, so it
 * survives leaving the tab.
 */
export function StatementReview() {
  const review = useReviewState();
  const query = useStatementLines(review.page);
  const confirm = useConfirmStatementLines();
  const [assigning, setAssigning] = useState<ReviewLine | null>(null);
  const [dismissing, setDismissing] = useState<ReviewLine | null>(null);
  const data = query.data;
  const lines = data?.lines ?? [];
  const ticked = lines.filter((l) => isTicked(review, l));
  const pledges = new Set(ticked.map((l) => pledgeOf(review, l)!.id)).size;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  const last = review.lastImport;
  // Lines confirmed or dismissed can leave the page shown past the end: show the last page.
  useEffect(() => {
    if (data && review.page > pages) reviewStore.setPage(pages);
  }, [data, review.page, pages]);

  function confirmTicked() {
    const batch = ticked.map((l) => ({ lineId: l.id, pledgeId: pledgeOf(review, l)!.id }));
    confirm.mutate(batch, {
      // The confirmed lines leave the review (the refetch removes them too): their ticks go.
      onSuccess: () => reviewStore.forget(batch.map((b) => b.lineId)),
    });
  }

  if (!data && !last) return null;
  if (data && data.total === 0 && !last) return <DismissedLines />;

  return (
    <>
      <Card className="grid gap-3 p-4">
        <h3 className="font-bold text-ink-900">Review matches</h3>
        <p className="text-sm text-ink-700" aria-live="polite">
          {last
            ? `${last.fileName}: ${plural(last.credits, 'incoming transfer')}, ${last.newLines} new, ${last.alreadyImported} imported before. `
            : ''}
          {data
            ? `${plural(data.total, 'line')} to review, newest statement first. Lines that match nothing stay here for later.`
            : 'Loading the open lines...'}
        </p>
        <div className="overflow-x-auto">
          <table className="w-full min-w-[1000px] text-left text-sm">
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
                  'Actions',
                ].map((h) => (
                  <th key={h} scope="col" className="px-3 py-2 font-semibold">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {lines.length === 0 ? (
                <tr className="border-t border-ink-100">
                  <td colSpan={7} className="px-3 py-6 text-center text-ink-600">
                    Every line is matched.
                  </td>
                </tr>
              ) : (
                lines.map((l) => (
                  <ReviewRow
                    key={l.id}
                    line={l}
                    onPage={(id) => lines.some((x) => x.id === id)}
                    pledge={pledgeOf(review, l)}
                    chosen={review.chosen[l.id] !== undefined}
                    checked={isTicked(review, l)}
                    onToggle={(on) => reviewStore.setTick(l.id, on)}
                    onAssign={() => setAssigning(l)}
                    onDismiss={() => setDismissing(l)}
                  />
                ))
              )}
            </tbody>
          </table>
        </div>
        {pages > 1 ? (
          <nav aria-label="Pages of statement lines" className="flex items-center gap-3 text-sm">
            <Button
              variant="outline"
              size="sm"
              disabled={review.page <= 1}
              onClick={() => reviewStore.setPage(review.page - 1)}
            >
              Previous page
            </Button>
            <span>
              Page {review.page} of {pages}
            </span>
            <Button
              variant="outline"
              size="sm"
              disabled={review.page >= pages}
              onClick={() => reviewStore.setPage(review.page + 1)}
            >
              Next page
            </Button>
          </nav>
        ) : null}
        <div className="flex flex-wrap items-center gap-3">
          <Button onClick={confirmTicked} disabled={ticked.length === 0 || confirm.isPending}>
            {confirm.isPending ? 'Confirming...' : `Confirm selected (${ticked.length})`}
          </Button>
          <span className="text-sm text-ink-700">
            {plural(ticked.length, 'line')} ticked for {plural(pledges, 'pledge')}
            {pages > 1 ? ' on this page (each page is confirmed on its own)' : ''}
          </span>
        </div>
      </Card>
      <DismissedLines />
      <AssignDialog line={assigning} onOpenChange={(open) => !open && setAssigning(null)} />
      <DismissDialog line={dismissing} onOpenChange={(open) => !open && setDismissing(null)} />
    </>
  );
}

function ReviewRow({
  line,
  pledge,
  chosen,
  checked,
  onPage,
  onToggle,
  onAssign,
  onDismiss,
}: {
  line: ReviewLine;
  pledge: ProposedPledge | null;
  chosen: boolean;
  checked: boolean;
  onPage: (id: string) => boolean;
  onToggle: (on: boolean) => void;
  onAssign: () => void;
  onDismiss: () => void;
}) {
  const c = CONFIDENCE[line.confidence];
  const amount = amountOf(line);
  const dup = line.duplicateOf;
  return (
    <tr id={rowId(line.id)} className="scroll-mt-24 border-t border-ink-100 align-top">
      <td className="px-3 py-2">
        <input
          type="checkbox"
          className="h-5 w-5 accent-brand-700"
          aria-label={`Confirm ${amount} from ${who(line)}`}
          disabled={!pledge}
          checked={checked}
          onChange={(e) => onToggle(e.target.checked)}
        />
      </td>
      <td className="px-3 py-2 whitespace-nowrap">{line.bookedOn}</td>
      <td className="px-3 py-2 font-semibold whitespace-nowrap tabular-nums">{amount}</td>
      <td className="px-3 py-2">
        <div className="font-medium text-ink-900">{line.payer}</div>
        <div className="text-xs break-words text-ink-600">{line.description}</div>
      </td>
      <td className="px-3 py-2">
        {pledge ? (
          <>
            <div className="font-medium text-ink-900">{pledge.name}</div>
            <div className="font-mono text-xs text-ink-700">
              {pledge.reference} · {formatMoney(pledge.amount, pledge.currency)}
            </div>
            {chosen ? (
              <p className="mt-1 text-xs text-ink-700">{describeDifference(line, pledge)}</p>
            ) : null}
            {chosen ? (
              <div className="flex items-center gap-2 text-xs text-ink-700">
                Chosen by you
                <Button
                  variant="link"
                  size="sm"
                  className="h-auto px-0"
                  aria-label={`Undo the choice of ${pledge.name} for ${amount} from ${who(line)}`}
                  onClick={() => reviewStore.unchoose(line.id)}
                >
                  Undo
                </Button>
              </div>
            ) : null}
          </>
        ) : (
          <span className="text-ink-600">None</span>
        )}
        {line.candidates.length > 0 && !chosen ? (
          <ul className="mt-2 grid gap-1" aria-label="Pledges to choose from">
            {line.candidates.map((p) => (
              <li key={p.id}>
                <Button
                  variant="outline"
                  size="sm"
                  aria-label={`Choose ${p.name} (${p.reference}) for ${amount} from ${who(line)}`}
                  onClick={() => reviewStore.choose(line.id, p)}
                >
                  Choose {p.name} {p.reference}
                </Button>
              </li>
            ))}
          </ul>
        ) : null}
      </td>
      <td className="px-3 py-2">
        <Badge variant={c.variant}>{c.label}</Badge>
        <p className="mt-1 text-xs text-ink-700">{line.why}</p>
        {dup && onPage(dup.id) ? (
          <a href={`#${rowId(dup.id)}`} className="text-xs text-brand-700 underline">
            Go to the first line
          </a>
        ) : null}
      </td>
      <td className="px-3 py-2">
        <div className="flex flex-col items-start gap-1">
          <Button
            variant="outline"
            size="sm"
            aria-label={`Find a pledge for ${amount} from ${who(line)}`}
            onClick={onAssign}
          >
            Find a pledge
          </Button>
          <Button
            variant="ghost"
            size="sm"
            aria-label={`Dismiss ${amount} from ${who(line)}`}
            onClick={onDismiss}
          >
            Dismiss
          </Button>
        </div>
      </td>
    </tr>
  );
}

/** "Find a pledge": search by reference or name (the dashboard's own search) and choose one. */
function AssignDialog({
  line,
  onOpenChange,
}: {
  line: ReviewLine | null;
  onOpenChange: (open: boolean) => void;
}) {
  const [term, setTerm] = useState('');
  const search = usePledgeSearch(term);
  const inputId = useId();
  const results = search.data?.items ?? [];
  return (
    <Dialog
      open={line !== null}
      onOpenChange={(open) => {
        if (!open) setTerm('');
        onOpenChange(open);
      }}
    >
      <DialogContent
        title="Find a pledge"
        description={
          line
            ? `For ${amountOf(line)} from ${who(line)} on ${line.bookedOn}. The pledge you choose is ticked; confirm it with the others.`
            : ''
        }
      >
        <div className="grid gap-1.5">
          <Label htmlFor={inputId}>Search pledges by reference or name</Label>
          <Input
            id={inputId}
            value={term}
            autoComplete="off"
            onChange={(e) => setTerm(e.target.value)}
          />
        </div>
        <ul className="mt-3 grid max-h-80 gap-2 overflow-y-auto" aria-label="Pledges found">
          {term.trim().length >= 2 && search.isSuccess && results.length === 0 ? (
            <li className="text-sm text-ink-600">No pledge matches “{term.trim()}”.</li>
          ) : null}
          {results.map((p) => (
            <li
              key={p.id}
              className="flex items-center justify-between gap-3 rounded-lg border border-ink-100 p-2"
            >
              <div className="text-sm">
                <div className="font-medium text-ink-900">{p.name}</div>
                <div className="font-mono text-xs text-ink-700">
                  {p.reference} · {formatMoney(p.amount, p.currency)} ·{' '}
                  {PAYMENT_STATE_LABEL[p.paymentState as PaymentState] ?? p.paymentState}
                </div>
              </div>
              <Button
                size="sm"
                aria-label={`Choose ${p.name} (${p.reference})`}
                onClick={() => {
                  if (line) reviewStore.choose(line.id, toProposed(p));
                  setTerm('');
                  onOpenChange(false);
                }}
              >
                Choose
              </Button>
            </li>
          ))}
        </ul>
      </DialogContent>
    </Dialog>
  );
}

/** Dismiss with a reason (audited; the dismissed lines can be restored). */
function DismissDialog({
  line,
  onOpenChange,
}: {
  line: ReviewLine | null;
  onOpenChange: (open: boolean) => void;
}) {
  const [reason, setReason] = useState<string>(DISMISS_REASONS[0]);
  const [other, setOther] = useState('');
  const dismiss = useDismissLine();
  const otherId = useId();
  const text = reason === 'Other' ? other.trim() : reason;
  function close() {
    setReason(DISMISS_REASONS[0]);
    setOther('');
    onOpenChange(false);
  }
  return (
    <Dialog open={line !== null} onOpenChange={(open) => (open ? onOpenChange(true) : close())}>
      <DialogContent
        title="Dismiss this line"
        description={
          line
            ? `${amountOf(line)} from ${who(line)} on ${line.bookedOn} leaves the review. You can restore it later.`
            : ''
        }
      >
        <fieldset className="grid gap-2">
          <legend className="mb-1 text-sm font-semibold text-ink-800">Reason</legend>
          {DISMISS_REASONS.map((r) => (
            <label key={r} className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name="dismiss-reason"
                value={r}
                checked={reason === r}
                onChange={() => setReason(r)}
                className="h-4 w-4 accent-brand-700"
              />
              {r}
            </label>
          ))}
        </fieldset>
        {reason === 'Other' ? (
          <div className="mt-3 grid gap-1.5">
            <Label htmlFor={otherId}>Other reason</Label>
            <Input
              id={otherId}
              value={other}
              maxLength={200}
              onChange={(e) => setOther(e.target.value)}
            />
          </div>
        ) : null}
        <DialogFooter>
          <Button variant="outline" onClick={close}>
            Cancel
          </Button>
          <Button
            disabled={!text || dismiss.isPending}
            onClick={() => {
              if (!line) return;
              dismiss.mutate(
                { id: line.id, reason: text },
                {
                  onSuccess: () => {
                    reviewStore.forget([line.id]);
                    close();
                  },
                },
              );
            }}
          >
            {dismiss.isPending ? 'Dismissing...' : 'Dismiss line'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** The dismissed lines, collapsed until asked for, each with Restore. */
function DismissedLines() {
  const [open, setOpen] = useState(false);
  const dismissed = useDismissedLines(open);
  const restore = useRestoreLine();
  const panelId = useId();
  const lines = dismissed.data?.lines ?? [];
  return (
    <div className="grid gap-2">
      <div>
        <Button
          variant="outline"
          size="sm"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen((o) => !o)}
        >
          {open ? 'Hide dismissed lines' : 'Show dismissed lines'}
        </Button>
      </div>
      {open ? (
        <Card id={panelId} className="grid gap-2 p-4">
          <h3 className="font-bold text-ink-900">Dismissed lines</h3>
          {dismissed.isSuccess && lines.length === 0 ? (
            <p className="text-sm text-ink-600">No line has been dismissed.</p>
          ) : null}
          {lines.length > 0 ? (
            <div className="overflow-x-auto">
              <table className="w-full min-w-[700px] text-left text-sm">
                <caption className="sr-only">Dismissed statement lines</caption>
                <thead className="bg-ink-50 text-ink-700">
                  <tr>
                    {['Date', 'Amount', 'Payer / description', 'Reason', 'Restore'].map((h) => (
                      <th key={h} scope="col" className="px-3 py-2 font-semibold">
                        {h}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {lines.map((l) => (
                    <tr key={l.id} className="border-t border-ink-100 align-top">
                      <td className="px-3 py-2 whitespace-nowrap">{l.bookedOn}</td>
                      <td className="px-3 py-2 font-semibold whitespace-nowrap tabular-nums">
                        {amountOf(l)}
                      </td>
                      <td className="px-3 py-2">
                        <div className="font-medium text-ink-900">{l.payer}</div>
                        <div className="text-xs break-words text-ink-600">{l.description}</div>
                      </td>
                      <td className="px-3 py-2">{l.reason}</td>
                      <td className="px-3 py-2">
                        <Button
                          variant="outline"
                          size="sm"
                          disabled={restore.isPending}
                          aria-label={`Restore ${amountOf(l)} from ${who(l)}`}
                          onClick={() => restore.mutate(l.id)}
                        >
                          Restore
                        </Button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : null}
        </Card>
      ) : null}
    </div>
  );
}
