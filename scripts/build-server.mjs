// `npm run build:server`: the server and the backup CLI, bundled with esbuild into dist/.
import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Packages left out of the bundle and imported from node_modules at run time:
 * - PGlite finds its WebAssembly, file-system bundle and extensions beside its own code, and sharp
 *   is a native library: neither can move into dist/.
 * - nodemailer and the S3 client are imported on first use only (an e-mail over SMTP, STORAGE_URL):
 *   as packages, a start does not even parse them (tests/ops/server-bundle.test.ts).
 * Everything else the server loads (Fastify, Drizzle, pg, zod, ...) is bundled: resolving and
 * compiling those packages file by file cost more than parsing one bundle, 1.60 -> 1.18 CPU-seconds
 * per start (means of 10, docs/decisions/005-performance.md).
 */
const EXTERNAL_PACKAGES = ['@electric-sql/pglite', 'sharp', 'nodemailer', '@aws-sdk/*'];

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
