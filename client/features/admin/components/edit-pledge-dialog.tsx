import { useEffect, useState, type FormEvent } from 'react';
import { CURRENCY_PREFIX, EMAIL_MAX_LENGTH, NAME_MAX_LENGTH } from '../../../../shared/constants';
import type { AdminPledge } from '../../../../shared/schemas/pledge';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogFooter } from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { toast } from '../../../components/ui/toast-store';
import { useEditPledge } from '../api';
import { TOASTS } from '../messages';

/**
 * "Edit Pledge": name, email and amount only (SPEC 2). The amount must be a whole number of at
 * least 1, else the "Invalid amount" toast; name and e-mail have no client rule beyond the e-mail
 * input type (SPEC 5); the server checks everything again.
 */
export function EditPledgeDialog({
  pledge,
  onOpenChange,
}: {
  /** The pledge to edit; the dialog is open while one is given. */
  pledge: AdminPledge | null;
  onOpenChange: (open: boolean) => void;
}) {
  const edit = useEditPledge();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [amount, setAmount] = useState('');

  useEffect(() => {
    if (pledge) {
      setName(pledge.name);
      setEmail(pledge.email);
      setAmount(String(pledge.amount));
    }
  }, [pledge]);

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!pledge) return;
    const value = Number(amount);
    if (amount.trim() === '' || !Number.isInteger(value) || value < 1) {
      toast({ ...TOASTS.invalidAmount, variant: 'destructive' });
      return;
    }
    edit.mutate(
      { id: pledge.id, updates: { name, email, amount: value } },
      { onSuccess: () => onOpenChange(false) },
    );
  }

  return (
    <Dialog open={pledge !== null} onOpenChange={onOpenChange}>
      <DialogContent
        title="Edit Pledge"
        description="Correct the donor's name, e-mail address or pledged amount."
        className="max-w-md"
      >
        <form onSubmit={submit} className="grid gap-4">
          <div className="grid gap-1.5">
            <Label htmlFor="edit-pledge-name">Name</Label>
            <Input
              id="edit-pledge-name"
              value={name}
              maxLength={NAME_MAX_LENGTH}
              autoComplete="off"
              onChange={(e) => setName(e.target.value)}
            />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="edit-pledge-email">Email</Label>
            <Input
              id="edit-pledge-email"
              type="email"
              value={email}
              maxLength={EMAIL_MAX_LENGTH}
              autoComplete="off"
              onChange={(e) => setEmail(e.target.value)}
            />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="edit-pledge-amount">
              Amount{pledge ? ` (${CURRENCY_PREFIX[pledge.currency]})` : ''}
            </Label>
            <Input
              id="edit-pledge-amount"
              type="number"
              inputMode="numeric"
              // No min/step: the browser's own bubble would hide the spec's "Invalid amount" toast.
              step="any"
              value={amount}
              onChange={(e) => setAmount(e.target.value)}
            />
          </div>
          <DialogFooter className="mt-2">
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={edit.isPending}>
              {edit.isPending ? 'Saving...' : 'Save Changes'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
