// The MCP server against a live service: run through tools/scripts/with-service.mjs (nx run mcp:e2e).
module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'mcp:e2e',
  rootDir: __dirname,
  testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
  testTimeout: 180_000,
  maxWorkers: 2,
};
