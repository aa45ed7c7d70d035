module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'api-keys',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
