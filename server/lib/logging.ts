import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/** Never log a password, a cookie or a donor's e-mail (issue 2, security 38). */
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

export const logSerializers = {
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
 * One log line per request that matters, none for the others. A spike is mostly public reads, and
 * Fastify's two synchronous lines per request cost about as much as answering a read from memory
 * (docs/decisions/005-performance.md). So a quick, successful GET/HEAD is not logged; writes,
 * refusals (4xx), errors and slow requests are, in one line with method, path, status and time.
 */
export class RequestLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const read = request.method === 'GET' || request.method === 'HEAD';
    if (!error && read && reply.statusCode < 400 && reply.elapsedTime < SLOW_REQUEST_MS) return;
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
