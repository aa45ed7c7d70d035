import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import { LOGGER } from '../logging/logger.module';
import { Mailer } from './mailer';

/**
 * The mail transport (SPEC §8f) as a service any feature injects: `Mailer.send` with a rendered
 * subject, text and HTML. Closed at application shutdown, after the job runner drained.
 */
@Global()
@Module({
  providers: [
    {
      provide: Mailer,
      inject: [APP_CONFIG, LOGGER],
      useFactory: (config: AppConfig, logger: Logger) =>
        new Mailer(config.mail, logger, config.nodeEnv === 'production'),
    },
  ],
  exports: [Mailer],
})
export class MailModule implements OnApplicationShutdown {
  constructor(@Inject(Mailer) private readonly mailer: Mailer) {}

  onApplicationShutdown(): void {
    this.mailer.close();
  }
}
