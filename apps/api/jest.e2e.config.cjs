// End-to-end tests: the real app on a real Postgres (a fresh database per test file, created
// on the server that `npm test` starts or that TEST_DATABASE_URL names; a migrated one is a copy
// of the run's template database, migrated once: test/support/migrated-database.ts).
module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'api-e2e',
  rootDir: __dirname,
  testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
  // A bound, not a wait: a file's beforeAll boots the app (the first one in a worker also compiles
  // it, and the run's first migrates the template) and seeds people over HTTP; at load 36–40 on the
  // 2-core machine that took more than 60 s (tenancy-reads). Conditions are awaited with waitFor.
  testTimeout: 180_000,
  maxWorkers: 2,
  // Each file leaves ~50 MB behind in its worker (its app's module graph; the same with and
  // without the code cache): after ~50 files a worker's heap neared V8's limit and collected
  // without end, and a late file ran 16 times slower than alone (webhook-processes: 26 s of work,
  // 420 s timeout, in a fresh-clone run). A worker past 1 GB is replaced after its file.
  workerIdleMemoryLimit: '1GB',
  // Modules compiled once per run, not once per file: V8's code cache (tools/jest/code-cache-runtime.cjs).
  runtime: '<rootDir>/../../tools/jest/code-cache-runtime.cjs',
  globalSetup: '<rootDir>/test/support/template-database.cjs',
  globalTeardown: '<rootDir>/test/support/template-database-teardown.cjs',
};
