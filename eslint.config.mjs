import { readdirSync } from 'node:fs';
import nx from '@nx/eslint-plugin';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';

// Module boundaries (docs/STYLE.md §6): apps may use every lib; the pure libs (domain, util) use
// only each other and never a framework, ORM or database driver.
const FRAMEWORK_IMPORTS = [
  '@nestjs/*',
  'typeorm',
  'pg',
  'pg-*',
  'express',
  '@electric-sql/*',
  'passport*',
];

// The dashboard's import zones (docs/STYLE.md §13): shared → features → app, never feature to feature.
const WEB_FEATURES = readdirSync(new URL('./apps/web/src/features', import.meta.url), {
  withFileTypes: true,
})
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
// Across areas (app/, shared/, one feature) imports use the `@/` alias, never `../../…`.
const ALIAS_ACROSS_AREAS = {
  group: ['../../*'],
  message: 'Import from another area of the dashboard with @/ (e.g. @/shared/components/…).',
};
const webZones = [
  {
    files: ['apps/web/src/app/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [ALIAS_ACROSS_AREAS] }] },
  },
  {
    files: ['apps/web/src/shared/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ALIAS_ACROSS_AREAS,
            {
              group: ['**/features/**', '**/app/**'],
              message: 'shared/ is below features/ and app/: it may not import them.',
            },
          ],
        },
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
            ALIAS_ACROSS_AREAS,
            {
              group: ['**/app/**'],
              message: 'features/ may not import app/ (imports run shared → features → app).',
            },
            {
              group: WEB_FEATURES.filter((f) => f !== feature).map((f) => `**/features/${f}/**`),
              message: 'A feature may not import another feature: move what both need to shared/.',
            },
          ],
        },
      ],
    },
  })),
];

// The service's layers (ARCHITECTURE.md, "Layers"). Services hold the domain work: they import
// neither Express nor Nest's HTTP exceptions (controllers, guards, filters and middleware speak
// HTTP: the two Server-Sent Events streams in http/sse-streams.ts, the MCP transport in
// mcp/mcp.controller.ts, the sign-in cookie in auth/session-cookie.util.ts). No service is exempt.
const NEST_HTTP_EXCEPTIONS = [
  'HttpException',
  'BadRequestException',
  'UnauthorizedException',
  'ForbiddenException',
  'NotFoundException',
  'ConflictException',
  'GoneException',
  'PayloadTooLargeException',
  'UnsupportedMediaTypeException',
  'UnprocessableEntityException',
  'InternalServerErrorException',
  'NotImplementedException',
  'BadGatewayException',
  'ServiceUnavailableException',
  'GatewayTimeoutException',
  'MethodNotAllowedException',
  'NotAcceptableException',
  'RequestTimeoutException',
  'PreconditionFailedException',
  'ImATeapotException',
  'MisdirectedException',
  'HttpVersionNotSupportedException',
];
// SQL lives with the tables' owners: repositories (`*.repository.ts`), query builders
// (`*-query.util.ts`), background work (`*.job.ts`, `*.worker.ts`, jobs/) and the infrastructure
// (database/, notifications/, health/, cli/, the API-key budget). No other file may hold SQL: a
// service calls its module's repository (issue 11, item 1).
// Upper case, as every statement here is written: prose such as 'Select a role' is not SQL.
const SQL_TEXT = String.raw`/^\s*(SELECT|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|WITH\s+\w+\s+AS)\b/`;
const SQL_MESSAGE =
  "SQL belongs to the table's owner: put it in this module's repository (*.repository.ts) and call that.";
