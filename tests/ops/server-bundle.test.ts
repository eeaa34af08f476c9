import { readFileSync } from 'node:fs';
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
});
