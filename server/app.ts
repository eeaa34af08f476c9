import compress from '@fastify/compress';
import rateLimit from '@fastify/rate-limit';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import path from 'node:path';
import { startChangeFeed } from './campaign/change-feed';
import { CampaignSnapshot } from './campaign/snapshot';
import { PROJECT_ROOT, type AppConfig } from './config';
import type { Database, Db } from './db/client';
import { runMigrations } from './db/migrate';
import { keepPlannerStatistics } from './db/planner-statistics';
import { generatePassword, hashPassword } from './modules/admin/password';
import * as adminRepo from './modules/admin/repo';
import { adminRoutes } from './modules/admin/routes';
import { auditRoutes } from './modules/audit/routes';
import { statementRoutes } from './modules/statements/routes';
import { pledgeRoutes } from './modules/pledges/routes';
import { progressRoutes } from './modules/progress/routes';
import { updateRoutes } from './modules/updates/routes';
import { uploadRoutes } from './modules/uploads/routes';
import { createSessions, registerAuth, type Sessions } from './plugins/auth';
import { registerDiskGuard } from './plugins/disk-guard';
import { registerDrain } from './plugins/drain';
import { registerErrorHandler } from './plugins/error-handler';
import { registerSecurity } from './plugins/security';
import { registerSpa } from './plugins/spa';
import { LocalObjectStorage } from './storage/local-storage';
import { logRedaction, logSerializers, RequestLogController } from './lib/logging';
import { randomBytes } from 'node:crypto';

export interface AppContext {
  config: AppConfig;
  db: Db;
  database: Database;
  snapshot: CampaignSnapshot;
  sessions: Sessions;
  storage: LocalObjectStorage;
  uploadSecret: string;
  passwordHash: () => string;
}

export interface BuildOptions {
  config: AppConfig;
  database: Database;
  /** Built client folder; defaults to dist/client. */
  clientDir?: string;
  /** Called once with the generated admin password (first start without ADMIN_PASSWORD). */
  onGeneratedPassword?: (password: string) => void;
  logger?: boolean | object;
}

/** The admin password hash: from ADMIN_PASSWORD, or generated once and stored (DECISIONS 9). */
async function resolvePasswordHash(db: Db, config: AppConfig, onGenerated?: (pw: string) => void) {
  if (config.adminPassword) return hashPassword(config.adminPassword);
  let generated: string | undefined;
  const { value, created } = await adminRepo.getOrCreateSetting(
    db,
    'admin_password_hash',
    async () => {
      generated = generatePassword();
      return hashPassword(generated);
    },
  );
  if (created && generated) onGenerated?.(generated);
  return value;
}

/** Builds the whole app (migrations, snapshot, routes) without listening: tests drive this. */
export async function buildApp(opts: BuildOptions): Promise<FastifyInstance> {
  const { config, database } = opts;
  const { db } = database;

  await runMigrations(database);
  const storage = new LocalObjectStorage(path.join(config.dataDir, 'uploads'));
  // PGlite locks DATA_DIR, so leftovers there are this process's own crashed uploads.
  await storage.init(database.kind === 'pglite');
  // Shared folders (several instances over PostgreSQL) are swept while running, too.
  const sweeper = setInterval(() => void storage.sweep().catch(() => undefined), 30 * 60_000);
  sweeper.unref();
  const [passwordHash, uploadSecret] = await Promise.all([
    resolvePasswordHash(db, config, opts.onGeneratedPassword),
    adminRepo
      .getOrCreateSetting(db, 'upload_signing_secret', () => randomBytes(32).toString('base64url'))
      .then((s) => s.value),
  ]);
  const app = Fastify({
    logger:
      opts.logger === false
        ? false
        : {
            level: config.logLevel,
            redact: logRedaction,
            serializers: logSerializers,
            ...(typeof opts.logger === 'object' ? opts.logger : {}),
          },
    logController: new RequestLogController(),
    // A hop count is valid for Fastify (proxy-addr) though its type omits it.
    trustProxy: config.trustProxy as boolean | string,
    bodyLimit: 1024 * 1024,
    // Slow clients (slowloris) are cut off instead of holding a socket for ever (R6). Node checks
    // the headers and request timeouts every connectionsCheckingInterval (30 s by default, which
    // let a slow client hold a socket for up to 90 s); a socket silent for 60 s is closed too.
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
  });

  // Public state in memory (issue 6). On PostgreSQL, LISTEN before the first load: a change by
  // another instance in between is then in the load or announced after it.
  const snapshot = new CampaignSnapshot(db);
  const changeFeed = startChangeFeed({ database, snapshot, log: app.log });
  try {
    await changeFeed.ready;
    await snapshot.reload();
  } catch (err) {
    await changeFeed.close();
    throw err;
  }
  const stopStatistics = keepPlannerStatistics(
    database,
    () => snapshot.countByStatus('all'),
    app.log,
  );

  const sessions = createSessions(db, config);
  const ctx: AppContext = {
    config,
    db,
    database,
    snapshot,
    sessions,
    storage,
    uploadSecret,
    passwordHash: () => passwordHash,
  };

  registerErrorHandler(app);
  registerDrain(app);
  // JSON only: no text/plain (a CSRF vector), and an empty JSON body reads as "no body".
  app.removeContentTypeParser('text/plain');
  const jsonParser = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    return jsonParser(request, text, done);
  });

  await registerSecurity(app, { publicUrl: config.publicUrl });
  registerDiskGuard(app, {
    dataDir: config.dataDir,
    minFreeBytes: config.minFreeDiskBytes,
    databaseInDataDir: database.kind === 'pglite',
  });
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_req, context) => ({
      statusCode: 429,
      message: `Too many requests from your network. Please wait ${Math.ceil(context.ttl / 1000)} seconds and try again.`,
    }),
  });
  await registerAuth(app, sessions);

  // Health includes the database (R4): while it is unreachable a load balancer sees 503 and the
  // check recovers on its own when the pool reconnects. Bounded, so a hung database fails fast.
  app.get('/api/health', { config: { access: 'public' } }, async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        db.execute(sql`select 1`),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('health check timed out')), 2_000);
        }),
      ]);
      return { status: 'ok', database: database.kind };
    } catch (err) {
      request.log.warn({ err }, 'health: database unreachable');
      return reply.code(503).send({ status: 'unavailable', database: database.kind });
    } finally {
      clearTimeout(timer);
    }
  });

  // The campaign texts, for clients that did not get them inside the HTML (e.g. the Vite dev server).
  app.get('/api/campaign', { config: { access: 'public' } }, async () => config.campaign);

  await adminRoutes(app, ctx);
  await auditRoutes(app, ctx);
  await statementRoutes(app, ctx);
  await pledgeRoutes(app, ctx);
  await progressRoutes(app, ctx);
  await updateRoutes(app, ctx);
  await uploadRoutes(app, ctx);
  await registerSpa(app, {
    ...ctx,
    clientDir: opts.clientDir ?? path.join(PROJECT_ROOT, 'dist', 'client'),
  });

  app.addHook('onClose', async () => {
    stopStatistics();
    clearInterval(sweeper);
    await changeFeed.close();
    await adminRepo.deleteExpiredSessions(db, config.now()).catch(() => undefined);
  });
  return app;
}
