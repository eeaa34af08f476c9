import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { TWO_FACTOR_MESSAGES } from '@shared/schemas/two-factor-messages';
import type { Reauth, TotpSetup } from '@shared/schemas/two-factor';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { Input } from '../../../components/ui/input';
import { FieldError, Label } from '../../../components/ui/label';
import { errorMessage } from '../../../lib/api-client';
import { useCampaignTimeZone } from '../../../lib/campaign-time-zone';
import { formatLongDate } from '@shared/dates';
import {
  addPasskey,
  confirmTotp,
  getSecurity,
  newRecoveryCodes,
  removePasskey,
  removeTotp,
  securityKey,
  setRequired,
  startTotp,
} from '../two-factor-api';

/**
 * Your own second factors (docs/decisions/023-two-factor.md): an authenticator app (a QR code to
 * scan, then a first code), passkeys, recovery codes; for the owner, "require a second factor for
 * everyone". Also shown at sign-in when the campaign requires a second factor and the account has
 * none: `onFirstFactor` then continues into the dashboard.
 */
export function SecuritySettings({ onFirstFactor }: { onFirstFactor?: () => void }) {
  const queryClient = useQueryClient();
  const { data: status } = useQuery({ queryKey: securityKey, queryFn: getSecurity });
  const [codes, setCodes] = useState<string[]>();
  const [error, setError] = useState<string>();
  const [confirming, setConfirming] = useState<PendingChange>();
  const timeZone = useCampaignTimeZone();
  const refresh = () => queryClient.invalidateQueries({ queryKey: securityKey });

  async function attempt(action: () => Promise<unknown>, fallback: string) {
    setError(undefined);
    try {
      await action();
    } catch (err) {
      setError(errorMessage(err, fallback));
    } finally {
      await refresh();
    }
  }

  /** A factor was added: the first one comes with the recovery codes, to show once. */
  function added(recoveryCodes: string[] | undefined) {
    void refresh();
    if (recoveryCodes?.length) setCodes(recoveryCodes);
    else onFirstFactor?.();
  }

  if (!status) return <p className="text-ink-700">Loading...</p>;
  if (confirming) {
    return (
      <ConfirmItsYou
        change={confirming}
        hasApp={status.totp}
        onDone={() => {
          setConfirming(undefined);
          void refresh();
        }}
      />
    );
  }
  if (codes) {
    return (
      <RecoveryCodes
        codes={codes}
        onSaved={() => {
          setCodes(undefined);
          onFirstFactor?.();
        }}
      />
    );
  }
  return (
    <div className="grid gap-5">
      <FieldError id="security-error">{error}</FieldError>
      <Section title="Authenticator app">
        {status.totp ? (
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="text-ink-700">Set up: sign-in asks for its 6-digit code.</p>
            <Button
              variant="outline"
              onClick={() =>
                setConfirming({
                  what: 'Remove the authenticator app',
                  run: (proof) => removeTotp(proof),
                })
              }
            >
              Remove authenticator app
            </Button>
          </div>
        ) : (
          <TotpSetupForm onAdded={added} />
        )}
      </Section>
      <Section title="Passkeys">
        {status.passkeys.length ? (
          <ul className="grid gap-2">
            {status.passkeys.map((p) => (
              <li key={p.id} className="flex items-center justify-between gap-2">
                <span>
                  <span className="font-medium text-ink-900">{p.name}</span>
                  <span className="block text-sm text-ink-600">
                    Added {formatLongDate(p.createdAt, timeZone)}
                    {p.lastUsedAt ? `, last used ${formatLongDate(p.lastUsedAt, timeZone)}` : ''}
                  </span>
                </span>
                <Button
                  variant="outline"
                  aria-label={`Remove passkey ${p.name}`}
                  onClick={() =>
                    setConfirming({
                      what: `Remove the passkey “${p.name}”`,
                      run: (proof) => removePasskey(p.id, proof),
                    })
                  }
                >
                  Remove
                </Button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-ink-700">No passkey yet.</p>
        )}
        <PasskeyForm
          onAdd={(name) =>
            attempt(async () => added(await addPasskey(name)), TWO_FACTOR_MESSAGES.passkeyFailed)
          }
        />
      </Section>
      {status.totp || status.passkeys.length ? (
        <Section title="Recovery codes">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="text-ink-700">
              {status.recoveryCodesLeft} of 10 left. Each works once, if your phone or passkey is
              lost.
            </p>
            <Button
              variant="outline"
              onClick={() =>
                setConfirming({
                  what: 'Create new recovery codes (the old ones stop working)',
                  run: async (proof) => setCodes(await newRecoveryCodes(proof)),
                })
              }
            >
              Create new recovery codes
            </Button>
          </div>
        </Section>
      ) : null}
      {status.mayRequire ? (
        <Section title="Everyone">
          <div className="flex items-start gap-2">
            <Checkbox
              id="require-second-factor"
              checked={status.required}
              onCheckedChange={(on) =>
                void attempt(() => setRequired(on === true), 'The setting could not be changed.')
              }
              aria-describedby="require-second-factor-hint"
            />
            <div>
              <Label htmlFor="require-second-factor">Require a second factor for everyone</Label>
              <p id="require-second-factor-hint" className="text-sm text-ink-600">
                Members without one are led to set it up at their next sign-in.
              </p>
            </div>
          </div>
        </Section>
      ) : null}
    </div>
  );
}

/** A change that needs the current password or a code first, and what to call it. */
interface PendingChange {
  what: string;
  run: (proof: Reauth) => Promise<unknown>;
}

/**
 * Removing a factor or making new recovery codes asks for the current password (or a current
 * code) again: a session left open on a shared computer is not enough to weaken the account.
 */
function ConfirmItsYou({
  change,
  hasApp,
  onDone,
}: {
  change: PendingChange;
  hasApp: boolean;
  onDone: () => void;
}) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const typed = value.trim();
    if (!typed) {
      setError(TWO_FACTOR_MESSAGES.reauthRequired);
      return;
    }
    // Six digits are the app's code; anything else is the password (12 characters at least).
    const proof: Reauth =
      hasApp && /^\d{3}\s?\d{3}$/.test(typed) ? { code: typed } : { currentPassword: value };
    setPending(true);
    setError(undefined);
    try {
      await change.run(proof);
      onDone();
    } catch (err) {
      setError(errorMessage(err, TWO_FACTOR_MESSAGES.reauthWrong));
      setValue('');
    } finally {
      setPending(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="grid gap-3" aria-labelledby="reauth-heading">
      <h3 id="reauth-heading" className="text-base font-semibold text-ink-900">
        Confirm it’s you
      </h3>
      <p className="text-ink-700">
        {change.what}: enter your current password
        {hasApp ? ', or the 6-digit code from your authenticator app' : ''}.
      </p>
      <Label htmlFor="reauth-proof">
        {hasApp ? TWO_FACTOR_MESSAGES.reauthPrompt : 'Your current password'}
      </Label>
      <Input
        id="reauth-proof"
        type="password"
        autoComplete="current-password"
        value={value}
        onChange={(e) => setValue(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'reauth-error' : undefined}
      />
      <FieldError id="reauth-error">{error}</FieldError>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={pending}>
          {pending ? 'Checking...' : 'Confirm'}
        </Button>
        <Button type="button" variant="outline" onClick={onDone} disabled={pending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="grid gap-2" aria-label={title}>
      <h3 className="text-base font-semibold text-ink-900">{title}</h3>
      {children}
    </section>
  );
}

function TotpSetupForm({ onAdded }: { onAdded: (codes: string[] | undefined) => void }) {
  const [setup, setSetup] = useState<TotpSetup>();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);

  async function begin() {
    setError(undefined);
    try {
      setSetup(await startTotp());
    } catch (err) {
      setError(errorMessage(err, 'The set-up could not start.'));
    }
  }

  async function confirm(e: FormEvent) {
    e.preventDefault();
    setPending(true);
    setError(undefined);
    try {
      onAdded(await confirmTotp(code));
    } catch (err) {
      setError(errorMessage(err, TWO_FACTOR_MESSAGES.invalidCode));
      setCode('');
    } finally {
      setPending(false);
    }
  }

  if (!setup) {
    return (
      <div className="grid gap-2">
        <p className="text-ink-700">
          Use an app such as Google Authenticator, Microsoft Authenticator or 1Password.
        </p>
        <FieldError>{error}</FieldError>
        <Button className="justify-self-start" onClick={() => void begin()}>
          Set up an authenticator app
        </Button>
      </div>
    );
  }
  return (
    <form onSubmit={confirm} noValidate className="grid gap-2">
      <p className="text-ink-700">Scan this QR code with your authenticator app.</p>
      <img
        src={setup.qrCode}
        alt="QR code to scan with your authenticator app"
        width={180}
        height={180}
        className="rounded border border-ink-200 bg-white"
      />
      <p className="text-sm text-ink-700">
        Or enter this key by hand:{' '}
        <code className="font-mono break-all text-ink-900">{setup.secret}</code>
      </p>
      <Label htmlFor="totp-confirm-code">{TWO_FACTOR_MESSAGES.codePrompt}</Label>
      <Input
        id="totp-confirm-code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={7}
        value={code}
        onChange={(e) => setCode(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'totp-confirm-error' : undefined}
      />
      <FieldError id="totp-confirm-error">{error}</FieldError>
      <Button type="submit" disabled={pending} className="justify-self-start">
        {pending ? 'Checking...' : 'Turn on'}
      </Button>
    </form>
  );
}

function PasskeyForm({ onAdd }: { onAdd: (name: string) => Promise<void> }) {
  const [name, setName] = useState('');
  const [pending, setPending] = useState(false);
  return (
    <form
      noValidate
      className="flex flex-wrap items-end gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        setPending(true);
        void onAdd(name).finally(() => {
          setPending(false);
          setName('');
        });
      }}
    >
      <div className="grid gap-1.5">
        <Label htmlFor="passkey-name">Passkey name (optional)</Label>
        <Input
          id="passkey-name"
          value={name}
          maxLength={60}
          placeholder="e.g. My laptop"
          onChange={(e) => setName(e.target.value)}
        />
      </div>
      <Button type="submit" disabled={pending}>
        {pending ? 'Waiting for the passkey...' : 'Add a passkey'}
      </Button>
    </form>
  );
}

function RecoveryCodes({ codes, onSaved }: { codes: string[]; onSaved: () => void }) {
  return (
    <section className="grid gap-3" aria-label="Your recovery codes">
      <h3 className="text-base font-semibold text-ink-900">Your recovery codes</h3>
      <p className="text-ink-700">
        Save these codes somewhere safe, apart from your phone. Each one signs you in once if you
        lose your authenticator app or passkey. They are shown only now.
      </p>
      <ul className="grid grid-cols-2 gap-1 rounded border border-ink-200 bg-ink-50 p-3 font-mono text-ink-900">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <Button className="justify-self-start" onClick={onSaved}>
        I have saved my recovery codes
      </Button>
    </section>
  );
}
