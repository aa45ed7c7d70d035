import { Global, Module } from '@nestjs/common';
import type { Logger } from 'pino';

/** Injection token of the service's pino logger. */
export const LOGGER = Symbol('LOGGER');

@Global()
@Module({})
export class LoggerModule {
  static forRoot(logger: Logger) {
    return {
      module: LoggerModule,
      providers: [{ provide: LOGGER, useValue: logger }],
      exports: [LOGGER],
    };
  }
}
