"""Resource types of the Interlock API, under the names the SDK uses.

The models are generated from contract/openapi.json into ``interlock._generated`` by
datamodel-code-generator (pydantic v2; never edit them by hand): snake_case attributes with the
API's camelCase names as aliases, unknown fields kept (``extra="allow"``). This module gives them
their short public names, and adds what the generator cannot: the enumerations as ``Literal``
aliases (tests check them against the generated models) and the request shapes as ``TypedDict``s
for keyword arguments.
"""

from typing import Any, Literal, TypedDict, Union

from ._generated.models import (
    ActionRequestDto,
    ActionRequestResponse,
    AppendMessagesResponse,
    ApproveOutcome,
    ArgusDecidedBy,
    Assignee,
    AuditEntryResponse,
    AuditLogPage,
    ClassificationRuleResponse,
    DecisionResponse,
    ErrorBody,
    InterruptAnsweredEvent,
    InterruptApprovalAddedEvent,
    InterruptAssignedEvent,
    InterruptCreatedEvent,
    InterruptDecidedEvent,
    InterruptEscalatedEvent,
    InterruptExpiredEvent,
    InterruptListResponse,
    InterruptReminderEvent,
    InterruptResponse,
    InterruptUnassignedEvent,
    InterruptWithdrawnEvent,
    MemberDecidedBy,
    RejectOutcome,
    RequireHumanOutcome,
    RouteOutcome,
    RuleComparePredicate,
    RuleEqualsPredicate,
    RuleGlobPredicate,
    RuleInPredicate,
    RuleMatch,
    SessionEndedEvent,
    SessionListResponse,
    SessionMessageDto,
    SessionResponse,
    SessionStartedEvent,
    SystemDecidedBy,
    WebhookTestData,
    WebhookTestEvent,
    WhoamiApiKey,
    WhoamiResponse,
)

__all__ = [
    "ActionRequest",
    "ActionRequestParam",
    "ActionRequestRecord",
    "ActorType",
    "ApproveOutcome",
    "ApproverTeamParam",
    "ArgusDecidedBy",
    "AssignToParam",
    "Assignee",
    "AssigneeFilter",
    "AuditCategory",
    "AuditEntry",
    "AuditLogEntry",
    "AuditLogListResponse",
    "ClassificationRule",
    "ClassificationRuleMode",
    "CreateInterruptParams",
    "DecidedBy",
    "DeciderType",
    "Decision",
    "DecisionType",
    "ErrorBody",
    "Interrupt",
    "InterruptAnsweredEvent",
    "InterruptApprovalAddedEvent",
    "InterruptAssignedEvent",
    "InterruptCreatedEvent",
    "InterruptDecidedEvent",
    "InterruptEscalatedEvent",
    "InterruptExpiredEvent",
    "InterruptListResponse",
    "InterruptReminderEvent",
    "InterruptStatus",
    "InterruptUnassignedEvent",
    "InterruptWithdrawnEvent",
    "ListOrder",
    "MemberDecidedBy",
    "OnTimeout",
    "OpenedByFilter",
    "Priority",
    "RejectOutcome",
    "RequireHumanOutcome",
    "RouteOutcome",
    "RuleArgPredicate",
    "RuleMatch",
    "RuleOutcome",
    "Session",
    "SessionAppendResponse",
    "SessionEndedEvent",
    "SessionListResponse",
    "SessionListStatus",
    "SessionMessage",
    "SessionMessageParam",
    "SessionMessageRole",
    "SessionStartedEvent",
    "SessionStatus",
    "SystemDecidedBy",
    "SystemDecisionReason",
    "TargetType",
    "WebhookEventType",
    "WebhookTestData",
    "WebhookTestEvent",
    "Whoami",
    "WhoamiApiKey",
]

# Models (generated).

#: One proposed action, as sent: LangGraph's action request plus its review config.
ActionRequest = ActionRequestDto
#: One proposed action, as stored: ``args`` ``{}`` and ``allowed_decisions`` all four when not given.
ActionRequestRecord = ActionRequestResponse
#: A decision on one action of an interrupt: by a member, by argus (a classification rule) or by
#: the service itself (``decided_by.type``).
Decision = DecisionResponse
#: Who decided: ``MemberDecidedBy`` (``type`` ``member``, ``id``, ``name``), ``ArgusDecidedBy``
#: (``argus``, ``rule_id``) or ``SystemDecidedBy`` (``system``, ``reason``).
DecidedBy = Union[MemberDecidedBy, ArgusDecidedBy, SystemDecidedBy]
#: An argus classification rule (SPEC §8d): name, mode, priority, ``match``, ``outcome``, expiry.
ClassificationRule = ClassificationRuleResponse
#: One condition of a rule's ``match.args``.
RuleArgPredicate = Union[RuleEqualsPredicate, RuleInPredicate, RuleComparePredicate, RuleGlobPredicate]
#: What a rule does.
RuleOutcome = Union[ApproveOutcome, RejectOutcome, RouteOutcome, RequireHumanOutcome]
#: A human-review request: ``open`` until every action request has a decision (``answered``), its deadline
#: passes (``expired``) or its agent withdraws it (``withdrawn``).
Interrupt = InterruptResponse
#: An agent run streamed into the Live View.
Session = SessionResponse
SessionMessage = SessionMessageDto
SessionAppendResponse = AppendMessagesResponse
#: One entry of the organisation's append-only audit log.
AuditEntry = AuditEntryResponse
#: The same as ``AuditEntry`` (the name the resource ``audit_log`` suggests).
AuditLogEntry = AuditEntryResponse
AuditLogListResponse = AuditLogPage
#: GET /api/whoami: which key this is, for which organisation, on which plan.
Whoami = WhoamiResponse

