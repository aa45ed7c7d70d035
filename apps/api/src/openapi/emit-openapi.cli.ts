/**
 * Writes contract/openapi.json from the app's own metadata (Nx target api:openapi): creates the
 * app in preview mode — no providers instantiated, no database, no listening — builds the
 * document and exits.
 */
import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { NestFactory } from '@nestjs/core';
import pino from 'pino';
import { AppModule } from '../app.module';
import { loadConfig } from '../config/app-config';
import { buildOpenApiDocument } from './openapi-document';

async function main(target: string): Promise<void> {
  const config = loadConfig({ NODE_ENV: 'test' });
  const app = await NestFactory.create(AppModule.forRoot(config, pino({ level: 'silent' })), {
    preview: true,
    logger: false,
    abortOnError: false,
  });
  const document = buildOpenApiDocument(app);
  mkdirSync(dirname(resolve(target)), { recursive: true });
  writeFileSync(resolve(target), `${JSON.stringify(document, null, 2)}\n`);
  await app.close();
}

main(process.argv[2] ?? 'contract/openapi.json').then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(
      `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
