import type { Logger } from 'pino';
import { eventually } from '../testing/eventually';
import { JobRunner } from '../jobs/job-runner';
import { LastUsedRecorder } from './last-used.recorder';

const logger = { warn: () => undefined, error: () => undefined } as unknown as Logger;

/** A recorder (55 s gap a key) on a started runner, idle `idleMs` between rounds; its writes kept. */
function recorderOnRunner(idleMs: number) {
  const writes: unknown[][] = [];
  const recorder = new LastUsedRecorder(
    async (...use) => void writes.push(use),
    logger,
    55_000,
    idleMs,
  );
  const runner = new JobRunner(logger);
  runner.register(recorder);
  runner.start();
  return { writes, recorder, runner };
}

describe('LastUsedRecorder on the job runner', () => {
  it('writes noted uses in the runner’s rounds, at most once per key within the gap', async () => {
    const { writes, recorder, runner } = recorderOnRunner(10);
    try {
      const now = Date.now();
      recorder.record('org-1', 'key-1', now);
      await eventually(() => writes.length === 1);
      expect(writes[0]).toEqual(['org-1', 'key-1', new Date(now)]);
      recorder.record('org-1', 'key-1', now + 1_000); // within the gap: not noted again
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(writes).toHaveLength(1);
    } finally {
      await runner.stop();
    }
  });

  it('drains the uses noted after the last round when the runner stops', async () => {
    const { writes, recorder, runner } = recorderOnRunner(60_000);
    await eventually(() => true);
    recorder.record('org-1', 'key-2');
    expect(writes).toHaveLength(0);
    await runner.stop();
    expect(writes.map((w) => w[1])).toEqual(['key-2']);
  });
});
