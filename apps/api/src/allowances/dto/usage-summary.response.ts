import { ApiProperty } from '@nestjs/swagger';
import { ApiDateTime } from '../../openapi/api-field.decorator';

export class Allowance {
  @ApiProperty({ type: 'number', description: 'Used this month (agent hours to two decimals).' })
  used!: number;

  @ApiProperty({ type: 'integer', description: "Included in the organisation's plan." })
  included!: number;
}

/** What the organisation holds now against its plan's quota (not monthly: it goes down as well as up). */
export class Quota {
  @ApiProperty({ type: 'integer', description: 'Held now.' })
  used!: number;

  @ApiProperty({ type: 'integer', description: "The most the organisation's plan includes." })
  included!: number;
}

/** This month's use of the plan's allowances (SPEC §8), per UTC calendar month. */
export class UsageSummary {
  @ApiProperty({ example: '2026-11', description: 'YYYY-MM, UTC.' })
  month!: string;

  @ApiDateTime({
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

  @ApiProperty({
    type: Quota,
    description:
      'Bytes of session-message content stored (UTF-8); appends past the quota answer 402 SESSION_STORAGE_EXHAUSTED, and the retention frees space.',
  })
  sessionMessageBytes!: Quota;

  @ApiProperty({
    type: Quota,
    description:
      'Sessions active now; starting one past the quota answers 402 ACTIVE_SESSIONS_EXHAUSTED.',
  })
  activeSessions!: Quota;

  @ApiProperty({
    type: 'integer',
    description:
      'Session messages are deleted this many seconds after they were appended (SESSION_MESSAGE_RETENTION).',
  })
  sessionMessageRetentionSeconds!: number;
}
