import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/** Writes the run's counts to TEST_RESULTS_DIR, like the Jest reporter, for npm test's closing line. */
export default class ResultsReporter implements Reporter {
  private readonly counts = { passed: 0, failed: 0, skipped: 0 };

  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.retry < test.retries && result.status !== 'passed' && result.status !== 'skipped')
      return;
    if (result.status === 'passed') this.counts.passed += 1;
    else if (result.status === 'skipped') this.counts.skipped += 1;
    else this.counts.failed += 1;
  }

  onEnd(result: FullResult): void {
    const dir = process.env.TEST_RESULTS_DIR;
    if (!dir) return;
    mkdirSync(dir, { recursive: true });
    const failed =
      this.counts.failed + (result.status === 'passed' || this.counts.failed > 0 ? 0 : 1);
    writeFileSync(
      join(dir, `playwright-${process.pid}-${Date.now()}.json`),
      JSON.stringify({ ...this.counts, failed }),
    );
  }
}
