import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROMTOOL, ROOT } from './support/processes';

const dir = join(ROOT, 'deploy', 'prometheus');

function promtool(...args: string[]): string {
  return execFileSync(PROMTOOL, args, {
    cwd: dir,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

describe('deploy/prometheus/alerts.yaml', () => {
  it('passes promtool check rules', () => {
    expect(promtool('check', 'rules', 'alerts.yaml')).toMatch(/SUCCESS: \d+ rules found/);
  });

  it('fires on the series each rule is for, and not on healthy ones (promtool test rules)', () => {
    expect(promtool('test', 'rules', 'alerts.test.yaml')).toContain('SUCCESS');
  });

  it('has the rules the operators were promised, each with a severity, summary and description', () => {
    const text = readFileSync(join(dir, 'alerts.yaml'), 'utf8');
    const names = [...text.matchAll(/- alert: (\w+)/g)].map((m) => m[1]);
    expect(names).toEqual(
      expect.arrayContaining([
        'InterlockHigh5xxRatio',
        'InterlockSlowRoute',
        'InterlockWebhookOutboxBacklog',
        'InterlockPeriodicJobLate',
        'InterlockDatabasePoolSaturated',
        'InterlockInterruptsPastDeadline',
        'InterlockNotificationOutboxBacklog',
        'InterlockArgusFailingClosed',
      ]),
    );
    // Every rule is exercised by the unit tests.
    const tested = readFileSync(join(dir, 'alerts.test.yaml'), 'utf8');
    for (const name of names) expect(tested).toContain(`alertname: ${name}`);
    expect(text.match(/severity: (critical|warning)/g)).toHaveLength(names.length);
  });
});
