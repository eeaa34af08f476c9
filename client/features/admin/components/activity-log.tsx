import { formatDateTime } from '@shared/dates';
import { useCampaignTimeZone } from '../../../lib/campaign-time-zone';
import { useEffect, useState } from 'react';
import { formatMoney } from '@shared/format';
import type { AuditEntry } from '@shared/schemas/audit';
import { Card } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { ROLE_LABELS, type AdminRole } from '@shared/admin-roles';
import { errorMessage } from '../../../lib/api-client';
import { useActivity } from '../api';
import { useActivityPeople } from '../team-api';

const roleLabel = (role: string) => ROLE_LABELS[role as AdminRole] ?? role;

/** A short, readable line of what an entry changed. */
function summary(e: AuditEntry): string {
  const d = (e.details ?? {}) as Record<string, unknown>;
  const money = (a: unknown, c: unknown) =>
    typeof a === 'number' && (c === 'USD' || c === 'JMD') ? formatMoney(a, c) : '';
  switch (e.action) {
    case 'pledge.confirm':
      return `${money(d.amountReceived, d.currencyReceived)} received of ${money(d.amount, d.currency)}${d.source === 'statement' ? ' (bank statement)' : ''}`;
    case 'pledge.edit':
    case 'update.edit':
    case 'progress.update': {
      const before = (d.before ?? {}) as Record<string, unknown>;
      const after = (d.after ?? {}) as Record<string, unknown>;
      // A changed name or e-mail is logged by field name only (no donor data in the log).
      const personal = Array.isArray(d.personalDataChanged)
        ? d.personalDataChanged.map((k) => `${String(k)} changed`)
        : [];
      return [
        ...Object.keys(after).map((k) => `${k}: ${String(before[k])} → ${String(after[k])}`),
        ...personal,
      ].join(', ');
    }
    case 'pledge.delete': {
      const p = (d.deleted ?? {}) as Record<string, unknown>;
      return `${String(e.pledgeReference ?? p.reference)}, ${money(p.amount, p.currency)}`;
    }
    case 'team.invite':
      return `${String(d.name)} (${roleLabel(String(d.role))})${d.again ? ', new link' : ''}`;
    case 'team.role':
      return `${String(d.name)}: ${roleLabel(String(d.before))} → ${roleLabel(String(d.after))}`;
    case 'team.disable':
    case 'team.enable':
    case 'team.sessions.revoke':
      return String(d.name ?? '');
    case 'statement.import':
      return `${String(d.fileName ?? 'file')}: ${String(d.newLines)} new line(s), ${String(d.alreadyImported)} already imported`;
    default:
      return '';
  }
}

/** The "Activity" tab: who did what, when and from where; filterable by pledge and by person. */
export function ActivityLog() {
  const timeZone = useCampaignTimeZone();
  const [input, setInput] = useState('');
  const [filter, setFilter] = useState('');
  const [actor, setActor] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setFilter(input), 300);
    return () => clearTimeout(t);
  }, [input]);
  const activity = useActivity(filter, actor);
  const people = useActivityPeople();
  const items = activity.data?.items ?? [];
  return (
    <section aria-labelledby="activity-heading" className="grid gap-4">
      <h2 id="activity-heading" className="text-xl font-bold text-ink-900">
        Activity
      </h2>
      <div className="flex flex-col gap-4 sm:flex-row">
        <div className="grid max-w-md flex-1 gap-1.5">
          <Label htmlFor="activity-pledge">Filter by pledge</Label>
          <Input
            id="activity-pledge"
            placeholder="Payment reference, e.g. MRJ-7K4Q-2"
            value={input}
            onChange={(e) => setInput(e.target.value)}
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="activity-person">Filter by person</Label>
          <select
            id="activity-person"
            className="h-10 rounded-lg border border-ink-300 bg-white px-2 text-sm text-ink-900 focus-visible:ring-3 focus-visible:ring-sun-400 focus-visible:outline-none"
            value={actor}
            onChange={(e) => setActor(e.target.value)}
          >
            <option value="">Everyone</option>
            {(people.data ?? []).map((p) => (
              <option key={p.id} value={p.id}>
                {p.name} ({ROLE_LABELS[p.role]})
              </option>
            ))}
          </select>
        </div>
      </div>
      {activity.isError ? (
        <p role="alert" className="text-red-800">
          {errorMessage(activity.error, 'Could not load the activity.')}
        </p>
      ) : null}
      <Card className="overflow-x-auto">
        <table className="w-full min-w-[880px] text-left text-sm" aria-busy={activity.isFetching}>
          <caption className="sr-only">Admin activity, newest first</caption>
          <thead className="bg-ink-50 text-ink-700">
            <tr>
              {['Time', 'Who', 'Action', 'Pledge', 'Details', 'Address'].map((h) => (
                <th key={h} scope="col" className="px-3 py-2 font-semibold">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {items.length === 0 ? (
              <tr className="border-t border-ink-100">
                <td colSpan={6} className="px-3 py-8 text-center text-ink-600">
                  {activity.isLoading ? 'Loading…' : 'No activity recorded.'}
                </td>
              </tr>
            ) : (
              items.map((e) => (
                <tr key={e.id} className="border-t border-ink-100 align-top">
                  <td className="px-3 py-2 whitespace-nowrap text-ink-700">
                    <time dateTime={e.at}>{formatDateTime(e.at, timeZone)}</time>
                  </td>
                  <td className="px-3 py-2 text-ink-900">
                    {e.actor ? (
                      <>
                        <span className="font-medium">{e.actor.name}</span>
                        <span className="block text-xs text-ink-600">
                          {roleLabel(e.actor.role)}
                        </span>
                      </>
                    ) : (
                      <span className="text-ink-600">—</span>
                    )}
                  </td>
                  <td className="px-3 py-2 font-medium text-ink-900">{e.label}</td>
                  <td className="px-3 py-2 font-mono text-xs whitespace-nowrap">
                    {e.pledgeReference ?? ''}
                  </td>
                  <td className="px-3 py-2 text-ink-700">{summary(e)}</td>
                  <td className="px-3 py-2 font-mono text-xs text-ink-600">{e.clientIp}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </Card>
    </section>
  );
}
