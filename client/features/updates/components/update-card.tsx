import { Pencil } from 'lucide-react';
import { formatDeliveryDate, formatNumber } from '@shared/format';
import type { DeliveryUpdate } from '@shared/schemas/update';
import { Button } from '../../../components/ui/button';

interface UpdateCardProps {
  update: DeliveryUpdate;
  /** With admin controls on, the home passes a handler and the card shows an edit button. */
  onEdit?: (update: DeliveryUpdate) => void;
  /** The first cards are above the fold on wide screens: load them eagerly. */
  eager?: boolean;
}

/** Responsive widths match the grid: one column on phones, two on tablets, three on desktops. */
const SIZES = '(min-width: 1024px) 360px, (min-width: 640px) 50vw, 100vw';

export function UpdateCard({ update, onEdit, eager = false }: UpdateCardProps) {
  return (
    <article className="group relative flex h-full flex-col overflow-hidden rounded-2xl border border-ink-100 bg-white shadow-sm">
      <div className="aspect-[4/3] bg-ink-100">
        <img
          src={update.imageUrl}
          srcSet={update.srcset}
          sizes={update.srcset ? SIZES : undefined}
          width={update.width}
          height={update.height}
          alt={`Delivery to ${update.recipient}`}
          loading={eager ? 'eager' : 'lazy'}
          decoding="async"
          className="h-full w-full object-cover"
        />
      </div>
      <div className="flex flex-1 flex-col gap-1 p-4">
        <h3 className="font-semibold text-ink-900">{update.recipient}</h3>
        <p className="flex items-center justify-between gap-2 text-sm text-ink-600">
          <span className="font-semibold text-brand-800 tabular-nums">
            {formatNumber(update.containerCount)} units
          </span>
          <time dateTime={update.deliveryDate}>{formatDeliveryDate(update.deliveryDate)}</time>
        </p>
      </div>
      {onEdit ? (
        <Button
          size="icon"
          variant="outline"
          className="absolute top-2 right-2 bg-white/95"
          aria-label={`Edit update for ${update.recipient}`}
          onClick={() => onEdit(update)}
        >
          <Pencil className="h-4 w-4" aria-hidden="true" />
        </Button>
      ) : null}
    </article>
  );
}
