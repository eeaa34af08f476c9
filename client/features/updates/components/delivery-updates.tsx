import { Truck } from 'lucide-react';
import { useRef, useState } from 'react';
import type { DeliveryUpdate } from '@shared/schemas/update';
import { Button } from '../../../components/ui/button';
import { Skeleton } from '../../../components/ui/skeleton';
import { EMBEDDED_UPDATES } from '@shared/constants';
import { useUpdates } from '../api';
import { UpdateCard } from './update-card';

/** The delivery feed, or "No Updates Yet". */
export function DeliveryUpdates({ onEdit }: { onEdit?: (update: DeliveryUpdate) => void }) {
  const { data: updates, isLoading, refetch, isFetching } = useUpdates();
  const [loadedAll, setLoadedAll] = useState(false);
  const listRef = useRef<HTMLUListElement>(null);

  async function showMore() {
    const shown = updates?.length ?? 0;
    await refetch();
    setLoadedAll(true);
    // Keyboard users continue from the first card that just appeared.
    requestAnimationFrame(() => {
      listRef.current?.querySelectorAll<HTMLElement>('li')[shown]?.focus();
    });
  }

  const mayHaveMore = !loadedAll && updates?.length === EMBEDDED_UPDATES;

  return (
    <section aria-labelledby="delivery-updates-heading">
      <h2 id="delivery-updates-heading" className="text-2xl font-bold tracking-tight text-ink-900">
        Delivery Updates
      </h2>
      {isLoading && !updates ? (
        <ul
          className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3"
          aria-busy="true"
          aria-label="Loading updates"
        >
          {Array.from({ length: 3 }, (_, i) => (
            <li key={i}>
              <Skeleton className="aspect-[4/3] w-full rounded-2xl" />
            </li>
          ))}
        </ul>
      ) : updates && updates.length > 0 ? (
        <>
          <ul ref={listRef} className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {updates.map((u) => (
              <li
                key={u.id}
                tabIndex={-1}
                className="rounded-2xl focus:outline-none focus-visible:ring-3 focus-visible:ring-sun-400"
              >
                <UpdateCard update={u} onEdit={onEdit} />
              </li>
            ))}
          </ul>
          {mayHaveMore ? (
            <div className="mt-6 flex justify-center">
              <Button variant="outline" onClick={() => void showMore()} disabled={isFetching}>
                {isFetching ? 'Loading...' : 'Show more updates'}
              </Button>
            </div>
          ) : null}
        </>
      ) : (
        <div className="mt-4 flex flex-col items-center rounded-2xl border border-dashed border-ink-300 bg-white px-6 py-10 text-center">
          <Truck className="h-10 w-10 text-brand-700" aria-hidden="true" />
          <h3 className="mt-3 text-lg font-bold text-ink-900">No Updates Yet</h3>
          <p className="mt-1 max-w-sm text-sm text-ink-600">
            Photos of deliveries to kitchens and shelters will appear here as containers arrive.
          </p>
        </div>
      )}
    </section>
  );
}
