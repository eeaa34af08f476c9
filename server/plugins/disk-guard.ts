import { statfs } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../lib/http-error';
import { OBJECT_PATH_PREFIX } from '../lib/object-path';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const OUT_OF_SPACE_MESSAGE = 'The server is running out of storage space. Please try again later.';

/** Free bytes for an unprivileged writer on the file system that holds `dir`. */
async function freeBytes(dir: string): Promise<number | undefined> {
  try {
    const s = await statfs(dir);
    return s.bavail * s.bsize;
  } catch {
    return undefined;
  }
}

/**
 * One statfs for all the writes that arrive while it is in flight: under a burst of pledges a
 * call per request was 5% of the server's CPU. Nothing is cached after it answers, so a disk that
 * fills up is seen by the next write, as before.
 */
function sharedFreeBytes(dir: string): () => Promise<number | undefined> {
  let inFlight: Promise<number | undefined> | undefined;
  return () =>
    (inFlight ??= freeBytes(dir).finally(() => {
      inFlight = undefined;
    }));
}

/**
 * Refuses writes with 507 while DATA_DIR is nearly full, instead of letting them hit the disk.
 *
 * Found by the disk-full test (reliability test R5): when PGlite cannot create its next WAL segment
 * (16 MB) it spins inside WebAssembly on the main thread, so the whole server stops answering,
 * reads and SIGTERM included, even after space returns. Keeping a margin free means that write
 * never happens. On PostgreSQL the database has its own disk; DATA_DIR then holds only uploads.
 */
export function registerDiskGuard(
  app: FastifyInstance,
  opts: {
    dataDir: string;
    minFreeBytes: number;
    databaseInDataDir: boolean;
    /** False with object storage: uploads then write nothing to DATA_DIR. */
    uploadsInDataDir: boolean;
  },
) {
  if (opts.minFreeBytes <= 0 || (!opts.databaseInDataDir && !opts.uploadsInDataDir)) return;
  const free = sharedFreeBytes(opts.dataDir);
  app.addHook('onRequest', async (request) => {
    // The matched route, not the raw URL: the router decodes `/%61pi/` to `/api/`.
    // No route matched: nothing will be written (404).
    const route = request.routeOptions.url;
    if (!WRITES.has(request.method) || route === undefined) return;
    if (!opts.databaseInDataDir && !(opts.uploadsInDataDir && route.startsWith(OBJECT_PATH_PREFIX)))
      return;
    const bytes = await free();
    if (bytes === undefined || bytes >= opts.minFreeBytes) return;
    request.log.error({ freeBytes: bytes, minFreeBytes: opts.minFreeBytes }, 'disk nearly full');
    throw new HttpError(507, OUT_OF_SPACE_MESSAGE, undefined, { 'Retry-After': '60' });
  });
}