# Enumerations of the contract, for annotating arguments.

DecisionType = Literal["approve", "edit", "reject", "respond"]
DeciderType = Literal["member", "argus", "system"]
ClassificationRuleMode = Literal["off", "shadow", "enforce"]
SystemDecisionReason = Literal["timeout"]
InterruptStatus = Literal["open", "answered", "expired", "withdrawn"]
#: What an interrupt's deadline does (``interrupts.create(on_timeout=…)``).
OnTimeout = Literal["reject", "approve", "escalate"]
#: How urgent an interrupt is (``interrupts.create(priority=…)``); ``normal`` by default.
Priority = Literal["low", "normal", "high", "urgent"]
SessionMessageRole = Literal["agent", "user", "tool", "system"]
SessionStatus = Literal["active", "ended", "disconnected"]
AuditCategory = Literal[
    "interrupt",
    "session",
    "member",
    "role",
    "team",
    "api_key",
    "webhook",
    "classification",
    "settings",
    "billing",
    "organisation",
]
ActorType = Literal["member", "api_key", "system", "argus"]
#: The event types webhooks deliver (``webhook.test`` is sent on request, not subscribed to).
WebhookEventType = Literal[
    "interrupt.created",
    "interrupt.decided",
    "interrupt.answered",
    "interrupt.assigned",
    "interrupt.unassigned",
    "interrupt.escalated",
    "interrupt.expired",
    "interrupt.withdrawn",
    "interrupt.reminder",
    "interrupt.approval_added",
    "session.started",
    "session.ended",
    "webhook.test",
]
#: ``interrupts.list(assignee=…)``: ``me`` and ``my_teams`` name a signed-in member (nothing is assigned to a key).
AssigneeFilter = Literal["me", "my_teams", "unassigned"]
#: ``interrupts.list(opened_by="me")``: the interrupts the calling API key opened.
OpenedByFilter = Literal["me"]
#: ``interrupts.list(order=…)``: by creation (``newest``, ``oldest``), or ``deadline``: soonest first, none last.
ListOrder = Literal["newest", "oldest", "deadline"]
#: ``sessions.list(status=…)``: ``ended`` is every session no longer active (ended or disconnected).
SessionListStatus = Literal["active", "ended"]
TargetType = Literal[
    "interrupt",
    "session",
    "user",
    "invitation",
    "role",
    "team",
    "api_key",
    "webhook",
    "classification",
    "organisation",
]

# Request shapes, as plain dicts (snake_case keys; camelCase keys are accepted too).


class _ActionRequestRequired(TypedDict):
    name: str


class ApproverTeamParam(TypedDict, total=False):
    """The team whose members alone may decide an action: ``team_id`` or ``team_name`` (one of them)."""

    team_id: str
    team_name: str


class AssignToParam(TypedDict, total=False):
    """Whom an interrupt is assigned to as it opens (``interrupts.create(assign_to=…)``): exactly one of
    ``member_id`` or ``email`` (a member), ``team_id`` or ``team_name`` (a team) of the organisation."""

    member_id: str
    email: str
    team_id: str
    team_name: str


class ActionRequestParam(_ActionRequestRequired, total=False):
    args: dict[str, Any]
    description: str
    allowed_decisions: list[DecisionType]
    #: Typed input: the JSON Schema a ``respond`` answers with (see ``interlock.ask``).
    response_schema: dict[str, Any]
    #: How many distinct members must approve (1 … 5, default 1); one rejection rejects.
    required_approvals: int
    approver_team: ApproverTeamParam


class SessionMessageParam(TypedDict):
    role: SessionMessageRole
    content: str


class _CreateInterruptRequired(TypedDict):
    title: str
    action_requests: list[ActionRequestParam]


class CreateInterruptParams(_CreateInterruptRequired, total=False):
    """Keyword arguments of ``interrupts.create`` (what ``interrupt_from_langgraph`` returns)."""

    description: str
    external_id: str
    session_id: str
    metadata: dict[str, Any]
