import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { backupStream } from '../../backup/dump';
import { BACKUP_CLI_AGENT, BACKUP_FILE_SUFFIX } from '../../backup/format';
import { sendRaw } from '../../read-model/cached-body';
import { writeAudit } from '../audit/repo';

/**
 * The admin's backup download. `npm run backup` uses it too while the server runs on the embedded
 * database, whose folder no second process may open.
 */
export async function backupRoutes(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/admin/backup',
    {
      config: { access: 'admin' },
      schema: {
        response: {
          200: {
            description: `Every table and image as gzipped JSON lines, streamed (relief-YYYY-MM-DD${BACKUP_FILE_SUFFIX})`,
            content: { 'application/gzip': { schema: z.string() } },
          },
        },
      },
    },
    async (request, reply) => {
      const name = `relief-${new Date().toISOString().slice(0, 10)}${BACKUP_FILE_SUFFIX}`;
      request.log.info('admin downloads a backup');
      // The file holds every donor's e-mail, the password hash and the link keys: who took a
      // copy, and when, like the CSV export.
      await writeAudit(ctx.db, request, {
        action: 'backup.download',
        targetType: 'backup',
        details: {
          via: request.headers['user-agent']?.startsWith(BACKUP_CLI_AGENT) ? 'cli' : 'web',
        },
      });
      reply
        .header('Content-Type', 'application/gzip')
        .header('Content-Disposition', `attachment; filename="${name}"`)
        .header('Cache-Control', 'no-store');
      return sendRaw(reply, backupStream(ctx.database, ctx.storage));
    },
  );
}
