import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { deletedSchema, idParamsSchema } from '@shared/schemas/api';
import {
  deliveryUpdateSchema,
  NO_CHANGES_MESSAGE,
  postedUpdateSchema,
  updateCreateSchema,
  updateEditSchema,
  type UpdateEdit,
} from '@shared/schemas/update';
import type { AppContext } from '../../context';
import { badRequest, notFound } from '../../lib/http-error';
import { sendCached } from '../../read-model/cached-body';
import { OBJECT_PATH_PREFIX } from '../../lib/object-path';
import { siteOrigins } from '../../lib/site-url';
import { ownObjectId, referencedImageIds } from '../uploads/signing';
import { audited } from '../audit/repo';
import * as newsRepo from '../news/repo';
import * as repo from './repo';

const NOT_FOUND = 'Delivery update not found';
const updateParams = idParamsSchema('update');

export async function updateRoutes(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, snapshot, storage, config } = ctx;

  /** Only images uploaded here are accepted (no javascript:, data: or other sites' URLs). */
  async function imageOf(request: FastifyRequest, imageUrl: string) {
    const id = ownObjectId(imageUrl, siteOrigins(request, config.publicUrl));
    const meta = id ? await storage.meta(id) : undefined;
    if (!meta)
      throw badRequest('Valid image URL is required', { imageUrl: 'Please upload an image first' });
    return { imageWidth: meta.width, imageHeight: meta.height };
  }

  // compress: false: sendCached sends the body pre-compressed, so skip the plugin's hook.
  app.get(
    '/api/updates',
    {
      config: { access: 'public' },
      compress: false,
      schema: { response: { 200: z.array(deliveryUpdateSchema) } },
    },
    (request, reply) => {
      // A synchronous handler that sends: no promise on the hottest path.
      sendCached(
        request,
        reply.header('Cache-Control', 'no-cache'),
        snapshot.jsonBody('updates', () => snapshot.deliveryUpdates()),
      );
    },
  );

  app.post(
    '/api/updates',
    {
      config: { access: 'admin' },
      schema: { body: updateCreateSchema, response: { 201: postedUpdateSchema } },
    },
    async (request, reply) => {
      const { notifySubscribers, ...input } = request.body;
      const size = await imageOf(request, input.imageUrl);
      const { created, notified } = await snapshot.write(() =>
        audited(db, request, async (tx) => {
          const created = await repo.insertUpdate(tx, { ...input, ...size });
          // The news go out with the update or not at all: queued in its transaction.
          const notified = notifySubscribers
            ? await newsRepo.enqueueDeliveryNews(tx, created.id, config.now())
            : undefined;
          return {
            result: { created, notified },
            audit: {
              action: 'update.create',
              targetType: 'update',
              targetId: created.id,
              details: {
                after: repo.toDeliveryUpdate(created),
                ...(notified === undefined ? {} : { notified }),
              },
            },
          };
        }),
      );
      if (notified) ctx.email.worker.kick();
      return reply.code(201).send({
        ...repo.toDeliveryUpdate(created),
        ...(notified === undefined ? {} : { notified }),
      });
    },
  );

  app.patch(
    '/api/updates/:id',
    {
      config: { access: 'admin' },
      schema: {
        params: updateParams,
        body: updateEditSchema,
        response: { 200: deliveryUpdateSchema },
      },
    },
    async (request) => {
      const { id } = request.params;
      const { updates } = request.body;
      const current = await repo.findUpdate(db, id);
      if (!current) throw notFound(NOT_FOUND);
      const changes: UpdateEdit['updates'] & { imageWidth?: number; imageHeight?: number } = {};
      if (updates.recipient !== undefined && updates.recipient !== current.recipient)
        changes.recipient = updates.recipient;
      if (updates.containerCount !== undefined && updates.containerCount !== current.containerCount)
        changes.containerCount = updates.containerCount;
      if (updates.deliveryDate !== undefined && updates.deliveryDate !== current.deliveryDate)
        changes.deliveryDate = updates.deliveryDate;
      if (updates.imageUrl !== undefined && updates.imageUrl !== current.imageUrl) {
        Object.assign(
          changes,
          { imageUrl: updates.imageUrl },
          await imageOf(request, updates.imageUrl),
        );
      }
      if (Object.keys(changes).length === 0) throw badRequest(NO_CHANGES_MESSAGE);
      const row = await snapshot.write(() =>
        audited(db, request, async (tx) => {
          const updated = await repo.updateUpdate(tx, id, changes);
          const before = Object.fromEntries(
            Object.keys(changes).map((k) => [k, current[k as keyof typeof current]]),
          );
          return {
            result: updated,
            audit: updated
              ? {
                  action: 'update.edit',
                  targetType: 'update',
                  targetId: id,
                  details: { before, after: changes },
                }
              : null,
          };
        }),
      );
      if (!row) throw notFound(NOT_FOUND);
      if (changes.imageUrl !== undefined) await dropIfUnused(current.imageUrl);
      return repo.toDeliveryUpdate(row);
    },
  );

  /**
   * Deletes the photo an update no longer shows once no other update uses it (see
   * docs/decisions/008-security-review-fixes.md): it stops being public at once, not after the
   * fresh-upload grace period.
   */
  async function dropIfUnused(imageUrl: string) {
    const i = imageUrl.indexOf(OBJECT_PATH_PREFIX);
    if (i < 0) return;
    const id = imageUrl.slice(i + OBJECT_PATH_PREFIX.length);
    if (referencedImageIds(snapshot.deliveryUpdates()).has(id)) return;
    await storage.remove(id).catch((err: unknown) => {
      app.log.warn(
        { err: { message: (err as Error).message } },
        'could not delete an unused image',
      );
    });
  }

  app.delete(
    '/api/updates/:id',
    {
      config: { access: 'admin' },
      schema: { params: updateParams, response: { 200: deletedSchema } },
    },
    async (request) => {
      const { id } = request.params;
      const row = await snapshot.write(() =>
        audited(db, request, async (tx) => {
          const deleted = await repo.deleteUpdate(tx, id);
          return {
            result: deleted,
            audit: deleted
              ? {
                  action: 'update.delete',
                  targetType: 'update',
                  targetId: id,
                  details: { deleted: repo.toDeliveryUpdate(deleted) },
                }
              : null,
          };
        }),
      );
      if (!row) throw notFound(NOT_FOUND);
      await dropIfUnused(row.imageUrl);
      return { ok: true as const, id };
    },
  );
}
