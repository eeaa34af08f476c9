import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/** Never log a password, a cookie or a donor's e-mail (threat 38 in docs/SECURITY.md). */
export const logRedaction = {
  paths: [
    'req.headers.cookie',
    'req.headers.authorization',
    'res.headers["set-cookie"]',
    '*.password',
    '*.email',
  ],
  censor: '[redacted]',
};

interface LoggedError {
  message?: unknown;
  code?: unknown;
  stack?: unknown;
  cause?: unknown;
}

/**
 * Errors without the data they carry. Drizzle wraps a driver error as "Failed query: <sql>\nparams:
 * <values>", and the values are donors' names and e-mail addresses (security suite, item 38): log
 * the driver's own error (code and message) instead. Any other error keeps its message and stack.
 */
function serializeError(err: unknown): {
  type: string;
  message: string;
  stack: string;
  code?: unknown;
} {
  if (!err || typeof err !== 'object') return { type: typeof err, message: String(err), stack: '' };
  const e = err as LoggedError;
  const message = typeof e.message === 'string' ? e.message : '';
  if (!message.startsWith('Failed query')) {
    const stack = typeof e.stack === 'string' ? e.stack : '';
    return { type: err.constructor?.name ?? 'Error', message, code: e.code, stack };
  }
  const cause = (e.cause ?? {}) as LoggedError;
  return {
    type: 'DatabaseError',
    message: `Failed query${typeof cause.message === 'string' ? `: ${cause.message}` : ''}`,
    code: cause.code ?? e.code,
    stack: '',
  };
}

export const logSerializers = {
  err: serializeError,
  req(request: FastifyRequest) {
    return {
      method: request.method,
      // The query string can carry an upload signature; log the path only.
      url: request.url.split('?')[0],
      remoteAddress: request.ip,
    };
  },
};

/** Slower than this, even a successful read is logged. */
const SLOW_REQUEST_MS = 1000;

/**
 * One log line per request that matters, none for the others. A spike is public reads and new
 * pledges, and Fastify's two synchronous lines per request (with redaction) cost about as much as
 * answering a read from memory, and a tenth of a pledge (docs/decisions/005-performance.md). So a
 * quick, successful read or public call is not logged (a pledge is in the database anyway);
 * admin actions, refusals (4xx), errors and slow requests are, in one line with method, path,
 * status and time.
 */
export class RequestLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const routine =
      request.method === 'GET' ||
      request.method === 'HEAD' ||
      request.routeOptions.config?.access === 'public';
    if (!error && routine && reply.statusCode < 400 && reply.elapsedTime < SLOW_REQUEST_MS) return;
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
