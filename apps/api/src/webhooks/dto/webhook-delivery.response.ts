import { ApiProperty } from '@nestjs/swagger';
import { EVENT_TYPES } from '@interlock/domain';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../webhook-delivery.entity';
import { ApiDateTime, ApiUuid } from '../../openapi/api-field.decorator';

export class WebhookDeliveryAttempt {
  @ApiProperty({ type: 'integer', minimum: 1 })
  number!: number;

  @ApiDateTime()
  startedAt!: string;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'null: no answer (refused, timed out, not sent).',
  })
  responseStatus!: number | null;

  @ApiProperty({ type: 'integer', minimum: 0 })
  durationMs!: number;

  @ApiProperty({ type: String, nullable: true, description: 'Why it failed; null on a 2xx.' })
  error!: string | null;
}

/** One event to one webhook, with its attempts. */
export class WebhookDeliveryResponse {
  @ApiUuid()
  id!: string;

  @ApiUuid()
  webhookId!: string;

  @ApiUuid({
    description: "The event: the body's id and the webhook-id header.",
  })
  eventId!: string;

  @ApiProperty({ enum: EVENT_TYPES, enumName: 'EventType' })
  eventType!: string;

  @ApiProperty({
    enum: DELIVERY_STATUSES,
    enumName: 'WebhookDeliveryStatus',
    description:
      'pending (waiting for its next attempt), delivering (an attempt under way), succeeded, failed (retries exhausted).',
  })
  status!: DeliveryStatus;

  @ApiProperty({ type: 'integer', minimum: 0 })
  attemptCount!: number;

  @ApiProperty({ type: 'integer', nullable: true, description: "The last attempt's HTTP status." })
  responseStatus!: number | null;

  @ApiProperty({ type: 'integer', nullable: true, description: "The last attempt's duration." })
  durationMs!: number | null;

  @ApiProperty({ type: String, nullable: true, description: 'Why the last attempt failed.' })
  error!: string | null;

  @ApiDateTime({
    nullable: true,
    description:
      'When a pending delivery is attempted next; null otherwise (and while the webhook is disabled).',
  })
  nextAttemptAt!: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  lastAttemptAt!: string | null;

  @ApiDateTime()
  createdAt!: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  finishedAt!: string | null;

  @ApiProperty({ type: [WebhookDeliveryAttempt], description: 'Every attempt, oldest first.' })
  attempts!: WebhookDeliveryAttempt[];
}

export class WebhookDeliveryListResponse {
  @ApiProperty({ type: [WebhookDeliveryResponse] })
  deliveries!: WebhookDeliveryResponse[];

  @ApiProperty({ type: String, nullable: true, description: 'null on the last page.' })
  nextCursor!: string | null;
}
