import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { progressSchema, progressUpdateSchema } from '../../../shared/schemas/progress';
import type { AppContext } from '../../context';
import { sendCached } from '../../read-model/cached-body';
import { audited } from '../audit/repo';
import * as repo from './repo';

export async function progressRoutes(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, snapshot, config } = ctx;

  // Served from memory: no SQL per read (docs/decisions/004-in-memory-snapshot.md).
  // compress: false: sendCached sends the body pre-compressed, so skip the plugin's hook.
  app.get(
    '/api/progress',
    {
      config: { access: 'public' },
      compress: false,
      schema: { response: { 200: progressSchema } },
    },
    (request, reply) => {
      // A synchronous handler that sends: no promise on the hottest path.
      sendCached(
        request,
        reply.header('Cache-Control', 'no-cache'),
        snapshot.jsonBody('progress', () => snapshot.progress()),
      );
    },
  );

  app.put(
    '/api/progress',
    {
      config: { access: 'admin' },
      schema: { body: progressUpdateSchema, response: { 200: progressSchema } },
    },
    async (request) => {
      const input = request.body;
      await snapshot.write(() =>
        audited(db, request, async (tx) => {
          const before = await repo.readProgressRow(tx);
          await repo.writeProgress(tx, input, config.now());
          return {
            result: undefined,
            audit: {
              action: 'progress.update',
              targetType: 'progress',
              targetId: 'main',
              details: {
                before: {
                  manualAdjustment: before.manualAdjustment,
                  goalAmount: before.goalAmount,
                },
                after: {
                  manualAdjustment: input.manualAdjustment,
                  goalAmount: input.goalAmount ?? before.goalAmount,
                },
              },
            },
          };
        }),
      );
      return snapshot.progress();
    },
  );
}
