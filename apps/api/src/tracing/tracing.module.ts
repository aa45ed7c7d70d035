import { Inject, Module, OnApplicationBootstrap } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { declaredRoutesIn } from '../auth/route-declarations.util';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import { redactUrl } from '../logging/logger';
import { RouteTemplates, UNMATCHED_ROUTE } from '../metrics/route-templates';
import { nameRequestSpans, tracingEnabled } from './spans';

/**
 * With traces on (`tracing.ts`), tells the HTTP instrumentation the app's route templates (a
 * request's span is named `GET /api/interrupts/:id`, never by its raw path) and how the log
 * redacts a URL, so span attributes carry no secret either.
 */
@Module({})
export class TracingModule implements OnApplicationBootstrap {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(ModulesContainer) private readonly modules: ModulesContainer,
  ) {}

  onApplicationBootstrap(): void {
    if (!tracingEnabled()) return;
    const routes = new RouteTemplates(declaredRoutesIn(this.modules));
    nameRequestSpans({
      route: (method, url) => {
        const route = routes.match(method, url);
        return route === UNMATCHED_ROUTE ? undefined : route;
      },
      redactUrl: (url) => redactUrl(url, this.config.apiKeyPrefix),
    });
  }
}
