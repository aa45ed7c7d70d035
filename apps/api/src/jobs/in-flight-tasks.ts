/**
 * A job worker's sends under way (the webhook, notification and resumeUrl workers): each claimed
 * row's work runs once; a failure is handed to `failed` (the row's lease runs out and it is due
 * again), then `settled` runs and the worker is woken to claim again.
 */
export class InFlightTasks {
  private readonly tasks = new Set<Promise<void>>();

  constructor(private readonly wakeMe: () => void) {}

  get size(): number {
    return this.tasks.size;
  }

  run(task: Promise<void>, failed: (error: unknown) => void, settled?: () => void): void {
    const run: Promise<void> = task.catch(failed).finally(() => {
      this.tasks.delete(run);
      settled?.();
      this.wakeMe();
    });
    this.tasks.add(run);
  }

  /** Resolves once every task has ended, those started meanwhile included. */
  async settled(): Promise<void> {
    while (this.tasks.size > 0) await Promise.allSettled([...this.tasks]);
  }
}
