import type { FastifyInstance } from 'fastify';
import type { AppContext } from './context';
import { adminRoutes } from './modules/admin/routes';
import { teamRoutes } from './modules/admin/team-routes';
import { securityRoutes } from './modules/admin/security-routes';
import { auditRoutes } from './modules/audit/routes';
import { statementRoutes } from './modules/statements/routes';
import { backupRoutes } from './modules/backup/routes';
import { docsRoutes } from './modules/docs/routes';
import { emailRoutes } from './modules/email/routes';
import { healthRoutes } from './modules/health/routes';
import { pledgeRoutes } from './modules/pledges/routes';
import { progressRoutes } from './modules/progress/routes';
import { shareRoutes } from './modules/share/routes';
import { updateRoutes } from './modules/updates/routes';
import { uploadRoutes } from './modules/uploads/routes';
import { pageRoutes } from './modules/pages/routes';
import { reminderRoutes } from './modules/reminders/routes';
import { ledgerRoutes } from './modules/ledger/routes';
import { privacyRoutes } from './modules/privacy/routes';
import { newsRoutes } from './modules/news/routes';
import { reportRoutes } from './modules/reports/routes';
import { registerSpa } from './plugins/spa';

/**
 * Every route of the app: the docs first (they collect the others), the pages and the SPA last
 * (the SPA plugin owns the not-found handler, which serves the pages module's 404 page).
 */
export async function registerRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  clientDir: string,
): Promise<void> {
  await docsRoutes(app, ctx);
  await healthRoutes(app, ctx);
  await adminRoutes(app, ctx);
  await teamRoutes(app, ctx);
  await securityRoutes(app, ctx);
  await auditRoutes(app, ctx);
  await statementRoutes(app, ctx);
  await pledgeRoutes(app, ctx);
  await progressRoutes(app, ctx);
  await shareRoutes(app, ctx);
  await updateRoutes(app, ctx);
  await uploadRoutes(app, ctx);
  await backupRoutes(app, ctx);
  await emailRoutes(app, ctx);
  await reminderRoutes(app, ctx);
  await ledgerRoutes(app, ctx);
  await privacyRoutes(app, ctx);
  await newsRoutes(app, ctx);
  await reportRoutes(app, ctx);
  await pageRoutes(app, { ...ctx, clientDir });
  await registerSpa(app, { clientDir });
}
