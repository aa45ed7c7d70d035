module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'api-client',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
