import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_SCRIPT } from '../support/server-process';

/**
 * The packages a start of dist/server.js loads: the static imports of the entry and of the chunks
 * it imports statically, followed through the bundle (dynamic `import()`s are not followed).
 */
function packagesLoadedAtStart(entry: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(file, 'utf8');
    for (const [, spec] of code.matchAll(/^import\s[^;]*?from\s*"([^"]+)";?$/gms)) {
      if (spec!.startsWith('.')) visit(path.resolve(path.dirname(file), spec!));
      else if (!spec!.startsWith('node:')) packages.add(spec!);
    }
  };
  visit(entry);
  return packages;
}

describe('the server bundle (dist/server.js)', () => {
  it('loads sharp, nodemailer and the S3 client only when they are used, not at start', () => {
    const atStart = packagesLoadedAtStart(SERVER_SCRIPT);
    // The bundle is read as intended: the packages every start needs are found.
    expect(atStart).toContain('fastify');
    expect(atStart).toContain('@electric-sql/pglite');
    // ~0.35 s of CPU and ~40 MB of resident memory a server answering pledges does not need
    // until an upload, a share image, an e-mail over SMTP or object storage.
    const lazy = [...atStart].filter((p) => /^(sharp|nodemailer|@aws-sdk\/)/.test(p));
    expect(lazy).toEqual([]);
  });
});
