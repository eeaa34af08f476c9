import { formatNumber } from '@shared/format';
import { Skeleton } from '../../../components/ui/skeleton';
import { progressView } from './progress-math';

interface ProgressTilesProps {
  donorCount?: number;
  currentAmount?: number;
  goalAmount?: number;
}

/**
 * The "Donors" and "Complete" tiles. Donors: distinct e-mails (see
 * docs/decisions/008-security-review-fixes.md).
 */
export function ProgressTiles({ donorCount, currentAmount, goalAmount }: ProgressTilesProps) {
  const loading = currentAmount === undefined;
  const complete = loading ? '' : progressView(currentAmount, goalAmount).percentLabel;
  return (
    <dl className="grid grid-cols-2 gap-3">
      <Tile label="Donors" value={loading ? undefined : formatNumber(donorCount ?? 0)} />
      <Tile label="Complete" value={loading ? undefined : complete} />
    </dl>
  );
}

function Tile({ label, value }: { label: string; value?: string }) {
  return (
    <div
      data-testid={`tile-${label.toLowerCase()}`}
      className="flex flex-col-reverse rounded-xl bg-brand-50 px-4 py-3 text-center ring-1 ring-brand-100"
    >
      <dt className="text-sm font-semibold text-brand-800">{label}</dt>
      <dd className="text-2xl font-extrabold text-ink-900 tabular-nums">
        {value ?? <Skeleton className="mx-auto h-8 w-16" />}
      </dd>
    </div>
  );
}
