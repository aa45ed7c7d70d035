// Shared Jest settings: SWC compiles TypeScript (with decorator metadata, which Nest's DI needs)
// and the tsconfig path aliases resolve to the libraries' sources.
const path = require('node:path');
const fs = require('node:fs');

const swcrc = JSON.parse(fs.readFileSync(path.join(__dirname, '.swcrc'), 'utf8'));
const { compilerOptions } = JSON.parse(
  fs.readFileSync(path.join(__dirname, 'tsconfig.base.json'), 'utf8'),
);

const moduleNameMapper = {};
for (const [alias, [target]] of Object.entries(compilerOptions.paths)) {
  moduleNameMapper[`^${alias.replace(/[/@.-]/g, (c) => `\\${c}`)}$`] = path.join(__dirname, target);
}

// NestJS 12 ships its packages as ES modules (and so does `content-disposition` 1.x, which
// @fastify/static loads). Node (20.19+) loads them from CommonJS through require(esm), but
// Jest's module runtime does not (before Node 24.9), so Jest compiles those packages to
// CommonJS with the same SWC, and leaves every other package in node_modules alone.
// The AI SDK (`ai`, its `@ai-sdk/*` and `@workflow/serde`) is ESM only too: the SDK's bridge is
// tested against it.
// Mastra (@mastra/core, the SDK's Mastra bridge is tested against it) ships CommonJS that loads
// ES-only packages (p-map, p-retry, @sindresorhus/slugify…), one through a dynamic import(), which
// Jest's runtime cannot run: its .cjs files go through SWC too (only Mastra's), which turns import()
// into require.
// openid-client (single sign-on) and what it loads (oauth4webapi, jose) are ES modules too.
const esmPackages = [
  '@nestjs',
  'content-disposition',
  'ai',
  '@ai-sdk',
  '@workflow',
  '@mastra',
  'p-map',
  'p-retry',
  'is-network-error',
  '@sindresorhus',
  'openid-client',
  'oauth4webapi',
  'jose',
];
// @ai-sdk/provider-utils imports `zod/v4/locales/en.js`, which zod's exports map to its ES module
// for require too; its CommonJS twin sits beside it.
moduleNameMapper['^zod/v4/locales/(.+)\\.js$'] = path.join(
  path.dirname(require.resolve('zod/package.json')),
  'v4/locales/$1.cjs',
);
const esmJs = {
  ...swcrc,
  swcrc: false,
  sourceMaps: false,
  jsc: { ...swcrc.jsc, parser: { syntax: 'ecmascript' }, transform: undefined },
};

module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': ['@swc/jest', { ...swcrc, swcrc: false, sourceMaps: 'inline' }],
    [`/node_modules/(${esmPackages.join('|')})/.+\\.js$`]: ['@swc/jest', esmJs],
    '/node_modules/@mastra/.+\\.cjs$': ['@swc/jest', esmJs],
  },
  transformIgnorePatterns: [`^(?!.*/node_modules/(${esmPackages.join('|')})/).*/node_modules/`],
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper,
  reporters: ['default', path.join(__dirname, 'tools/jest/results-reporter.cjs')],
};
