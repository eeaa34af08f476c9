import type { FastifyInstance } from 'fastify';
import { progressUpdateSchema } from '../../../shared/schemas/progress';
import type { AppContext } from '../../context';
import { sendCached } from '../../read-model/cached-body';
import { parseWith } from '../../lib/http-error';
import { audited } from '../audit/repo';
import * as repo from './repo';

export async function progressRoutes(app: FastifyInstance, { db, snapshot, config }: AppContext) {
  // Served from memory: no SQL per read (issue 6).
  // compress: false: sendCached sends the body pre-compressed, so skip the plugin's hook.
  app.get('/api/progress', { config: { access: 'public' }, compress: false }, (request, reply) => {
    // A synchronous handler that sends: no promise on the hottest path.
    sendCached(
      request,
      reply.header('Cache-Control', 'no-cache'),
      snapshot.jsonBody('progress', () => snapshot.progress()),
    );
  });

  app.put('/api/progress', { config: { access: 'admin' } }, async (request) => {
    const input = parseWith(progressUpdateSchema, request.body);
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
              before: { manualAdjustment: before.manualAdjustment, goalAmount: before.goalAmount },
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
  });
}
