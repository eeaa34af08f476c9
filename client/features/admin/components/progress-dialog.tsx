import { useEffect, useRef, useState, type FormEvent } from 'react';
import { formatNumber } from '@shared/format';
import { progressUpdateSchema } from '@shared/schemas/progress';
import { firstMessage } from '@shared/schemas/text';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogFooter } from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { FieldError, Label } from '../../../components/ui/label';
import { Skeleton } from '../../../components/ui/skeleton';
import { useQuery } from '@tanstack/react-query';
import { progressQuery } from '../../../lib/query-keys';
import { useUpdateProgress } from '../api';

/**
 * The Admin Panel: current progress in containers and the manual adjustment, which replaces the
 * stored one (product rule, docs/decisions/010-product-rules.md). Prefilled with the current
 * adjustment on each opening; back to 0 after a successful update.
 */
export function ProgressDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { data: progress, refetch } = useQuery(progressQuery);
  const update = useUpdateProgress();
  const [value, setValue] = useState('0');
  const [error, setError] = useState<string>();
  const edited = useRef(false);

  // Prefill on each opening (not on every refresh while the admin types), from the cached value
  // at once and then from a fresh read: pledges made since the page loaded change the total.
  useEffect(() => {
    if (!open) return;
    edited.current = false;
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the form is reset when the dialog opens, then filled from a fresh read
    setError(undefined);
    setValue(String(progress?.manualAdjustment ?? 0));
    let cancelled = false;
    void refetch().then((r) => {
      if (!cancelled && r.data && !edited.current) setValue(String(r.data.manualAdjustment));
    });
    return () => {
      cancelled = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- prefill on each opening only, not on every refresh while the admin types
  }, [open]);

  function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = progressUpdateSchema.safeParse({
      manualAdjustment: value.trim() === '' ? Number.NaN : Number(value),
    });
    if (!parsed.success) {
      setError(firstMessage(parsed.error));
      return;
    }
    setError(undefined);
    update.mutate(parsed.data, {
      onSuccess: () => {
        setValue('0');
        onOpenChange(false);
      },
    });
  }

  const pledged = progress ? progress.currentAmount - progress.manualAdjustment : undefined;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title="Admin Panel"
        description="Correct the campaign progress for containers counted outside the pledges."
        className="max-w-md"
      >
        <form onSubmit={submit} noValidate>
          <div className="rounded-xl bg-brand-50 p-4">
            <p className="text-sm font-semibold text-brand-800">
              Current Progress (Auto-calculated)
            </p>
            {progress ? (
              <>
                <p className="mt-1 text-2xl font-bold text-ink-900">
                  {formatNumber(progress.currentAmount)} containers
                </p>
                <p className="mt-1 text-sm text-ink-700">
                  {formatNumber(pledged ?? 0)} from pledges,{' '}
                  {formatNumber(progress.manualAdjustment)} manual adjustment, goal{' '}
                  {formatNumber(progress.goalAmount)}
                </p>
              </>
            ) : (
              <Skeleton className="mt-2 h-8 w-40" />
            )}
          </div>
          <div className="mt-5 grid gap-1.5">
            <Label htmlFor="manual-adjustment">Manual Adjustment</Label>
            <Input
              id="manual-adjustment"
              type="number"
              inputMode="numeric"
              step={1}
              value={value}
              onChange={(e) => {
                edited.current = true;
                setValue(e.target.value);
                setError(undefined);
              }}
              aria-invalid={error ? true : undefined}
              aria-describedby={
                error ? 'manual-adjustment-hint manual-adjustment-error' : 'manual-adjustment-hint'
              }
            />
            <p id="manual-adjustment-hint" className="text-sm text-ink-600">
              Add or subtract containers (e.g., +500 or -100)
            </p>
            <FieldError id="manual-adjustment-error">{error}</FieldError>
          </div>
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={update.isPending}>
              {update.isPending ? 'Updating...' : 'Update Progress'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
