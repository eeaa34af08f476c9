import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';

export async function healthRoutes(app: FastifyInstance, { db, database, config }: AppContext) {
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
}
