import { Check, Column, CreateDateColumn, Entity } from 'typeorm';
import { OneRowPerOrganisation } from '../organisation/organisation-row';
import { SigningSecretRowOn } from '../database/signing-secret-row';

/**
 * An organisation's external classifier (SPEC §8d, issue 29 §1.3): the HTTPS endpoint argus asks
 * for each new action request's risk and labels, signed as webhooks are (Standard Webhooks), with
 * the secret sealed as a webhook's is (`WebhookSecretBox`, its own purpose). At most one per
 * organisation.
 */
@Entity({ name: 'classification_classifiers' })
@Check('classification_classifiers_timeout_check', `"timeout_ms" BETWEEN 100 AND 10000`)
export class ClassificationClassifierEntity extends SigningSecretRowOn(OneRowPerOrganisation()) {
  @Column('text')
  url!: string;

  /** How long argus waits for an answer; past it the action goes to a person. */
  @Column('integer')
  timeoutMs!: number;

  @Column('boolean', { default: true })
  enabled!: boolean;

  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @Column('timestamp with time zone', { precision: 3, default: () => 'now()' })
  updatedAt!: Date;
}
