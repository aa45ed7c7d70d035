// Unit tests of the dashboard's pure code (formatting, permission lists…); pages are tested in
// a real browser by apps/web-e2e.
module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'web',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
