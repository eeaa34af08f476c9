import type { DeliveryUpdate } from '../../../../shared/schemas/update';

/**
 * Placeholder created by the public-site work so the home can lazy-load it; the admin feature
 * replaces it with the real Edit Delivery Update dialog.
 */
export default function EditUpdateDialog(_props: {
  update: DeliveryUpdate;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return null;
}