// The validation pipe is on each body and query parameter, not global (issue 28: a global pipe
// runs on every parameter, the guards' custom decorators too): Body and Query come from
// http/validated-params.ts, which adds it.
const NEST_UNVALIDATED_PARAMS = {
  name: '@nestjs/common',
  importNames: ['Body', 'Query'],
  message:
    'Import Body and Query from http/validated-params.ts: they carry the validation pipe (there is no global one).',
};
const apiLayers = [
  {
    files: ['apps/api/src/**/*.ts'],
    ignores: [
      'apps/api/src/**/*.service.ts',
      'apps/api/src/**/*.repository.ts',
      'apps/api/src/http/validated-params.ts',
    ],
    rules: { 'no-restricted-imports': ['error', { paths: [NEST_UNVALIDATED_PARAMS] }] },
  },
  {
    files: ['apps/api/src/**/*.service.ts', 'apps/api/src/**/*.repository.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'express',
              message:
                'Services do not speak HTTP: take values, let the controller read the request and write the response.',
            },
            {
              name: '@nestjs/common',
              importNames: NEST_HTTP_EXCEPTIONS,
              message:
                'Services do not throw HTTP exceptions: throw DomainError (@interlock/domain) and let the filter map it.',
            },
            NEST_UNVALIDATED_PARAMS,
          ],
          patterns: [
            {
              group: ['**/http/api-error'],
              message:
                "There is one error class, DomainError from '@interlock/domain' (the http/api-error alias is gone).",
            },
            {
              group: ['**/dto/*'],
              importNamePattern: '(Dto|Query)$',
              message:
                'Services take command types (*.command.ts), not HTTP DTOs: the controller and the MCP backend build the command (docs/STYLE.md §19).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/api/src/**/*.ts'],
    ignores: [
      '**/*.spec.ts',
      'apps/api/src/**/*.repository.ts',
      'apps/api/src/**/*-query.util.ts',
      'apps/api/src/**/*.job.ts',
      'apps/api/src/**/*.worker.ts',
      'apps/api/src/jobs/**',
      'apps/api/src/database/**',
      'apps/api/src/notifications/**',
      'apps/api/src/health/**',
      'apps/api/src/cli/**',
      'apps/api/src/rate-limits/api-key-budget.ts',
      // The webhooks module's outbox writer: its own tables, inside the caller's transaction.
      'apps/api/src/webhooks/webhook-outbox.ts',
      // The notification outbox writer likewise (issue 30).
      'apps/api/src/notify/notification-outbox.ts',
      // And the Slack outbox writer (issue 30 §4).
      'apps/api/src/notify/slack/slack-outbox.ts',
      // And the resumeUrl outbox writer (issue 37 §5): its own table, in the caller's transaction.
      'apps/api/src/interrupts/interrupt-resumes.ts',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: `Literal[value=${SQL_TEXT}]`, message: SQL_MESSAGE },
        {
          selector: `TemplateLiteral > TemplateElement:first-child[value.raw=${SQL_TEXT}]`,
          message: SQL_MESSAGE,
        },
      ],
    },
  },
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
              onlyDependOnLibsWithTags: [
                'type:domain',
                'type:util',
                'type:data-access',
                'type:mcp',
              ],
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
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message:
            'Read configuration through AppConfig (apps/api/src/config); only app-config.ts reads the environment.',
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
      // TanStack Query drops the callbacks given to mutate() when their component unmounts, and a
      // success often unmounts it (the row leaves the refreshed list, the form gives way to its
      // result): browser tests failed at random on it.
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='mutate'][arguments.length>1]",
          message:
            'Callbacks passed to mutate() are dropped if the component unmounts first: use whenSettled(m.mutateAsync(…), onSuccess, onError) from @/shared/utils/when-settled.',
        },
      ],
    },
  },
  {
    // Accessibility in the JSX itself (labels, roles, keyboard), before axe sees the page in
    // apps/web-e2e. Mantine components are checked where they render DOM elements we write.
    files: ['apps/web/src/**/*.tsx'],
    ...jsxA11y.flatConfigs.recommended,
    rules: {
      ...jsxA11y.flatConfigs.recommended.rules,
      // A box that scrolls is focusable so keyboard users can scroll it (axe's
      // scrollable-region-focusable): it is a labelled region, as WAI-ARIA's practices advise.
      'jsx-a11y/no-noninteractive-tabindex': ['error', { roles: ['tabpanel', 'region'] }],
    },
  },
  ...webZones,
  ...apiLayers,
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
