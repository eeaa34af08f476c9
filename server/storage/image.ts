import type Sharp from 'sharp';
import { loadSharp } from './load-sharp';

/** Widths we re-encode every upload to; the feed picks one through srcset. */
export const IMAGE_WIDTHS = [400, 800, 1200] as const;
export type ImageWidth = (typeof IMAGE_WIDTHS)[number];
/** Enough for a 50-megapixel phone photo; a "50000×50000" bomb is refused from its header alone. */
const MAX_INPUT_PIXELS = 60_000_000;

export class ImageRejected extends Error {
  constructor(
    public readonly statusCode: 413 | 415,
    message: string,
  ) {
    super(message);
  }
}

/** Sniffs the real format from the first bytes: the name and Content-Type are not trusted. */
function sniffImageType(buf: Buffer): 'png' | 'jpeg' | 'gif' | 'webp' | undefined {
  if (
    buf.length >= 8 &&
    buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return 'png';
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return 'jpeg';
  if (buf.length >= 6 && /^GIF8[79]a$/.test(buf.subarray(0, 6).toString('latin1'))) return 'gif';
  if (
    buf.length >= 12 &&
    buf.subarray(0, 4).toString('latin1') === 'RIFF' &&
    buf.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'webp';
  return undefined;
}

export interface EncodedImage {
  width: number;
  height: number;
  variants: { width: ImageWidth; data: Buffer }[];
}

/**
 * Decodes and re-encodes to WebP at a few widths. Re-encoding drops metadata (GPS, camera) and
 * any bytes hidden in the original (polyglots), and turns a 5 MB photo into ~100 KB.
 */
export async function encodeImage(buf: Buffer): Promise<EncodedImage> {
  const sharp = await loadSharp();
  const kind = sniffImageType(buf);
  if (!kind) throw new ImageRejected(415, 'Only PNG, JPEG, WebP or GIF images can be uploaded.');
  let meta: Awaited<ReturnType<ReturnType<typeof Sharp>['metadata']>>;
  try {
    meta = await sharp(buf, { limitInputPixels: false }).metadata();
  } catch {
    throw new ImageRejected(
      415,
      'This image could not be read. Please upload a PNG, JPEG, WebP or GIF photo.',
    );
  }
  if (!meta.width || !meta.height || meta.width * meta.height > MAX_INPUT_PIXELS) {
    throw new ImageRejected(413, 'This image has too many pixels. Please upload a smaller photo.');
  }
  try {
    const base = sharp(buf, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' }).rotate();
    const variants = await Promise.all(
      IMAGE_WIDTHS.map(async (width) => ({
        width,
        data: await base
          .clone()
          .resize({ width, withoutEnlargement: true })
          .webp({ quality: 72, effort: 4 })
          .toBuffer(),
      })),
    );
    const largest = await sharp(variants[variants.length - 1]!.data).metadata();
    return { width: largest.width!, height: largest.height!, variants };
  } catch {
    throw new ImageRejected(
      415,
      'This image could not be read. Please upload a PNG, JPEG, WebP or GIF photo.',
    );
  }
}
