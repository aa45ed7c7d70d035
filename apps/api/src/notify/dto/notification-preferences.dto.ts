import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsBoolean,
  IsString,
  MaxLength,
  ValidateBy,
  type ValidationArguments,
} from 'class-validator';
import {
  CHANNEL_MODES,
  NOTIFICATION_KINDS,
  NOTIFICATION_MODES,
  type NotificationMode,
  notificationPreferencesProblem,
  type NotificationPreferences,
} from '@interlock/domain';
import { OptionalField } from '../../http/optional-field.decorator';
import { RequireAnyOf } from '../../http/require-any-of.decorator';

/** `{kind: {channel: mode | null}}`, checked against the catalogue (null: fall back to the default). */
function IsNotificationPreferences(): PropertyDecorator {
  return ValidateBy({
    name: 'isNotificationPreferences',
    validator: {
      validate: (value: unknown, args?: ValidationArguments) =>
        notificationPreferencesProblem(value, args?.property ?? 'preferences') === null,
      defaultMessage: (args?: ValidationArguments) =>
        notificationPreferencesProblem(args?.value, args?.property ?? 'preferences') ??
        'preferences is not valid.',
    },
  });
}

/** A kind's modes per channel (null or absent: the default applies). */
export class NotificationChannelModes {
  @ApiPropertyOptional({ enum: NOTIFICATION_MODES, enumName: 'NotificationMode', nullable: true })
  email?: NotificationMode | null;

  @ApiPropertyOptional({
    enum: CHANNEL_MODES.browser,
    enumName: 'BrowserNotificationMode',
    nullable: true,
  })
  browser?: NotificationMode | null;
}

/** Per notification kind: its modes per channel. */
export class NotificationPreferenceSet {
  @ApiPropertyOptional({
    type: NotificationChannelModes,
    description: 'A new interrupt in the inbox.',
  })
  'interrupt.opened'?: NotificationChannelModes;

  @ApiPropertyOptional({
    type: NotificationChannelModes,
    description: 'An interrupt assigned to you or a team of yours.',
  })
  'interrupt.assigned'?: NotificationChannelModes;

  @ApiPropertyOptional({ type: NotificationChannelModes, description: 'An interrupt escalated.' })
  'interrupt.escalated'?: NotificationChannelModes;

  @ApiPropertyOptional({
    type: NotificationChannelModes,
    description: 'An interrupt assigned to you or your team was answered.',
  })
  'interrupt.decided'?: NotificationChannelModes;

  @ApiPropertyOptional({
    type: NotificationChannelModes,
    description:
      "A reminder that an interrupt still waits (an escalation chain's remind step): to its assignee, or to every reader when nobody is assigned.",
  })
  'interrupt.reminder'?: NotificationChannelModes;

  @ApiPropertyOptional({
    type: NotificationChannelModes,
    description:
      'An interrupt that waited on you no longer does: withdrawn (by whom, and why) or expired at its deadline. To its assignee, or to every reader when nobody is assigned; never to the member who withdrew it.',
  })
  'interrupt.closed'?: NotificationChannelModes;

  @ApiPropertyOptional({
    type: NotificationChannelModes,
    description:
      'An action that needs several approvers got an approval short of its quorum ("1 of 2 approved — your approval is needed"): to the other members who may approve it (interrupt.decide, of its approver team when it names one), never to those who approved already.',
  })
  'interrupt.approval_needed'?: NotificationChannelModes;

  @ApiPropertyOptional({
    type: NotificationChannelModes,
    description:
      'An open interrupt\'s deadline is near ("Deadline in 12 minutes — at the deadline it will be rejected"), once per deadline: when the time left first falls to max(1 min, min(60 min, 20 % of the time from its opening to its deadline)). To its assignee, or to every reader when nobody is assigned.',
  })
  'interrupt.deadline_approaching'?: NotificationChannelModes;
}

/** A member's own choices: what is given replaces what was there. */
@RequireAnyOf('timeZone', 'preferences')
export class UpdateNotificationPreferencesDto {
  @ApiPropertyOptional({
    description:
      'An IANA time zone name such as Europe/Paris or UTC (the daily digest leaves at 09:00 there); a name the time zone database does not know answers 400.',
    example: 'Europe/Paris',
    maxLength: 64,
  })
  @OptionalField()
  @IsString()
  @MaxLength(64)
  timeZone?: string;

  @ApiPropertyOptional({
    type: NotificationPreferenceSet,
    description: `Kinds: ${NOTIFICATION_KINDS.join(', ')}.`,
  })
  @OptionalField()
  @IsNotificationPreferences()
  preferences?: NotificationPreferences;
}

/** The organisation's defaults and action-link policy (member.manage); what is left out stays. */
@RequireAnyOf('defaults', 'tokenActions')
export class UpdateNotificationSettingsDto {
  @ApiPropertyOptional({
    type: NotificationPreferenceSet,
    description: `Kinds: ${NOTIFICATION_KINDS.join(', ')}. Replaces the defaults.`,
  })
  @OptionalField()
  @IsNotificationPreferences()
  defaults?: NotificationPreferences;

  @ApiPropertyOptional({
    description:
      "Whether an email's Approve / Reject links may decide without signing in: each is a single-use link for the member it was sent to, bound to the action's digest, working for 24 hours. Off by default.",
  })
  @OptionalField()
  @IsBoolean()
  tokenActions?: boolean;
}

export class NotificationPreferencesResponse {
  @ApiProperty({ example: 'UTC' })
  timeZone!: string;

  @ApiProperty({
    type: NotificationPreferenceSet,
    description: "The member's own choices (what is absent follows the organisation).",
  })
  preferences!: NotificationPreferences;

  @ApiProperty({
    type: NotificationPreferenceSet,
    description: 'Every kind and channel, as they apply now.',
  })
  effective!: NotificationPreferences;

  @ApiProperty({
    description:
      'False when the service has no SMTP_URL: email notifications are written to the log, not sent.',
  })
  emailEnabled!: boolean;
}

export class NotificationSettingsResponse {
  @ApiProperty({
    type: NotificationPreferenceSet,
    description: "The organisation's defaults (what is absent follows the built-in default).",
  })
  defaults!: NotificationPreferences;

  @ApiProperty({ type: NotificationPreferenceSet, description: 'The built-in defaults.' })
  builtInDefaults!: NotificationPreferences;

  @ApiProperty({
    description:
      "Whether an email's action links decide without signing in (single-use, 24 hours).",
  })
  tokenActions!: boolean;

  @ApiProperty({ description: 'False when the service has no SMTP_URL.' })
  emailEnabled!: boolean;
}
