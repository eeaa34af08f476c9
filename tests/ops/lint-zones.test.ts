import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The import zones of eslint.config.js (issue: house rules that check themselves): one planted
 * violation of each zone must fail, and the imports the house allows must pass. Only the planted
 * code is linted, through ESLint's Node API with the project's config, so this takes seconds, not
 * a full `npm run lint`. The planted files need not exist; the files they import do (the rule
 * checks the file an import resolves to).
 */
const root = path.resolve(import.meta.dirname, '../..');
const ZONE_RULE = 'import-x/no-restricted-paths';

// A throwaway feature with a public index.ts and an inner file, to show both sides of the
// "features only through index.ts" rule (made before ESLint reads the config, which lists the
// features it finds).
const probe = path.join(root, 'client/features/zz-lint-probe');

let eslint: ESLint;
beforeAll(() => {
  mkdirSync(probe, { recursive: true });
  writeFileSync(path.join(probe, 'index.ts'), "export { probe } from './inner';\n");
  writeFileSync(path.join(probe, 'inner.ts'), 'export const probe = 1;\n');
  eslint = new ESLint({ cwd: root });
});
afterAll(() => rmSync(probe, { recursive: true, force: true }));

/** The zone messages ESLint reports for `code` as if it were the file at `file`. */
async function zoneErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.filter((m) => m.ruleId === ZONE_RULE).map((m) => m.message);
}

describe('eslint import zones', () => {
  it('a feature imports another feature only through its index.ts', async () => {
    const file = 'client/features/pledges/components/planted.tsx';
    expect(
      await zoneErrors(file, "export { useAdminAuth } from '../../admin-auth/context';\n"),
    ).toEqual([expect.stringContaining('client/features/admin-auth/index.ts')]);
    expect(await zoneErrors(file, "export { probe } from '../../zz-lint-probe/inner';\n")).toEqual([
      expect.stringContaining('client/features/zz-lint-probe/index.ts'),
    ]);
    // Through the public index.ts, and within its own feature: allowed.
    expect(await zoneErrors(file, "export { probe } from '../../zz-lint-probe';\n")).toEqual([]);
    expect(await zoneErrors(file, "export { probe } from '../../zz-lint-probe/index';\n")).toEqual(
      [],
    );
    expect(await zoneErrors(file, "export * from '../api';\n")).toEqual([]);
  });

  it('client/components never imports a feature', async () => {
    const file = 'client/components/ui/planted.tsx';
    expect(
      await zoneErrors(
        file,
        "export { useCampaign } from '../../features/campaign/use-campaign';\n",
      ),
    ).toEqual([expect.stringContaining('Shared components do not depend on features')]);
    expect(
      await zoneErrors(file, "export { probe } from '../../features/zz-lint-probe';\n"),
    ).toEqual([expect.stringContaining('Shared components do not depend on features')]);
    expect(await zoneErrors(file, "export { cn } from '../../lib/cn';\n")).toEqual([]);
  });

  it('server/plugins never imports a module, and modules never import plugins', async () => {
    expect(
      await zoneErrors(
        'server/plugins/planted.ts',
        "export { getSetting } from '../modules/admin/repo';\n",
      ),
    ).toEqual([expect.stringContaining('Plugins do not import modules')]);
    expect(
      await zoneErrors(
        'server/modules/admin/planted.ts',
        "export { siteOrigins } from '../../plugins/security';\n",
      ),
    ).toEqual([expect.stringContaining('Modules do not import plugins')]);
    expect(
      await zoneErrors(
        'server/plugins/planted.ts',
        "export { HttpError } from '../lib/http-error';\n",
      ),
    ).toEqual([]);
  });

  it("one module never imports another module's routes.ts", async () => {
    const file = 'server/modules/pledges/planted.ts';
    expect(await zoneErrors(file, "export * from '../email/routes';\n")).toEqual([
      expect.stringContaining("Do not import another module's routes"),
    ]);
    expect(await zoneErrors(file, "export * from '../../modules/email/routes.ts';\n")).toEqual([
      expect.stringContaining("Do not import another module's routes"),
    ]);
    // Its own routes, and another module's other files: allowed.
    expect(await zoneErrors(file, "export * from './routes';\n")).toEqual([]);
    expect(await zoneErrors(file, "export * from '../email/repo';\n")).toEqual([]);
  });
});
