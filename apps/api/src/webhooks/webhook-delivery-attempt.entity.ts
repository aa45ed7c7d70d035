import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';

/** One attempt of a delivery, kept to be listed (SPEC §8a). */
@Entity({ name: 'webhook_delivery_attempts' })
export class WebhookDeliveryAttemptEntity {
  @PrimaryColumn('uuid')
  organisationId!: string;

  @PrimaryColumn('uuid')
  deliveryId!: string;

  @PrimaryColumn('integer')
  number!: number;

  @ManyToOne(() => WebhookDeliveryEntity, { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'organisation_id', referencedColumnName: 'organisationId' },
    { name: 'delivery_id', referencedColumnName: 'id' },
  ])
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
