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

/**
 * The pledge form carries zod and react-hook-form (~70 KB gzipped): it is its own chunk, fetched
 * when the browser is idle after the first render, so the home stays light and the dialog still
 * opens at once.
 */
const loadPledgeDialog = () => import('./pledge-dialog');
const PledgeDialog = lazy(loadPledgeDialog);

interface PledgeDialogControls {
  openPledgeDialog(): void;
}

const PledgeDialogContext = createContext<PledgeDialogControls | null>(null);

function whenIdle(fn: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(fn, { timeout: 4000 });
    return () => window.cancelIdleCallback(id);
  }
  const id = setTimeout(fn, 1500);
  return () => clearTimeout(id);
}

export function PledgeDialogProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  // Mounted from the first opening on, so closing keeps the form's state and focus handling.
  const [mounted, setMounted] = useState(false);

  useEffect(
    () =>
      whenIdle(() => {
        loadPledgeDialog().catch(() => {
          /* offline: the click will try again */
        });
      }),
    [],
  );

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

export function usePledgeDialog(): PledgeDialogControls {
  const ctx = useContext(PledgeDialogContext);
  if (!ctx) throw new Error('usePledgeDialog must be used within PledgeDialogProvider');
  return ctx;
}

/** "Pledge Now": opens the "Make a Pledge" dialog. */
export function PledgeNowButton({ children = 'Pledge Now', onClick, ...props }: ButtonProps) {
  const { openPledgeDialog } = usePledgeDialog();
  return (
    <Button
      variant="accent"
      aria-haspopup="dialog"
      // The chunk may still be on its way on a slow first visit: hovering or focusing starts it.
      onPointerEnter={() => void loadPledgeDialog().catch(() => undefined)}
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
