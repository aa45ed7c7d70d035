// The SDK against a live service: run through tools/scripts/with-service.mjs (nx run sdk-ts:e2e).
module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'sdk-ts:e2e',
  rootDir: __dirname,
  testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
  testTimeout: 180_000,
  maxWorkers: 2,
};
