import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { backupStream } from '../../backup/dump';
import { BACKUP_FILE_SUFFIX } from '../../backup/format';

/**
 * The admin's backup download. `npm run backup` uses it too while the server runs on the embedded
 * database, whose folder no second process may open.
 */
export async function backupRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get('/api/admin/backup', { config: { access: 'admin' } }, async (request, reply) => {
    const name = `relief-${new Date().toISOString().slice(0, 10)}${BACKUP_FILE_SUFFIX}`;
    request.log.info('admin downloads a backup');
    return reply
      .header('Content-Type', 'application/gzip')
      .header('Content-Disposition', `attachment; filename="${name}"`)
      .header('Cache-Control', 'no-store')
      .send(backupStream(ctx.database, path.join(ctx.config.dataDir, 'uploads')));
  });
}
