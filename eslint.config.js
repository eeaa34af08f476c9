import { readdirSync } from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;

// Imports flow one way: client/ and server/ both use shared/, never each other
// (docs/decisions/001-stack-and-layout.md).
const noCrossSide = (other) => ({
  'no-restricted-imports': [
    'error',
    {
      patterns: [
        {
          group: [`**/${other}/**`, `../${other}/*`],
          message: `Do not import ${other}/ from here: share code through shared/.`,
        },
      ],
    },
  ],
});

const foldersIn = (dir) =>
  readdirSync(path.join(root, dir), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);
const features = foldersIn('client/features');
const modules = foldersIn('server/modules');

/**
 * The house's import zones, checked on the file an import resolves to (not on how the specifier is
 * spelt, so `../`, `../../` and `index` imports are all caught), with import-x's
 * `no-restricted-paths`. Every feature and module folder that exists gets its own zones.
 * tests/ops/lint-zones.test.ts plants one violation of each and expects this config to fail it.
 */
const zones = [
  // A feature's public face is its index.ts; its components, hooks and api stay its own.
  ...features.flatMap((feature) =>
    features
      .filter((other) => other !== feature)
      .map((other) => ({
        target: `./client/features/${feature}`,
        from: `./client/features/${other}`,
        except: ['./index.ts', './index.tsx'],
        message: `Import another feature only through its public client/features/${other}/index.ts.`,
      })),
  ),
  {
    target: './client/components',
    from: './client/features',
    message: 'Shared components do not depend on features: pass what they need as props.',
  },
  {
    target: './server/plugins',
    from: './server/modules',
    message: 'Plugins do not import modules: move what both need to server/lib/.',
  },
  {
    target: './server/modules',
    from: './server/plugins',
    message: 'Modules do not import plugins: move what both need to server/lib/.',
  },
  // A module's routes.ts is its HTTP face, registered by server/routes.ts only; other modules call
  // its service or repo.
  ...modules.flatMap((mod) =>
    modules
      .filter((other) => other !== mod)
      .map((other) => ({
        target: `./server/modules/${mod}`,
        from: `./server/modules/${other}/routes.ts`,
        message: `Do not import another module's routes: call server/modules/${other}'s service instead.`,
      })),
  ),
];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'bench/results/', 'drizzle/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        console: 'readonly',
        process: 'readonly',
        URL: 'readonly',
        fetch: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        Buffer: 'readonly',
        window: 'readonly',
        document: 'readonly',
        localStorage: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  { files: ['client/**'], rules: noCrossSide('server') },
  { files: ['server/**'], rules: noCrossSide('client') },
  {
    files: ['shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/client/**', '**/server/**', 'node:*', 'react', 'react-dom'],
              message: 'shared/ has no Node, DOM or app-side imports.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['client/**/*.{ts,tsx}', 'server/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
    },
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: root, zones }] },
  },
  {
    files: ['client/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat['recommended-latest'],
  },
  {
    files: ['client/**/*.{ts,tsx}'],
    ...jsxA11y.flatConfigs.recommended,
  },
);
