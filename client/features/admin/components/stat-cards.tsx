import { CheckCircle2, Clock, HandCoins, Users } from 'lucide-react';
import type { ReactNode } from 'react';
import { formatMoney, formatNumber } from '@shared/format';
import type { PledgeStats } from '@shared/schemas/pledge';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';

function StatCard({
  id,
  label,
  icon,
  children,
}: {
  id: string;
  label: string;
  icon: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card role="group" aria-labelledby={id} className="p-5">
      <div className="flex items-center justify-between gap-2">
        <h2 id={id} className="text-sm font-semibold text-ink-600">
          {label}
        </h2>
        <span className="text-brand-700" aria-hidden="true">
          {icon}
        </span>
      </div>
      <div className="mt-2">{children}</div>
    </Card>
  );
}

const value = 'text-2xl font-bold text-ink-900 tabular-nums';

/**
 * Money that arrived (docs/decisions/013-statement-matching.md), under the pledged totals: what a
 * treasurer reconciles.
 */
function Received({ stats }: { stats: PledgeStats }) {
  const parts = [
    stats.receivedUSD > 0 ? formatMoney(stats.receivedUSD, 'USD') : null,
    stats.receivedJMD > 0 ? formatMoney(stats.receivedJMD, 'JMD') : null,
  ].filter((s): s is string => s !== null);
  return (
    <p className="text-sm text-ink-700" data-testid="stat-received">
      Money received so far: {parts.length ? parts.join(' + ') : formatMoney(0, 'USD')}
    </p>
  );
}

/** Product rule: four cards; the USD and JMD subtotals show only when above zero. */
export function StatCards({ stats }: { stats: PledgeStats | undefined }) {
  const loading = <Skeleton className="h-8 w-24" />;
  const amounts = stats
    ? [
        stats.totalUSD > 0 ? formatMoney(stats.totalUSD, 'USD') : null,
        stats.totalJMD > 0 ? formatMoney(stats.totalJMD, 'JMD') : null,
      ].filter((s): s is string => s !== null)
    : [];
  // The money received sits under the four cards, not inside "Total Amount": the card keeps the
  // spec's pledged totals only.
  return (
    <div className="grid gap-2">
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard id="stat-total" label="Total Pledges" icon={<Users className="h-5 w-5" />}>
          {stats ? <p className={value}>{formatNumber(stats.totalPledges)}</p> : loading}
        </StatCard>
        <StatCard id="stat-amount" label="Total Amount" icon={<HandCoins className="h-5 w-5" />}>
          {!stats ? (
            loading
          ) : amounts.length === 0 ? (
            <p className={value}>{formatMoney(0, 'USD')}</p>
          ) : (
            amounts.map((line) => (
              <p
                key={line}
                className={amounts.length > 1 ? 'text-xl font-bold tabular-nums' : value}
              >
                {line}
              </p>
            ))
          )}
        </StatCard>
        <StatCard id="stat-paid" label="Paid Pledges" icon={<CheckCircle2 className="h-5 w-5" />}>
          {stats ? <p className={value}>{formatNumber(stats.paidPledges)}</p> : loading}
        </StatCard>
        <StatCard id="stat-pending" label="Pending Pledges" icon={<Clock className="h-5 w-5" />}>
          {stats ? <p className={value}>{formatNumber(stats.pendingPledges)}</p> : loading}
        </StatCard>
      </div>
      {stats ? <Received stats={stats} /> : null}
    </div>
  );
}
