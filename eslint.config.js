import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { layersPlugin } from './eslint/layers.js';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'e2e/screenshots/**',
      'e2e/.tmp/**',
      'bench/.tmp/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // Imports point one way (eslint/layers.js, docs/architecture.md): shared imports nothing of ours, server
    // and web never import each other, platform never imports a module, modules meet only through faces.
    files: ['packages/**/*.{ts,tsx,mts,js,mjs}'],
    plugins: { gatehouse: layersPlugin },
    rules: { 'gatehouse/layers': 'error' },
  },
  {
    files: ['packages/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    // Web layers: core/ (request client, feedback, language…), components/ and stores/ lie under the
    // routing roof (app/), the layout and the pages, so they never import them (types aside: a store
    // holds the permitted routes).
    files: ['packages/web/src/{core,components,stores}/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/app/**', '**/pages/**', '**/layout/**'],
              allowTypeImports: true,
              message:
                'core/, components/ and stores/ must not import app/, layout/ or pages/ (an upward import).',
            },
          ],
        },
      ],
    },
  },
);
