import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { DECISIONS } from '../interrupt-decision.entity';
import type { Decision } from '../interrupt-decision.entity';
import { OptionalField } from '../../http/optional-field.decorator';
import { ON_TIMEOUT, type OnTimeout, PRIORITIES, type Priority } from '../interrupt.entity';
import { responseSchemaProblem } from '@interlock/domain';
import { MAX_URL_LENGTH, URL_PATTERN } from '../../webhooks/webhook-url.util';
import { MAX_TIMEOUT_SECONDS } from '@interlock/domain';

/** SPEC §10: at most 20 action requests per interrupt. */
export const MAX_ACTION_REQUESTS = 20;

/** At most this many members' approvals for one action (SPEC §8e). */
export const MAX_REQUIRED_APPROVALS = 5;

/** At most this many labels an agent gives an interrupt (SPEC §8e). */
export const MAX_INTERRUPT_LABELS = 10;
/** A label: 1 … 50 ASCII letters, digits and `_ . : / + -`, no spaces (SPEC §8e). */
export const LABEL_PATTERN = /^[A-Za-z0-9_.:/+-]{1,50}$/;

/** Whom an interrupt is assigned to when it opens (SPEC §8e): exactly one of the four. */
export class AssignToDto {
  @ApiPropertyOptional({ format: 'uuid', description: 'A member of the organisation, by id.' })
  @OptionalField()
  @IsUUID('loose', { message: 'memberId must be a UUID' })
  memberId?: string;

  @ApiPropertyOptional({
    maxLength: 254,
    description:
      'A member of the organisation, by email address (trimmed, compared case-insensitively).',
    example: 'grace@example.com',
  })
  @OptionalField()
  @IsString()
  @Length(3, 254, { message: 'email must be an email address' })
  // Surrounding whitespace is allowed: the address is trimmed and lower-cased before it is
  // compared with the members' (stored trimmed and lower-case), SPEC §8e.
  @Matches(/^\s*[^\s@]+@[^\s@]+\s*$/, { message: 'email must be an email address' })
  email?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'A team of the organisation, by id.' })
  @OptionalField()
  @IsUUID('loose', { message: 'teamId must be a UUID' })
  teamId?: string;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 200,
    description: 'A team of the organisation, by name.',
  })
  @OptionalField()
  @IsString()
  @Length(1, 200, { message: 'teamName must be 1 to 200 characters' })
  teamName?: string;
}

/** The team whose members alone may decide an action: by id or by name (exactly one). */
export class ApproverTeamDto {
  @ApiPropertyOptional({ format: 'uuid', description: 'The team, by id (or give teamName).' })
  @ValidateIf((o: ApproverTeamDto) => o.teamId !== undefined || o.teamName === undefined)
  @IsUUID('loose', { message: 'teamId must be a UUID (or give teamName instead)' })
  teamId?: string;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 200,
    description: 'The team, by name (or give teamId).',
  })
  @ValidateIf((o: ApproverTeamDto) => o.teamName !== undefined)
  @ValidateBy({
    name: 'notBoth',
    validator: {
      validate: (_: unknown, args) => (args?.object as ApproverTeamDto).teamId === undefined,
      defaultMessage: () => 'teamName cannot be given together with teamId',
    },
  })
  @IsString()
  @Length(1, 200)
  teamName?: string;
}

