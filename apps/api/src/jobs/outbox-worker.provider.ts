import type { FactoryProvider, InjectionToken, Type } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { ORGANISATION_EVENTS_CHANNEL } from '../events/organisation-events-channel';
import { LOGGER } from '../logging/logger.module';
import { NotificationBus } from '../notifications/notification-bus';
import { JobRunner } from './job-runner';
import type { OutboxWorker, OutboxWorkerBase } from './outbox-worker';

/**
 * The provider of an outbox worker: `build` makes it from what every outbox worker is given
 * (`OutboxWorkerBase`, its wake-up asking this instance's job runner for it by `NAME`), the
 * configuration and the `inject`ed dependencies (in that order). It is registered with the job
 * runner and woken by the organisation-event announcements that follow every change, on any
 * instance (`onEvents` says what such news does instead of a plain wake-up).
 */
export function outboxWorkerProvider<W extends OutboxWorker, D extends unknown[]>(
  worker: Type<W> & { readonly NAME: string },
  inject: { [K in keyof D]: InjectionToken },
  build: (base: OutboxWorkerBase, config: AppConfig, ...deps: D) => W,
  onEvents?: (made: W) => void,
): FactoryProvider<W> {
  return {
    provide: worker,
    inject: [DataSource, LOGGER, JobRunner, NotificationBus, APP_CONFIG, ...inject],
    useFactory: (
      dataSource: DataSource,
      logger: Logger,
      runner: JobRunner,
      bus: NotificationBus,
      config: AppConfig,
      ...deps: D
    ) => {
      const wakeMe = () => runner.wake(worker.NAME);
      const made = build({ dataSource, logger, wakeMe }, config, ...deps);
      runner.register(made);
      bus.subscribe(ORGANISATION_EVENTS_CHANNEL, () => (onEvents ? onEvents(made) : wakeMe()));
      return made;
    },
  };
}
