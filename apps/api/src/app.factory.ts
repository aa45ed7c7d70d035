import type { DynamicModule, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { SwaggerModule } from '@nestjs/swagger';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Express } from 'express';
import type { DestinationStream, Logger } from 'pino';
import { AppModule } from './app.module';
import type { AppConfig } from './config/app-config';
import { declaredRoutes } from './auth/route-declarations.util';
import { dashboardMiddleware } from './http/dashboard.middleware';
import { frontDoorMiddleware } from './http/front-door.middleware';
import { jsonBodyStep } from './http/json-body.middleware';
import { JsonReplyExpressAdapter } from './http/json-reply.adapter';
import { methodNotAllowedGate } from './http/method-not-allowed.middleware';
import { RouteDispatcher } from './http/route-dispatch';
import { createLogger, httpLogger, PinoNestLogger } from './logging/logger';
import { buildOpenApiDocument } from './openapi/openapi-document';
import { OPENAPI_DOCUMENT } from './openapi/openapi.controller';

export interface CreatedApp {
  app: NestExpressApplication;
  logger: Logger;
}

/**
 * Builds the service (not yet listening): the request pipeline every entry point and every
 * e2e test shares. `logDestination` lets tests read the log lines; `imports` lets a test mount
 * a probe module beside the real ones.
 */
export async function createApp(
  config: AppConfig,
  options: { logDestination?: DestinationStream; imports?: (Type | DynamicModule)[] } = {},
): Promise<CreatedApp> {
  const logger = createLogger(config, options.logDestination);
  const root = AppModule.forRoot(config, logger);
  root.imports = [...(root.imports ?? []), ...(options.imports ?? [])];
  const app = await NestFactory.create<NestExpressApplication>(root, new JsonReplyExpressAdapter(), {
    bodyParser: false,
    logger: new PinoNestLogger(logger),
    abortOnError: false,
  });
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.set('etag', false);
  // Request id and state, the log line, 405, the dashboard at `/` (it only answers GET and HEAD
  // off the service's paths), the JSON body, the route: one middleware (http/front-door.middleware.ts).
  const express = app.getHttpAdapter().getInstance() as Express;
  const routes = new RouteDispatcher(() => express.router.stack, () => frontDoor);
  const frontDoor = frontDoorMiddleware({
    log: httpLogger(logger, config.apiKeyPrefix),
    methodGate: methodNotAllowedGate(declaredRoutes(app)),
    dashboard: dashboardMiddleware(config.webDir, (indexPath) =>
      logger.warn({ indexPath }, 'the dashboard is not built (npx nx run web:build): / explains how to build it'),
    ),
    jsonBody: jsonBodyStep(),
    route: (req, res, next) => routes.dispatch(req, res, next),
  });
  app.use(frontDoor);

  // The contract, served at /api/openapi.json and rendered at /docs.
  const document = buildOpenApiDocument(app);
  app.get<{ current?: unknown }>(OPENAPI_DOCUMENT).current = document;
  SwaggerModule.setup('docs', app, document, { raw: false, customSiteTitle: 'Interlock API' });
  return { app, logger };
}
