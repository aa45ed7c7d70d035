import { Column, Entity } from 'typeorm';
import { OneRowPerOrganisation } from '../organisation/organisation-row';

/**
 * An organisation's agent hours of the current UTC month as a running total (SPEC §8), so that
 * every append can check the allowance in its own statement instead of summing the month's
 * sessions. Kept by a trigger on `sessions` (migration 1795370000000), in the transaction that
 * starts or ends a session; read with the SQL function `agent_seconds_used(…, at)`:
 * `endedSeconds + openSessions × (at − monthStart) − openOffsetSeconds` within the month.
 */
@Entity({ name: 'agent_hours_totals' })
export class AgentHoursTotalsEntity extends OneRowPerOrganisation() {
  /** The first instant (UTC) of the month the totals are for: the month of the latest session event. */
  @Column('timestamp with time zone')
  monthStart!: Date;

  /** Seconds inside that month of the sessions that have ended. */
  @Column('double precision', { default: 0 })
  endedSeconds!: number;

  /** Sessions still open (no `ended_at`); each counts from the month's start or its own, whichever is later. */
  @Column('integer', { default: 0 })
  openSessions!: number;

  /** The sum, over the open sessions, of the seconds from the month's start to their own start (0 when earlier). */
  @Column('double precision', { default: 0 })
  openOffsetSeconds!: number;
}
