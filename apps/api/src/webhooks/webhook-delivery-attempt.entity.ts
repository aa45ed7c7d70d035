import { Column, Entity, PrimaryColumn } from 'typeorm';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';
import { ReferencesInOrganisation } from '../database/references.decorator';

/** One attempt of a delivery, kept to be listed (SPEC §8a). */
@Entity({ name: 'webhook_delivery_attempts' })
export class WebhookDeliveryAttemptEntity {
  @PrimaryColumn('uuid')
  organisationId!: string;

  @PrimaryColumn('uuid')
  deliveryId!: string;

  @PrimaryColumn('integer')
  number!: number;

  @ReferencesInOrganisation(() => WebhookDeliveryEntity, 'delivery_id')
  delivery?: WebhookDeliveryEntity;

  @Column('timestamp with time zone', { precision: 3 })
  startedAt!: Date;

  /** The HTTP status answered; null when none came (refused, timed out, no route). */
  @Column('integer', { nullable: true })
  responseStatus!: number | null;

  @Column('integer')
  durationMs!: number;

  @Column('text', { nullable: true })
  error!: string | null;
}
