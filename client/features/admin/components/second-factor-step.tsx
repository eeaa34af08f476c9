import { useState, type FormEvent } from 'react';
import { TWO_FACTOR_MESSAGES, type SecondFactorMethod } from '@shared/schemas/two-factor-messages';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { FieldError, Label } from '../../../components/ui/label';
import { errorMessage } from '../../../lib/api-client';
import { signInWithPasskey, submitCode } from '../two-factor-api';

/**
 * The login's second step, after a correct password: the code from the authenticator app, a
 * passkey, or a recovery code (docs/decisions/023-two-factor.md). `onDone` when the session is
 * open; `onRestart` when the step has expired and the password is needed again.
 */
export function SecondFactorStep({
  methods,
  onDone,
  onRestart,
}: {
  methods: SecondFactorMethod[];
  onDone: () => void;
  onRestart: () => void;
}) {
  const [mode, setMode] = useState<'totp' | 'recovery'>(
    methods.includes('totp') ? 'totp' : 'recovery',
  );
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);

  async function run(action: () => Promise<void>, fallback: string) {
    setPending(true);
    setError(undefined);
    try {
      await action();
      onDone();
    } catch (err) {
      const message = errorMessage(err, fallback);
      if (message === TWO_FACTOR_MESSAGES.stepExpired) onRestart();
      setError(message);
      setCode('');
    } finally {
      setPending(false);
    }
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    const invalid =
      mode === 'totp' ? TWO_FACTOR_MESSAGES.invalidCode : TWO_FACTOR_MESSAGES.invalidRecoveryCode;
    if (!code.trim()) {
      setError(invalid);
      return;
    }
    void run(() => submitCode(mode, code), invalid);
  }

  const label =
    mode === 'totp' ? TWO_FACTOR_MESSAGES.codePrompt : TWO_FACTOR_MESSAGES.recoveryPrompt;
  return (
    <div className="grid gap-3">
      <form onSubmit={submit} noValidate className="grid gap-1.5">
        <Label htmlFor="second-factor-code">{label}</Label>
        <Input
          id="second-factor-code"
          key={mode}
          {...(mode === 'totp'
            ? { inputMode: 'numeric' as const, autoComplete: 'one-time-code', maxLength: 7 }
            : { autoComplete: 'off', spellCheck: false })}
          // eslint-disable-next-line jsx-a11y/no-autofocus -- the step the person is on: after the password, the code is what they type next
          autoFocus
          value={code}
          onChange={(e) => {
            setCode(e.target.value);
            if (error) setError(undefined);
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'second-factor-error' : undefined}
        />
        <FieldError id="second-factor-error">{error}</FieldError>
        <Button type="submit" disabled={pending} className="mt-2">
          {pending ? 'Checking...' : 'Verify'}
        </Button>
      </form>
      <div className="flex flex-col gap-2 border-t border-ink-100 pt-3">
        {methods.includes('passkey') ? (
          <Button
            variant="outline"
            disabled={pending}
            onClick={() => void run(signInWithPasskey, TWO_FACTOR_MESSAGES.passkeyFailed)}
          >
            {TWO_FACTOR_MESSAGES.usePasskey}
          </Button>
        ) : null}
        {mode === 'totp' ? (
          <Button variant="link" onClick={() => switchTo('recovery')}>
            {TWO_FACTOR_MESSAGES.useRecoveryCode}
          </Button>
        ) : methods.includes('totp') ? (
          <Button variant="link" onClick={() => switchTo('totp')}>
            Use your authenticator app
          </Button>
        ) : null}
      </div>
    </div>
  );

  function switchTo(next: 'totp' | 'recovery') {
    setMode(next);
    setCode('');
    setError(undefined);
  }
}
