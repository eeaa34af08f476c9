import type { FastifyInstance } from 'fastify';
import { progressUpdateSchema } from '../../../shared/schemas/progress';
import type { AppContext } from '../../app';
import { parseWith } from '../../lib/http-error';
import * as repo from './repo';

export async function progressRoutes(app: FastifyInstance, { db, snapshot, config }: AppContext) {
  // Served from memory: no SQL per read (issue 6).
  app.get('/api/progress', { config: { access: 'public' } }, async (_request, reply) => {
    return reply
      .header('Cache-Control', 'no-cache')
      .type('application/json; charset=utf-8')
      .send(snapshot.json('progress', () => snapshot.progress()));
  });

  app.put('/api/progress', { config: { access: 'admin' } }, async (request) => {
    const input = parseWith(progressUpdateSchema, request.body);
    await snapshot.write(() => repo.writeProgress(db, input, config.now()));
    return snapshot.progress();
  });
}
