module.exports = {
  ...require('../jest.preset.cjs'),
  displayName: 'tools',
  rootDir: __dirname,
  testMatch: ['<rootDir>/**/*.spec.ts'],
  testTimeout: 60_000,
};
