import { LogOut, Plus, Settings, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Tooltip } from '../../../components/ui/tooltip';
import { cn } from '../../../lib/cn';
import { navigate, usePathname } from '../../../lib/navigation';
import { useAdminAuth } from '../../admin-auth/context';
import { PostUpdateDialog } from './post-update-dialog';
import { ProgressDialog } from './progress-dialog';

// A little smaller on phones, where the header also holds the name and Pledge Now.
const iconButton = 'h-9 w-9 text-ink-600 hover:bg-ink-100 hover:text-ink-900 sm:h-10 sm:w-10';

/**
 * The header's admin icon buttons after login (SPEC 2). Default export, no props: the public
 * header lazy-loads it only for an authenticated admin, so none of this reaches visitors.
 */
export default function AdminHeaderControls() {
  const { adminControls, setAdminControls, logout } = useAdminAuth();
  const pathname = usePathname();
  const [postOpen, setPostOpen] = useState(false);
  const [progressOpen, setProgressOpen] = useState(false);

  async function handleLogout() {
    // Leaving /admin first avoids flashing its login prompt after a deliberate logout.
    if (pathname === '/admin') navigate('/');
    await logout();
  }

  return (
    <div role="group" aria-label="Admin tools" className="flex items-center sm:gap-0.5">
      <Tooltip content={adminControls ? 'Hide admin controls' : 'Show admin controls'}>
        <Button
          variant="ghost"
          size="icon"
          aria-label="Admin controls"
          aria-pressed={adminControls}
          className={cn(iconButton, adminControls && 'bg-sun-400 text-ink-900 hover:bg-sun-300')}
          onClick={() => setAdminControls(!adminControls)}
        >
          <ShieldCheck className="h-5 w-5" aria-hidden="true" />
        </Button>
      </Tooltip>
      <Tooltip content="Post a delivery update">
        <Button
          variant="ghost"
          size="icon"
          aria-label="Add update"
          className={iconButton}
          onClick={() => setPostOpen(true)}
        >
          <Plus className="h-5 w-5" aria-hidden="true" />
        </Button>
      </Tooltip>
      <Tooltip content="Campaign progress">
        <Button
          variant="ghost"
          size="icon"
          aria-label="Admin settings"
          className={iconButton}
          onClick={() => setProgressOpen(true)}
        >
          <Settings className="h-5 w-5" aria-hidden="true" />
        </Button>
      </Tooltip>
      <Tooltip content="Log out">
        <Button
          variant="ghost"
          size="icon"
          aria-label="Logout"
          className={iconButton}
          onClick={() => void handleLogout()}
        >
          <LogOut className="h-5 w-5" aria-hidden="true" />
        </Button>
      </Tooltip>
      <PostUpdateDialog open={postOpen} onOpenChange={setPostOpen} />
      <ProgressDialog open={progressOpen} onOpenChange={setProgressOpen} />
    </div>
  );
}
