// Writes each Vitest run's counts to TEST_RESULTS_DIR (like tools/jest/results-reporter.cjs), so
// `npm test` can print one closing line over every runner.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export default class ResultsReporter {
  onTestRunEnd(testModules, unhandledErrors) {
    const dir = process.env.TEST_RESULTS_DIR;
    if (!dir) return;
    const counts = { passed: 0, failed: unhandledErrors.length, skipped: 0 };
    for (const module of testModules) {
      // A file that failed to load has no tests to count: it counts as one failure.
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0)
        counts.failed += 1;
      for (const test of module.children.allTests()) {
        const { state } = test.result();
        if (state === 'passed') counts.passed += 1;
        else if (state === 'failed') counts.failed += 1;
        else counts.skipped += 1;
      }
    }
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `vitest-${process.pid}-${Date.now()}.json`), JSON.stringify(counts));
  }
}
