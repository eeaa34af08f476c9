import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { SecuritySettings } from './security-settings';

/** "Two-factor sign-in" from the admin header: the signed-in account's own second factors. */
export function SecurityDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title="Two-factor sign-in"
        description="A second step after your password: a code from an authenticator app, or a passkey."
        className="max-w-lg"
      >
        {open ? <SecuritySettings /> : null}
      </DialogContent>
    </Dialog>
  );
}
