import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import pino from 'pino';
import { AppModule } from '../app.module';
import { loadConfig } from '../config/app-config';
import { declaredRoutes, routeDeclarationTable } from './route-declarations.util';

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

  it('match the reviewed snapshot', () => {
    expect(routeDeclarationTable(declaredRoutes(app))).toMatchSnapshot();
  });
});
