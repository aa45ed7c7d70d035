import type { Logger } from 'pino';
import { eventually } from '../testing/eventually';
import { JobRunner, JobWorker } from './job-runner';

const logger = { warn: () => undefined, error: () => undefined } as unknown as Logger;
const tick = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms));

const runners: JobRunner[] = [];
function newRunner(): JobRunner {
  const runner = new JobRunner(logger);
  runners.push(runner);
  return runner;
}
afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.stop()));
});

/** A worker over an in-memory queue: each round takes one item and "works" on it for `workMs`. */
class QueueWorker implements JobWorker {
  readonly done: number[] = [];
  rounds = 0;
  failNext = 0;
  private working: Promise<void> | undefined;

  constructor(
    readonly name: string,
    readonly queue: number[],
    readonly idleMs = 1_000,
    private readonly workMs = 0,
  ) {}

  async poll(): Promise<boolean> {
    this.rounds++;
    if (this.failNext > 0) {
      this.failNext--;
      throw new Error('database away');
    }
    const item = this.queue.shift();
    if (item === undefined) return false;
    this.working = tick(this.workMs).then(() => {
      this.done.push(item);
    });
    await this.working;
    return true;
  }

  async drain(): Promise<void> {
    await this.working;
  }
}

describe('JobRunner', () => {
  it('runs rounds back to back while there is work, then idles until woken', async () => {
    const runner = newRunner();
    const worker = new QueueWorker('q', [1, 2, 3], 60_000);
    runner.register(worker);
    runner.start();
    await eventually(() => worker.done.length === 3);
    expect(worker.done).toEqual([1, 2, 3]);
    // Three rounds with work, then the one that finds the queue empty (it may still be on its
    // way when the third item is done); after it the runner idles for idleMs (a minute).
    await eventually(() => worker.rounds === 4);
    await tick(30);
    expect(worker.rounds).toBe(4);
    worker.queue.push(4);
    runner.wake('q');
    await eventually(() => worker.done.length === 4);
    expect(worker.done).toEqual([1, 2, 3, 4]);
    runner.wake('nobody');
    await runner.stop();
  });

  it('looks again after idleMs when nobody wakes it', async () => {
    const runner = newRunner();
    const worker = new QueueWorker('q', [], 20);
    runner.register(worker);
    runner.start();
    await tick(5);
    worker.queue.push(7);
    await eventually(() => worker.done.length === 1);
    expect(worker.done).toEqual([7]);
    await runner.stop();
  });

  it('backs off after a failing round and recovers', async () => {
    const runner = newRunner();
    const worker = new QueueWorker('q', [1], 10);
    worker.failNext = 2;
    runner.register(worker);
    runner.start();
    await eventually(() => worker.done.length === 1);
    await runner.stop();
  });

  it('stops after the current round and drains the work in flight', async () => {
    const runner = newRunner();
    const worker = new QueueWorker('q', [1, 2, 3], 10, 40);
    runner.register(worker);
    runner.start();
    await eventually(() => worker.rounds === 1);
    await runner.stop();
    expect(worker.done).toEqual([1]);
    const rounds = worker.rounds;
    runner.wake('q');
    await tick(60);
    expect(worker.rounds).toBe(rounds);
    expect(worker.queue).toEqual([2, 3]);
  });

  it('refuses a worker registered twice', () => {
    const runner = newRunner();
    runner.register(new QueueWorker('q', []));
    expect(() => runner.register(new QueueWorker('q', []))).toThrow(
      'job worker q is registered twice',
    );
  });
});
