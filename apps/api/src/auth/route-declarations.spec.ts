import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { NestFactory } from '@nestjs/core';
import pino from 'pino';
import { AppModule } from '../app.module';
import { loadConfig } from '../config/app-config';
import { ApiValidationPipe } from '../http/validation.pipe';
import { declaredRoutes, routeDeclarationTable } from './route-declarations.util';

/** Nest's `@Body()` and `@Query()` parameters, as it records them (`<paramtype>:<index>`). */
const VALIDATED = new Set<number>([RouteParamtypes.BODY, RouteParamtypes.QUERY]);

// Route permissions are reviewed like code: a diff in this snapshot is a permission change. The
// app is created in preview mode, as the contract emitter does: its modules, controllers and
// decorators, no provider instantiated, no database.
describe('route declarations', () => {
  let app: INestApplication;

  beforeAll(async () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
    });
    app = await NestFactory.create(AppModule.forRoot(config, pino({ level: 'silent' })), {
      preview: true,
      logger: false,
      abortOnError: false,
    });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('every route declares what it admits', () => {
    const routes = declaredRoutes(app);
    expect(routes.length).toBeGreaterThan(50);
    expect(
      routes.filter((r) => r.access === undefined).map((r) => `${r.method} ${r.path}`),
    ).toEqual([]);
  });

  // The queries read through no pipe (`@RawQuery()`), each parsed by its route itself with the
  // same answers and 400 texts: the audit log's (`parseAuditQuery`) and the PK read's
  // (`readGetInterruptQuery`, the rest through `validateQuery`). A new one is reviewed here.
  const SELF_PARSED = [
    'AuditLogController.list parameter 1',
    'AuditLogController.export parameter 1',
    'InterruptsController.get parameter 2',
  ];

  it('validate every body and query (the validation pipe is on each, not global), but the reviewed self-parsed queries', () => {
    const unvalidated = declaredRoutes(app).flatMap((route) => {
      const params = (Reflect.getMetadata(
        ROUTE_ARGS_METADATA,
        route.controller,
        route.methodName,
      ) ?? {}) as Record<string, { index: number; pipes?: unknown[] }>;
      return Object.entries(params)
        .filter(([key]) => VALIDATED.has(Number(key.split(':')[0])))
        .filter(([, param]) => !(param.pipes ?? []).some((p) => p instanceof ApiValidationPipe))
        .map(([, param]) => `${route.handler} parameter ${param.index}`);
    });
    expect(declaredRoutes(app).length).toBeGreaterThan(50);
    expect(unvalidated).toEqual(SELF_PARSED);
  });

  it('match the reviewed snapshot', () => {
    expect(routeDeclarationTable(declaredRoutes(app))).toMatchSnapshot();
  });
});
