// Operations checks: the metrics as a real Prometheus scrapes them, the alert rules through
// promtool, the Helm chart through helm lint and template. `tools/scripts/ops-tools.mjs` installs
// Prometheus and builds Helm first when they are missing (the `deploy:e2e` target runs it).
module.exports = {
  ...require('../jest.preset.cjs'),
  displayName: 'deploy',
  rootDir: __dirname,
  testMatch: ['<rootDir>/test/**/*.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
  testTimeout: 120_000,
  maxWorkers: 1,
};
