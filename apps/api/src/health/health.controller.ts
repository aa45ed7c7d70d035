import { DomainError } from '@interlock/domain';
import { ApiProperty } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { DatabaseConnection } from '../database/database-connection';
import { PublicRoute } from '../auth/decorators/route-access.decorator';
import { NotificationBus } from '../notifications/notification-bus';
import { ServiceState } from './service-state';
import { ApiController, Operation } from '../openapi/operation.decorator';

/** What `GET /health/live` answers, always (on Fastify without Nest's pipeline: `answerFixedRoutes`). */
export const LIVE = { status: 'ok' } as const;
export const LIVENESS_PATH = '/health/live';

export class HealthStatus {
  @ApiProperty({ enum: ['ok'] })
  status!: 'ok';
}

@ApiController('health', 'health')
@PublicRoute()
export class HealthController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly connection: DatabaseConnection,
    private readonly bus: NotificationBus,
    private readonly state: ServiceState,
  ) {}

  /** The readiness statement under way, if any (`appliedMigrations`). */
  private asking: Promise<Set<string>> | undefined;

  /** The process is up and serving HTTP. */
  @Operation.Get('live', 'getLiveness', { summary: 'The process serves HTTP', ok: HealthStatus })
  live(): { status: 'ok' } {
    return LIVE;
  }

  /**
   * Whether a load balancer should send this instance traffic: not while it is shutting down
   * (from SIGTERM on), not while its notification listener is down or deaf (it would accept
   * keys revoked elsewhere from its cache — the cache is bypassed then, but the instance is
   * degraded and often misconfigured), and only when the database answers with every
   * migration applied. Asked on the control connections, in one statement that probes arriving
   * meanwhile share: a load balancer's check must not queue behind a herd of requests for the pool
   * (it timed out there, and HAProxy took both instances out at once), and checks must not queue
   * behind one another for the control connections either.
   */
  @Operation.Get('ready', 'getReadiness', {
    summary:
      'The instance takes traffic: not shutting down, its notification listener receives, the database is migrated',
    ok: HealthStatus,
  })
  async ready(): Promise<{ status: 'ok' }> {
    if (this.state.draining)
      throw new DomainError('SERVICE_UNAVAILABLE', 'The service is shutting down.');
    // The database first: when it is gone the listener is too, and the database is the cause.
    const applied = await this.appliedMigrations();
    if (!this.bus.healthy) {
      throw new DomainError(
        'SERVICE_UNAVAILABLE',
        'The notification listener is not receiving: see the service log.',
      );
    }
    // TypeORM's own naming (MigrationExecutor.getMigrations), as `showMigrations` compared them.
    if (this.dataSource.migrations.some((m) => !applied.has(m.name ?? m.constructor.name))) {
      throw new DomainError('SERVICE_UNAVAILABLE', 'Database migrations are pending.');
    }
    return { status: 'ok' };
  }

  /** The names of the applied migrations: one statement at a time, shared by the probes meanwhile. */
  private appliedMigrations(): Promise<Set<string>> {
    this.asking ??= this.connection
      .controlQuery<{ names: string[] | null }>('SELECT array_agg(name) AS names FROM migrations')
      .then(([row]) => new Set(row?.names ?? []))
      .finally(() => (this.asking = undefined));
    return this.asking;
  }
}
