import {
  createContext,
  forwardRef,
  useContext,
  useSyncExternalStore,
  type AnchorHTMLAttributes,
  type MouseEvent,
} from 'react';

/**
 * A minimal client-side router for our four routes: the History API and one subscription.
 * (react-router would add ~32 KB gzipped to the home page for features we do not use.)
 */
const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  window.addEventListener('popstate', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('popstate', listener);
  };
}

export function navigate(to: string, opts: { replace?: boolean } = {}) {
  if (opts.replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  window.scrollTo(0, 0);
  for (const l of listeners) l();
}

/**
 * The address being rendered on the server (there is no window there). In the browser it is
 * absent and the server snapshot is the page's own address, the one the server rendered, so
 * hydration sees the same route.
 */
export interface ServerLocation {
  pathname: string;
  search: string;
}
const ServerLocationContext = createContext<ServerLocation | null>(null);
export const ServerLocationProvider = ServerLocationContext.Provider;

export function usePathname(): string {
  const server = useContext(ServerLocationContext);
  return useSyncExternalStore(
    subscribe,
    () => window.location.pathname,
    () => server?.pathname ?? window.location.pathname,
  );
}

/** One query-string parameter of the current address ('' when absent). */
export function useSearchParam(name: string): string {
  const server = useContext(ServerLocationContext);
  const search = useSyncExternalStore(
    subscribe,
    () => window.location.search,
    () => server?.search ?? window.location.search,
  );
  return new URLSearchParams(search).get(name) ?? '';
}

/** An <a> that navigates without a page load (a modified click still opens a new tab). */
export const Link = forwardRef<
  HTMLAnchorElement,
  AnchorHTMLAttributes<HTMLAnchorElement> & { to: string }
>(function Link({ to, onClick, children, ...props }, ref) {
  function handle(e: MouseEvent<HTMLAnchorElement>) {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey)
      return;
    e.preventDefault();
    navigate(to);
  }
  return (
    <a ref={ref} href={to} onClick={handle} {...props}>
      {children}
    </a>
  );
});
