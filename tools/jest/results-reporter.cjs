// Writes each Jest run's counts to TEST_RESULTS_DIR so `npm test` can print one closing line.
const { mkdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

class ResultsReporter {
  constructor(globalConfig) {
    this.name = globalConfig.rootDir
      ? require('node:path').basename(String(globalConfig.rootDir))
      : 'jest';
  }
  onRunComplete(_contexts, results) {
    const dir = process.env.TEST_RESULTS_DIR;
    if (!dir) return;
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `jest-${process.pid}-${Date.now()}.json`);
    writeFileSync(
      file,
      JSON.stringify({
        passed: results.numPassedTests,
        failed: results.numFailedTests + results.numRuntimeErrorTestSuites,
        skipped: results.numPendingTests + results.numTodoTests,
      }),
    );
  }
}
module.exports = ResultsReporter;
