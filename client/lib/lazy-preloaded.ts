import { lazy, type ComponentType } from 'react';

/**
 * React.lazy with a preload: once the module is loaded, the component renders synchronously (React
 * reads a thenable that calls back at once), so no fallback is committed and no throttled reveal
 * follows it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the same bound as React.lazy's
export function lazyPreloaded<T extends ComponentType<any>>(load: () => Promise<{ default: T }>) {
  let loaded: { default: T } | undefined;
  let pending: Promise<{ default: T }> | undefined;
  const preload = () =>
    (pending ??= load().then(
      (m) => (loaded = m),
      (err: unknown) => {
        pending = undefined; // a later render may try again
        throw err;
      },
    ));
  const Component = lazy<T>(() => {
    if (!loaded) return preload();
    const m = loaded;
    return { then: (resolve: (value: { default: T }) => void) => resolve(m) } as Promise<{
      default: T;
    }>;
  });
  return { Component, preload };
}
