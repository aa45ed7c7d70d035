import nx from '@nx/eslint-plugin';

// Module boundaries (STYLE.md §6): apps may use every lib; the pure libs (domain, util) use
// only each other and never a framework, ORM or database driver.
const FRAMEWORK_IMPORTS = ['@nestjs/*', 'typeorm', 'pg', 'pg-*', 'express', '@electric-sql/*', 'passport*'];

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  ...nx.configs['flat/javascript'],
  {
    ignores: ['**/dist', '**/node_modules', '**/tmp', '**/.data', '**/.nx', '**/.venv', '**/coverage'],
  },
  {
    files: ['**/*.ts'],
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
    files: ['**/*.ts'],
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
    ],
    rules: { 'no-restricted-properties': 'off' },
  },
];
