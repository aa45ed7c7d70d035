// Jest's globalTeardown for the API e2e suites: drops the run's template database.
module.exports = require('./template-database.cjs').teardown;
