import sharp from 'sharp';

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
