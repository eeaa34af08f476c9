import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { siteBaseUrl } from '../../lib/site-url';
import { sendRaw } from '../../read-model/cached-body';
import { SHARE_IMAGE_PATH, shareFacts } from './meta';
import { renderShareImage, shareKey, type ShareFacts } from './share-image';

/** A new picture at most this often: under a stream of pledges, the last one is served meanwhile. */
const MIN_RENDER_INTERVAL_MS = 5_000;

interface Rendered {
  key: string;
  png: Buffer;
}

/**
 * The share image, rendered once per change of what it shows (not per request) and one at a time:
 * a crawler's request while a picture is being made, or within a few seconds of the last one, gets
 * the last one. Rendering runs in libvips' threads, off the event loop (0.1–0.5 s).
 */
class ShareImageCache {
  private current: Rendered | undefined;
  private rendering: Promise<Rendered> | undefined;
  private lastRenderAt = 0;

  constructor(
    private readonly facts: () => ShareFacts,
    private readonly minIntervalMs = MIN_RENDER_INTERVAL_MS,
  ) {}

  get(): Promise<Rendered> {
    const facts = this.facts();
    const key = shareKey(facts);
    const current = this.current;
    if (current && (current.key === key || this.rendering)) return Promise.resolve(current);
    if (current && Date.now() - this.lastRenderAt < this.minIntervalMs)
      return Promise.resolve(current);
    if (this.rendering) return this.rendering;
    this.lastRenderAt = Date.now();
    this.rendering = renderShareImage(facts)
      .then((png) => (this.current = { key, png }))
      .finally(() => {
        this.rendering = undefined;
      });
    return this.rendering;
  }
}

export async function shareRoutes(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { snapshot, config } = ctx;
  const baseUrl = siteBaseUrl(config);
  const images = new ShareImageCache(() =>
    shareFacts(config.campaign, snapshot.progress(), baseUrl),
  );

  app.get(
    SHARE_IMAGE_PATH,
    {
      config: { access: 'public' },
      compress: false,
      schema: {
        // `v` only makes the address change with the numbers (social networks cache by address).
        querystring: z.object({ v: z.string().max(64).optional() }),
        response: {
          200: {
            description:
              'The home’s share picture (Open Graph / Twitter card): 1200×630 PNG with the campaign name and the live progress; ETag per change',
            content: { 'image/png': { schema: z.string() } },
          },
          304: z.null().describe('Not modified (If-None-Match)'),
        },
      },
    },
    async (request, reply) => {
      const { key, png } = await images.get();
      const etag = `"${key}"`;
      // Crawlers fetch it once per share; five minutes keeps a burst of them off the renderer.
      reply.header('Cache-Control', 'public, max-age=300').header('ETag', etag);
      const given = request.headers['if-none-match']?.split(',') ?? [];
      if (given.some((t) => t.trim().replace(/^W\//, '') === etag))
        return reply.code(304).send(null);
      return sendRaw(reply.type('image/png'), png);
    },
  );
}
