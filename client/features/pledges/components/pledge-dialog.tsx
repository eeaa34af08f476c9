import { PAGE_PATHS, SERVER_PAGE_PATHS } from '@shared/pages';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useRef } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { CURRENCIES, PLEDGE_AMOUNT_MIN } from '@shared/constants';
import { goalOrDefault, pledgeEstimate } from '@shared/containers';
import { formatNumber } from '@shared/format';
import { NEWS_CONSENT_LABEL } from '@shared/news';
import { amountPlaceholder, currencyPrefix, unitPriceText } from '@shared/prices';
import {
  pledgeCreateSchema,
  type PledgeCreate,
  type PledgeCreateInput,
} from '@shared/schemas/pledge';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { Dialog, DialogClose, DialogContent, DialogFooter } from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { FieldError, Label } from '../../../components/ui/label';
import { cn } from '../../../lib/cn';
import {
  rememberPledgeAmount,
  rememberPledgeContainers,
  rememberPledgeReference,
} from '../../../lib/last-pledge';
import { navigate } from '../../../lib/navigation';
import { progressQuery } from '../../../lib/query-keys';
import { rememberStatusLink } from '../../../lib/status-link';
import { useCreatePledge } from '../api';

/** A v4 UUID; crypto.randomUUID exists only on HTTPS and localhost pages. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** Product rule: an empty amount counts as 0 (and then fails the "at least $1" rule). */
export function parseAmountInput(value: unknown): number {
  if (value === '' || value === null || value === undefined) return 0;
  const n = Number(value);
  return Number.isFinite(n) ? n : 0;
}

const DEFAULTS: Partial<PledgeCreateInput> = {
  name: '',
  email: '',
  amount: undefined,
  currency: 'USD',
  isAnonymous: false,
  deliveryNews: false,
  website: '',
};

