import { Controller, Get, HttpCode } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { PublicRoute } from '../auth/decorators/route-access.decorator';
import { ApiError } from '../http/api-error';

export class HealthStatus {
  @ApiProperty({ enum: ['ok'] })
  status!: 'ok';
}

@Controller('health')
@ApiTags('health')
@PublicRoute()
export class HealthController {
  constructor(private readonly dataSource: DataSource) {}

  /** The process is up and serving HTTP. */
  @Get('live')
  @ApiOperation({ operationId: 'getLiveness', summary: 'The process serves HTTP' })
  @ApiOkResponse({ type: HealthStatus })
  @HttpCode(200)
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** The database answers and every migration is applied. */
  @Get('ready')
  @ApiOperation({ operationId: 'getReadiness', summary: 'The database answers and every migration is applied' })
  @ApiOkResponse({ type: HealthStatus })
  @HttpCode(200)
  async ready(): Promise<{ status: 'ok' }> {
    await this.dataSource.query('SELECT 1');
    if (await this.dataSource.showMigrations()) {
      throw new ApiError('SERVICE_UNAVAILABLE', 'Database migrations are pending.');
    }
    return { status: 'ok' };
  }
}
