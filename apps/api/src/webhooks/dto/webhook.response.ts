import { ApiProperty } from '@nestjs/swagger';
import { SUBSCRIBABLE_EVENT_TYPES } from './create-webhook.dto';
import { ApiDateTime, ApiUuid } from '../../openapi/api-field.decorator';

/** A webhook as listed: never its secret. */
export class WebhookResponse {
  @ApiUuid()
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

  @ApiDateTime({
    nullable: true,
    description:
      'Since when every attempt has failed; null after a success. Five days of it disables the webhook.',
  })
  failingSince!: string | null;

  @ApiDateTime({
    nullable: true,
    description: 'After a rotation: until when the previous secret still signs beside the new one.',
  })
  previousSecretExpiresAt!: string | null;

  @ApiDateTime()
  createdAt!: string;

  @ApiDateTime()
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
