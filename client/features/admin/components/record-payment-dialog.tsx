import { useEffect, useState, type FormEvent } from 'react';
import { CURRENCIES, CURRENCY_PREFIX, type Currency } from '@shared/constants';
import { formatMoney } from '@shared/format';
import type { AdminPledge } from '@shared/schemas/pledge';
import { convertAmount } from '@shared/received';
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

  useEffect(() => {
    if (!pledge) return;
    setCurrency(pledge.currencyReceived ?? pledge.currency);
    setAmount(String(pledge.isPaid ? (pledge.amountReceived ?? pledge.amount) : pledge.amount));
    setError(null);
  }, [pledge]);

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!pledge) return;
    const value = Number(amount);
    if (amount.trim() === '' || !Number.isInteger(value) || value < 1) {
      setError('Amount received must be a whole number of at least 1');
      return;
    }
    record.mutate(
      { pledge, amountReceived: value, currencyReceived: currency },
      { onSuccess: () => onOpenChange(false) },
    );
  }

  const value = Number(amount);
  const inPledgeCurrency =
    pledge && Number.isFinite(value) ? convertAmount(value, currency, pledge.currency) : 0;
  const short = pledge ? Math.max(0, pledge.amount - inPledgeCurrency) : 0;

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
              inputMode="numeric"
              step={1}
              min={1}
              value={amount}
              aria-invalid={error ? true : undefined}
              aria-describedby="record-amount-hint record-amount-error"
              onChange={(e) => {
                setAmount(e.target.value);
                setError(null);
              }}
            />
            <p id="record-amount-hint" className="text-sm text-ink-700" aria-live="polite">
              {pledge && short > 0
                ? `Part paid: ${formatMoney(short, pledge.currency)} will stay outstanding.`
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
                  {c} ({CURRENCY_PREFIX[c]})
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