/** One action the agent wants reviewed: LangGraph's human-in-the-loop shape (SPEC §5). */
export class ActionRequestDto {
  @ApiProperty({
    minLength: 1,
    maxLength: 200,
    description: 'Unique within the interrupt.',
    example: 'deploy',
  })
  @IsString()
  @Length(1, 200)
  @Matches(/\S/, { message: 'name must not be blank' })
  name!: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    example: { service: 'api', version: '1.4.2' },
  })
  @OptionalField()
  @IsObject()
  args?: Record<string, unknown>;

  @ApiPropertyOptional({ maxLength: 10_000 })
  @OptionalField()
  @IsString()
  @MaxLength(10_000)
  description?: string;

  /** Defaults to all four decisions. */
  @ApiPropertyOptional({
    enum: DECISIONS,
    enumName: 'DecisionType',
    isArray: true,
    description: 'Defaults to all four.',
    // With respond, so the example holds beside responseSchema's (which requires respond).
    example: ['approve', 'reject', 'respond'],
  })
  @OptionalField()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayUnique()
  @IsIn(DECISIONS, { each: true })
  allowedDecisions?: Decision[];

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_REQUIRED_APPROVALS,
    description:
      'How many distinct members must approve before the action is approved (default 1); one rejection by a member who may ' +
      'decide it rejects it. Above 1 the action cannot be edited (allowedDecisions then defaults to approve, reject, respond).',
  })
  @OptionalField()
  @IsInt()
  @Min(1)
  @Max(MAX_REQUIRED_APPROVALS)
  requiredApprovals?: number;

  @ApiPropertyOptional({
    type: ApproverTeamDto,
    description:
      'Only members of this team (of the organisation) may decide the action; it must have at least requiredApprovals members.',
    example: { teamName: 'Reviewers' },
  })
  @OptionalField()
  @IsObject()
  @ValidateNested()
  @Type(() => ApproverTeamDto)
  approverTeam?: ApproverTeamDto;

  /** Typed input: the answer the agent asks for, as a bounded JSON Schema (SPEC §5). */
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description:
      'Typed input: the answer a person gives with respond, as JSON Schema — an object of string, number, integer, ' +
      'boolean, enum and arrays of those (title, description, required, default, minLength/maxLength, ' +
      'minimum/maximum, minItems/maxItems, uniqueItems; nothing else). The dashboard renders it as a form; a ' +
      'respond on this action must carry a response valid against it. Requires respond among allowedDecisions.',
    example: {
      type: 'object',
      properties: {
        region: { type: 'string', enum: ['eu-west-1', 'us-east-1'], title: 'Region' },
        replicas: { type: 'integer', minimum: 1, maximum: 20 },
      },
      required: ['region'],
    },
  })
  @OptionalField()
  @IsObject()
  @ValidateBy({
    name: 'responseSchema',
    validator: {
      // Not an object: IsObject says so.
      validate: (value: unknown) =>
        typeof value !== 'object' ||
        value === null ||
        Array.isArray(value) ||
        responseSchemaProblem(value, 'responseSchema') === null,
      defaultMessage: (args) => {
        const problem = responseSchemaProblem(args?.value, 'responseSchema') ?? '';
        return problem.startsWith('responseSchema.')
          ? `responseSchema is not valid: ${problem.slice('responseSchema.'.length)}`
          : problem;
      },
    },
  })
  @ValidateBy({
    name: 'respondAllowed',
    validator: {
      validate: (value: unknown, args) => {
        const allowed = (args?.object as ActionRequestDto | undefined)?.allowedDecisions;
        return (
          value === undefined ||
          allowed === undefined ||
          !Array.isArray(allowed) ||
          allowed.includes('respond')
        );
      },
      defaultMessage: () => 'responseSchema needs respond among allowedDecisions',
    },
  })
  responseSchema?: Record<string, unknown>;
}

export class CreateInterruptDto {
  @ApiProperty({ minLength: 1, maxLength: 200, example: 'Deploy to prod' })
  @IsString()
  @Length(1, 200)
  @Matches(/\S/, { message: 'title must not be blank' })
  title!: string;

