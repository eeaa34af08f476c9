// `npm run build:server`: the server and the backup CLI, bundled with esbuild into dist/.
import { build } from 'esbuild';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The packages left out of the bundle: what the built server imports from node_modules at run time,
 * and all that the image installs (from dist/package.runtime.json, written below).
 * - PGlite finds its WebAssembly, file-system bundle and extensions beside its own code, and sharp
 *   is a native library: neither can move into dist/.
 * - nodemailer and the S3 client are imported on first use only (an e-mail over SMTP, STORAGE_URL):
 *   as packages, a start does not even parse them.
 * - swagger-ui-dist is the browsable API reference's files (CSS, JS) that /api/docs serves from the
 *   package's folder, found through its CommonJS absolute-path helper (`__dirname`, which a bundled
 *   ESM chunk does not have).
 * Everything else the server loads (Fastify, Drizzle, pg, zod, ...) is bundled: resolving and
 * compiling those packages file by file cost more than parsing one bundle, 1.60 -> 1.18 CPU-seconds
 * per start (means of 10, docs/decisions/005-performance.md); and the image's node_modules went
 * from 137 to 71 MB. Bundled code still ships, so its packages are `dependencies` too, where
 * `npm audit --omit=dev` sees them: the build fails when a bundled package is a dev-only one.
 */
const EXTERNAL_PACKAGES = [
  '@aws-sdk/client-s3',
  '@aws-sdk/s3-request-presigner',
  '@electric-sql/pglite',
  'nodemailer',
  'sharp',
  'swagger-ui-dist',
];

/**
 * Optional packages that bundled code tries in a try/catch and npm leaves out of a production
 * install: debug (in @fastify/swagger's json-schema-resolver) colours its output with
 * supports-color when present. Left out of the bundle too, so the server runs as npm installed it.
 */
const OPTIONAL_LEFT_OUT = ['supports-color'];

const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')).packages;

// The chunks of an earlier build would stay beside the new ones (esbuild names them by content):
// unused, but still in dist/ and in the image.
rmSync(path.join(root, 'dist/chunks'), { recursive: true, force: true });

const { metafile } = await build({
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
  external: [...EXTERNAL_PACKAGES, ...OPTIONAL_LEFT_OUT],
  // The bundled CommonJS packages call require() (for Node's own modules, and pg for its optional
  // native driver); an ES module has none of its own.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  metafile: true,
  logLevel: 'warning',
});

/** `node_modules/a/node_modules/@s/b/lib/x.js` -> `node_modules/a/node_modules/@s/b` (a lock key). */
const packageDir = (file) => /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1];

// The page renderer (dist/ssr, run by the server) and the browser's code ship as well: Vite bundles
// them, so their packages are read here from a pass of esbuild that writes nothing.
const { metafile: clientMetafile } = await build({
  absWorkingDir: root,
  entryPoints: ['client/main.tsx', 'client/entry-server.tsx'],
  outdir: 'dist/analysed',
  bundle: true,
  write: false,
  splitting: true,
  format: 'esm',
  jsx: 'automatic',
  alias: { '@shared': './shared' },
  loader: {
    '.css': 'empty',
    '.svg': 'empty',
    '.png': 'empty',
    '.webp': 'empty',
    '.woff2': 'empty',
  },
  metafile: true,
  logLevel: 'warning',
});

// Every package whose code is in a bundle must be installed without the dev dependencies, so that
// `npm audit --omit=dev` covers it: the lock marks the others `dev`.
const bundled = new Set(
  [...Object.keys(metafile.inputs), ...Object.keys(clientMetafile.inputs)]
    .map(packageDir)
    .filter(Boolean),
);
const devOnly = [...bundled].filter((dir) => lock[dir]?.dev).sort();
if (devOnly.length) {
  console.error(
    `These packages are bundled into dist/ (server, page renderer or browser code) but installed as dev dependencies only, out of ` +
      `\`npm audit --omit=dev\`'s sight; list them (or what needs them) in package.json's ` +
      `dependencies:\n  ${devOnly.map((d) => d.replace(/^node_modules\//, '')).join('\n  ')}`,
  );
  process.exit(1);
}

// The image's package.json: the external packages only, at the versions this build was made with
// (the runtime stage installs them with the lockfile: `npm install --omit=dev`). Not named
// package.json in dist/, where it would become the project root of dist/server.js.
const external = Object.fromEntries(
  EXTERNAL_PACKAGES.map((name) => {
    const version = lock[`node_modules/${name}`]?.version;
    if (!version || !pkg.dependencies?.[name])
      throw new Error(`${name} is external but not an installed dependency in package.json`);
    return [name, version];
  }),
);
writeFileSync(
  path.join(root, 'dist/package.runtime.json'),
  `${JSON.stringify(
    {
      name: pkg.name,
      version: pkg.version,
      private: true,
      type: pkg.type,
      engines: pkg.engines,
      dependencies: external,
    },
    null,
    2,
  )}\n`,
);
