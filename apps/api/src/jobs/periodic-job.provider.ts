import type { FactoryProvider, InjectionToken, Type } from '@nestjs/common';
import { type PeriodicJob, PeriodicJobsWorker } from './periodic-jobs.worker';

/**
 * The provider of a periodic job: `build` makes it from the `inject`ed dependencies (in that
 * order), and it is added to this instance's `PeriodicJobsWorker`, which runs it on its schedule.
 */
export function periodicJobProvider<J extends PeriodicJob, D extends unknown[]>(
  job: Type<J>,
  inject: { [K in keyof D]: InjectionToken },
  build: (...deps: D) => J,
): FactoryProvider<J> {
  return {
    provide: job,
    inject: [...inject, PeriodicJobsWorker],
    useFactory: (...args: [...D, PeriodicJobsWorker]) => {
      const periodic = args.pop() as PeriodicJobsWorker;
      const made = build(...(args as unknown as D));
      periodic.add(made);
      return made;
    },
  };
}
