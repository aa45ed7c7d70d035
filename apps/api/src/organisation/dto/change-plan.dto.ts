import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { PLANS } from '@interlock/domain';
import type { Plan } from '@interlock/domain';

export class ChangePlanDto {
  @ApiProperty({ enum: PLANS, enumName: 'Plan' })
  @IsIn(PLANS)
  plan!: Plan;
}
