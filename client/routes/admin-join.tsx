import { useMutation, useQuery } from '@tanstack/react-query';
import { CheckCircle2, KeyRound, Link2Off } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { PAGE_PATHS } from '@shared/pages';
import { acceptInvitationSchema, TEAM_MESSAGES, type InvitationInfo } from '@shared/schemas/team';
import { Button } from '../components/ui/button';
import { Card } from '../components/ui/card';
import { Input } from '../components/ui/input';
import { FieldError, Label } from '../components/ui/label';
import { Skeleton } from '../components/ui/skeleton';
import { ApiRequestError, apiRequest, errorMessage } from '../lib/api-client';
import { Link, useSearchParam } from '../lib/navigation';

const JOIN_TEXT = {
  inviteHeading: 'Welcome to the team',
  resetHeading: 'Choose a new password',
  invalidHeading: 'This link no longer works',
  doneHeading: 'Your password is set',
  passwordsDiffer: 'The two passwords are not the same',
} as const;

/**
 * /admin/join?t=… : a team member's invitation or reset link. The member chooses a
 * password (at least 12 characters; the server also refuses common ones) and then signs in at
 * the admin page with their e-mail. A used or expired link says so, and who can send a new one.
 */
export function AdminJoinPage() {
  const token = useSearchParam('t');
  const info = useQuery({
    queryKey: ['team-link', token],
    queryFn: async () =>
      (await (
        await apiRequest('POST', '/api/team/invitation', { token })
      ).json()) as InvitationInfo,
    enabled: token.length > 0,
    retry: (count, err) =>
      count < 2 && !(err instanceof ApiRequestError && err.status >= 400 && err.status < 500),
    staleTime: Infinity,
  });
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState<string>();
  const setPasswordCall = useMutation({
    mutationFn: (body: { token: string; password: string }) =>
      apiRequest('POST', '/api/team/password', body),
    onError: (err) => setError(errorMessage(err, 'Could not set the password. Try again.')),
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = acceptInvitationSchema.safeParse({ token, password });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? TEAM_MESSAGES.passwordTooShort);
      return;
    }
    if (password !== repeat) {
      setError(JOIN_TEXT.passwordsDiffer);
      return;
    }
    setError(undefined);
    setPasswordCall.mutate(parsed.data);
  }

  const invalid =
    !token ||
    (info.error instanceof ApiRequestError && info.error.status === 404) ||
    (setPasswordCall.error instanceof ApiRequestError && setPasswordCall.error.status === 404);

  return (
    <div className="mx-auto max-w-lg px-4 py-14">
      <Card className="p-8">
        {invalid ? (
          <div className="text-center">
            <Link2Off className="mx-auto h-10 w-10 text-ink-600" aria-hidden="true" />
            <h1 className="mt-4 text-2xl font-bold text-ink-900">{JOIN_TEXT.invalidHeading}</h1>
            <p className="mt-2 text-ink-700" role="alert">
              {TEAM_MESSAGES.linkInvalid}
            </p>
            <p className="mt-2 text-sm text-ink-700">
              Links work once and for 72 hours. A newer link replaces older ones.
            </p>
          </div>
        ) : setPasswordCall.isSuccess ? (
          <div className="text-center">
            <CheckCircle2 className="mx-auto h-10 w-10 text-brand-700" aria-hidden="true" />
            <h1 className="mt-4 text-2xl font-bold text-ink-900">{JOIN_TEXT.doneHeading}</h1>
            <p className="mt-2 text-ink-700" role="status">
              Sign in at the admin page with your e-mail address
              {info.data ? ` (${info.data.email})` : ''} and your new password.
            </p>
            <Button className="mt-6" asChild>
              <Link to={PAGE_PATHS.admin}>Go to sign in</Link>
            </Button>
          </div>
        ) : info.isError ? (
          <div className="text-center" role="alert">
            <h1 className="text-2xl font-bold text-ink-900">{JOIN_TEXT.invalidHeading}</h1>
            <p className="mt-2 text-ink-700">
              {errorMessage(info.error, 'Could not check the link. Please reload the page.')}
            </p>
          </div>
        ) : !info.data ? (
          <div aria-busy="true">
            <Skeleton className="h-8 w-64" />
            <Skeleton className="mt-6 h-40 w-full" />
          </div>
        ) : (
          <>
            <KeyRound className="h-10 w-10 text-brand-700" aria-hidden="true" />
            <h1 className="mt-4 text-2xl font-bold text-ink-900">
              {info.data.reset ? JOIN_TEXT.resetHeading : JOIN_TEXT.inviteHeading}
            </h1>
            <p className="mt-2 text-ink-700">
              {info.data.reset
                ? `${info.data.name}, choose a new password for the admin area. Your old password and every open session stop working.`
                : `${info.data.name}, choose a password for the campaign’s admin area. You sign in with your e-mail address and this password.`}
            </p>
            <form onSubmit={submit} noValidate className="mt-6 grid gap-4">
              <div className="grid gap-1.5">
                <Label htmlFor="join-email">E-mail</Label>
                <Input
                  id="join-email"
                  type="email"
                  value={info.data.email}
                  autoComplete="username"
                  readOnly
                />
              </div>
              <div className="grid gap-1.5">
                <Label htmlFor="join-password">New password</Label>
                <Input
                  id="join-password"
                  type="password"
                  autoComplete="new-password"
                  aria-describedby="join-password-hint"
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                />
                <p id="join-password-hint" className="text-sm text-ink-700">
                  At least 12 characters. A few unrelated words make a strong one; common passwords
                  are refused.
                </p>
              </div>
              <div className="grid gap-1.5">
                <Label htmlFor="join-repeat">Repeat the password</Label>
                <Input
                  id="join-repeat"
                  type="password"
                  autoComplete="new-password"
                  value={repeat}
                  onChange={(e) => setRepeat(e.target.value)}
                />
              </div>
              <FieldError id="join-error">{error}</FieldError>
              <Button type="submit" disabled={setPasswordCall.isPending}>
                {setPasswordCall.isPending ? 'Saving…' : 'Set password'}
              </Button>
            </form>
          </>
        )}
      </Card>
    </div>
  );
}
