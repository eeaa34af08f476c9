import { build, type ImportKind } from 'esbuild';
import { readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SERVER_SCRIPT } from '../support/server-process';

type Imports = Map<string, { spec: string; kind: ImportKind }[]>;

/**
 * Every server-side file of the build (absolute path) and its imports as written: the server, the
 * backup command, their chunks and the page renderer (dist/ssr), not dist/client (the browser's).
 * esbuild parses each file once (every import left external, so nothing is bundled twice), so an
 * `import` in a comment or a string does not count.
 */
async function importsOfTheBuild(): Promise<Imports> {
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
  return new Map(
    Object.entries(metafile.inputs).map(([file, input]) => [
      path.resolve(file),
      input.imports.map(({ path: spec, kind }) => ({ spec, kind })),
    ]),
  );
}

const isPackage = (spec: string) => !spec.startsWith('.') && !isBuiltin(spec);

/**
 * The packages a start of dist/server.js loads: the import statements of the entry and of the
 * chunks it imports statically, followed through the bundle (dynamic `import()`s are not).
 */
function packagesLoadedAtStart(imports: Imports, entry: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const { spec, kind } of imports.get(file) ?? []) {
      if (kind !== 'import-statement') continue;
      if (spec.startsWith('.')) visit(path.resolve(path.dirname(file), spec));
      else if (isPackage(spec)) packages.add(spec);
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
 * Every package any file of the build imports, at start or on first use. Only import statements
 * and `import()`: the bundled pg's `require('pg-native')` is its optional native driver, tried
 * inside a try/catch and never installed.
 */
function packagesImported(imports: Imports): Set<string> {
  const packages = new Set<string>();
  for (const list of imports.values())
    for (const { spec, kind } of list)
      if ((kind === 'import-statement' || kind === 'dynamic-import') && isPackage(spec))
        packages.add(packageOf(spec));
  return packages;
}

describe('the server bundle (dist/server.js)', () => {
  let imports: Imports;
  beforeAll(async () => {
    imports = await importsOfTheBuild();
  });

  it('bundles the packages every start needs, and loads sharp, nodemailer and the S3 client only when they are used', () => {
    const atStart = [...packagesLoadedAtStart(imports, SERVER_SCRIPT)];
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

  it("imports from node_modules exactly the build's manifest's dependencies, all the image installs", () => {
    // The image installs dist/package.runtime.json's dependencies: a package the build imports but
    // the manifest lacks would be missing there, on the first e-mail or upload that needs it. And a
    // dependency nothing imports would only make the image bigger.
    const manifest = path.join(path.dirname(SERVER_SCRIPT), 'package.runtime.json');
    const { dependencies } = JSON.parse(readFileSync(manifest, 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect([...packagesImported(imports)].sort()).toEqual(Object.keys(dependencies).sort());
  });
});
