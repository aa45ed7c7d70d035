import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module.js';

// The same module, controller and SQL as main.ts, on Nest's own Fastify adapter instead of
// Express: bare NestJS 12 + Fastify, the middle column between bare NestJS + Express and bare
// Fastify (issue 28's "why Fastify" pairs, `npx nx run tools:bench-frameworks`). Default PORT 4102.
async function main(): Promise<void> {
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, new FastifyAdapter(), {
    logger: ['error', 'warn'],
  });
  app.enableShutdownHooks();
  const port = Number(process.env.PORT ?? 4102);
  const host = process.env.HOST ?? '127.0.0.1';
  await app.listen(port, host);
  console.log(`nest-fastify baseline listening on http://${host}:${port} (pid ${process.pid})`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
