// Writes each Vitest run's counts and failed tests to TEST_RESULTS_DIR (like
// tools/jest/results-reporter.cjs), so `npm test` can print its closing lines over every runner.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { shortMessage } from '../scripts/test-results.cjs';

export default class ResultsReporter {
  onTestRunEnd(testModules, unhandledErrors) {
    const dir = process.env.TEST_RESULTS_DIR;
    if (!dir) return;
    const counts = { passed: 0, failed: unhandledErrors.length, skipped: 0, failures: [] };
    for (const error of unhandledErrors)
      counts.failures.push({
        where: 'vitest',
        name: '(unhandled error)',
        message: shortMessage(error?.stack ?? error?.message ?? error),
      });
    for (const module of testModules) {
      const where = relative(process.cwd(), module.moduleId);
      // A file that failed to load has no tests to count: it counts as one failure.
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) {
        counts.failed += 1;
        const [error] = module.errors();
        counts.failures.push({
          where,
          name: '(the file failed to run)',
          message: shortMessage(error?.stack ?? error?.message),
        });
      }
      for (const test of module.children.allTests()) {
        const result = test.result();
        if (result.state === 'passed') counts.passed += 1;
        else if (result.state === 'failed') {
          counts.failed += 1;
          const [error] = result.errors ?? [];
          counts.failures.push({
            where,
            name: test.fullName,
            message: shortMessage(error?.stack ?? error?.message),
          });
        } else counts.skipped += 1;
      }
    }
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `vitest-${process.pid}-${Date.now()}.json`), JSON.stringify(counts));
  }
}
