import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { PRIORITIES, type Priority } from '../interrupt.entity';

/** How urgent an open interrupt is to be (SPEC §8e). */
export class SetPriorityDto {
  @ApiProperty({ enum: PRIORITIES, enumName: 'Priority', example: 'urgent' })
  @IsIn(PRIORITIES, { message: `priority must be one of ${PRIORITIES.join(', ')}` })
  priority!: Priority;
}
