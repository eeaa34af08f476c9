import { useState, type FormEvent } from 'react';
import { ADMIN_MESSAGES } from '@shared/schemas/admin-messages';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogFooter } from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { FieldError, Label } from '../../../components/ui/label';
import { useAdminAuth } from '../../admin-auth';

/**
 * "Admin Access" (product rule): an empty password gives "Password is required"; a rejected one
 * gives "Invalid admin password" and clears the field. No other client-side rule.
 */
export function LoginDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { login } = useAdminAuth();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!password) {
      setError(ADMIN_MESSAGES.passwordRequired);
      return;
    }
    setPending(true);
    const ok = await login(password);
    setPending(false);
    if (ok) {
      setPassword('');
      setError(undefined);
      onOpenChange(false);
    } else {
      setPassword('');
      setError(ADMIN_MESSAGES.invalidPassword);
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) setError(undefined);
        onOpenChange(next);
      }}
    >
      <DialogContent
        title="Admin Access"
        description="Enter the admin password to manage pledges, delivery updates and progress."
        className="max-w-md"
      >
        <form onSubmit={submit} noValidate className="grid gap-1.5">
          <Label htmlFor="admin-password">Password</Label>
          <Input
            id="admin-password"
            type="password"
            autoComplete="current-password"
            // eslint-disable-next-line jsx-a11y/no-autofocus -- a dialog the admin just opened to type the password in: focus goes to its only field
            autoFocus
            value={password}
            onChange={(e) => {
              setPassword(e.target.value);
              if (error) setError(undefined);
            }}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'admin-password-error' : undefined}
          />
          <FieldError id="admin-password-error">{error}</FieldError>
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? 'Logging in...' : 'Login'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
