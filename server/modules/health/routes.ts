import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { healthSchema, notReadySchema, readySchema } from '@shared/schemas/api';
import { campaignSchema } from '@shared/schemas/campaign';
import type { AppContext } from '../../context';
import { appliedMigrations, migrationJournal } from '../../db/migrate';

async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export async function healthRoutes(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, database, config } = ctx;
  // This build's migrations do not change while it runs: read the journal once, not per probe.
  const knownMigrations = migrationJournal().length;
  // Health includes the database (reliability test R4): while it is unreachable a load balancer
  // sees 503 and the check recovers on its own when the pool reconnects. Bounded, so a hung
  // database fails fast.
  app.get(
    '/api/health',
    {
      config: { access: 'public' },
      schema: { response: { 200: healthSchema, 503: healthSchema } },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      try {
        await withTimeout(db.execute(sql`select 1`), 2_000);
        return { status: 'ok' as const, database: database.kind };
      } catch (err) {
        request.log.warn({ err }, 'health: database unreachable');
        return reply.code(503).send({ status: 'unavailable', database: database.kind });
      }
    },
  );

  // Readiness, for a load balancer or an orchestrator: the database answers, this version's
  // migrations are all applied (an older instance next to a newer schema says so), not draining.
  // /api/health stays the liveness check.
  app.get(
    '/api/ready',
    {
      config: { access: 'public' },
      logLevel: 'warn',
      schema: { response: { 200: readySchema, 503: notReadySchema } },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      const problems: string[] = [];
      if (app.isDraining()) problems.push('draining');
      try {
        const applied = await withTimeout(appliedMigrations(db), 2_000);
        if (applied < knownMigrations)
          problems.push(`migrations: ${applied} of ${knownMigrations} applied`);
      } catch (err) {
        request.log.warn({ err }, 'ready: database unreachable');
        problems.push('database unreachable');
      }
      if (problems.length) return reply.code(503).send({ status: 'not ready' as const, problems });
      return { status: 'ready' as const, database: database.kind };
    },
  );

  // The campaign texts, for clients that did not get them inside the HTML (e.g. the Vite dev
  // server).
  app.get(
    '/api/campaign',
    { config: { access: 'public' }, schema: { response: { 200: campaignSchema } } },
    async () => config.campaign,
  );
}
