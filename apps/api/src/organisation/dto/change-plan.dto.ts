import { IsIn } from 'class-validator';
import { PLANS } from '@interlock/domain';
import type { Plan } from '@interlock/domain';

export class ChangePlanDto {
  @IsIn(PLANS)
  plan!: Plan;
}
