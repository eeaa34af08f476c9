import { useEffect, useState } from 'react';
import { useRenderTime } from '../../lib/render-time';

/**
 * The current time, refreshed every `intervalMs`, so "3 minutes ago" keeps being true. The first
 * render uses the server's render time when there is one (hydration must match the HTML).
 */
export function useNow(intervalMs = 60_000): Date {
  const renderedAt = useRenderTime();
  const [now, setNow] = useState(() => (renderedAt ? new Date(renderedAt) : new Date()));
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the first render used the server's time (hydration); the clock starts once mounted
    setNow(new Date());
    const timer = setInterval(() => setNow(new Date()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
