import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ApiError } from '@shared/schemas/api';
import { HttpError, validationError } from '../lib/http-error';
import { StorageUnavailable } from '../storage/object-storage';

/** Fastify's own 4xx codes, in words a person understands. */
const FASTIFY_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request is too large.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported content type: send JSON (application/json).',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The request body does not match its length.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty.',
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
  FST_ERR_CTP_INVALID_TYPE: 'Unsupported content type: send JSON (application/json).',
};

/**
 * Errors from the database driver when the database cannot be reached: the service is unavailable.
 */
function isDatabaseUnavailable(err: unknown): boolean {
  const e = err as { code?: string; message?: string; cause?: unknown } | undefined;
  if (!e) return false;
  const code = e.code ?? '';
  if (
    [
      'ECONNREFUSED',
      'ECONNRESET',
      'ETIMEDOUT',
      'EPIPE',
      '57P01',
      '57P03',
      '08006',
      '08001',
      '08003',
      '53300',
      'ENOSPC',
      '53100',
    ].includes(code)
  )
    return true;
  if (
    /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|PGlite is closed/i.test(
      e.message ?? '',
    )
  )
    return true;
  return e.cause ? isDatabaseUnavailable(e.cause) : false;
}

/** How much of a refused body is read and thrown away, and for how long, before answering. */
const DRAIN_MAX_BYTES = 16 * 1024 * 1024;
const DRAIN_MAX_MS = 10_000;

/**
 * Answering 413 while the client is still sending, then closing (Fastify sets Connection: close),
 * makes the kernel reset the connection on the unread bytes: the client sees ECONNRESET/EPIPE
 * instead of the 413 and its message. So the rest of the body is read and discarded
 * first, up to 16 MB or 10 s; a client sending more than that gets the answer and the reset.
 */
function drainThen(raw: IncomingMessage, send: () => void) {
  if (raw.readableEnded || raw.destroyed) return send();
  let bytes = 0;
  let sent = false;
  const finish = () => {
    if (sent) return;
    sent = true;
    clearTimeout(timer);
    raw.off('data', onData).off('end', finish).off('error', finish).off('close', finish);
    send();
  };
  const onData = (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > DRAIN_MAX_BYTES) finish();
  };
  const timer = setTimeout(finish, DRAIN_MAX_MS);
  raw.on('data', onData).once('end', finish).once('error', finish).once('close', finish);
  raw.resume();
}

/**
 * An error answer, as JSON text: a string skips the route's serialiser, so a route that declares
 * a schema for this status (GET /api/ready's 503, GET /api/health's 503) still gets the error
 * body ({message}) rather than a 500 for a body that does not match that schema.
 */
function sendError(reply: FastifyReply, status: number, body: ApiError) {
  return reply.code(status).type('application/json; charset=utf-8').send(JSON.stringify(body));
}

export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError | HttpError | Error, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(err)) {
      // A route schema refused the request: the same 400 as the schema's message everywhere.
      const issues = err.validation.map((v) => ({
        path: v.instancePath
          .split('/')
          .slice(1)
          .filter((p) => p !== ''),
        code: v.keyword,
        message: v.message ?? 'Invalid request',
      }));
      err = validationError(issues, err.validationContext);
    }
    if (err instanceof HttpError) {
      if (err.headers) reply.headers(err.headers);
      return sendError(
        reply,
        err.statusCode,
        err.errors ? { message: err.message, errors: err.errors } : { message: err.message },
      );
    }
    const fe = err as FastifyError;
    const status = fe.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      let message = (fe.code && FASTIFY_MESSAGES[fe.code]) || undefined;
      if (!message && fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY')
        message = FASTIFY_MESSAGES[fe.code];
      if (!message && (err instanceof SyntaxError || /JSON/i.test(fe.message)))
        message = 'The request body is not valid JSON.';
      if (!message && status === 429) message = fe.message;
      if (!message && /prototype|constructor/i.test(fe.message))
        message = 'The request body contains a forbidden key.';
      const body = { message: message ?? 'The request could not be processed.' };
      if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        // The client may still be sending: answer once it is done (bounded), see drainThen.
        drainThen(request.raw, () => sendError(reply, status, body));
        return reply;
      }
      return sendError(reply, status, body);
    }
    // Before the database test: the SDK's cause (ECONNREFUSED) would read as a database outage.
    if (err instanceof StorageUnavailable) {
      request.log.error({ err }, 'object storage unavailable');
      reply.header('Retry-After', '5');
      return sendError(reply, 503, {
        message: 'The photo storage is briefly unavailable. Please try again in a moment.',
      });
    }
    if (isDatabaseUnavailable(err)) {
      request.log.error({ err }, 'database unavailable');
      reply.header('Retry-After', '5');
      return sendError(reply, 503, {
        message: 'The service is briefly unavailable. Please try again in a moment.',
      });
    }
    request.log.error({ err }, 'unhandled error');
    return sendError(reply, 500, {
      message: 'Something went wrong on our side. Please try again.',
    });
  });
}
