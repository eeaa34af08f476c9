import { Heart } from 'lucide-react';
import { CURRENCIES } from '@shared/constants';
import { formatMoney, formatNumber, pledgeDisplayName, timeAgo } from '@shared/format';
import type { Pledge } from '@shared/schemas/pledge';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { useConfirmPledge } from '../api';

interface PledgeCardProps {
  pledge: Pledge;
  /** Product rule: with admin controls on, the card shows the paid status and "Mark Paid". */
  adminControls?: boolean;
  now?: Date;
}

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? [parts[0]!, parts[parts.length - 1]!] : parts.slice(0, 1);
  return letters.map((p) => Array.from(p)[0]!.toUpperCase()).join('') || '?';
}

export function PledgeCard({ pledge, adminControls = false, now }: PledgeCardProps) {
  const name = pledgeDisplayName(pledge);
  const currency = CURRENCIES.includes(pledge.currency) ? pledge.currency : 'USD';
  return (
    <article
      aria-label={`Pledge from ${name}`}
      className="flex items-start gap-3 rounded-xl border border-ink-100 bg-white p-4 shadow-sm"
    >
      <div
        aria-hidden="true"
        className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-brand-50 text-sm font-bold text-brand-800 ring-1 ring-brand-100"
      >
        {pledge.isAnonymous ? <Heart className="h-4 w-4" /> : initials(name)}
      </div>
      <div className="min-w-0 flex-1">
        <div className="flex items-baseline justify-between gap-2">
          <h3 className="line-clamp-2 font-semibold break-words text-ink-900">{name}</h3>
          <p className="shrink-0 font-bold text-brand-800 tabular-nums">
            {formatMoney(pledge.amount, currency)}
          </p>
        </div>
        <p className="mt-0.5 text-sm text-ink-600">
          <time dateTime={pledge.createdAt}>{timeAgo(pledge.createdAt, now)}</time>
          {typeof pledge.containers === 'number' ? (
            <> · {formatNumber(pledge.containers)} containers</>
          ) : null}
        </p>
        {adminControls ? <AdminPledgeControls pledge={pledge} /> : null}
      </div>
    </article>
  );
}

function AdminPledgeControls({ pledge }: { pledge: Pledge }) {
  const confirm = useConfirmPledge();
  const paid = pledge.isPaid === true;
  return (
    <div className="mt-3 flex flex-wrap items-center gap-2">
      <Badge variant={paid ? 'default' : 'secondary'}>{paid ? 'Paid' : 'Pending'}</Badge>
      {paid ? null : (
        <Button
          size="sm"
          variant="outline"
          disabled={confirm.isPending}
          onClick={() => confirm.mutate(pledge.id)}
        >
          {confirm.isPending ? 'Confirming...' : 'Mark Paid'}
        </Button>
      )}
    </div>
  );
}
