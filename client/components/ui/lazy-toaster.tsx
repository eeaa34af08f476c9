import { lazy, Suspense, useEffect, useState } from 'react';
import { whenIdle } from '../../lib/when-idle';
import { useToasts } from './toast-store';

/**
 * Radix Toast is not in the home's first-load JavaScript (docs/decisions/017-server-rendering.md):
 * the toaster loads when the browser is idle after the first render, or at once if a toast is
 * shown before that. Toasts only follow the visitor's own actions, so none is lost meanwhile;
 * F8 focuses the notifications area once it has loaded.
 */
const Toaster = lazy(() => import('./toaster').then((m) => ({ default: m.Toaster })));

export function LazyToaster() {
  const toasts = useToasts();
  const [idle, setIdle] = useState(false);
  useEffect(() => whenIdle(() => setIdle(true)), []);
  if (!idle && toasts.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
