import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LIVE_POLL_MS } from '@shared/constants';
import { apiErrorSchema } from '@shared/schemas/api';
import { progressSchema, progressUpdateSchema } from '@shared/schemas/progress';
import type { AppContext } from '../../context';
import { clientKey } from '../../lib/client-key';
import { HttpError } from '../../lib/http-error';
import { sendCached, sendRaw } from '../../read-model/cached-body';
import { audited } from '../audit/repo';
import { LiveStream } from './live-stream';
import * as repo from './repo';

const GOAL_OWNER_ONLY = 'Only the campaign’s owner can change the goal.';

/** The page's fallback when the stream is refused: it asks for the numbers every LIVE_POLL_MS. */
const POLL_SECONDS = LIVE_POLL_MS / 1000;

export const LIVE_FULL_MESSAGE = `Live updates are busy right now. The page will refresh its numbers every ${POLL_SECONDS} seconds instead.`;
const LIVE_OFF_MESSAGE = `Live updates are turned off on this server. The page refreshes its numbers every ${POLL_SECONDS} seconds.`;

const liveTooManyMessage = (max: number) =>
  `Too many live updates are open from your network (at most ${max}). Close a few tabs of this site; meanwhile the page refreshes its numbers every ${POLL_SECONDS} seconds.`;

declare module 'fastify' {
  interface FastifyInstance {
    /** The live-progress stream, for /metrics. */
    liveStream?: LiveStream;
  }
}

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

  // Server-Sent Events: the progress and the newest pledges, pushed to every open home page.
  const live = new LiveStream({
    snapshot,
    maxClients: config.liveMaxClients,
    maxPerClient: config.liveMaxPerClient,
  });
  fastify.decorate('liveStream', live);
  // Streams never end by themselves: end them when draining starts and before the server closes
  // (Node's server.close() waits for every open response).
  fastify.onDrain(() => live.closeAll());
  fastify.addHook('preClose', (done) => {
    live.closeAll();
    done();
  });
  app.get(
    '/api/progress/stream',
    {
      config: { access: 'public' },
      // Compression would buffer events; a HEAD would open a stream that sends nothing.
      compress: false,
      exposeHeadRoute: false,
      schema: {
        response: {
          200: {
            description:
              'Server-Sent Events: `event: progress` with `{progress, pledges}` (the bodies of GET /api/progress and GET /api/pledges?limit=8) at once and after each change, at most twice a second; a comment line every 25 s',
            content: { 'text/event-stream': { schema: z.string() } },
          },
          429: apiErrorSchema,
          503: apiErrorSchema,
        },
      },
    },
    (request, reply) => {
      if (!live.hasRoom()) {
        request.log.warn({ clients: live.size }, 'live stream: refused, at its maximum');
        reply
          .code(503)
          .header('Retry-After', String(POLL_SECONDS))
          .send({ message: config.liveMaxClients === 0 ? LIVE_OFF_MESSAGE : LIVE_FULL_MESSAGE });
        return;
      }
      const key = clientKey(request.ip);
      if (!live.hasRoomFor(key)) {
        request.log.warn('live stream: refused, this client holds its share');
        reply
          .code(429)
          .header('Retry-After', String(POLL_SECONDS))
          .send({ message: liveTooManyMessage(config.liveMaxPerClient) });
        return;
      }
      reply
        .type('text/event-stream; charset=utf-8')
        .header('Cache-Control', 'no-cache, no-transform')
        // nginx and similar proxies would otherwise hold events back in their buffers.
        .header('X-Accel-Buffering', 'no');
      sendRaw(reply, live.open(key));
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
          // The goal is a campaign-wide setting: the owner's. An editor may send the
          // current goal back with the adjustment (the dialog does), not a new one.
          const role = request.admin!.role;
          if (
            role !== 'owner' &&
            input.goalAmount !== undefined &&
            input.goalAmount !== before.goalAmount
          )
            throw new HttpError(403, GOAL_OWNER_ONLY);
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
