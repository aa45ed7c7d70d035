// Writes a Playwright run's counts, failed tests and each file's duration (its tests' durations
// summed) to TEST_RESULTS_DIR, like the Jest reporter (tools/jest/results-reporter.cjs), for
// `npm test`'s closing lines.
const { mkdirSync, writeFileSync } = require('node:fs');
const { join, relative } = require('node:path');
const { shortMessage } = require('../scripts/test-results.cjs');

class ResultsReporter {
  constructor() {
    this.counts = { passed: 0, failed: 0, skipped: 0 };
    this.failures = [];
    this.fileMs = new Map();
  }

  onTestEnd(test, result) {
    const file = relative(process.cwd(), test.location.file);
    this.fileMs.set(file, (this.fileMs.get(file) ?? 0) + result.duration);
    if (result.retry < test.retries && result.status !== 'passed' && result.status !== 'skipped')
      return;
    if (result.status === 'passed') this.counts.passed += 1;
    else if (result.status === 'skipped') this.counts.skipped += 1;
    else {
      this.counts.failed += 1;
      const [error] = result.errors;
      this.failures.push({
        where: `${relative(process.cwd(), test.location.file)}:${test.location.line}`,
        name: test.titlePath().filter(Boolean).slice(1).join(' › '),
        message: shortMessage(`${result.status}: ${error?.message ?? ''}\n${error?.snippet ?? ''}`),
      });
    }
  }

  onEnd(result) {
    const dir = process.env.TEST_RESULTS_DIR;
    if (!dir) return;
    mkdirSync(dir, { recursive: true });
    // A run that failed outside any test (global set-up, a worker crash) counts as one failure.
    const failed =
      this.counts.failed + (result.status === 'passed' || this.counts.failed > 0 ? 0 : 1);
    if (failed > this.counts.failed)
      this.failures.push({
        where: 'playwright',
        name: `(the run ended ${result.status})`,
        message: '',
      });
    writeFileSync(
      join(dir, `playwright-${process.pid}-${Date.now()}.json`),
      JSON.stringify({
        ...this.counts,
        failed,
        failures: this.failures,
        files: [...this.fileMs].map(([where, ms]) => ({ where, ms })),
      }),
    );
  }
}
module.exports = ResultsReporter;
