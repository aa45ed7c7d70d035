import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * When each periodic job runs next (jobs/periodic-jobs.worker.ts). The service's own bookkeeping,
 * not an organisation's data: the one kind of table without organisation_id (docs/DECISIONS.md).
 */
@Entity({ name: 'scheduled_jobs' })
export class ScheduledJobEntity {
  @PrimaryColumn('text')
  name!: string;

  @Column('timestamp with time zone', { precision: 3 })
  nextRunAt!: Date;

  @Column('timestamp with time zone', { precision: 3, nullable: true })
  lastStartedAt!: Date | null;
}
