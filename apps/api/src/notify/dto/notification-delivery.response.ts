import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { CursorPage } from '../../http/cursor-page.query';
import { NOTIFICATION_STATUSES, type NotificationStatus } from '../notification.entity';
import { ApiDateTime, ApiUuid } from '../../openapi/api-field.decorator';

export class NotificationDeliveryResponse {
  @ApiUuid()
  id!: string;

  @ApiProperty({ example: 'interrupt.opened', description: 'A notification kind, or invitation.' })
  kind!: string;

  @ApiProperty({ example: 'email' })
  channel!: string;

  @ApiProperty({ enum: ['immediately', 'hourly', 'daily'] })
  mode!: string;

  @ApiProperty({
    enum: NOTIFICATION_STATUSES,
    enumName: 'NotificationStatus',
    description:
      'logged: email is off (no SMTP_URL): not sent; outside production the message is an .eml file in MAIL_DIR.',
  })
  status!: NotificationStatus;

  @ApiProperty()
  recipientEmail!: string;

  @ApiUuid({
    nullable: true,
    description: 'The interrupt (or invitation) it is about.',
  })
  subjectId!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: "The interrupt's title when it was written.",
  })
  title!: string | null;

  @ApiProperty({ type: 'integer' })
  attempts!: number;

  @ApiProperty({ type: String, nullable: true })
  lastError!: string | null;

  @ApiDateTime()
  createdAt!: string;

  @ApiDateTime({ description: 'When it leaves: now, or its digest’s time.' })
  scheduledFor!: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  sentAt!: string | null;
}

export class NotificationDeliveryListResponse {
  @ApiProperty({
    type: [NotificationDeliveryResponse],
    description: 'Newest first, `limit` of them.',
  })
  deliveries!: NotificationDeliveryResponse[];

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The next page: repeat the request with it (and the same scope); null at the end.',
  })
  nextCursor!: string | null;
}

export class ListNotificationDeliveriesFilters {
  @ApiPropertyOptional({
    enum: ['mine', 'organisation'],
    description: 'organisation: everyone’s (member.manage). Default mine.',
  })
  @IsOptional()
  @IsIn(['mine', 'organisation'], { message: 'scope must be one of mine, organisation' })
  scope?: 'mine' | 'organisation';
}

export class ListNotificationDeliveriesQuery extends CursorPage(
  ListNotificationDeliveriesFilters,
) {}
