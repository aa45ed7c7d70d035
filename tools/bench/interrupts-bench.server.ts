/**
 * The service as it ships, for the interrupts benchmark (no probe routes needed): bundled by
 * tools/bench/tsup.config.ts, started by interrupts.bench.mjs; prints `listening <port>`.
 */
import 'reflect-metadata';
import { createApp } from '../../apps/api/src/app.factory';
import { configFromEnvironment } from '../../apps/api/src/config/app-config';

async function main() {
  const { app } = await createApp(configFromEnvironment());
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  process.stdout.write(`listening ${address.port}\n`);
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

void main();
