module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'audit',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
