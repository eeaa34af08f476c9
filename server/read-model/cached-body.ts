import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';

/** Below this, compression saves less than it costs (the same threshold as @fastify/compress). */
const MIN_COMPRESS_BYTES = 1024;
const BROTLI_PARAMS = { [constants.BROTLI_PARAM_QUALITY]: 5 };
const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * A response body built once per snapshot change and sent to every reader until the next one.
 * Its gzip and brotli forms are made on first demand and kept with it, so a phone asking for
 * brotli costs a buffer write, not a compression (the HTML at brotli 5 costs ~0.3 ms to compress).
 */
export class CachedBody {
  readonly raw: Buffer;
  /** When it was built (ms since the epoch): a body with time-dependent text may expire. */
  readonly builtAt = Date.now();
  private gzipped: Buffer | undefined;
  private brotli: Buffer | undefined;

  constructor(
    readonly text: string,
    readonly contentType: string,
  ) {
    this.raw = Buffer.from(text, 'utf8');
  }

  get compressible(): boolean {
    return this.raw.length >= MIN_COMPRESS_BYTES;
  }

  gzip(): Buffer {
    return (this.gzipped ??= gzipSync(this.raw, { level: 6 }));
  }

  br(): Buffer {
    return (this.brotli ??= brotliCompressSync(this.raw, {
      params: {
        // Quality 5: most of quality 11's gain at a fraction of its time; it runs once per change.
        [constants.BROTLI_PARAM_QUALITY]: 5,
        [constants.BROTLI_PARAM_SIZE_HINT]: this.raw.length,
      },
    }));
  }
}

type Encoding = 'br' | 'gzip' | 'identity';
/** Browsers send a handful of distinct Accept-Encoding values: parse each once (bounded). */
const parsed = new Map<string, Encoding>();

/** br if acceptable, else gzip, else none; `q=0` refuses an encoding (RFC 9110 12.5.3). */
export function preferredEncoding(header: string | undefined): Encoding {
  if (!header) return 'identity';
  let known = parsed.get(header);
  if (known) return known;
  const q = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    if (name) q.set(name.trim(), Number.isNaN(value) ? 0 : value);
  }
  const accepts = (enc: string) => (q.get(enc) ?? q.get('*') ?? 0) > 0;
  known = accepts('br') ? 'br' : accepts('gzip') ? 'gzip' : 'identity';
  if (parsed.size < 200) parsed.set(header, known);
  return known;
}

/**
 * Sends a cached body, compressed as the client accepts; @fastify/compress leaves it alone.
 * Bytes skip the route's response serialiser: its schema documents the body, it does not encode
 * it a second time. Returns nothing, so a typed route's handler may end with it.
 */
export function sendCached(request: FastifyRequest, reply: FastifyReply, body: CachedBody): void {
  reply.type(body.contentType);
  const encoding = body.compressible
    ? preferredEncoding(request.headers['accept-encoding'])
    : 'identity';
  if (body.compressible) reply.header('Vary', 'Accept-Encoding');
  if (encoding === 'identity') reply.send(body.raw);
  else reply.header('Content-Encoding', encoding).send(encoding === 'br' ? body.br() : body.gzip());
}

/**
 * A body sent once (the full pledge list, for example), compressed off the event loop (zlib's
 * thread pool): a list of 100,000 pledges is megabytes, and compressing it synchronously would
 * stall every other request meanwhile.
 */
export async function sendOnce(
  request: FastifyRequest,
  reply: FastifyReply,
  text: string,
  contentType: string,
): Promise<void> {
  const raw = Buffer.from(text, 'utf8');
  reply.type(contentType);
  if (raw.length < MIN_COMPRESS_BYTES) {
    reply.send(raw);
    return;
  }
  reply.header('Vary', 'Accept-Encoding');
  const encoding = preferredEncoding(request.headers['accept-encoding']);
  if (encoding === 'identity') {
    reply.send(raw);
    return;
  }
  const body =
    encoding === 'br'
      ? await brotliAsync(raw, {
          params: { ...BROTLI_PARAMS, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
        })
      : await gzipAsync(raw, { level: 6 });
  reply.header('Content-Encoding', encoding).send(body);
}

/**
 * Sends bytes or a stream as they are (an image, the CSV export). Like the helpers above it
 * bypasses the route's serialiser: the route's response schema documents the body only.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any route's reply
export function sendRaw<R extends FastifyReply<any, any, any, any, any, any, any, any>>(
  reply: R,
  payload: Buffer | Readable,
): R {
  return (reply as FastifyReply).send(payload) as R;
}
