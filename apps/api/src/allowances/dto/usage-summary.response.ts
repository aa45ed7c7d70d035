import { ApiProperty } from '@nestjs/swagger';

export class Allowance {
  @ApiProperty({ type: 'number', description: 'Used this month (agent hours to two decimals).' })
  used!: number;

  @ApiProperty({ type: 'integer', description: "Included in the organisation's plan." })
  included!: number;
}

/** This month's use of the plan's allowances (SPEC §8), per UTC calendar month. */
export class UsageSummary {
  @ApiProperty({ example: '2026-11', description: 'YYYY-MM, UTC.' })
  month!: string;

  @ApiProperty({
    format: 'date-time',
    description: 'When the allowances renew: the first instant of next month, UTC.',
  })
  renewsAt!: string;

  @ApiProperty({
    type: Allowance,
    description: 'Interrupt messages: each interrupt opened counts one.',
  })
  messages!: Allowance;

  @ApiProperty({
    type: Allowance,
    description: "Agent hours: the month's summed session time; open sessions count up to now.",
  })
  agentHours!: Allowance;
}
