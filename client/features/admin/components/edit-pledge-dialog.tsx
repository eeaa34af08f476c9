import { useState, type FormEvent } from 'react';
import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH } from '@shared/constants';
import { currencyPrefix } from '@shared/prices';
import { pledgeEditAmount, type AdminPledge } from '@shared/schemas/pledge';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogFooter } from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { toast } from '../../../components/ui/toast-store';
import { useEditPledge } from '../api';
import { TOASTS } from '../messages';

/**
 * "Edit Pledge": name, email and amount only. The amount follows the API's rule
 * (`pledgeEditAmount`: a whole number from 1 to 1,000,000,000), else the "Invalid amount" toast
 * with the rule's message; name and e-mail have no client rule beyond the e-mail input type; the
 * server checks everything again.
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

  // Each pledge opened fills the form afresh (state adjusted while rendering, not in an effect).
  const [shown, setShown] = useState<typeof pledge>(null);
  if (pledge !== shown) {
    setShown(pledge);
    if (pledge) {
      setName(pledge.name);
      setEmail(pledge.email);
      setAmount(String(pledge.amount));
    }
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!pledge) return;
    // The API's own rule (whole number, 1 to 1,000,000,000); an empty field reads as 0.
    const parsed = pledgeEditAmount.safeParse(Number(amount));
    if (!parsed.success) {
      toast({
        ...TOASTS.invalidAmount,
        description: parsed.error.issues[0]?.message ?? TOASTS.invalidAmount.description,
        variant: 'destructive',
      });
      return;
    }
    edit.mutate(
      { id: pledge.id, updates: { name, email, amount: parsed.data } },
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
              Amount{pledge ? ` (${currencyPrefix(pledge.currency)})` : ''}
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
