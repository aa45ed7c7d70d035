import { ApiProperty } from '@nestjs/swagger';
import { PLANS } from '@interlock/domain';
import type { Plan } from '@interlock/domain';
import { UsageSummary } from '../../allowances/dto/usage-summary.response';
import { ApiDateTime, ApiUuid } from '../../openapi/api-field.decorator';

export class OrganisationResponse {
  @ApiUuid()
  id!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty({ enum: PLANS, enumName: 'Plan' })
  plan!: Plan;

  @ApiDateTime()
  createdAt!: string;

  @ApiProperty({
    type: UsageSummary,
    description: "This month's use of the plan's allowances (SPEC §8).",
  })
  usage!: UsageSummary;
}
