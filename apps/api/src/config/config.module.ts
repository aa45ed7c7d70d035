import { Global, Module } from '@nestjs/common';
import { AppConfig, configFromEnvironment } from './app-config';

/** Injection token of the validated `AppConfig`. */
export const APP_CONFIG = Symbol('APP_CONFIG');

/**
 * Provides the configuration. `forRoot()` reads the process environment (the one place that
 * does); tests pass a config they built with `loadConfig`.
 */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig = configFromEnvironment()) {
    return {
      module: ConfigModule,
      providers: [{ provide: APP_CONFIG, useValue: config }],
      exports: [APP_CONFIG],
    };
  }
}
