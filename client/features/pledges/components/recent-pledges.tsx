import { HandHeart } from 'lucide-react';
import type { Pledge } from '@shared/schemas/pledge';
import { Skeleton } from '../../../components/ui/skeleton';
import { useNow } from '../use-now';
import { PledgeCard } from './pledge-card';

interface RecentPledgesProps {
  pledges?: Pledge[];
  isLoading?: boolean;
  adminControls?: boolean;
  /** The empty state's call to action (the pledge dialog lives in the layout). */
  emptyAction?: React.ReactNode;
}

/** The 8 newest pledges, or "Be the First Supporter". */
export function RecentPledges({
  pledges,
  isLoading,
  adminControls,
  emptyAction,
}: RecentPledgesProps) {
  const now = useNow();
  return (
    <section aria-labelledby="recent-pledges-heading">
      <h2 id="recent-pledges-heading" className="text-2xl font-bold tracking-tight text-ink-900">
        Recent Pledges
      </h2>
      {isLoading && !pledges ? (
        <ul
          className="mt-4 grid grid-cols-1 gap-3 sm:grid-cols-2"
          aria-busy="true"
          aria-label="Loading pledges"
        >
          {Array.from({ length: 4 }, (_, i) => (
            <li key={i}>
              <Skeleton className="h-20 w-full rounded-xl" />
            </li>
          ))}
        </ul>
      ) : pledges && pledges.length > 0 ? (
        <ul className="mt-4 grid grid-cols-1 gap-3 sm:grid-cols-2">
          {pledges.map((p) => (
            <li key={p.id}>
              <PledgeCard pledge={p} adminControls={adminControls} now={now} />
            </li>
          ))}
        </ul>
      ) : (
        <div className="mt-4 flex flex-col items-center rounded-2xl border border-dashed border-ink-300 bg-white px-6 py-10 text-center">
          <HandHeart className="h-10 w-10 text-brand-700" aria-hidden="true" />
          <h3 className="mt-3 text-lg font-bold text-ink-900">Be the First Supporter</h3>
          <p className="mt-1 max-w-sm text-sm text-ink-600">
            No pledges yet. Your pledge starts the count and helps the first meals reach families.
          </p>
          {emptyAction ? <div className="mt-4">{emptyAction}</div> : null}
        </div>
      )}
    </section>
  );
}
