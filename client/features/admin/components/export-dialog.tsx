import { EXPORT_FILE_NAME } from '@shared/constants';
import { formatNumber } from '@shared/format';
import { useExportPledges } from '../api';
import { ConfirmDialog } from './confirm-dialog';

export function ExportDialog({
  open,
  onOpenChange,
  totalPledges,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  totalPledges: number | undefined;
}) {
  const exporter = useExportPledges();
  const what =
    totalPledges === undefined
      ? 'all pledges'
      : `all ${formatNumber(totalPledges)} pledge${totalPledges === 1 ? '' : 's'}`;
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Export Pledges"
      description={`Download ${what} as a CSV file (${EXPORT_FILE_NAME}) with donor names and e-mail addresses. Keep it private.`}
      confirmLabel="Download CSV"
      pendingLabel="Exporting..."
      pending={exporter.isPending}
      onConfirm={() => exporter.mutate(undefined, { onSuccess: () => onOpenChange(false) })}
    />
  );
}
