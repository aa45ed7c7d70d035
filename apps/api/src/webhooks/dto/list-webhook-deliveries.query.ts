import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../webhook-delivery.entity';
import { CursorPage } from '../../http/cursor-page.query';

class ListWebhookDeliveriesFilters {
  @ApiPropertyOptional({ enum: DELIVERY_STATUSES, enumName: 'WebhookDeliveryStatus' })
  @IsOptional()
  @IsIn(DELIVERY_STATUSES)
  status?: DeliveryStatus;
}

export class ListWebhookDeliveriesQuery extends CursorPage(ListWebhookDeliveriesFilters) {}