  @ApiProperty({ type: [ActionRequestDto], minItems: 1, maxItems: MAX_ACTION_REQUESTS })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_ACTION_REQUESTS)
  @ArrayUnique((a: ActionRequestDto | null) => a?.name, {
    message: 'actionRequests must have unique names',
  })
  // ValidateNested alone lets an array through as an element: each must be an object.
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => ActionRequestDto)
  actionRequests!: ActionRequestDto[];

  @ApiPropertyOptional({ maxLength: 10_000 })
  @OptionalField()
  @IsString()
  @MaxLength(10_000)
  description?: string;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 200,
    description: "The agent's own id for this request.",
  })
  @OptionalField()
  @IsString()
  @Length(1, 200)
  externalId?: string;

  @ApiPropertyOptional({
    type: 'string',
    format: 'uuid',
    nullable: true,
    description: 'A session of this organisation; null is no session.',
  })
  @IsOptional()
  @IsUUID('loose')
  sessionId?: string | null;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @OptionalField()
  @IsObject()
  metadata?: Record<string, unknown>;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_TIMEOUT_SECONDS,
    description:
      "Seconds until the deadline, within the organisation's maximum; without it, the organisation's default deadline (if any). " +
      'At the deadline the service applies onTimeout as actor system.',
  })
  @OptionalField()
  @IsInt()
  @Min(1)
  @Max(MAX_TIMEOUT_SECONDS)
  timeoutSeconds?: number;

  @ApiPropertyOptional({
    enum: ON_TIMEOUT,
    enumName: 'OnTimeout',
    description:
      'What the deadline does: reject every undecided action (the default), approve them (only where the organisation allows it), ' +
      'or escalate the interrupt and extend the deadline once by the same time.',
  })
  @OptionalField()
  @IsIn(ON_TIMEOUT)
  onTimeout?: OnTimeout;

  @ApiPropertyOptional({
    maxLength: MAX_URL_LENGTH,
    pattern: URL_PATTERN,
    example: 'https://agents.example.com/resume/run-42',
    description:
      'When the interrupt is answered, expires or is withdrawn, the service POSTs the result here once (the webhook payload ' +
      '{id, type, createdAt, organisationId, data: the interrupt}), signed as webhooks are under resumeSigningSecret(the API key ' +
      'that opened it), retried on the webhook schedule. The webhook URL rules apply: https (http only to loopback, outside ' +
      'production), no credentials, in production no private, loopback, link-local or metadata address. Never shown again.',
  })
  @OptionalField()
  @IsString()
  @MaxLength(MAX_URL_LENGTH)
  resumeUrl?: string;

  @ApiPropertyOptional({
    enum: PRIORITIES,
    enumName: 'Priority',
    default: 'normal',
    description:
      "How urgent it is: low, normal (the default), high or urgent. An enforced argus route's priority replaces it.",
  })
  @OptionalField()
  @IsIn(PRIORITIES, { message: `priority must be one of ${PRIORITIES.join(', ')}` })
  priority?: Priority;

  @ApiPropertyOptional({
    type: AssignToDto,
    description:
      'Assign it as it opens: exactly one of memberId, email (a member), teamId or teamName (a team) of the organisation. ' +
      'Audited as interrupt.assigned by the key, with the effects of a member assigning it (notifications, a team escalation policy).',
    example: { teamName: 'Reviewers' },
  })
  @OptionalField()
  @IsObject()
  @ValidateBy({
    name: 'exactlyOne',
    validator: {
      validate: (value: unknown) =>
        typeof value !== 'object' ||
        value === null ||
        ['memberId', 'email', 'teamId', 'teamName'].filter(
          (k) => (value as Record<string, unknown>)[k] !== undefined,
        ).length === 1,
      defaultMessage: () => 'assignTo must have exactly one of memberId, email, teamId, teamName',
    },
  })
  @ValidateNested()
  @Type(() => AssignToDto)
  assignTo?: AssignToDto;

  @ApiPropertyOptional({
    type: [String],
    maxItems: MAX_INTERRUPT_LABELS,
    description:
      'Up to 10 labels, each 1 to 50 ASCII letters, digits and _ . : / + - (no spaces); repeated ones count once. ' +
      "The record's labels are these, then the external classifier's.",
    example: ['billing', 'eu'],
  })
  @OptionalField()
  @IsArray()
  @ArrayMaxSize(MAX_INTERRUPT_LABELS, {
    message: `labels must have at most ${MAX_INTERRUPT_LABELS} entries`,
  })
  @Matches(LABEL_PATTERN, {
    each: true,
    message: 'each must be 1 to 50 ASCII letters, digits or _ . : / + - (no spaces)',
  })
  labels?: string[];
}
