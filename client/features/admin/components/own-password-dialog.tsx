import { useState, type FormEvent } from 'react';
import { changePasswordSchema, TEAM_MESSAGES } from '@shared/schemas/team';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogFooter } from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { FieldError, Label } from '../../../components/ui/label';
import { toast } from '../../../components/ui/toast-store';
import { errorMessage } from '../../../lib/api-client';
import { useChangeOwnPassword } from '../team-api';

const PASSWORDS_DIFFER = 'The two new passwords are not the same';

/**
 * A member changes their own password: the current one, then the new one twice. The server checks
 * the length and the common-password list and ends the member's other sessions.
 */
export function OwnPasswordDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const change = useChangeOwnPassword();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState<string>();

  function reset(openNow: boolean) {
    if (!openNow) {
      setCurrent('');
      setNext('');
      setRepeat('');
      setError(undefined);
    }
    onOpenChange(openNow);
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = changePasswordSchema.safeParse({ currentPassword: current, newPassword: next });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? TEAM_MESSAGES.passwordTooShort);
      return;
    }
    if (next !== repeat) {
      setError(PASSWORDS_DIFFER);
      return;
    }
    setError(undefined);
    change.mutate(parsed.data, {
      onSuccess: () => {
        toast({
          title: 'Password changed',
          description: 'Your other sessions have ended; this one stays signed in.',
        });
        reset(false);
      },
      onError: (err) => setError(errorMessage(err, 'Could not change the password.')),
    });
  }

  return (
    <Dialog open={open} onOpenChange={reset}>
      <DialogContent
        title="Change your password"
        description="At least 12 characters, not a common password. Your other devices are signed out."
        className="max-w-md"
      >
        <form onSubmit={submit} noValidate className="grid gap-4">
          <input type="hidden" autoComplete="username" />
          <div className="grid gap-1.5">
            <Label htmlFor="own-current">Current password</Label>
            <Input
              id="own-current"
              type="password"
              autoComplete="current-password"
              value={current}
              onChange={(e) => setCurrent(e.target.value)}
            />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="own-new">New password</Label>
            <Input
              id="own-new"
              type="password"
              autoComplete="new-password"
              value={next}
              onChange={(e) => setNext(e.target.value)}
            />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="own-repeat">Repeat the new password</Label>
            <Input
              id="own-repeat"
              type="password"
              autoComplete="new-password"
              value={repeat}
              onChange={(e) => setRepeat(e.target.value)}
            />
          </div>
          <FieldError id="own-password-error">{error}</FieldError>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => reset(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={change.isPending}>
              {change.isPending ? 'Saving…' : 'Change password'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
