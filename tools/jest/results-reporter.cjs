// Writes each Jest run's counts, failed tests and each file's duration to TEST_RESULTS_DIR, so
// `npm test` can print its closing lines (tools/scripts/test-results.cjs says what they hold).
const { mkdirSync, writeFileSync } = require('node:fs');
const { join, relative } = require('node:path');

const { shortMessage } = require('../scripts/test-results.cjs');

class ResultsReporter {
  onRunComplete(_contexts, results) {
    const dir = process.env.TEST_RESULTS_DIR;
    if (!dir) return;
    const failures = [];
    const files = [];
    for (const file of results.testResults) {
      const where = relative(process.cwd(), file.testFilePath);
      // From the file's start (set-up included) to its end: what a worker spent on it.
      if (file.perfStats?.end > 0)
        files.push({ where, ms: file.perfStats.end - file.perfStats.start });
      if (file.testExecError !== undefined || (file.failureMessage && file.numFailingTests === 0))
        failures.push({
          where,
          name: '(the file failed to run)',
          message: shortMessage(file.testExecError?.message ?? file.failureMessage),
        });
      for (const test of file.testResults)
        if (test.status === 'failed')
          failures.push({
            where,
            name: test.fullName,
            message: shortMessage(test.failureMessages.join('\n')),
          });
    }
    mkdirSync(dir, { recursive: true });
    const out = join(dir, `jest-${process.pid}-${Date.now()}.json`);
    writeFileSync(
      out,
      JSON.stringify({
        passed: results.numPassedTests,
        failed: results.numFailedTests + results.numRuntimeErrorTestSuites,
        skipped: results.numPendingTests + results.numTodoTests,
        failures,
        files,
      }),
    );
  }
}
module.exports = ResultsReporter;
