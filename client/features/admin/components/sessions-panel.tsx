import { ROLE_LABELS } from '@shared/admin-roles';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { errorMessage } from '../../../lib/api-client';
import { useCampaignTimeZone } from '../../../lib/campaign-time-zone';
import { formatDateTime } from '@shared/dates';
import { useSessions } from '../team-api';

/**
 * Who is signed in now, for the owner: account, role, when the session started and was last
 * used, and the address it came from with its last part hidden. "Sign out" ends every session of
 * that person; the dashboard's "Sign out all sessions" ends everyone's.
 */
export function SessionsPanel({
  onEnd,
  pendingFor,
}: {
  onEnd: (accountId: string, name: string) => void;
  pendingFor: string | undefined;
}) {
  const sessions = useSessions();
  const items = sessions.data ?? [];
  const timeZone = useCampaignTimeZone();
  const when = (iso: string) => formatDateTime(iso, timeZone);
  return (
    <section aria-labelledby="sessions-heading" className="grid gap-3">
      <h3 id="sessions-heading" className="text-lg font-bold text-ink-900">
        Active sessions
      </h3>
      {sessions.isError ? (
        <p role="alert" className="text-red-800">
          {errorMessage(sessions.error, 'Could not load the sessions.')}
        </p>
      ) : null}
      <Card className="overflow-x-auto">
        <table className="w-full min-w-[720px] text-left text-sm">
          <caption className="sr-only">Admin sessions still running, most recent first</caption>
          <thead className="bg-ink-50 text-ink-700">
            <tr>
              {['Account', 'Role', 'Started', 'Last seen', 'Address'].map((h) => (
                <th key={h} scope="col" className="px-3 py-2 font-semibold">
                  {h}
                </th>
              ))}
              <th scope="col" className="px-3 py-2 text-right font-semibold">
                Actions
              </th>
            </tr>
          </thead>
          <tbody>
            {items.length === 0 ? (
              <tr className="border-t border-ink-100">
                <td colSpan={6} className="px-3 py-6 text-center text-ink-600">
                  {sessions.isLoading ? 'Loading…' : 'No active sessions.'}
                </td>
              </tr>
            ) : (
              items.map((s) => (
                <tr key={s.key} className="border-t border-ink-100">
                  <td className="px-3 py-2.5 font-medium text-ink-900">
                    {s.name}
                    {s.current ? (
                      <span className="ml-2 text-xs text-ink-600">(this device)</span>
                    ) : null}
                  </td>
                  <td className="px-3 py-2.5">{ROLE_LABELS[s.role]}</td>
                  <td className="px-3 py-2.5 whitespace-nowrap text-ink-700">
                    <time dateTime={s.startedAt}>{when(s.startedAt)}</time>
                  </td>
                  <td className="px-3 py-2.5 whitespace-nowrap text-ink-700">
                    <time dateTime={s.lastSeenAt}>{when(s.lastSeenAt)}</time>
                  </td>
                  <td className="px-3 py-2.5 font-mono text-xs text-ink-700">
                    {s.clientIp ?? '—'}
                  </td>
                  <td className="px-3 py-2.5 text-right">
                    {s.role === 'owner' ? null : (
                      <Button
                        size="sm"
                        variant="outline"
                        className="h-8"
                        disabled={pendingFor === s.accountId}
                        aria-label={`Sign out ${s.name} everywhere`}
                        onClick={() => onEnd(s.accountId, s.name)}
                      >
                        Sign out
                      </Button>
                    )}
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </Card>
    </section>
  );
}
