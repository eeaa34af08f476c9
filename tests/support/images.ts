import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

/** One PNG chunk: length, type, data, CRC over type and data. */
function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0);
  return Buffer.concat([head, data, crc]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A tiny PNG whose header claims width × height (a decompression bomb's calling card). */
export function pngClaiming(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(Buffer.alloc(4096))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

export async function smallPng(width = 64, height = 48): Promise<Buffer> {
  return sharp({
    create: { width, height, channels: 3, background: { r: 20, g: 120, b: 200 } },
  })
    .png()
    .toBuffer();
}

/**
 * A real PNG padded to exactly `size` bytes with a private ancillary chunk ("prVt"): decoders skip
 * it, so the file stays a valid image of that exact size.
 */
export async function pngOfExactSize(size: number): Promise<Buffer> {
  const png = await smallPng();
  const iendAt = png.length - 12;
  const overhead = 12; // length + type + CRC of the padding chunk
  const padding = size - png.length - overhead;
  if (padding < 0) throw new Error('size too small');
  const pad = pngChunk('prVt', Buffer.alloc(padding, 0x61));
  const out = Buffer.concat([png.subarray(0, iendAt), pad, png.subarray(iendAt)]);
  if (out.length !== size) throw new Error(`built ${out.length} bytes, wanted ${size}`);
  return out;
}

export const HTML_PAYLOAD =
  '<html><body><script>alert(document.domain)</script><img src=x onerror=alert(2)></body></html>';

/** A valid JPEG that also carries an HTML document in a comment segment (a JPEG/HTML polyglot). */
export async function jpegHtmlPolyglot(): Promise<Buffer> {
  const jpeg = await sharp({
    create: { width: 32, height: 32, channels: 3, background: { r: 200, g: 30, b: 30 } },
  })
    .jpeg()
    .toBuffer();
  const html = Buffer.from(HTML_PAYLOAD, 'latin1');
  const com = Buffer.alloc(4);
  com[0] = 0xff;
  com[1] = 0xfe; // COM marker
  com.writeUInt16BE(html.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), com, html, jpeg.subarray(2)]);
}

/** A JPEG whose frame header (SOF0) claims width × height. */
export async function jpegClaiming(width: number, height: number): Promise<Buffer> {
  const jpeg = Buffer.from(
    await sharp({
      create: { width: 16, height: 16, channels: 3, background: { r: 1, g: 2, b: 3 } },
    })
      .jpeg()
      .toBuffer(),
  );
  for (let i = 2; i < jpeg.length - 9; i++) {
    if (jpeg[i] === 0xff && jpeg[i + 1] === 0xc0) {
      jpeg.writeUInt16BE(height, i + 5);
      jpeg.writeUInt16BE(width, i + 7);
      return jpeg;
    }
  }
  throw new Error('no SOF0 marker');
}

/** A 3000×2000 noisy JPEG (~2-4 MB): re-encoding it takes long enough to be caught in flight. */
export async function bigJpeg(): Promise<Buffer> {
  const width = 3000;
  const height = 2000;
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 2654435761) >>> 24;
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 60 })
    .toBuffer();
}
