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

module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest', { ...swcrc, swcrc: false, sourceMaps: 'inline' }] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper,
  reporters: ['default', path.join(__dirname, 'tools/jest/results-reporter.cjs')],
};
