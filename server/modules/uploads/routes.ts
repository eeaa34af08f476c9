import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IMAGE_MAX_BYTES } from '@shared/constants';
import { uploadedImageSchema, uploadRequestSchema, uploadUrlSchema } from '@shared/schemas/api';
import type { AppContext } from '../../context';
import { BODY_NOT_OBJECT, badRequest, HttpError } from '../../lib/http-error';
import { sendRaw } from '../../read-model/cached-body';
import { OBJECT_PATH_PREFIX } from '../../lib/object-path';
import { siteOrigins } from '../../lib/site-url';
import { encodeImage, IMAGE_WIDTHS, ImageRejected, type ImageWidth } from '../../storage/image';
import type { DirectUploads } from '../../storage/object-storage';
import {
  completeSubject,
  signUpload,
  UPLOAD_URL_TTL_MS,
  referencedImageIds,
  verifyUpload,
} from './signing';

const objectParams = z.object({ id: z.string() });
const putQuery = z.object({ expires: z.string().max(20), signature: z.string().max(100) });
/** Both ways an image arrives with its signed link: a PUT here, or the completion of a bucket upload. */
const signedUploadSchema = {
  params: objectParams,
  querystring: putQuery,
  response: { 200: uploadedImageSchema },
};
/** An unknown width falls back to the largest (no 400 for a hand-edited URL). */
const getQuery = z.object({
  w: z.coerce.number().int().optional().catch(undefined),
});
const BINARY = z.string().meta({ format: 'binary' });
const TOO_LARGE = 'This image is larger than 5 MB. Please choose a smaller photo.';
const SIZE_REQUIRED =
  "Send the image's size in bytes (size, 1 byte to 5 MB): the upload link is signed for it.";

/** Re-encodes, or refuses with the reason a person can act on. */
async function encodeOrRefuse(bytes: Buffer) {
  try {
    return await encodeImage(bytes);
  } catch (err) {
    if (err instanceof ImageRejected) throw new HttpError(err.statusCode, err.message);
    throw err;
  }
}

/**
 * An upload no update uses is served this long (the admin is still filling in the form), then
 * answers 404 (docs/decisions/008).
 */
const UNUSED_IMAGE_GRACE_MS = 24 * 3600_000;

