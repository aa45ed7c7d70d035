module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'mcp',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