/** The "Make a Pledge" dialog: validated with the same zod schema as the API. */
export default function PledgeDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const form = useForm<PledgeCreateInput, unknown, PledgeCreate>({
    resolver: zodResolver(pledgeCreateSchema),
    defaultValues: DEFAULTS,
  });
  const {
    register,
    control,
    setValue,
    handleSubmit,
    reset,
    formState: { errors },
  } = form;
  const createPledge = useCreatePledge();
  const submission = useRef<{ fingerprint: string; key: string } | null>(null);
  const { data: progress } = useQuery(progressQuery);
  const goal = goalOrDefault(progress?.goalAmount);

  const currency = useWatch({ control, name: 'currency' }) ?? 'USD';
  const amount = parseAmountInput(useWatch({ control, name: 'amount' }));
  const estimate = pledgeEstimate(amount, currency, goal);

  const submitPledge = async ({ website, ...pledge }: PledgeCreate) => {
    try {
      // The honeypot travels only when something (a bot) filled it in.
      // Unticked news travels as no field at all: the body is the one it always was.
      const { deliveryNews, ...rest } = pledge;
      const base = deliveryNews ? { ...rest, deliveryNews } : rest;
      const input = website ? { ...base, website } : base;
      // The same answers sent again (after a timeout on a poor link) reuse the key, so the server
      // answers with the pledge it may already have stored; changed answers are a new submission.
      const fingerprint = JSON.stringify(input);
      if (submission.current?.fingerprint !== fingerprint)
        submission.current = { fingerprint, key: newIdempotencyKey() };
      const created = await createPledge.mutateAsync({
        input,
        idempotencyKey: submission.current.key,
      });
      submission.current = null;
      // The thank-you page shows the payment reference (a honeypot answer has none).
      if (typeof created.reference === 'string') rememberPledgeReference(created.reference);
      if (typeof created.containers === 'number') rememberPledgeContainers(created.containers);
      if (typeof created.amount === 'number' && typeof created.currency === 'string')
        rememberPledgeAmount(created.amount, created.currency);
      rememberStatusLink(created);
    } catch {
      return; // "Pledge Failed" toast shown by the mutation; the form keeps what was typed.
    }
    onOpenChange(false);
    reset(DEFAULTS);
    navigate(PAGE_PATHS.paymentInstructions);
  };
  const onSubmit = (e: FormEvent<HTMLFormElement>) => handleSubmit(submitPledge)(e);

  const submitting = createPledge.isPending;

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title="Make a Pledge"
        description={`Every ${unitPriceText()} you pledge provides one biodegradable meal container.`}
      >
        <form onSubmit={onSubmit} noValidate className="grid gap-4">
          <div className="grid gap-1.5">
            <Label htmlFor="pledge-name">Full Name</Label>
            <Input
              id="pledge-name"
              autoComplete="name"
              aria-invalid={errors.name ? true : undefined}
              aria-describedby={errors.name ? 'pledge-name-error' : undefined}
              {...register('name')}
            />
            <FieldError id="pledge-name-error">{errors.name?.message}</FieldError>
          </div>

          <div className="grid gap-1.5">
            <Label htmlFor="pledge-email">Email Address</Label>
            <Input
              id="pledge-email"
              type="email"
              autoComplete="email"
              inputMode="email"
              aria-invalid={errors.email ? true : undefined}
              aria-describedby={errors.email ? 'pledge-email-error' : 'pledge-email-hint'}
              {...register('email')}
            />
            <p id="pledge-email-hint" className="text-xs text-ink-600">
              Used only to confirm your payment. Never shown publicly.
            </p>
            <FieldError id="pledge-email-error">{errors.email?.message}</FieldError>
          </div>

          {/* Two toggle buttons (aria-pressed): the spec's "USD/JMD currency toggle". */}
          <div className="grid gap-1.5">
            <span id="pledge-currency-label" className="text-sm font-semibold text-ink-800">
              Currency
            </span>
            <div
              role="group"
              aria-labelledby="pledge-currency-label"
              className="grid grid-cols-2 gap-1 rounded-lg bg-ink-100 p-1"
            >
              {CURRENCIES.map((c) => (
                <button
                  key={c}
                  type="button"
                  aria-pressed={currency === c}
                  onClick={() => setValue('currency', c, { shouldDirty: true })}
                  className={cn(
                    'flex h-10 items-center justify-center rounded-md text-sm font-semibold transition-colors',
                    'focus-visible:outline-none focus-visible:ring-3 focus-visible:ring-sun-400',
                    currency === c
                      ? 'bg-brand-700 text-white shadow-sm'
                      : 'text-ink-800 hover:bg-white',
                  )}
                >
                  {c}
                </button>
              ))}
            </div>
            <input type="hidden" {...register('currency')} />
          </div>

          <div className="grid gap-1.5">
            <Label htmlFor="pledge-amount">Pledge Amount</Label>
            <div className="relative">
              <span
                id="pledge-amount-prefix"
                className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 font-semibold text-ink-700"
              >
                {currencyPrefix(currency)}
              </span>
              <Input
                id="pledge-amount"
                type="number"
                inputMode="numeric"
                step={1}
                min={PLEDGE_AMOUNT_MIN}
                placeholder={amountPlaceholder(currency)}
                // Room for the prefix: "US$" needs more than "J$".
                className={currencyPrefix(currency).length > 2 ? 'pl-13' : 'pl-10'}
                aria-invalid={errors.amount ? true : undefined}
                aria-describedby={cn(
                  'pledge-amount-prefix',
                  errors.amount ? 'pledge-amount-error' : undefined,
                )}
                {...register('amount', { setValueAs: parseAmountInput })}
              />
            </div>
            <FieldError id="pledge-amount-error">{errors.amount?.message}</FieldError>
          </div>

          <div className="flex items-center gap-3">
            <Controller
              control={control}
              name="isAnonymous"
              render={({ field }) => (
                <Checkbox
                  id="pledge-anonymous"
                  checked={field.value === true}
                  onCheckedChange={(v) => field.onChange(v === true)}
                  onBlur={field.onBlur}
                />
              )}
            />
            <Label htmlFor="pledge-anonymous" className="font-medium">
              Make my pledge anonymous
            </Label>
          </div>

          {/* Delivery news by consent: unticked until the donor ticks it, and sent only then. */}
          <div className="flex items-center gap-3">
            <Controller
              control={control}
              name="deliveryNews"
              render={({ field }) => (
                <Checkbox
                  id="pledge-news"
                  checked={field.value === true}
                  onCheckedChange={(v) => field.onChange(v === true)}
                  onBlur={field.onBlur}
                />
              )}
            />
            <Label htmlFor="pledge-news" className="font-medium">
              {NEWS_CONSENT_LABEL}
            </Label>
          </div>

          {/* Honeypot (catches naive bots): invisible to people and skipped by the keyboard. */}
          <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
            <label>
              Website
              <input type="text" tabIndex={-1} autoComplete="off" {...register('website')} />
            </label>
          </div>

          <div
            aria-live="polite"
            aria-atomic="true"
            data-testid="pledge-estimate"
            className="rounded-xl bg-brand-50 p-4 ring-1 ring-brand-100"
          >
            <p className="text-sm font-semibold text-brand-800">Your estimated impact</p>
            <p className="mt-1 text-ink-900">
              <strong className="text-2xl font-extrabold tabular-nums">
                {formatNumber(estimate.containers)}
              </strong>{' '}
              meal containers
            </p>
            <p className="text-sm text-ink-700">
              <strong className="font-semibold tabular-nums">{estimate.percent}%</strong> of the{' '}
              {formatNumber(goal)} container goal
            </p>
          </div>

          <DialogFooter className="mt-2">
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button type="submit" disabled={submitting}>
              {submitting ? 'Submitting...' : 'Submit Pledge'}
            </Button>
          </DialogFooter>
          {/* What happens to the donor's name and e-mail, before they give them;
              after the buttons, so the keyboard reaches Submit first. */}
          <p className="text-xs text-ink-600">
            We use your name and e-mail only for this pledge (and delivery news if you tick the
            box). See our{' '}
            <a
              href={SERVER_PAGE_PATHS.privacy}
              target="_blank"
              rel="noopener"
              className="font-semibold text-brand-800 underline"
            >
              privacy notice
            </a>
            .
          </p>
        </form>
      </DialogContent>
    </Dialog>
  );
}
