import {
  createContext,
  lazy,
  Suspense,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import { Button, type ButtonProps } from '../../../components/ui/button';
import { prefetchLaterChunks } from '../../../lib/prefetch';
import { whenIdle } from '../../../lib/when-idle';

/**
 * The pledge form carries zod and react-hook-form (~70 KB gzipped): it is its own chunk. The
 * browser prefetches it when idle after the first render (downloaded, not run: see
 * lib/prefetch.ts), and hovering or focusing a Pledge Now button starts running it, so the dialog
 * still opens at once.
 */
const loadPledgeDialog = () => import('./pledge-dialog');
const PledgeDialog = lazy(loadPledgeDialog);

interface PledgeDialogControls {
  openPledgeDialog(): void;
}

const PledgeDialogContext = createContext<PledgeDialogControls | null>(null);

export function PledgeDialogProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  // Mounted from the first opening on, so closing keeps the form's state and focus handling.
  const [mounted, setMounted] = useState(false);

  useEffect(() => whenIdle(prefetchLaterChunks), []);

  const controls = useMemo<PledgeDialogControls>(
    () => ({
      openPledgeDialog() {
        setMounted(true);
        setOpen(true);
      },
    }),
    [],
  );

  return (
    <PledgeDialogContext.Provider value={controls}>
      {children}
      {mounted ? (
        <Suspense fallback={null}>
          <PledgeDialog open={open} onOpenChange={setOpen} />
        </Suspense>
      ) : null}
    </PledgeDialogContext.Provider>
  );
}

function usePledgeDialog(): PledgeDialogControls {
  const ctx = useContext(PledgeDialogContext);
  if (!ctx) throw new Error('usePledgeDialog must be used within PledgeDialogProvider');
  return ctx;
}

const preload = () => void loadPledgeDialog().catch(() => undefined);

/** "Pledge Now": opens the "Make a Pledge" dialog. */
export function PledgeNowButton({ children = 'Pledge Now', onClick, ...props }: ButtonProps) {
  const { openPledgeDialog } = usePledgeDialog();
  return (
    <Button
      variant="accent"
      aria-haspopup="dialog"
      // Hovering, focusing or touching starts loading the form's code: by the click it is ready.
      onPointerEnter={preload}
      onPointerDown={preload}
      onFocus={preload}
      onClick={(e) => {
        onClick?.(e);
        if (!e.defaultPrevented) openPledgeDialog();
      }}
      {...props}
    >
      {children}
    </Button>
  );
}
