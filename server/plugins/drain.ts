import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../lib/http-error';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * First step of a graceful shutdown: new requests get 503 while the ones in flight finish
     * (at most `maxMs`). Then `close()` stops listening.
     */
    drain(maxMs: number): Promise<void>;
    /** True once drain() started: readiness turns 503 so a load balancer stops sending. */
    isDraining(): boolean;
    /**
     * Called when drain() starts: responses that never end by themselves (the live stream) end
     * then, instead of holding the drain for its whole `maxMs`.
     */
    onDrain(listener: () => void): void;
  }
}

const RESTARTING_MESSAGE = 'The server is restarting. Please try again in a moment.';

/**
 * Shutdown in two steps (reliability test R7). Fastify's close() stops listening at once, so a
 * client that comes during the drain would find the door shut (connection refused) or, on a
 * keep-alive connection, be dropped without an answer. While draining, the server keeps listening:
 * new requests get a 503 with Retry-After, and every answer says "Connection: close" so clients
 * reconnect.
 */
export function registerDrain(app: FastifyInstance) {
  let draining = false;
  let inFlight = 0;
  let onIdle: (() => void) | undefined;
  const drainListeners: (() => void)[] = [];
  const counted = new WeakSet<FastifyRequest>();
  /**
   * Counted requests per connection. A client may pipeline: a request can be accepted while an
   * earlier one on its connection is still being answered. Node closes a connection after a
   * response that says "Connection: close", so only the connection's last accepted request may
   * say it; an earlier one saying it would drop the answer of a request already processed (a
   * pledge stored whose client never hears of it, seen once in R7 under load).
   */
  const perConnection = new WeakMap<object, number>();
  // (An injected request, app.inject, may have no socket: it is its own connection.)
  const connectionOf = (request: FastifyRequest): object => request.raw.socket ?? request;

  const done = (request: FastifyRequest) => {
    if (!counted.delete(request)) return;
    const connection = connectionOf(request);
    perConnection.set(connection, (perConnection.get(connection) ?? 1) - 1);
    inFlight -= 1;
    if (inFlight === 0) onIdle?.();
  };

  app.addHook('onRequest', (request, _reply, next) => {
    if (draining) {
      next(
        new HttpError(503, RESTARTING_MESSAGE, undefined, {
          'Retry-After': '5',
          Connection: 'close',
        }),
      );
      return;
    }
    counted.add(request);
    const connection = connectionOf(request);
    perConnection.set(connection, (perConnection.get(connection) ?? 0) + 1);
    inFlight += 1;
    next();
  });
  app.addHook('onSend', (request, reply, payload, next) => {
    if (draining && (perConnection.get(connectionOf(request)) ?? 0) <= 1)
      reply.header('connection', 'close');
    next(null, payload);
  });
  app.addHook('onResponse', (request, _reply, next) => {
    done(request);
    next();
  });
  app.addHook('onRequestAbort', (request, next) => {
    done(request);
    next();
  });

  app.decorate('isDraining', () => draining);
  app.decorate('onDrain', (listener: () => void) => {
    drainListeners.push(listener);
  });
  app.decorate('drain', (maxMs: number) => {
    draining = true;
    for (const listener of drainListeners) listener();
    if (inFlight === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, maxMs);
      onIdle = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  });
}
