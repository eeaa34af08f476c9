import { z } from 'zod';

/** Body of every rejected request (docs/decisions/009-api-contracts.md). */
export const apiErrorSchema = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.string()).optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `{id}` in a path: a UUID in any case, read in lower case; else "Invalid <what> id". */
export function idParamsSchema(what: string) {
  const message = `Invalid ${what} id`;
  return z.object({
    id: z
      .string({ error: message })
      .regex(UUID, { error: message })
      .transform((s) => s.toLowerCase()),
  });
}

/** What a DELETE answers. */
export const deletedSchema = z.object({ ok: z.literal(true), id: z.uuid() });

/** GET /api/health: 200 when the database answers, 503 when it does not. */
export const healthSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  database: z.enum(['pglite', 'postgres']),
});

/** GET /api/ready: 200 when this instance can serve, 503 with what is wrong. */
export const readySchema = z.object({
  status: z.literal('ready'),
  database: z.enum(['pglite', 'postgres']),
});
export const notReadySchema = z.object({
  status: z.literal('not ready'),
  problems: z.array(z.string()),
});

/**
 * POST /api/objects/upload's optional body: the file's size in bytes. With object storage the
 * presigned URL is signed for exactly that length, so the bucket refuses anything bigger.
 * Nullish: Fastify hands a missing body to the validator as null.
 */
export const uploadRequestSchema = z.object({ size: z.number().int().min(0).optional() }).nullish();

/** POST /api/objects/upload: a signed, short-lived URL for one PUT of the image bytes. */
export const uploadUrlSchema = z.object({
  uploadURL: z.string(),
  /**
   * Only with object storage (docs/decisions/015-object-storage.md): uploadURL is the bucket's
   * presigned URL, and after the PUT the browser POSTs here to have the image checked and stored.
   */
  completeURL: z.string().optional(),
});
export type UploadUrlResponse = z.infer<typeof uploadUrlSchema>;

/** PUT of the image bytes: where the stored image is, and its size. */
export const uploadedImageSchema = z.object({
  url: z.string(),
  location: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});
export type UploadedImage = z.infer<typeof uploadedImageSchema>;
