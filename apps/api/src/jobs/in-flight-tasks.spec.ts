import { InFlightTasks } from './in-flight-tasks';

function deferred(): { promise: Promise<void>; resolve: () => void; reject: (e: unknown) => void } {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('InFlightTasks', () => {
  it('counts a task until it ends, then runs its settled step and wakes the worker, in that order', async () => {
    const order: string[] = [];
    const tasks = new InFlightTasks(() => order.push('wake'));
    const task = deferred();
    tasks.run(
      task.promise,
      () => order.push('failed'),
      () => order.push(`settled with ${tasks.size} left`),
    );
    expect(tasks.size).toBe(1);
    task.resolve();
    await tasks.settled();
    expect(order).toEqual(['settled with 0 left', 'wake']);
    expect(tasks.size).toBe(0);
  });

  it('hands a failure to failed, never further', async () => {
    const failures: unknown[] = [];
    const tasks = new InFlightTasks(() => undefined);
    const boom = new Error('boom');
    tasks.run(Promise.reject(boom), (error) => failures.push(error));
    await expect(tasks.settled()).resolves.toBeUndefined();
    expect(failures).toEqual([boom]);
  });

  it('settles only after the tasks started while it waited', async () => {
    const first = deferred();
    const second = deferred();
    let secondEnded = false;
    const tasks = new InFlightTasks(() => undefined);
    // The first task's end starts a second one, as a worker's pump does.
    tasks.run(
      first.promise,
      () => undefined,
      () =>
        tasks.run(
          second.promise.then(() => {
            secondEnded = true;
          }),
          () => undefined,
        ),
    );
    const settled = tasks.settled();
    first.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    expect(tasks.size).toBe(1);
    second.resolve();
    await settled;
    expect(secondEnded).toBe(true);
  });
});
