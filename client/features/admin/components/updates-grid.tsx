import { Pencil, Plus, Trash2 } from 'lucide-react';
import { formatDeliveryDate, formatNumber } from '@shared/format';
import type { DeliveryUpdate } from '@shared/schemas/update';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';

/** "1 Update", "2 Updates" (product rule). */
export function updateCountLabel(n: number): string {
  return `${formatNumber(n)} ${n === 1 ? 'Update' : 'Updates'}`;
}

export function UpdatesGrid({
  updates,
  onPost,
  onEdit,
  onDelete,
  canEdit = true,
}: {
  updates: DeliveryUpdate[] | undefined;
  /** Whether the signed-in role posts and edits updates (owner, editor). */
  canEdit?: boolean;
  onPost: () => void;
  onEdit: (update: DeliveryUpdate) => void;
  onDelete: (update: DeliveryUpdate) => void;
}) {
  return (
    <section aria-labelledby="admin-updates-heading" className="grid gap-4">
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="admin-updates-heading" className="text-xl font-bold text-ink-900">
          Delivery Updates
        </h2>
        {updates ? <Badge variant="secondary">{updateCountLabel(updates.length)}</Badge> : null}
        {canEdit ? (
          <Button size="sm" className="ml-auto" onClick={onPost}>
            <Plus className="h-4 w-4" aria-hidden="true" />
            Post Update
          </Button>
        ) : null}
      </div>
      {!updates ? (
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-64" />
          ))}
        </div>
      ) : updates.length === 0 ? (
        <Card className="p-8 text-center">
          <p className="font-semibold text-ink-800">No Updates Yet</p>
          <p className="mt-1 text-sm text-ink-600">
            Post a photo of the first delivery to show donors where their pledges go.
          </p>
        </Card>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {updates.map((u) => (
            <li key={u.id}>
              <Card className="overflow-hidden">
                <img
                  src={u.imageUrl}
                  srcSet={u.srcset}
                  sizes="(min-width: 1024px) 380px, (min-width: 640px) 50vw, 100vw"
                  width={u.width}
                  height={u.height}
                  alt={`Delivery to ${u.recipient}`}
                  loading="lazy"
                  decoding="async"
                  className="aspect-[4/3] w-full bg-ink-100 object-cover"
                />
                <div className="flex items-start gap-2 p-4">
                  <div className="min-w-0 flex-1">
                    <p className="truncate font-semibold text-ink-900">{u.recipient}</p>
                    <p className="text-sm text-ink-700">
                      {formatNumber(u.containerCount)} units · {formatDeliveryDate(u.deliveryDate)}
                    </p>
                  </div>
                  {canEdit ? (
                    <>
                      <Button
                        variant="ghost"
                        size="icon"
                        aria-label={`Edit update for ${u.recipient}`}
                        onClick={() => onEdit(u)}
                      >
                        <Pencil className="h-4 w-4" aria-hidden="true" />
                      </Button>
                      <Button
                        variant="ghost"
                        size="icon"
                        className="text-red-700 hover:bg-red-50"
                        aria-label={`Delete update for ${u.recipient}`}
                        onClick={() => onDelete(u)}
                      >
                        <Trash2 className="h-4 w-4" aria-hidden="true" />
                      </Button>
                    </>
                  ) : null}
                </div>
              </Card>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
