import type { DynamicModule, INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { DestinationStream, Logger } from 'pino';
import { AppModule } from './app.module';
import type { AppConfig } from './config/app-config';
import { declaredRoutes } from './auth/route-declarations.util';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  JSON_BODY_PARSER_OPTIONS,
  jsonBodyCapStep,
  MAX_JSON_BODY_BYTES,
  nonJsonBodyStep,
} from './http/body-parsing';
import { dashboardResponder } from './http/dashboard.middleware';
import { fastifyFrameworkErrors, installFastifyFrontDoor } from './http/fastify-front-door';
import { InterlockFastifyAdapter } from './http/interlock-fastify.adapter';
import { methodNotAllowedGate, ROUTER_OPTIONS } from './http/method-not-allowed';
import { assignRequestId } from './http/request-id.middleware';
import { LIVE, LIVENESS_PATH } from './health/health.controller';
import { createLogger, httpLogger, PinoNestLogger } from './logging/logger';
import { buildOpenApiDocument } from './openapi/openapi-document';
import { OPENAPI_DOCUMENT, type OpenApiDocumentHolder } from './openapi/openapi.controller';

export interface CreatedApp {
  app: INestApplication;
  logger: Logger;
}

/**
 * Builds the service (not yet listening): the request pipeline every entry point and every
 * e2e test shares, on the HTTP adapter the configuration names (`HTTP_ADAPTER`).
 * `logDestination` lets tests read the log lines; `imports` lets a test mount a probe module
 * beside the real ones.
 */
export async function createApp(
  config: AppConfig,
  options: { logDestination?: DestinationStream; imports?: (Type | DynamicModule)[] } = {},
): Promise<CreatedApp> {
  const logger = createLogger(config, options.logDestination);
  const root = AppModule.forRoot(config, logger);
  root.imports = [...(root.imports ?? []), ...(options.imports ?? [])];
  const nestOptions = {
    bodyParser: false,
    logger: new PinoNestLogger(logger),
    abortOnError: false,
  };
  const dashboard = dashboardResponder(config.webDir, (indexPath) =>
    logger.warn(
      { indexPath },
      'the dashboard is not built (npx nx run web:build): / explains how to build it',
    ),
  );
  const log = httpLogger(logger, config.apiKeyPrefix);

  let app: INestApplication;
  if (config.httpAdapter === 'fastify') {
    const fastifyApp = await NestFactory.create<NestFastifyApplication>(
      root,
      new InterlockFastifyAdapter({
        bodyLimit: MAX_JSON_BODY_BYTES,
        // The number of proxy hops to trust, as Express's `trust proxy` takes a number: the
        // address `hop` steps from the socket is trusted to forward while `hop` < TRUST_PROXY.
        // (Fastify 5 refuses a bare hop count — it trusts nothing then — so it gets the function.)
        trustProxy:
          config.trustProxy === 0
            ? false
            : (_address: string, hop: number) => hop < config.trustProxy,
        logger: false,
        // Express's matching (RouteMethods, the 405 gate, looks paths up with the same options).
        routerOptions: { ...ROUTER_OPTIONS },
        frameworkErrors: fastifyFrameworkErrors(log),
      }),
      nestOptions,
    );
    installFastifyFrontDoor(fastifyApp.getHttpAdapter().getInstance(), {
      log,
      methodGate: methodNotAllowedGate(declaredRoutes(fastifyApp)),
      dashboard,
      fixedAnswers: new Map([[LIVENESS_PATH, JSON.stringify(LIVE)]]),
    });
    app = fastifyApp;
  } else {
    // Loaded here only: a process on Fastify never holds Express and its body parsers (RSS, issue 28).
    const { InterlockExpressAdapter } = await import('./http/interlock-express.adapter');
    const expressApp = await NestFactory.create<NestExpressApplication>(
      root,
      new InterlockExpressAdapter(),
      nestOptions,
    );
    expressApp.disable('x-powered-by');
    expressApp.set('trust proxy', config.trustProxy);
    expressApp.set('etag', false);
    // The same steps as Fastify's onRequest hook (installFastifyFrontDoor): request id and
    // state, the log line, 405, the dashboard at `/` (GET and HEAD off the service's paths).
    const methodGate = methodNotAllowedGate(declaredRoutes(expressApp));
    expressApp.use((req: IncomingMessage, res: ServerResponse, next: () => void) => {
      log(req, res, assignRequestId(req, res));
      if (methodGate(req, res)) return;
      const answer = dashboard(req, res);
      if (answer === undefined) next();
      else answer();
    });
    // Bodies: JSON through Nest's own body parser (its errors answered by AllExceptionsFilter);
    // any other body read under the same cap, for the 415 or a signed form's bytes.
    expressApp.use(jsonBodyCapStep());
    expressApp.useBodyParser('json', JSON_BODY_PARSER_OPTIONS);
    expressApp.use(nonJsonBodyStep());
    app = expressApp;
  }

  // The contract, served at /api/openapi.json and rendered at /docs: built at the first request for
  // either, then kept. Scanning every route for it is about a third of a second of CPU, which a
  // start would pay for a document few processes are ever asked for (every API e2e file boots
  // the service once or more).
  let document: OpenAPIObject | undefined;
  const contract = () => (document ??= buildOpenApiDocument(app));
  app.get<OpenApiDocumentHolder>(OPENAPI_DOCUMENT).build = contract;
  SwaggerModule.setup('docs', app, contract, { raw: false, customSiteTitle: 'Interlock API' });
  return { app, logger };
}

/**
 * `app.init()` for a service called without `listen()` (supertest on `getHttpServer()`): on
 * Fastify the routes and hooks exist only once its plugins have loaded, which `listen()` waits
 * for and `init()` does not (Nest's own advice for such tests).
 */
export async function initApp(app: INestApplication): Promise<void> {
  await app.init();
  const instance = app.getHttpAdapter().getInstance() as { ready?: () => Promise<unknown> };
  if (app.getHttpAdapter().getType() === 'fastify' && instance.ready) await instance.ready();
}
