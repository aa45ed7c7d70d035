import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../webhook-delivery.entity';

export class ListWebhookDeliveriesQuery {
  @ApiPropertyOptional({ enum: DELIVERY_STATUSES, enumName: 'WebhookDeliveryStatus' })
  @IsOptional()
  @IsIn(DELIVERY_STATUSES)
  status?: DeliveryStatus;

  @ApiPropertyOptional({ minLength: 1, maxLength: 1000, description: 'The previous nextCursor; repeat the other parameters unchanged.' })
  @IsOptional()
  @IsString()
  @Length(1, 1000)
  cursor?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 200, default: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  limit?: number;
}
