import { formatDeliveryDate } from '@shared/format';
import type { DeliveryUpdate } from '@shared/schemas/update';
import { useDeleteUpdate } from '../api';
import { ConfirmDialog } from './confirm-dialog';

export function DeleteUpdateDialog({
  update,
  onOpenChange,
}: {
  /** The update to delete; the dialog is open while one is given. */
  update: DeliveryUpdate | null;
  onOpenChange: (open: boolean) => void;
}) {
  const remove = useDeleteUpdate();
  return (
    <ConfirmDialog
      open={update !== null}
      onOpenChange={onOpenChange}
      title="Delete Update"
      description={
        update
          ? `Delete the delivery update for ${update.recipient} (${formatDeliveryDate(update.deliveryDate)})? It disappears from the campaign page. This cannot be undone.`
          : ''
      }
      confirmLabel="Delete Update"
      pendingLabel="Deleting..."
      pending={remove.isPending}
      destructive
      onConfirm={() => {
        if (update) remove.mutate(update.id, { onSuccess: () => onOpenChange(false) });
      }}
    />
  );
}
