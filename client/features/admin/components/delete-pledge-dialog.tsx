import { formatMoney } from '@shared/format';
import type { AdminPledge } from '@shared/schemas/pledge';
import { useDeletePledge } from '../api';
import { ConfirmDialog } from './confirm-dialog';

export function DeletePledgeDialog({
  pledge,
  onOpenChange,
}: {
  /** The pledge to delete; the dialog is open while one is given. */
  pledge: AdminPledge | null;
  onOpenChange: (open: boolean) => void;
}) {
  const remove = useDeletePledge();
  return (
    <ConfirmDialog
      open={pledge !== null}
      onOpenChange={onOpenChange}
      title="Delete Pledge"
      description={
        pledge
          ? `Delete the pledge of ${formatMoney(pledge.amount, pledge.currency)} from ${pledge.name}? The campaign progress goes down with it. This cannot be undone.`
          : ''
      }
      confirmLabel="Delete Pledge"
      pendingLabel="Deleting..."
      pending={remove.isPending}
      destructive
      onConfirm={() => {
        if (pledge) remove.mutate(pledge.id, { onSuccess: () => onOpenChange(false) });
      }}
    />
  );
}
