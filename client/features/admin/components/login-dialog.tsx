import { useState, type FormEvent } from 'react';
import { ADMIN_MESSAGES } from '@shared/schemas/admin-messages';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogFooter } from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { FieldError, Label } from '../../../components/ui/label';
import { TWO_FACTOR_MESSAGES, type SecondFactorMethod } from '@shared/schemas/two-factor-messages';
import { useAdminAuth } from '../../admin-auth';
import { SecondFactorStep } from './second-factor-step';
import { SecuritySettings } from './security-settings';

/**
 * "Admin Access" (product rule): an empty password gives "Password is required"; a rejected one
 * gives "Invalid admin password" and clears the field. No other client-side rule. Team members
 * also fill in the optional e-mail field; a rejected member sign-in says "Invalid e-mail
 * or password". Left empty, the dialog is the spec's owner login, unchanged.
 */
export function LoginDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { login, completeLogin } = useAdminAuth();
  /** After the password: a second factor to give, or one to set up (the campaign requires it). */
  const [step, setStep] = useState<{ methods: SecondFactorMethod[] } | 'setup'>();
  const [email, setEmail] = useState('');
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
    const member = email.trim();
    const ok = await login(password, member || undefined);
    setPending(false);
    if (typeof ok === 'object') {
      setPassword('');
      setError(undefined);
      setStep('secondFactor' in ok ? { methods: ok.secondFactor } : 'setup');
    } else if (ok) {
      setPassword('');
      setEmail('');
      setError(undefined);
      onOpenChange(false);
    } else {
      setPassword('');
      setError(member ? ADMIN_MESSAGES.invalidMemberLogin : ADMIN_MESSAGES.invalidPassword);
    }
  }

  async function finish() {
    setStep(undefined);
    setEmail('');
    await completeLogin();
    onOpenChange(false);
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) {
          setError(undefined);
          // Closing during the second step starts the sign-in over next time.
          setStep(undefined);
        }
        onOpenChange(next);
      }}
    >
      <DialogContent
        title="Admin Access"
        description={
          step === 'setup'
            ? TWO_FACTOR_MESSAGES.setupRequired
            : step
              ? 'Second step: prove it is you.'
              : 'Enter the admin password to manage pledges, delivery updates and progress.'
        }
        className={step === 'setup' ? 'max-w-lg' : 'max-w-md'}
      >
        {step === 'setup' ? (
          <SecuritySettings onFirstFactor={finish} />
        ) : step ? (
          <SecondFactorStep
            methods={step.methods}
            onDone={finish}
            onRestart={() => setStep(undefined)}
          />
        ) : (
          <form onSubmit={submit} noValidate className="grid gap-1.5">
            <Label htmlFor="admin-password">Password</Label>
            <Input
              id="admin-password"
              type="password"
              autoComplete="current-password"
              // eslint-disable-next-line jsx-a11y/no-autofocus -- a dialog the admin just opened to type the password in: focus goes to the password, as before team accounts
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
            {/* After the password, so the owner's dialog starts and reads as the spec's. */}
            <Label htmlFor="admin-email" className="mt-2">
              E-mail (team members)
            </Label>
            <Input
              id="admin-email"
              type="email"
              autoComplete="username"
              value={email}
              onChange={(e) => {
                setEmail(e.target.value);
                if (error) setError(undefined);
              }}
              aria-describedby="admin-email-hint"
            />
            <p id="admin-email-hint" className="text-muted-foreground text-sm">
              Leave empty to sign in as the owner.
            </p>
            <DialogFooter>
              <Button variant="outline" onClick={() => onOpenChange(false)}>
                Cancel
              </Button>
              <Button type="submit" disabled={pending}>
                {pending ? 'Logging in...' : 'Login'}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
