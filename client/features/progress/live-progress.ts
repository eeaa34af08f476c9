import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { LIVE_EVENT_NAME, LIVE_POLL_MS } from '@shared/constants';
// Type only: zod stays out of the home's first load (docs/decisions/007-public-bundle-budget.md).
import type { LiveEvent } from '@shared/schemas/live';
import { queryKeys } from '../../lib/query-keys';

const LIVE_STREAM_URL = '/api/progress/stream';

/**
 * How the numbers are kept fresh right now, on `<html data-live-progress>`: "stream", "polling"
 * (the stream failed) or "paused" (hidden tab). Visible in the developer tools, and what the e2e
 * tests wait for instead of guessing when the page has reacted to a refused stream.
 */
type LiveMode = 'stream' | 'polling' | 'paused';
const showMode = (mode: LiveMode | undefined) => {
  if (mode) document.documentElement.dataset.liveProgress = mode;
  else delete document.documentElement.dataset.liveProgress;
};

/**
 * Keeps the home's progress and newest pledges live while the page is visible: the server's
 * event stream writes into the same query caches the page reads (no refetch). When the stream
 * fails (refused, not there, a proxy that drops it), the numbers are fetched every 30 s instead,
 * and each of those ticks tries the stream again. A hidden tab does neither; on its return the
 * stream reconnects and its first event is the current state.
 * See docs/decisions/016-live-progress-and-sharing.md.
 */
export function useLiveProgress(adminControls: boolean) {
  const queryClient = useQueryClient();
  const admin = useRef(adminControls);
  useEffect(() => {
    admin.current = adminControls;
  }, [adminControls]);

  useEffect(() => {
    let source: EventSource | undefined;
    let poll: number | undefined;
    /** The last attempt at the stream failed: the numbers on screen may be old. */
    let failed = false;

    const apply = (event: MessageEvent<string>) => {
      let data: LiveEvent;
      try {
        data = JSON.parse(event.data) as LiveEvent;
      } catch {
        return;
      }
      queryClient.setQueryData(queryKeys.progress, data.progress);
      queryClient.setQueryData(queryKeys.recentPledges, data.pledges);
      // The admin's list (paid status, real names) comes only with the session: fetch it again.
      if (admin.current)
        void queryClient.invalidateQueries({
          queryKey: queryKeys.adminRecentPledges,
          exact: true,
        });
    };
    const refresh = () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.progress });
      void queryClient.invalidateQueries({ queryKey: queryKeys.recentPledges });
    };
    const stopPolling = () => {
      window.clearInterval(poll);
      poll = undefined;
    };
    const startPolling = () => {
      showMode('polling');
      if (poll !== undefined) return;
      poll = window.setInterval(() => {
        refresh();
        connect();
      }, LIVE_POLL_MS);
    };
    const connect = () => {
      if (source || typeof EventSource === 'undefined') {
        if (!source) startPolling();
        return;
      }
      const es = new EventSource(LIVE_STREAM_URL);
      source = es;
      es.addEventListener(LIVE_EVENT_NAME, apply as EventListener);
      es.onopen = () => {
        failed = false;
        stopPolling();
        showMode('stream');
      };
      es.onerror = () => {
        // A dropped connection is retried by the browser itself (CONNECTING); an answer other
        // than a stream (404, 503 when the server is full) ends it for good (CLOSED). Poll
        // meanwhile in both cases.
        failed = true;
        if (es.readyState === EventSource.CLOSED) {
          es.close();
          if (source === es) source = undefined;
        }
        startPolling();
      };
    };
    const disconnect = () => {
      source?.close();
      source = undefined;
      stopPolling();
    };
    const onVisibility = () => {
      if (document.hidden) {
        disconnect();
        return showMode('paused');
      }
      if (failed) refresh();
      connect();
    };

    if (document.hidden) showMode('paused');
    else connect();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      disconnect();
      showMode(undefined);
    };
  }, [queryClient]);
}
