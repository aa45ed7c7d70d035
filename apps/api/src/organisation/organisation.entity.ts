import { Check, Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { Plan } from '@interlock/domain';

@Entity({ name: 'organisations' })
@Check('organisations_plan_check', `"plan" IN ('free', 'pro')`)
export class OrganisationEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('text')
  name!: string;

  @Column('text', { default: 'free' })
  plan!: Plan;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  /** The deadline of an interrupt opened without one, in seconds; null: none (SPEC §8e). */
  @Column('integer', { nullable: true })
  interruptTimeoutDefaultSeconds!: number | null;

  /** The longest deadline an interrupt may have, in seconds; null: the SPEC's 30 days. */
  @Column('integer', { nullable: true })
  interruptTimeoutMaxSeconds!: number | null;

  /** Whether an interrupt may be approved by its deadline (`onTimeout: approve`). */
  @Column('boolean', { default: false })
  interruptTimeoutApproveAllowed!: boolean;

  /**
   * Members act for the organisation with a password sign-in only once two-factor sign-in is on
   * for them (SPEC §8f); single sign-on sessions follow the provider's own policy.
   */
  @Column('boolean', { default: false })
  requireTwoFactor!: boolean;

  /** The escalation policy, `{steps: [...]}`; null: none (SPEC §8e). */
  @Column('jsonb', { nullable: true })
  interruptEscalationPolicy!: { steps: unknown[] } | null;
}
