import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
);
