import { ApiProperty } from '@nestjs/swagger';
import { SUBSCRIBABLE_EVENT_TYPES } from './create-webhook.dto';

/** A webhook as listed: never its secret. */
export class WebhookResponse {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty()
  url!: string;

  @ApiProperty()
  description!: string;

  @ApiProperty({
    type: [String],
    enum: SUBSCRIBABLE_EVENT_TYPES,
    enumName: 'WebhookEventType',
    nullable: true,
    description: 'null: every type.',
  })
  eventTypes!: string[] | null;

  @ApiProperty()
  enabled!: boolean;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description:
      'Since when every attempt has failed; null after a success. Five days of it disables the webhook.',
  })
  failingSince!: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'After a rotation: until when the previous secret still signs beside the new one.',
  })
  previousSecretExpiresAt!: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt!: string;
}

/** Creation and rotation: the only responses that carry the signing secret. */
export class WebhookWithSecretResponse extends WebhookResponse {
  @ApiProperty({
    description:
      'The signing secret: whsec_ and the base64 of 32 random bytes. Shown once; store it now.',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  })
  secret!: string;
}

export class WebhookListResponse {
  @ApiProperty({ type: [WebhookResponse] })
  webhooks!: WebhookResponse[];
}
