module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'cursor',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
