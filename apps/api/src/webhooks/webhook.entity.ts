import { Column, CreateDateColumn, Entity, Index } from 'typeorm';
import { OrganisationRow } from '../organisation/organisation-row';
import { SigningSecretRowOn } from '../database/signing-secret-row';

/**
 * An endpoint that receives the organisation's events (SPEC §8a). The signing secrets are kept
 * encrypted (webhook-secret.util.ts): the service must sign with them, so they cannot be hashed.
 */
@Entity({ name: 'webhooks' })
@Index('webhooks_organisation_created_idx', ['organisationId', 'createdAt', 'id'])
export class WebhookEntity extends SigningSecretRowOn(OrganisationRow) {
  @Column('text')
  url!: string;

  @Column('text', { default: '' })
  description!: string;

  /** The event types subscribed; null: every type. */
  @Column('text', { array: true, nullable: true })
  eventTypes!: string[] | null;

  @Column('boolean', { default: true })
  enabled!: boolean;

  /** Since when every attempt has failed (null after a success); 5 days of it disables the endpoint. */
  @Column('timestamp with time zone', { precision: 3, nullable: true })
  failingSince!: Date | null;

  @Column('uuid')
  createdBy!: string;

  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @Column('timestamp with time zone', { precision: 3, default: () => 'now()' })
  updatedAt!: Date;
}
