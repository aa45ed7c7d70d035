module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'sdk-ts',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
