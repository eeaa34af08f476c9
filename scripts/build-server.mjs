// `npm run build:server`: the server and the backup CLI, bundled with esbuild into dist/.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The packages left out of the bundle are exactly package.json's `dependencies`: what the built
 * server imports from node_modules at run time, and all that the image installs
 * (`npm ci --omit=dev`). Everything else it loads (Fastify, Drizzle, pg, zod, ...) is bundled, so
 * those packages are `devDependencies`, like the browser's. One list, so the two cannot drift
 * (tests/ops/server-bundle.test.ts checks it):
 * - PGlite finds its WebAssembly, file-system bundle and extensions beside its own code, and sharp
 *   is a native library: neither can move into dist/.
 * - nodemailer and the S3 client are imported on first use only (an e-mail over SMTP, STORAGE_URL):
 *   as packages, a start does not even parse them.
 * Bundling the rest: resolving and compiling those packages file by file cost more than parsing one
 * bundle, 1.60 -> 1.18 CPU-seconds per start (means of 10, docs/decisions/005-performance.md); and
 * the image's node_modules went from 137 to 71 MB.
 */
const EXTERNAL_PACKAGES = Object.keys(
  JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).dependencies,
);

// The chunks of an earlier build would stay beside the new ones (esbuild names them by content):
// unused, but still in dist/ and in the image.
rmSync(path.join(root, 'dist/chunks'), { recursive: true, force: true });

await build({
  absWorkingDir: root,
  entryPoints: { server: 'server/index.ts', backup: 'server/backup/cli.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  // Chunks, so that what is imported on use (share images, object storage) stays out of a start.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  sourcemap: true,
  // Shorter code to parse at every start; names are kept, so stack traces still read.
  minifyWhitespace: true,
  minifySyntax: true,
  external: EXTERNAL_PACKAGES,
  // The bundled CommonJS packages call require() (for Node's own modules, and pg for its optional
  // native driver); an ES module has none of its own.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
