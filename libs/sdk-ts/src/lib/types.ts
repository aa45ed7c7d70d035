// The SDK's public names for the resource types. The shapes are generated from
// contract/openapi.json into src/generated (@hey-api/openapi-ts; never edit them by hand); this
// file only gives them the short names users write, and adapts the few request shapes where the
// SDK accepts more than the wire does (a Date for a timestamp).
import type {
  ActionRequestDto,
  ActionRequestResponse,
  ActorType,
  AppendMessagesResponse,
  ArgusDecidedBy,
  ApproveOutcome,
  Assignee,
  AssigneeFilter,
  AuditCategory,
  AuditEntryResponse,
  AuditLogPage,
  CancelInterruptDto,
  ClassificationRuleMode,
  ClassificationRuleResponse,
  CreateClassificationRuleDto,
  DryRunDto,
  DryRunResponse,
  RejectOutcome,
  RequireHumanOutcome,
  RouteOutcome,
  RuleArgPredicate,
  RuleMatch,
  RuleOutcome,
  UpdateClassificationRuleDto,
  CreateInterruptDto,
  DecidedBy,
  DecisionResponse,
  DecisionType,
  ErrorCode,
  InterruptListResponse,
  InterruptResponse,
  InterruptStatus,
  ListAuditLogData,
  ListInterruptsData,
  ListOrder,
  ListSessionsData,
  MemberDecidedBy,
  OpenedByFilter,
  SessionListResponse,
  SessionListStatus,
  SessionMessageDto,
  SessionMessageRole,
  SessionResponse,
  SessionStatus,
  StartSessionDto,
  SystemDecidedBy,
  SystemDecisionReason,
  TargetType,
  WhoamiApiKey,
  WhoamiResponse,
  EventType,
  InterruptAnsweredEvent,
  InterruptAssignedEvent,
  InterruptCreatedEvent,
  InterruptDecidedEvent,
  InterruptEscalatedEvent,
  InterruptExpiredEvent,
  InterruptUnassignedEvent,
  InterruptWithdrawnEvent,
  InterruptReminderEvent,
  InterruptApprovalAddedEvent,
  OnTimeout,
  SessionEndedEvent,
  SessionStartedEvent,
  WebhookEvent,
  WebhookTestData,
  WebhookTestEvent,
} from '../generated';

export type {
  ActorType,
  ApproveOutcome,
  ClassificationRuleMode,
  DryRunResponse,
  RejectOutcome,
  RequireHumanOutcome,
  RouteOutcome,
  RuleArgPredicate,
  RuleMatch,
  RuleOutcome,
  ArgusDecidedBy,
  Assignee,
  AssigneeFilter,
  AuditCategory,
  DecidedBy,
  MemberDecidedBy,
  SystemDecidedBy,
  SystemDecisionReason,
  DecisionType,
  ErrorCode,
  InterruptListResponse,
  InterruptStatus,
  ListOrder,
  OpenedByFilter,
  SessionListResponse,
  SessionListStatus,
  SessionMessageRole,
  SessionStatus,
  TargetType,
  WhoamiApiKey,
  EventType,
  InterruptAnsweredEvent,
  InterruptAssignedEvent,
  InterruptCreatedEvent,
  InterruptDecidedEvent,
  InterruptEscalatedEvent,
  InterruptExpiredEvent,
  InterruptUnassignedEvent,
  InterruptWithdrawnEvent,
  InterruptReminderEvent,
  InterruptApprovalAddedEvent,
  OnTimeout,
  SessionEndedEvent,
  SessionStartedEvent,
  WebhookTestData,
  WebhookTestEvent,
};

/**
 * The body of a webhook delivery, `{id, type, createdAt, organisationId, data}`: a union on
 * `type` (switch on it to narrow `data` to the interrupt, the session or the test ping). What
 * `client.webhooks.unwrap` returns.
 */
export type { WebhookEvent };

/** One proposed action, as sent: LangGraph's action request plus its review config. */
export type ActionRequest = ActionRequestDto;
/** One proposed action, as stored: `args` `{}` and `allowedDecisions` all four when not given. */
export type ActionRequestRecord = ActionRequestResponse;
/**
 * A decision on one action of an interrupt: by a member, by argus (a classification rule) or by
 * the service itself — `decidedBy.type` says which.
 */
export type Decision = DecisionResponse;
/** Who decides: `member`, `argus` (the automatic classifier) or `system`. */
export type DeciderType = DecidedBy['type'];
/**
 * A human-review request: `open` until every action request has a decision (`answered`), its
 * deadline passes (`expired`) or its agent withdraws it (`withdrawn`).
 */
export type Interrupt = InterruptResponse;
/** `timeoutSeconds` and `onTimeout` set a deadline (SPEC §8e). */
export type InterruptCreateParams = CreateInterruptDto;
/** `POST /api/interrupts/{id}/cancel`: an optional reason, shown in the inbox. */
export type InterruptCancelParams = CancelInterruptDto;
/**
 * `GET /api/interrupts` filters. `from` (inclusive) and `to` (exclusive) also take a `Date`.
 * `assignee: 'me' | 'my_teams'` name a signed-in member, so with an API key they match nothing (an empty page);
 * `openedBy: 'me'` is the key making the call.
 */
export type InterruptListParams = Omit<NonNullable<ListInterruptsData['query']>, 'from' | 'to'> & {
  from?: string | Date;
  to?: string | Date;
};

/** An agent run streamed into the Live View. */
export type Session = SessionResponse;
export type SessionStartParams = StartSessionDto;
export type SessionMessage = SessionMessageDto;
export type SessionAppendResponse = AppendMessagesResponse;
/**
 * `GET /api/sessions` filters: `status` `active`, or `ended` (ended or disconnected); `externalId`;
 * `q`, words of the name (each a prefix; case and accents ignored) or the beginning of the id.
 */
export type SessionListParams = NonNullable<ListSessionsData['query']>;

/** One entry of the organisation's append-only audit log. */
export type AuditEntry = AuditEntryResponse;
/** The same as `AuditEntry` (the name the resource `auditLog` suggests). */
export type AuditLogEntry = AuditEntryResponse;
/** `from` (inclusive) and `to` (exclusive) also take a `Date`. */
export type AuditLogListParams = Omit<NonNullable<ListAuditLogData['query']>, 'from' | 'to'> & {
  from?: string | Date;
  to?: string | Date;
};
export type AuditLogListResponse = AuditLogPage;

/** GET /api/whoami: which key this is, for which organisation, on which plan. */
export type Whoami = WhoamiResponse;

/** An argus classification rule (SPEC §8d), as the API answers it; `match` and `outcome` typed. */
export type ClassificationRule = ClassificationRuleResponse;
/** A new rule: name, mode, priority?, match, outcome, expiresAt?. */
export type ClassificationRuleCreateParams = CreateClassificationRuleDto;
/** A change to a rule: any of its fields. */
export type ClassificationRuleUpdateParams = UpdateClassificationRuleDto;
/** `POST /api/classification/dry-run`: a sample or the latest interrupts, with saved or draft rules. */
export type ClassificationDryRunParams = DryRunDto;