export async function uploadRoutes(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { storage, config } = ctx;

  // Product rule (docs/decisions/010-product-rules.md): a signed, short-lived, single-use URL for
  // one PUT of the image bytes: to this server, or with object storage straight to the bucket
  // (docs/decisions/015-object-storage.md).
  app.post(
    '/api/objects/upload',
    {
      config: { access: 'admin' },
      schema: { body: uploadRequestSchema, response: { 200: uploadUrlSchema } },
      // No body is the spec's call; a JSON null is not an object.
      preValidation: async (request) => {
        if (request.body === null) throw new HttpError(400, BODY_NOT_OBJECT);
      },
    },
    async (request, reply) => {
      const size = request.body?.size;
      if (size !== undefined && size > IMAGE_MAX_BYTES) throw new HttpError(413, TOO_LARGE);
      // A bucket's presigned PUT takes whatever length it was signed for, up to 5 GB when none
      // was: the size is required there and signed. Local disk counts the
      // bytes as they arrive.
      if (storage.direct && (size === undefined || size < 1)) throw badRequest(SIZE_REQUIRED);
      const id = randomUUID();
      const expires = Math.floor((config.now().getTime() + UPLOAD_URL_TTL_MS) / 1000);
      const origin = config.publicUrl ?? siteOrigins(request)[0];
      reply.header('Cache-Control', 'no-store');
      if (storage.direct) {
        // The completion link outlives the bucket's by one more period: an upload that finishes
        // at minute 14 on a slow link can still be completed.
        const completeExpires = expires + UPLOAD_URL_TTL_MS / 1000;
        const signature = signUpload(ctx.uploadSecret, completeSubject(id), completeExpires);
        return {
          uploadURL: await storage.direct.presignPut(id, {
            expiresInSeconds: UPLOAD_URL_TTL_MS / 1000,
            size,
          }),
          completeURL: `${origin}${OBJECT_PATH_PREFIX}${id}/complete?expires=${completeExpires}&signature=${signature}`,
        };
      }
      const signature = signUpload(ctx.uploadSecret, id, expires);
      return {
        uploadURL: `${origin}${OBJECT_PATH_PREFIX}${id}?expires=${expires}&signature=${signature}`,
      };
    },
  );

  /** The link's checks shared by the PUT here and the completion of a bucket upload. */
  async function checkLink(
    request: { validationError?: Error; query: { expires: string; signature: string } },
    id: string,
    subject: string,
  ) {
    if (!storage.isValidId(id)) throw new HttpError(404, 'Upload not found');
    if (request.validationError) throw new HttpError(403, 'This upload link is not valid.');
    const check = verifyUpload(
      ctx.uploadSecret,
      subject,
      request.query.expires,
      request.query.signature,
      config.now().getTime(),
    );
    if (check === 'invalid') throw new HttpError(403, 'This upload link is not valid.');
    if (check === 'expired') throw new HttpError(403, 'Request has expired');
    if (await storage.isClaimed(id))
      throw new HttpError(403, 'This upload link has already been used.');
  }

  /** Stores the judged image under its single-use id; the answer of both routes. */
  async function store(
    request: Parameters<typeof siteOrigins>[0],
    id: string,
    image: Awaited<ReturnType<typeof encodeOrRefuse>>,
  ) {
    if (!(await storage.claim(id)))
      throw new HttpError(403, 'This upload link has already been used.');
    await storage.save(id, image);
    const url = `${config.publicUrl ?? siteOrigins(request)[0]}${OBJECT_PATH_PREFIX}${id}`;
    return { url, location: url, width: image.width, height: image.height };
  }

  // The PUT takes raw bytes of any declared type: the bytes decide, not the header.
  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: IMAGE_MAX_BYTES },
      (_req, body, done) => done(null, body),
    );

    scope.put(
      `${OBJECT_PATH_PREFIX}:id`,
      {
        config: { access: 'signed' },
        bodyLimit: IMAGE_MAX_BYTES,
        // The body is the image's bytes (no schema: any type, checked by decoding them). A link
        // that does not parse is refused with 403 like a forged one, not with a 400: the
        // validation result is read by the handler.
        attachValidation: true,
        schema: signedUploadSchema,
      },
      async (request, reply) => {
        const { id } = request.params;
        await checkLink(request, id, id);
        const body = request.body;
        if (!Buffer.isBuffer(body) || body.length === 0)
          throw new HttpError(400, 'The upload is empty.');
        return reply.code(200).send(await store(request, id, await encodeOrRefuse(body)));
      },
    );
  });

  if (storage.direct) registerCompletion(storage.direct);

  /**
   * With object storage the browser PUTs to the bucket, then POSTs here: the bytes are read back
   * and judged exactly like a PUT to this server (same limits, same messages), re-encoded, stored
   * as the image, and the upload itself deleted. A refused file leaves the link usable.
   */
  function registerCompletion(direct: DirectUploads) {
    app.post(
      `${OBJECT_PATH_PREFIX}:id/complete`,
      {
        config: { access: 'signed' },
        attachValidation: true,
        schema: signedUploadSchema,
      },
      async (request, reply) => {
        const { id } = request.params;
        await checkLink(request, id, completeSubject(id));
        const bytes = await direct.takeIncoming(id, IMAGE_MAX_BYTES);
        if (bytes === 'missing')
          throw new HttpError(400, 'No image has been uploaded with this link yet.');
        const refuse = async (err: HttpError) => {
          await direct.dropIncoming(id).catch(() => undefined);
          return err;
        };
        if (bytes === 'too-large') throw await refuse(new HttpError(413, TOO_LARGE));
        if (bytes.length === 0) throw await refuse(new HttpError(400, 'The upload is empty.'));
        let image;
        try {
          image = await encodeOrRefuse(bytes);
        } catch (err) {
          throw err instanceof HttpError ? await refuse(err) : err;
        }
        const stored = await store(request, id, image);
        await direct.dropIncoming(id).catch((err: unknown) => {
          // The sweep removes it within the hour.
          request.log.warn({ err: { message: (err as Error).message } }, 'incoming upload kept');
        });
        return reply.code(200).send(stored);
      },
    );
  }

  app.get(
    `${OBJECT_PATH_PREFIX}:id`,
    {
      config: { access: 'public' },
      schema: {
        params: objectParams,
        querystring: getQuery,
        response: {
          200: {
            description: 'The image as WebP, at the width asked for (or the largest)',
            content: { 'image/webp': { schema: BINARY } },
          },
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      if (!storage.isValidId(id)) throw new HttpError(404, 'Image not found');
      const { w } = request.query;
      const width = (IMAGE_WIDTHS as readonly number[]).includes(w ?? -1)
        ? (w as ImageWidth)
        : IMAGE_WIDTHS[IMAGE_WIDTHS.length - 1]!;
      // Only images an update shows, or fresh uploads whose update is still being written
      // (docs/decisions/008-security-review-fixes.md): a deleted or replaced photo stops being
      // public.
      if (!referencedImageIds(ctx.snapshot.deliveryUpdates()).has(id)) {
        const savedAt = await storage.savedAt(id);
        if (savedAt === undefined || config.now().getTime() - savedAt > UNUSED_IMAGE_GRACE_MS)
          throw new HttpError(404, 'Image not found');
      }
      const data = await storage.read(id, width);
      if (!data) throw new HttpError(404, 'Image not found');
      reply
        .header('Content-Type', 'image/webp')
        // An hour, not a year: a removed photo leaves browser and proxy caches within the hour.
        .header('Cache-Control', 'public, max-age=3600')
        .header('Content-Security-Policy', "sandbox; default-src 'none'")
        .header('X-Content-Type-Options', 'nosniff');
      return sendRaw(reply, data);
    },
  );
}
