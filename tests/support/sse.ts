import http from 'node:http';

export interface SseEvent {
  event: string;
  data: string;
  /** Date.now() when the event's last line arrived. */
  at: number;
}

export interface EventStream {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Every event received so far, in order (comments are counted in `comments`). */
  events: SseEvent[];
  comments: number;
  /** The `retry:` value the server sent, if any. */
  retryMs?: number;
  /** Resolves with the first event (from `from` on) that satisfies `match`; rejects after `limitMs`. */
  next(match?: (e: SseEvent) => boolean, limitMs?: number, from?: number): Promise<SseEvent>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/**
 * A Server-Sent Events client over node:http, reading the stream as the EventSource spec does
 * (lines, `event:`/`data:`/`retry:` fields, a blank line ends an event, `:` starts a comment).
 * A non-200 answer resolves with its status and an empty, ended stream, so tests can check it.
 */
export function openEventStream(
  baseUrl: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<EventStream & { body: string }> {
  const url = new URL(path, baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.get(
      url,
      { headers: { accept: 'text/event-stream', ...headers }, agent: false },
      (res) => {
        const events: SseEvent[] = [];
        const waiters = new Set<() => void>();
        let buffer = '';
        let event = '';
        let data: string[] = [];
        let endedResolve!: () => void;
        const ended = new Promise<void>((r) => (endedResolve = r));
        const stream: EventStream & { body: string } = {
          status: res.statusCode ?? 0,
          headers: res.headers,
          events,
          comments: 0,
          body: '',
          ended,
          next(match = () => true, limitMs = 5_000, from = 0) {
            return new Promise((ok, fail) => {
              const check = () => {
                const found = events.slice(from).find(match);
                if (!found) return false;
                clearTimeout(timer);
                waiters.delete(check);
                ok(found);
                return true;
              };
              const timer = setTimeout(() => {
                waiters.delete(check);
                fail(new Error(`no matching event within ${limitMs} ms (${events.length} events)`));
              }, limitMs);
              if (!check()) waiters.add(check);
            });
          },
          close: () => req.destroy(),
        };
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (stream.status !== 200) {
            stream.body += chunk;
            return;
          }
          buffer += chunk;
          let nl: number;
          while ((nl = buffer.indexOf('\n')) >= 0) {
            const line = buffer.slice(0, nl).replace(/\r$/, '');
            buffer = buffer.slice(nl + 1);
            if (line === '') {
              if (data.length) {
                events.push({ event: event || 'message', data: data.join('\n'), at: Date.now() });
                for (const w of [...waiters]) w();
              }
              event = '';
              data = [];
            } else if (line.startsWith(':')) stream.comments += 1;
            else {
              const colon = line.indexOf(':');
              const field = colon < 0 ? line : line.slice(0, colon);
              const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
              if (field === 'event') event = value;
              else if (field === 'data') data.push(value);
              else if (field === 'retry') stream.retryMs = Number(value);
            }
          }
        });
        res.on('end', endedResolve);
        res.on('close', endedResolve);
        res.on('error', endedResolve);
        if (stream.status !== 200) res.on('end', () => resolve(stream));
        else resolve(stream);
      },
    );
    req.on('error', reject);
  });
}
