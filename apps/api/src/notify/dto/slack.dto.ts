import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, IsUUID, Matches, ValidateIf } from 'class-validator';
import { RISKS, type Risk } from '../../classification/rule-engine';
import { SLACK_MESSAGE_STATUSES, type SlackMessageStatus } from '../slack/slack.entity';
import { ApiDateTime, ApiUuid } from '../../openapi/api-field.decorator';

export const SLACK_BOT_TOKEN_PATTERN = '^xoxb-[A-Za-z0-9-]{1,250}$';
export const SLACK_SIGNING_SECRET_PATTERN = '^[A-Za-z0-9]{16,128}$';
export const SLACK_CHANNEL_PATTERN = '^[CG][A-Z0-9]{2,40}$';

export class ConnectSlackDto {
  @ApiProperty({
    description:
      "The Slack app's bot token (OAuth & Permissions → Bot User OAuth Token; scopes chat:write, users:read, users:read.email). Checked with Slack's auth.test; stored encrypted, never shown again.",
    pattern: SLACK_BOT_TOKEN_PATTERN,
    example: 'xoxb-1234-5678-abcdef',
  })
  @IsString()
  @Matches(new RegExp(SLACK_BOT_TOKEN_PATTERN), {
    message: 'botToken must be a Slack bot token (xoxb-…).',
  })
  botToken!: string;

  @ApiProperty({
    description:
      "The Slack app's signing secret (Basic Information → App Credentials): interactivity requests are verified with it. Stored encrypted, never shown again.",
    pattern: SLACK_SIGNING_SECRET_PATTERN,
  })
  @IsString()
  @Matches(new RegExp(SLACK_SIGNING_SECRET_PATTERN), {
    message: "signingSecret must be the Slack app's signing secret (letters and digits).",
  })
  signingSecret!: string;

  @ApiProperty({
    description:
      'The channel new interrupts are posted to (its id, e.g. C0123ABCD); invite the app to it.',
    pattern: SLACK_CHANNEL_PATTERN,
    example: 'C0123ABCD',
  })
  @IsString()
  @Matches(new RegExp(SLACK_CHANNEL_PATTERN), {
    message: 'channelId must be a Slack channel id such as C0123ABCD.',
  })
  channelId!: string;

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description:
      'Post only the interrupts assigned to this team (when opened or assigned to it); null or absent: every new interrupt.',
  })
  @ValidateIf((o: ConnectSlackDto) => o.teamId !== undefined && o.teamId !== null)
  @IsUUID('all', { message: 'teamId must be a team id (a UUID) or null.' })
  teamId?: string | null;

  @ApiPropertyOptional({
    enum: RISKS,
    enumName: 'Risk',
    nullable: true,
    description:
      "Post only the interrupts whose risk (the organisation's classifier, Settings → Classification) is at least this one — and those whose risk is unknown (no classifier, or it did not answer), which go to a person; null or absent: whatever the risk. With teamId, both must hold.",
  })
  @ValidateIf((o: ConnectSlackDto) => o.minRisk !== undefined && o.minRisk !== null)
  @IsIn(RISKS, { message: 'minRisk must be one of low, medium, high, critical, or null.' })
  minRisk?: Risk | null;
}

export class SlackConnectionResponse {
  @ApiProperty({ example: 'T0123ABCD' })
  slackTeamId!: string;

  @ApiProperty({ example: 'Analytical Engines' })
  slackTeamName!: string;

  @ApiProperty({ example: 'C0123ABCD' })
  channelId!: string;

  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  teamId!: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'The team, when it still exists.' })
  teamName!: string | null;

  @ApiProperty({
    enum: RISKS,
    enumName: 'Risk',
    nullable: true,
    description: 'The least risk posted (unknown risks are posted too); null: whatever the risk.',
  })
  minRisk!: Risk | null;

  @ApiProperty({
    description:
      "The Request URL to enter under the Slack app's Interactivity & Shortcuts: the service's public origin and /api/slack/interactions/{organisationId}.",
  })
  requestUrl!: string;

  @ApiDateTime()
  credentialsSetAt!: string;
}

export class SlackMessageResponse {
  @ApiUuid()
  interruptId!: string;

  @ApiProperty()
  title!: string;

  @ApiProperty({ enum: SLACK_MESSAGE_STATUSES, enumName: 'SlackMessageStatus' })
  status!: SlackMessageStatus;

  @ApiProperty({ description: 'Whether the message is in the channel (posted at least once).' })
  posted!: boolean;

  @ApiProperty({ type: String, nullable: true })
  lastError!: string | null;

  @ApiDateTime()
  updatedAt!: string;
}

export class SlackSettingsResponse {
  @ApiProperty({ type: SlackConnectionResponse, nullable: true })
  connection!: SlackConnectionResponse | null;

  @ApiProperty({
    type: [SlackMessageResponse],
    description: 'The 20 messages changed last, newest first.',
  })
  messages!: SlackMessageResponse[];
}
