import { readdirSync } from 'node:fs';
import nx from '@nx/eslint-plugin';
import reactHooks from 'eslint-plugin-react-hooks';

// Module boundaries (STYLE.md §6): apps may use every lib; the pure libs (domain, util) use
// only each other and never a framework, ORM or database driver.
const FRAMEWORK_IMPORTS = ['@nestjs/*', 'typeorm', 'pg', 'pg-*', 'express', '@electric-sql/*', 'passport*'];

// The dashboard's import zones (STYLE.md §13): shared → features → app, never feature to feature.
const WEB_FEATURES = readdirSync(new URL('./apps/web/src/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const webZones = [
  {
    files: ['apps/web/src/shared/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/features/**', '**/app/**'], message: 'shared/ is below features/ and app/: it may not import them.' }] },
      ],
    },
  },
  ...WEB_FEATURES.map((feature) => ({
    files: [`apps/web/src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/app/**'], message: 'features/ may not import app/ (imports run shared → features → app).' },
            {
              group: WEB_FEATURES.filter((f) => f !== feature).flatMap((f) => [`**/features/${f}/**`, `../../${f}/**`, `../../../${f}/**`]),
              message: 'A feature may not import another feature: move what both need to shared/.',
            },
          ],
        },
      ],
    },
  })),
];

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  ...nx.configs['flat/javascript'],
  {
    ignores: [
      '**/dist',
      '**/node_modules',
      '**/tmp',
      '**/.data',
      '**/.nx',
      '**/.venv',
      '**/coverage',
      // Generated from the contract (tools/scripts/codegen.mjs), never edited: not linted.
      'libs/api-client/src/generated/**',
    ],
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: true,
          allow: [],
          depConstraints: [
            {
              sourceTag: 'type:app',
              onlyDependOnLibsWithTags: ['type:domain', 'type:util', 'type:data-access', 'type:mcp'],
            },
            {
              sourceTag: 'type:data-access',
              onlyDependOnLibsWithTags: ['type:domain', 'type:util', 'type:data-access'],
            },
            {
              sourceTag: 'type:domain',
              onlyDependOnLibsWithTags: ['type:domain'],
              bannedExternalImports: FRAMEWORK_IMPORTS,
            },
            {
              sourceTag: 'type:util',
              onlyDependOnLibsWithTags: ['type:domain', 'type:util'],
              bannedExternalImports: FRAMEWORK_IMPORTS,
            },
            {
              sourceTag: 'type:sdk',
              onlyDependOnLibsWithTags: [],
            },
            {
              // Browser tests drive the dashboard and the real SDK (an agent's side of a flow).
              sourceTag: 'type:e2e',
              onlyDependOnLibsWithTags: ['type:sdk', 'type:domain', 'type:util'],
            },
            {
              // The MCP server: the SDK for its stdio transport, no service code (the API mounts it).
              sourceTag: 'type:mcp',
              onlyDependOnLibsWithTags: ['type:sdk'],
              bannedExternalImports: FRAMEWORK_IMPORTS,
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Read configuration through AppConfig (apps/api/src/config); only app-config.ts reads the environment.',
        },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  ...webZones,
  {
    // Benchmarks run the service's own code with probe routes mounted beside it.
    files: ['tools/bench/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': 'off' },
  },
  {
    // The config module, the stdio MCP server's entry, test support and tooling are where the
    // environment is legitimately read.
    files: [
      'apps/api/src/config/app-config.ts',
      'libs/mcp/src/cli.ts',
      '**/test/**/*.ts',
      'tools/**',
      '**/*.spec.ts',
      '**/*.cjs',
      '**/*.mjs',
      // Build and browser-test configuration (Vite, Playwright) read their environment.
      'apps/web/vite.config.ts',
      'apps/web-e2e/**',
    ],
    rules: { 'no-restricted-properties': 'off' },
  },
];
