import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * What the README and the deployment files say about the repository, checked against it: the
 * project layout names every folder, the data section every table, and `.env.example` every
 * variable the server reads.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const readme = read('README.md');

/** Every folder holding a file git tracks or would track (ignored folders such as dist/ are not). */
function repositoryFolders(): Set<string> {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  })
    .split('\n')
    .filter(Boolean);
  const folders = new Set<string>();
  for (const file of files) {
    const parts = file.split('/').slice(0, -1);
    for (let i = 1; i <= parts.length; i++) folders.add(parts.slice(0, i).join('/'));
  }
  return folders;
}

/** The folders of the README's layout block: a line starting with `name/`, two spaces per level. */
function layoutFolders(): string[] {
  const section = readme.slice(readme.indexOf('## Project layout'));
  const block = /```\n([\s\S]*?)```/.exec(section)![1]!;
  const stack: string[] = [];
  const out: string[] = [];
  for (const line of block.split('\n')) {
    const m = /^( *)(\S+)\/(?:\s|$)/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 2;
    // A continuation line of a description is indented past its folder's level.
    if (!Number.isInteger(depth) || depth > stack.length) continue;
    stack.length = depth;
    stack.push(m[2]!);
    out.push(stack.join('/'));
  }
  return out;
}

describe('the README agrees with the repository', () => {
  it('names every folder (down to three levels) in its project layout, and none that does not exist', () => {
    const tree = repositoryFolders();
    const listed = layoutFolders();
    expect(listed.length).toBeGreaterThan(40);
    expect(new Set(listed).size, 'a folder listed twice').toBe(listed.length);
    const required = [...tree].filter(
      (f) => f.split('/').length <= 3 && !f.startsWith('docs/screenshots/'),
    );
    expect(required.filter((f) => !listed.includes(f)).sort(), 'folders missing').toEqual([]);
    expect(
      listed.filter((f) => !tree.has(f)),
      'listed, not in the tree',
    ).toEqual([]);
    // Every server module is named.
    const modules = [...tree].filter((f) => /^server\/modules\/[^/]+$/.test(f));
    expect(modules.length).toBeGreaterThan(10);
    for (const m of modules) expect(listed, m).toContain(m);
  });

  it('lists the database tables of server/db/schema.ts, and their number', () => {
    const schema = read('server/db/schema.ts');
    const tables = [...schema.matchAll(/pgTable\(\s*'([a-z_]+)'/g)].map((m) => m[1]!).sort();
    expect(tables.length).toBeGreaterThan(10);
    const bullet = /\*\*PostgreSQL\*\* \(`DATABASE_URL`\): the (\d+) tables[\s\S]*?\n\n/.exec(
      readme,
    );
    expect(bullet, 'the tables bullet of "Where the data lives"').not.toBeNull();
    expect(Number(bullet![1])).toBe(tables.length);
    const named = [...bullet![0].matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!).sort();
    expect(named).toEqual(tables);
    expect(readme).toContain(`schema.ts (${tables.length} tables)`);
  });

  it('documents every environment variable the server reads, in .env.example too, and compose.yaml passes them', () => {
    const config = read('server/config.ts');
    const schema = config.slice(config.indexOf('const envSchema = z.object({'));
    const body = schema.slice(0, schema.indexOf('\n});'));
    const variables = [...body.matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]!).sort();
    expect(variables.length).toBeGreaterThan(30);

    const example = read('.env.example');
    const inExample = [...example.matchAll(/^#? ?([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]!);
    expect(
      variables.filter((v) => !inExample.includes(v)),
      'missing in .env.example',
    ).toEqual([]);
    // Beyond the server's own: what compose.yaml reads for its services.
    const composeOnly = ['POSTGRES_PASSWORD', 'SITE_DOMAIN'];
    expect(
      inExample.filter((v) => !variables.includes(v) && !composeOnly.includes(v)),
      'in .env.example, read by nothing',
    ).toEqual([]);

    const configuration = readme.slice(
      readme.indexOf('## Configuration'),
      readme.indexOf('\n## ', readme.indexOf('## Configuration') + 5),
    );
    expect(
      variables.filter((v) => !configuration.includes(`\`${v}\``)),
      'missing in the README',
    ).toEqual([]);

    const compose = read('compose.yaml');
    expect(compose).toMatch(/env_file:\s*\n\s*- path: \.env\n\s*required: false/);
    for (const v of composeOnly) expect(compose).toContain(v);
  });
});
