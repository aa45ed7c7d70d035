// End-to-end tests: the real app on a real Postgres (a fresh database per test file, created
// on the server that `npm test` starts or that TEST_DATABASE_URL names).
module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'api-e2e',
  rootDir: __dirname,
  testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
  testTimeout: 60_000,
  maxWorkers: 2,
};
