import { ROLE_LABELS } from '@shared/admin-roles';
import { PAGE_PATHS } from '@shared/pages';
import { KeyRound, LogOut, Plus, Settings, ShieldCheck, type LucideIcon } from 'lucide-react';
import { useState } from 'react';
import { Button, type ButtonProps } from '../../../components/ui/button';
import { Tooltip } from '../../../components/ui/tooltip';
import { cn } from '../../../lib/cn';
import { navigate, usePathname } from '../../../lib/navigation';
import { useAdminAuth } from '../../admin-auth';
import { PostUpdateDialog } from './post-update-dialog';
import { ProgressDialog } from './progress-dialog';
import { SecurityDialog } from './security-settings-dialog';

// A little smaller on phones, where the header also holds the name and Pledge Now.
const iconButton = 'h-9 w-9 text-ink-600 hover:bg-ink-100 hover:text-ink-900 sm:h-10 sm:w-10';

/** One labelled icon button with its tooltip: the accessible name is `label`. */
function HeaderIcon({
  tooltip,
  label,
  icon: Icon,
  className,
  ...props
}: Omit<ButtonProps, 'children'> & { tooltip: string; label: string; icon: LucideIcon }) {
  return (
    <Tooltip content={tooltip}>
      <Button
        variant="ghost"
        size="icon"
        aria-label={label}
        className={cn(iconButton, className)}
        {...props}
      >
        <Icon className="h-5 w-5" aria-hidden="true" />
      </Button>
    </Tooltip>
  );
}

/**
 * The header's admin icon buttons after login. Default export, no props: the public
 * header lazy-loads it only for an authenticated admin, so none of this reaches visitors.
 */
export default function AdminHeaderControls() {
  const { adminControls, setAdminControls, logout, account, may } = useAdminAuth();
  const edits = may('POST', '/api/updates');
  const adjusts = may('PUT', '/api/progress');
  const pathname = usePathname();
  const [postOpen, setPostOpen] = useState(false);
  const [progressOpen, setProgressOpen] = useState(false);
  const [securityOpen, setSecurityOpen] = useState(false);

  async function handleLogout() {
    // Leaving /admin first avoids flashing its login prompt after a deliberate logout.
    if (pathname === PAGE_PATHS.admin) navigate('/');
    await logout();
  }

  return (
    <div role="group" aria-label="Admin tools" className="flex items-center sm:gap-0.5">
      {account ? (
        // Who is signed in, and as what: on narrow screens for screen readers only.
        <p className="mr-1 hidden text-right text-xs leading-tight text-ink-700 md:block">
          <span className="block max-w-[10rem] truncate font-semibold text-ink-900">
            {account.name}
          </span>
          <span className="block">{ROLE_LABELS[account.role]}</span>
        </p>
      ) : null}
      {account ? (
        <span className="sr-only md:hidden">
          Signed in as {account.name} ({ROLE_LABELS[account.role]})
        </span>
      ) : null}
      <HeaderIcon
        tooltip={adminControls ? 'Hide admin controls' : 'Show admin controls'}
        label="Admin controls"
        icon={ShieldCheck}
        aria-pressed={adminControls}
        className={cn(adminControls && 'bg-sun-400 text-ink-900 hover:bg-sun-300')}
        onClick={() => setAdminControls(!adminControls)}
      />
      {edits ? (
        <HeaderIcon
          tooltip="Post a delivery update"
          label="Add update"
          icon={Plus}
          onClick={() => setPostOpen(true)}
        />
      ) : null}
      {adjusts ? (
        <HeaderIcon
          tooltip="Campaign progress"
          label="Admin settings"
          icon={Settings}
          onClick={() => setProgressOpen(true)}
        />
      ) : null}
      <HeaderIcon
        tooltip="Your authenticator app, passkeys and recovery codes"
        label="Two-factor sign-in"
        icon={KeyRound}
        onClick={() => setSecurityOpen(true)}
      />
      <HeaderIcon
        tooltip="Log out"
        label="Logout"
        icon={LogOut}
        onClick={() => void handleLogout()}
      />
      <PostUpdateDialog open={postOpen} onOpenChange={setPostOpen} />
      <ProgressDialog open={progressOpen} onOpenChange={setProgressOpen} />
      <SecurityDialog open={securityOpen} onOpenChange={setSecurityOpen} />
    </div>
  );
}
