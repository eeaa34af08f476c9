import type Sharp from 'sharp';

/**
 * sharp (libvips) on first use, not at start: it is ~15 MB of resident memory and ~0.1 s of CPU
 * that a server answering pledges does not need until an upload or a share image
 * (docs/decisions/005-performance.md). Every user goes through here, because one static
 * `import sharp` anywhere in the server would load it at start for all of them.
 */
export async function loadSharp(): Promise<typeof Sharp> {
  return (await import('sharp')).default;
}
