import { DomainError } from '@interlock/domain';
import { Controller, Get, HttpCode } from '@nestjs/common';
import { ApiProperty, ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { PublicRoute } from '../auth/decorators/route-access.decorator';
import { NotificationBus } from '../notifications/notification-bus';
import { ServiceState } from './service-state';
import { Operation } from '../openapi/operation.decorator';

/** What `GET /health/live` answers, always (on Fastify without Nest's pipeline: `answerFixedRoutes`). */
export const LIVE = { status: 'ok' } as const;
export const LIVENESS_PATH = '/health/live';

export class HealthStatus {
  @ApiProperty({ enum: ['ok'] })
  status!: 'ok';
}

@Controller('health')
@ApiTags('health')
@PublicRoute()
export class HealthController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly bus: NotificationBus,
    private readonly state: ServiceState,
  ) {}

  /** The process is up and serving HTTP. */
  @Get('live')
  @Operation({ operationId: 'getLiveness', summary: 'The process serves HTTP', ok: HealthStatus })
  @HttpCode(200)
  live(): { status: 'ok' } {
    return LIVE;
  }

  /**
   * Whether a load balancer should send this instance traffic: not while it is shutting down
   * (from SIGTERM on), not while its notification listener is down or deaf (it would accept
   * keys revoked elsewhere from its cache — the cache is bypassed then, but the instance is
   * degraded and often misconfigured), and only when the database answers with every
   * migration applied.
   */
  @Get('ready')
  @Operation({
    operationId: 'getReadiness',
    summary:
      'The instance takes traffic: not shutting down, its notification listener receives, the database is migrated',
    ok: HealthStatus,
  })
  @HttpCode(200)
  async ready(): Promise<{ status: 'ok' }> {
    if (this.state.draining)
      throw new DomainError('SERVICE_UNAVAILABLE', 'The service is shutting down.');
    // The database first: when it is gone the listener is too, and the database is the cause.
    await this.dataSource.query('SELECT 1');
    if (!this.bus.healthy) {
      throw new DomainError(
        'SERVICE_UNAVAILABLE',
        'The notification listener is not receiving: see the service log.',
      );
    }
    if (await this.dataSource.showMigrations()) {
      throw new DomainError('SERVICE_UNAVAILABLE', 'Database migrations are pending.');
    }
    return { status: 'ok' };
  }
}
