import type { FastifyInstance } from 'fastify';
import { progressUpdateSchema } from '../../../shared/schemas/progress';
import type { AppContext } from '../../context';
import { sendCached } from '../../read-model/cached-body';
import { parseWith } from '../../lib/http-error';
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
    await snapshot.write(() => repo.writeProgress(db, input, config.now()));
    return snapshot.progress();
  });
}
