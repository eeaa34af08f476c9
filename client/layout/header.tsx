import { LockKeyhole } from 'lucide-react';
import { Suspense, useState } from 'react';
import { headerControlsChunk, loginDialogChunk } from '../admin-chunks';
import { Tooltip } from '../components/ui/tooltip';
import { useAdminAuth } from '../features/admin-auth';
import { PledgeNowButton } from '../features/pledges';
import { cn } from '../lib/cn';
import { Link } from '../lib/navigation';
import { BrandMark } from './brand-mark';

/** Admin code stays out of the public bundle: loaded only for an authenticated admin. */
const AdminHeaderControls = headerControlsChunk.Component;
const LoginDialog = loginDialogChunk.Component;

export function Header({ campaignName }: { campaignName: string }) {
  const { isAuthenticated } = useAdminAuth();
  // The login dialog opens where the visitor is: after login the home shows its admin controls.
  const [loginOpen, setLoginOpen] = useState(false);
  return (
    <header className="sticky top-0 z-30 border-b border-ink-100 bg-white">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-2 px-4 sm:gap-3 sm:px-6">
        <Link
          to="/"
          className="-ml-1 flex min-w-0 items-center gap-2.5 rounded-lg p-1 focus-visible:outline-none focus-visible:ring-3 focus-visible:ring-sun-400"
        >
          <BrandMark className="h-9 w-9 shrink-0" />
          {/* With four admin icons a phone has no room for the name: it stays for screen readers. */}
          <span
            className={cn(
              'line-clamp-3 text-sm leading-tight font-extrabold tracking-tight text-ink-900 sm:text-lg',
              isAuthenticated && 'max-sm:sr-only',
            )}
          >
            {campaignName}
          </span>
        </Link>
        <div className="ml-auto flex shrink-0 items-center gap-1 sm:gap-2">
          {isAuthenticated ? (
            <Suspense fallback={null}>
              <AdminHeaderControls />
            </Suspense>
          ) : (
            <Tooltip content="Admin login">
              <button
                type="button"
                aria-label="Admin login"
                aria-haspopup="dialog"
                onClick={() => setLoginOpen(true)}
                onPointerEnter={() => void loginDialogChunk.preload().catch(() => undefined)}
                className="inline-flex h-10 w-10 items-center justify-center rounded-lg text-ink-600 transition-colors hover:bg-ink-100 hover:text-ink-900 focus-visible:outline-none focus-visible:ring-3 focus-visible:ring-sun-400"
              >
                <LockKeyhole className="h-5 w-5" aria-hidden="true" />
              </button>
            </Tooltip>
          )}
          <PledgeNowButton size="sm" className="sm:h-10 sm:px-4" />
        </div>
        {loginOpen && !isAuthenticated ? (
          <Suspense fallback={null}>
            <LoginDialog open={loginOpen} onOpenChange={setLoginOpen} />
          </Suspense>
        ) : null}
      </div>
    </header>
  );
}
