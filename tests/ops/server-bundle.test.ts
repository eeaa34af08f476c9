import { readdirSync, readFileSync } from 'node:fs';
import { build } from 'esbuild';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_SCRIPT } from '../support/server-process';

/**
 * The packages a start of dist/server.js loads: the static imports of the entry and of the chunks
 * it imports statically, followed through the bundle (dynamic `import()`s are not followed). The
 * bundle is minified, so an import is found wherever a statement starts, not per line.
 */
function packagesLoadedAtStart(entry: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(file, 'utf8');
    for (const [, spec] of code.matchAll(
      /(?:^|[;\n])\s*import\s*(?:[^;()'"]*?from\s*)?["']([^"']+)["']/g,
    )) {
      if (spec!.startsWith('.')) visit(path.resolve(path.dirname(file), spec!));
      else if (!isBuiltin(spec!)) packages.add(spec!);
    }
  };
  visit(entry);
  return packages;
}

/** `@scope/name/sub/path` -> `@scope/name`, `name/sub` -> `name`. */
const packageOf = (spec: string) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');

/**
 * Every package that a server-side file of the build imports, statically or on first use: the
 * server, the backup command, their chunks and the page renderer (dist/ssr), not dist/client (the
 * browser's). esbuild parses each file once (every import left external, so nothing is bundled
 * twice), and an `import` in a comment or a string does not count. Only import statements and
 * `import()`: the bundled pg's `require('pg-native')` is its optional native driver, tried inside
 * a try/catch and never installed.
 */
async function packagesTheBuildImports(): Promise<Set<string>> {
  const dist = path.dirname(SERVER_SCRIPT);
  const files = readdirSync(dist, { recursive: true, withFileTypes: true })
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => file.endsWith('.js') && !file.startsWith(path.join(dist, 'client')));
  const { metafile } = await build({
    entryPoints: files,
    bundle: true,
    write: false,
    outdir: path.join(dist, 'analysed'),
    platform: 'node',
    format: 'esm',
    metafile: true,
    logLevel: 'silent',
    plugins: [
      {
        name: 'every-import-external',
        setup(b) {
          b.onResolve({ filter: /.*/ }, (args) =>
            args.kind === 'entry-point' ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
  });
  const packages = new Set<string>();
  for (const input of Object.values(metafile.inputs))
    for (const { path: spec, kind } of input.imports)
      if (
        (kind === 'import-statement' || kind === 'dynamic-import') &&
        !spec.startsWith('.') &&
        !isBuiltin(spec)
      )
        packages.add(packageOf(spec));
  return packages;
}

describe('the server bundle (dist/server.js)', () => {
  it('bundles the packages every start needs, and loads sharp, nodemailer and the S3 client only when they are used', () => {
    const atStart = [...packagesLoadedAtStart(SERVER_SCRIPT)];
    // Only PGlite (its WebAssembly and extensions live beside its code) is imported from
    // node_modules at start; Fastify, Drizzle, pg and zod are in the bundle (scripts/build-server.mjs).
    // (Finding PGlite also shows that the bundle is read as intended.)
    expect(atStart).toContain('@electric-sql/pglite');
    expect(atStart.filter((p) => !p.startsWith('@electric-sql/pglite/'))).toEqual([
      '@electric-sql/pglite',
    ]);
    // ~0.35 s of CPU and ~40 MB of resident memory a server answering pledges does not need
    // until an upload, a share image, an e-mail over SMTP or object storage.
    const lazy = atStart.filter((p) => /^(sharp|nodemailer|@aws-sdk\/)/.test(p));
    expect(lazy).toEqual([]);
  });

  it("imports from node_modules exactly package.json's dependencies, all the image installs", async () => {
    // The image runs `npm ci --omit=dev`: a package the build imports but lists only among the
    // devDependencies would be missing there, on the first e-mail or upload that needs it. And a
    // dependency nothing imports would only make the image bigger.
    const { dependencies } = JSON.parse(readFileSync('package.json', 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect([...(await packagesTheBuildImports())].sort()).toEqual(Object.keys(dependencies).sort());
  });
});
