import compress from '@fastify/compress';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { randomUUID } from 'node:crypto';
import type { AppConfig } from './config';
import type { AppContext } from './context';
import { clientKey } from './lib/client-key';
import { logRedaction, logSerializers, RequestLogController } from './lib/logging';
import { registerAuth } from './plugins/auth';
import { registerDiskGuard } from './plugins/disk-guard';
import { registerDrain } from './plugins/drain';
import { registerErrorHandler } from './plugins/error-handler';
import { registerMetrics } from './plugins/metrics';
import { registerSecurity } from './plugins/security';
import { answerBadAddress } from './plugins/bad-address';

/**
 * The Fastify instance: logging, proxy trust, body and time limits, and route schemas read as zod
 * (requests validated, object responses encoded through their schema).
 */
export function createHttpServer(
  config: AppConfig,
  logger: boolean | object | undefined,
): FastifyInstance {
  const app = Fastify({
    logger:
      logger === false
        ? false
        : {
            level: config.logLevel,
            redact: logRedaction,
            serializers: logSerializers,
            ...(typeof logger === 'object' ? logger : {}),
          },
    logController: new RequestLogController(),
    // A hop count is valid for Fastify (proxy-addr) though its type omits it.
    trustProxy: config.trustProxy as boolean | string,
    bodyLimit: 1024 * 1024,
    // Slow clients (slowloris) are cut off instead of holding a socket for ever (reliability test
    // R6). Node checks the headers and request timeouts every connectionsCheckingInterval (30 s by
    // default, which let a slow client hold a socket for up to 90 s); a socket silent for 60 s is
    // closed too.
    requestTimeout: config.requestTimeoutMs,
    http: {
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(
        5_000,
        Math.max(100, Math.floor(config.headersTimeoutMs / 3)),
      ),
    },
    connectionTimeout: 60_000,
    keepAliveTimeout: 5_000,
    return503OnClosing: true,
    routerOptions: { maxParamLength: 200 },
    // Addresses the router refuses before routing: our headers and answers, not Fastify's.
    frameworkErrors: answerBadAddress,
    // Every log line of a request carries its id (reqId), also sent back as X-Request-Id; a proxy's
    // id is kept when it looks like one, so one id follows the request through both logs.
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  return app;
}

const REQUEST_ID = /^[\w.:-]{8,128}$/;

/** Everything between the socket and a route: errors, drain, parsing, headers, limits, sessions. */
export async function registerHttpPlugins(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { config, database } = ctx;
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    done();
  });
  registerErrorHandler(app);
  registerDrain(app);
  await registerMetrics(app, ctx);
  // JSON only: no text/plain (a CSRF vector), and an empty JSON body reads as "no body".
  app.removeContentTypeParser('text/plain');
  const jsonParser = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    return jsonParser(request, text, done);
  });

  await registerSecurity(app, {
    publicUrl: config.publicUrl,
    hstsMaxAge: config.hstsMaxAge,
    // The browser PUTs photos straight to the bucket when object storage is on.
    uploadOrigins: ctx.storage.direct ? [ctx.storage.direct.origin] : [],
  });
  registerDiskGuard(app, {
    dataDir: config.dataDir,
    minFreeBytes: config.minFreeDiskBytes,
    databaseInDataDir: database.kind === 'pglite',
    uploadsInDataDir: ctx.storage.kind === 'local',
  });
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
  await app.register(rateLimit, {
    global: false,
    // One rule for both limits: IPv6 clients by /64 (one customer usually holds a whole /64).
    keyGenerator: (request) => clientKey(request.ip),
    errorResponseBuilder: (_req, context) => ({
      statusCode: 429,
      message: `Too many requests from your network. Please wait ${Math.ceil(context.ttl / 1000)} seconds and try again.`,
    }),
  });
  await registerAuth(app, ctx.sessions);
}
