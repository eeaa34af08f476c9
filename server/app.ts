import type { FastifyInstance } from 'fastify';
import path from 'node:path';
import { PROJECT_ROOT, type AppConfig } from './config';
import type { AppContext } from './context';
import type { Database } from './db/client';
import { createHttpServer, registerHttpPlugins } from './http-server';
import { closeWithApp, prepareData, startReadModel } from './lifecycle';
import { createEmailService } from './modules/email/service';
import { createSessions } from './modules/admin/sessions';
import { createReminderScheduler, type ReminderScheduler } from './modules/reminders/service';
import { registerRoutes } from './routes';
import { setCampaignPrices } from '@shared/prices';

declare module 'fastify' {
  interface FastifyInstance {
    /** runOnce(now) for tests that move the clock (server/modules/reminders/service.ts). */
    reminders: ReminderScheduler;
  }
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

/** Builds the whole app (migrations, snapshot, routes) without listening: tests drive this. */
export async function buildApp(opts: BuildOptions): Promise<FastifyInstance> {
  const { config, database } = opts;
  const { db } = database;
  // Before anything computes or shows a price (one campaign per process: shared/prices.ts).
  setCampaignPrices(config.campaign);

  const { storage, sweeper, passwordHash, uploadSecret, referenceKey } = await prepareData(
    config,
    database,
    opts.onGeneratedPassword,
  );
  const app = createHttpServer(config, opts.logger);
  const { snapshot, changeFeed, stopStatistics } = await startReadModel(database, app.log);
  const email = await createEmailService(config, database, app.log);

  const ctx: AppContext = {
    config,
    db,
    database,
    snapshot,
    sessions: createSessions(db, config),
    storage,
    uploadSecret,
    referenceKey,
    passwordHash: () => passwordHash,
    email,
  };
  await registerHttpPlugins(app, ctx);
  await registerRoutes(app, ctx, opts.clientDir ?? path.join(PROJECT_ROOT, 'dist', 'client'));
  closeWithApp(app, { config, db, sweeper, storage, changeFeed, stopStatistics });
  // The e-mail worker (docs/decisions/014-email-outbox.md) finishes the message it is sending
  // before the database closes.
  email.worker.start();
  // The reminder scheduler stops before the e-mail worker and the database.
  const reminders = createReminderScheduler({ config, database, email, log: app.log });
  app.decorate('reminders', reminders);
  reminders.start();
  app.addHook('onClose', async () => {
    await reminders.stop();
    await email.worker.stop();
  });
  return app;
}
