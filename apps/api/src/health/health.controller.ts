import { Controller, Get, HttpCode } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PublicRoute } from '../auth/decorators/route-access.decorator';
import { ApiError } from '../http/api-error';

@Controller('health')
@PublicRoute()
export class HealthController {
  constructor(private readonly dataSource: DataSource) {}

  /** The process is up and serving HTTP. */
  @Get('live')
  @HttpCode(200)
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** The database answers and every migration is applied. */
  @Get('ready')
  @HttpCode(200)
  async ready(): Promise<{ status: 'ok' }> {
    await this.dataSource.query('SELECT 1');
    if (await this.dataSource.showMigrations()) {
      throw new ApiError('SERVICE_UNAVAILABLE', 'Database migrations are pending.');
    }
    return { status: 'ok' };
  }
}
