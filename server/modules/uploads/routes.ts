import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { IMAGE_MAX_BYTES } from '../../../shared/constants';
import type { AppContext } from '../../context';
import { HttpError } from '../../lib/http-error';
import { siteOrigins } from '../../plugins/security';
import { encodeImage, IMAGE_WIDTHS, ImageRejected, type ImageWidth } from '../../storage/image';
import { OBJECT_PATH_PREFIX, signUpload, UPLOAD_URL_TTL_MS, verifyUpload } from './signing';

const putQuery = z.object({ expires: z.string().max(20), signature: z.string().max(100) });
const getQuery = z.object({ w: z.coerce.number().int().optional() });

export async function uploadRoutes(app: FastifyInstance, ctx: AppContext) {
  const { storage, config } = ctx;

  // DECISIONS 13: a signed, short-lived, single-use URL for one PUT of the image bytes.
  app.post('/api/objects/upload', { config: { access: 'admin' } }, async (request, reply) => {
    const id = randomUUID();
    const expires = Math.floor((config.now().getTime() + UPLOAD_URL_TTL_MS) / 1000);
    const signature = signUpload(ctx.uploadSecret, id, expires);
    const origin = config.publicUrl ?? siteOrigins(request)[0];
    reply.header('Cache-Control', 'no-store');
    return {
      uploadURL: `${origin}${OBJECT_PATH_PREFIX}${id}?expires=${expires}&signature=${signature}`,
    };
  });

  // The PUT takes raw bytes of any declared type: the bytes decide, not the header.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: IMAGE_MAX_BYTES },
      (_req, body, done) => done(null, body),
    );

    scope.put(
      `${OBJECT_PATH_PREFIX}:id`,
      { config: { access: 'signed' }, bodyLimit: IMAGE_MAX_BYTES },
      async (request, reply) => {
        const { id } = request.params as { id: string };
        if (!storage.isValidId(id)) throw new HttpError(404, 'Upload not found');
        const q = putQuery.safeParse(request.query);
        if (!q.success) throw new HttpError(403, 'This upload link is not valid.');
        const check = verifyUpload(
          ctx.uploadSecret,
          id,
          q.data.expires,
          q.data.signature,
          config.now().getTime(),
        );
        if (check === 'invalid') throw new HttpError(403, 'This upload link is not valid.');
        if (check === 'expired') throw new HttpError(403, 'Request has expired');
        if (await storage.isClaimed(id))
          throw new HttpError(403, 'This upload link has already been used.');
        const body = request.body;
        if (!Buffer.isBuffer(body) || body.length === 0)
          throw new HttpError(400, 'The upload is empty.');
        let image;
        try {
          image = await encodeImage(body);
        } catch (err) {
          if (err instanceof ImageRejected) throw new HttpError(err.statusCode, err.message);
          throw err;
        }
        if (!(await storage.claim(id)))
          throw new HttpError(403, 'This upload link has already been used.');
        await storage.save(id, image);
        const url = `${config.publicUrl ?? siteOrigins(request)[0]}${OBJECT_PATH_PREFIX}${id}`;
        return reply
          .code(200)
          .send({ url, location: url, width: image.width, height: image.height });
      },
    );
  });

  app.get(`${OBJECT_PATH_PREFIX}:id`, { config: { access: 'public' } }, async (request, reply) => {
    const { id } = request.params as { id: string };
    if (!storage.isValidId(id)) throw new HttpError(404, 'Image not found');
    const { w } = getQuery.safeParse(request.query).data ?? {};
    const width = (IMAGE_WIDTHS as readonly number[]).includes(w ?? -1)
      ? (w as ImageWidth)
      : IMAGE_WIDTHS[IMAGE_WIDTHS.length - 1]!;
    const data = await storage.read(id, width);
    if (!data) throw new HttpError(404, 'Image not found');
    return reply
      .header('Content-Type', 'image/webp')
      .header('Cache-Control', 'public, max-age=31536000, immutable')
      .header('Content-Security-Policy', "sandbox; default-src 'none'")
      .header('X-Content-Type-Options', 'nosniff')
      .send(data);
  });
}
