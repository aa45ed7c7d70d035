/**
 * The service with two twin probe routes for the authentication benchmark: one public, one
 * behind the API-key guard. Started by auth.bench.mjs; prints `listening <port>`.
 */
import 'reflect-metadata';
import { Controller, Get, Module } from '@nestjs/common';
import { createApp } from '../../apps/api/src/app.factory';
import {
  MachineRoute,
  PublicRoute,
} from '../../apps/api/src/auth/decorators/route-access.decorator';
import { configFromEnvironment } from '../../apps/api/src/config/app-config';

@Controller('bench')
class BenchController {
  @Get('public')
  @PublicRoute()
  open() {
    return { ok: true };
  }

  @Get('keyed')
  @MachineRoute()
  keyed() {
    return { ok: true };
  }
}

@Module({ controllers: [BenchController] })
class BenchModule {}

async function main() {
  const { app } = await createApp(configFromEnvironment(), { imports: [BenchModule] });
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  process.stdout.write(`listening ${address.port}\n`);
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

void main();
