import { useState, type FormEvent } from 'react';
import { CURRENCIES, type Currency } from '@shared/constants';
import { currencyPrefix } from '@shared/prices';
import { formatMinor, formatMoney } from '@shared/format';
import { amountReceivedTextSchema, type AdminPledge } from '@shared/schemas/pledge';
import { convertMinor, parseMinor, paymentSummary } from '@shared/received';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogFooter } from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { FieldError, Label } from '../../../components/ui/label';
import { useRecordPayment } from '../api';

/**
 * "Record Payment": the amount that actually arrived (bank fees, instalments, the other
 * currency), prefilled with what is still expected. Less than pledged shows as "Part paid".
 */
export function RecordPaymentDialog({
  pledge,
  onOpenChange,
}: {
  pledge: AdminPledge | null;
  onOpenChange: (open: boolean) => void;
}) {
  const record = useRecordPayment();
  const [amount, setAmount] = useState('');
  const [currency, setCurrency] = useState<Currency>('USD');
  const [error, setError] = useState<string | null>(null);

  // Each pledge opened fills the form afresh (state adjusted while rendering, not in an effect).
  const [shown, setShown] = useState<typeof pledge>(null);
  if (pledge !== shown) {
    setShown(pledge);
    if (pledge) {
      setCurrency(pledge.currencyReceived ?? pledge.currency);
      setAmount(String(pledge.isPaid ? (pledge.amountReceived ?? pledge.amount) : pledge.amount));
      setError(null);
    }
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!pledge) return;
    // Cents are kept (record 013): 12.34 is sent as 1234 minor units.
    const parsed = amountReceivedTextSchema.safeParse(amount);
    if (!parsed.success) {
      setError(parsed.error.issues[0]!.message);
      return;
    }
    record.mutate(
      { pledge, amountReceivedMinor: parsed.data, currencyReceived: currency },
      { onSuccess: () => onOpenChange(false) },
    );
  }

  const minor = parseMinor(amount) ?? 0;
  const summary = pledge
    ? paymentSummary({
        amount: pledge.amount,
        currency: pledge.currency,
        isPaid: true,
        currencyReceived: currency,
        receivedMinor: convertMinor(minor, currency, pledge.currency),
      })
    : undefined;

  return (
    <Dialog open={pledge !== null} onOpenChange={onOpenChange}>
      <DialogContent
        title="Record Payment"
        description={
          pledge
            ? `${pledge.name} pledged ${formatMoney(pledge.amount, pledge.currency)} (${pledge.reference}). Enter the total that arrived.`
            : ''
        }
        className="max-w-md"
      >
        <form onSubmit={submit} noValidate className="grid gap-4">
          <div className="grid gap-1.5">
            <Label htmlFor="record-amount">Amount received</Label>
            <Input
              id="record-amount"
              type="number"
              inputMode="decimal"
              step={0.01}
              min={0.01}
              value={amount}
              aria-invalid={error ? true : undefined}
              aria-describedby="record-amount-hint record-amount-error"
              onChange={(e) => {
                setAmount(e.target.value);
                setError(null);
              }}
            />
            <p id="record-amount-hint" className="text-sm text-ink-700" aria-live="polite">
              {pledge && summary?.state === 'part-paid'
                ? `Part paid: ${formatMinor(summary.outstandingMinor, pledge.currency)} will stay outstanding.`
                : pledge && summary?.state === 'over-paid'
                  ? `Over paid: ${formatMinor(summary.overpaidMinor, pledge.currency)} more than pledged.`
                  : 'Paid in full.'}
            </p>
            <FieldError id="record-amount-error">{error ?? undefined}</FieldError>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="record-currency">Currency received</Label>
            <select
              id="record-currency"
              value={currency}
              onChange={(e) => setCurrency(e.target.value as Currency)}
              className="h-11 w-full rounded-lg border border-ink-300 bg-white px-3 text-base text-ink-900 focus-visible:border-brand-700 focus-visible:ring-3 focus-visible:ring-sun-400 focus-visible:outline-none"
            >
              {CURRENCIES.map((c) => (
                <option key={c} value={c}>
                  {c} ({currencyPrefix(c)})
                </option>
              ))}
            </select>
          </div>
          <DialogFooter className="mt-2">
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={record.isPending}>
              {record.isPending ? 'Saving...' : 'Record Payment'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
