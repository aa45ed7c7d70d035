# Generated from contract/openapi.json by datamodel-code-generator (tools/scripts/codegen.mjs). Do not edit.

from __future__ import annotations

from typing import Any, Literal, Optional
from uuid import UUID

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, RootModel


class AcceptInvitationDto(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    name: str = Field(..., examples=['Grace Hopper'], max_length=100, min_length=1)
    """
    The new member's name.
    """
    password: str = Field(..., max_length=200, min_length=8)


class AddTeamMemberDto(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    member_id: UUID = Field(..., alias='memberId')
    """
    A member of the organisation.
    """


class Allowance(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    included: int
    """
    Included in the organisation's plan.
    """
    used: float
    """
    Used this month (agent hours to two decimals).
    """


class ApiKeyResponse(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    created_at: AwareDatetime = Field(..., alias='createdAt')
    expires_at: Optional[AwareDatetime] = Field(..., alias='expiresAt')
    """
    null: never expires.
    """
    id: UUID
    last_used_at: Optional[AwareDatetime] = Field(..., alias='lastUsedAt')
    """
    Kept to within a minute.
    """
    name: str = Field(..., examples=['ci-runner'], max_length=32, min_length=1)
    start: str = Field(..., examples=['ilk_AbCd'])
    """
    The prefix and the first 4 letters, e.g. ilk_AbCd.
    """


class AppendMessagesResponse(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    appended: int = Field(..., ge=1, le=100)


class AssignInterruptDto(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    member_id: Optional[UUID] = Field(None, alias='memberId')
    """
    A member of the organisation (or give teamId).
    """
    team_id: Optional[UUID] = Field(None, alias='teamId')
    """
    A team of the organisation (or give memberId).
    """


class Assignee(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    id: UUID
    name: str
    """
    The name when assigned.
    """
    type: Literal['member', 'team']


class AssigneeFilter(RootModel[Literal['me', 'my_teams', 'unassigned']]):
    model_config = ConfigDict(
        populate_by_name=True,
    )
    root: Literal['me', 'my_teams', 'unassigned']


class ChangeMemberRoleDto(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    role_id: UUID = Field(..., alias='roleId')
    """
    The role to give the member.
    """


class CreateApiKeyDto(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    expiry: Literal['never', '7d', '30d', '90d']
    """
    Fixed at creation: never, or 7, 30 or 90 days.
    """
    name: str = Field(..., examples=['ci-runner'], max_length=32, min_length=1)


class CreateInvitationDto(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    email: str = Field(..., examples=['grace@example.com'], max_length=254)
    role_id: UUID = Field(..., alias='roleId')
    """
    The role the invitee joins with.
    """


class CreateTeamDto(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    name: str = Field(..., examples=['Platform'], max_length=50, min_length=1)


class CreatedApiKeyResponse(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    created_at: AwareDatetime = Field(..., alias='createdAt')
    expires_at: Optional[AwareDatetime] = Field(..., alias='expiresAt')
    """
    null: never expires.
    """
    id: UUID
    key: str = Field(..., examples=['ilk_AbCd…'])
    """
    The full key. Shown once; store it now.
    """
    last_used_at: Optional[AwareDatetime] = Field(..., alias='lastUsedAt')
    """
    Kept to within a minute.
    """
    name: str = Field(..., examples=['ci-runner'], max_length=32, min_length=1)
    start: str = Field(..., examples=['ilk_AbCd'])
    """
    The prefix and the first 4 letters, e.g. ilk_AbCd.
    """


class CreatedInvitationResponse(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    created_at: AwareDatetime = Field(..., alias='createdAt')
    email: str = Field(..., examples=['grace@example.com'], max_length=254)
    expires_at: AwareDatetime = Field(..., alias='expiresAt')
    """
    Seven days after creation.
    """
    id: UUID
    role_id: UUID = Field(..., alias='roleId')
    token: str
    """
    The one-time token for the accept link. Shown once; send it to the invitee now.
    """


class DecidedBy(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    id: UUID
    name: str
    """
    The member's name at the time of the decision.
    """


class EscalateInterruptDto(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    reason: Optional[str] = Field(None, max_length=1000, min_length=1)


class EventActor(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    id: Optional[str] = Field(...)
    name: str
    """
    As it was at the time.
    """
    type: Literal['member', 'api_key', 'system', 'argus']


class EventAssignee(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    id: UUID
    name: str
    type: Literal['member', 'team']


class EventInterrupt(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    id: UUID
    title: str


class EventSession(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    id: UUID
    name: str


class EventStreamPosition(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    seq: int = Field(..., ge=0)
    """
    The stream continues after this audit-log sequence number.
    """


class HealthStatus(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    status: Literal['ok']


class InterruptHistoryEntry(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    action: str = Field(..., examples=['interrupt.assigned'])
    """
    interrupt.created, interrupt.decided (metadata {actionName, decision, becameAnswered}), interrupt.assigned (metadata {assigneeType, assigneeId, assigneeName, previousAssigneeType, previousAssigneeId}), interrupt.escalated (metadata {level, reason}); treat others as opaque.
    """
    actor_id: Optional[str] = Field(..., alias='actorId')
    actor_name: str = Field(..., alias='actorName')
    """
    As it was at the time.
    """
    actor_type: Literal['member', 'api_key', 'system', 'argus'] = Field(
        ..., alias='actorType'
    )
    created_at: AwareDatetime = Field(..., alias='createdAt')
    id: UUID
    """
    The audit entry id.
    """
    metadata: Optional[dict[str, Any]] = Field(...)
    summary: str


class InterruptStatus(RootModel[Literal['open', 'answered']]):
    model_config = ConfigDict(
        populate_by_name=True,
    )
    root: Literal['open', 'answered']
    """
    open until every action request has a decision.
    """


class InvitationResponse(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    accepted_at: Optional[AwareDatetime] = Field(..., alias='acceptedAt')
    """
    null: not accepted yet.
    """
    created_at: AwareDatetime = Field(..., alias='createdAt')
    email: str = Field(..., examples=['grace@example.com'], max_length=254)
    expires_at: AwareDatetime = Field(..., alias='expiresAt')
    """
    Seven days after creation.
    """
    id: UUID
    role_id: UUID = Field(..., alias='roleId')


class ListOrder(RootModel[Literal['newest', 'oldest']]):
    model_config = ConfigDict(
        populate_by_name=True,
    )
    root: Literal['newest', 'oldest']


class MemberResponse(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    created_at: AwareDatetime = Field(..., alias='createdAt')
    email: str = Field(..., examples=['grace@example.com'], max_length=254)
    id: UUID
    name: str = Field(..., examples=['Grace Hopper'], max_length=100, min_length=1)
    role_id: UUID = Field(..., alias='roleId')
    role_name: str = Field(..., alias='roleName', examples=['Developer'])
    """
    The name of the member's role.
    """


class RenameApiKeyDto(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    name: str = Field(..., max_length=32, min_length=1)


class RenameTeamDto(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    name: str = Field(..., examples=['Platform'], max_length=50, min_length=1)


class RoleResponse(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    built_in: Optional[Literal['owner', 'developer', 'manager']] = Field(
        ..., alias='builtIn'
    )
    """
    owner, developer or manager for a built-in role; null for a custom role.
    """
    created_at: AwareDatetime = Field(..., alias='createdAt')
    id: UUID
    name: str = Field(..., examples=['Reviewer'], max_length=50, min_length=1)
    permissions: list[
        Literal[
            'apiKey.create',
            'apiKey.read',
            'apiKey.update',
            'apiKey.delete',
            'interrupt.decide',
            'interrupt.assign',
            'interrupt.escalate',
            'interrupt.read',
            'session.read',
            'session.disconnect',
            'webhook.manage',
            'billing.manage',
            'member.invite',
            'member.manage',
            'role.manage',
            'team.manage',
            'auditLog.read',
            'auditLog.export',
        ]
    ]


class SessionListStatus(RootModel[Literal['active', 'ended']]):
    model_config = ConfigDict(
        populate_by_name=True,
    )
    root: Literal['active', 'ended']


class SignInDto(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    email: str = Field(..., max_length=254)
    password: str = Field(..., max_length=200)


class SignUpDto(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    email: str = Field(..., max_length=254)
    name: str = Field(..., max_length=100, min_length=1)
    """
    Your name, as colleagues see it.
    """
    organisation_name: str = Field(
        ..., alias='organisationName', max_length=100, min_length=1
    )
    password: str = Field(..., max_length=200, min_length=8)


class SignedInMember(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    email: str
    id: UUID
    name: str
    role_id: UUID = Field(..., alias='roleId')


class SignedInOrganisation(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    id: UUID
    name: str
    plan: Literal['free', 'pro']


class SignedInResponse(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    member: SignedInMember
    organisation: SignedInOrganisation


class StartSessionDto(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    external_id: Optional[str] = Field(
        None, alias='externalId', max_length=200, min_length=1
    )
    metadata: Optional[dict[str, Any]] = None
    name: str = Field(..., examples=['nightly-build'], max_length=200, min_length=1)


class TabCount(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    capped: bool
    """
    true: there are more than cap (show "cap+").
    """
    count: int = Field(..., ge=0)
    """
    At most cap.
    """


class TeamResponse(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    created_at: AwareDatetime = Field(..., alias='createdAt')
    id: UUID
    member_ids: list[UUID] = Field(..., alias='memberIds')
    """
    Member ids, in the order they joined the team.
    """
    name: str = Field(..., examples=['Platform'], max_length=50, min_length=1)


class UpdateRoleDto(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    name: Optional[str] = Field(
        None, examples=['Reviewer'], max_length=50, min_length=1
    )
    """
    Omit to keep the name.
    """
    permissions: Optional[
        list[
            Literal[
                'apiKey.create',
                'apiKey.read',
                'apiKey.update',
                'apiKey.delete',
                'interrupt.decide',
                'interrupt.assign',
                'interrupt.escalate',
                'interrupt.read',
                'session.read',
                'session.disconnect',
                'webhook.manage',
                'billing.manage',
                'member.invite',
                'member.manage',
                'role.manage',
                'team.manage',
                'auditLog.read',
                'auditLog.export',
            ]
        ]
    ] = Field(None, max_length=18)
    """
    The whole new set, without repeats; omit to keep the permissions.
    """


class UsageSummary(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    agent_hours: Allowance = Field(..., alias='agentHours')
    """
    Agent hours: the month's summed session time; open sessions count up to now.
    """
    messages: Allowance
    """
    Interrupt messages: each interrupt opened counts one.
    """
    month: str = Field(..., examples=['2026-11'])
    """
    YYYY-MM, UTC.
    """
    renews_at: AwareDatetime = Field(..., alias='renewsAt')
    """
    When the allowances renew: the first instant of next month, UTC.
    """


class WhoamiApiKey(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    id: UUID
    name: str


class WhoamiResponse(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    api_key: WhoamiApiKey = Field(..., alias='apiKey')
    organisation_id: UUID = Field(..., alias='organisationId')
    plan: Literal['free', 'pro']


class ActionRequestDto(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    allowed_decisions: Optional[
        list[Literal['approve', 'edit', 'reject', 'respond']]
    ] = Field(None, alias='allowedDecisions')
    """
    Defaults to all four.
    """
    args: Optional[dict[str, Any]] = Field(
        None, examples=[{'service': 'api', 'version': '1.4.2'}]
    )
    description: Optional[str] = Field(None, max_length=10000)
    name: str = Field(..., examples=['deploy'], max_length=200, min_length=1)
    """
    Unique within the interrupt.
    """


class ActionRequestResponse(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    allowed_decisions: list[Literal['approve', 'edit', 'reject', 'respond']] = Field(
        ..., alias='allowedDecisions'
    )
    args: dict[str, Any]
    """
    {} when none were given.
    """
    description: Optional[str] = Field(...)
    name: str = Field(..., examples=['deploy'], max_length=200, min_length=1)


class ApiKeyListResponse(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    api_keys: list[ApiKeyResponse] = Field(..., alias='apiKeys')


class AuditEntryResponse(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    action: str = Field(..., examples=['api_key.created'])
    """
    <category>.<verb>; new actions may appear: treat unknown ones as opaque.
    """
    actor_id: Optional[str] = Field(None, alias='actorId')
    """
    A member's user id or an API key's id; absent for the system.
    """
    actor_name: str = Field(..., alias='actorName')
    """
    The name as it was at the time.
    """
    actor_type: Literal['member', 'api_key', 'system', 'argus'] = Field(
        ..., alias='actorType'
    )
    category: Literal[
        'interrupt',
        'session',
        'member',
        'role',
        'team',
        'api_key',
        'webhook',
        'classification',
        'settings',
        'billing',
        'organisation',
    ]
    created_at: AwareDatetime = Field(
        ..., alias='createdAt', examples=['2026-11-21T12:00:00.000Z']
    )
    """
    ISO 8601, UTC, with milliseconds.
    """
    id: UUID
    """
    Entries are never edited or removed: a seen id is final.
    """
    ip_address: Optional[str] = Field(None, alias='ipAddress')
    """
    Present when the entry came from a request.
    """
    metadata: Optional[dict[str, Any]] = Field(...)
    summary: str = Field(..., examples=['Key ci-runner created by Ada Lovelace'])
    target_id: Optional[str] = Field(None, alias='targetId')
    target_name: Optional[str] = Field(None, alias='targetName')
    target_type: Optional[
        Literal[
            'interrupt',
            'session',
            'user',
            'invitation',
            'role',
            'team',
            'api_key',
            'webhook',
            'classification',
            'organisation',
        ]
    ] = Field(None, alias='targetType')


class AuditLogPage(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    entries: list[AuditEntryResponse]
    next_cursor: Optional[str] = Field(..., alias='nextCursor')
    """
    Opaque; null at the end of the walk.
    """


class ChangePlanDto(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    plan: Literal['free', 'pro']


class CreateInterruptDto(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    action_requests: list[ActionRequestDto] = Field(
        ..., alias='actionRequests', max_length=20, min_length=1
    )
    description: Optional[str] = Field(None, max_length=10000)
    external_id: Optional[str] = Field(
        None, alias='externalId', max_length=200, min_length=1
    )
    """
    The agent's own id for this request.
    """
    metadata: Optional[dict[str, Any]] = None
    session_id: Optional[UUID] = Field(None, alias='sessionId')
    """
    A session of this organisation.
    """
    title: str = Field(..., examples=['Deploy to prod'], max_length=200, min_length=1)


class CreateRoleDto(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    name: str = Field(..., examples=['Reviewer'], max_length=50, min_length=1)
    permissions: list[
        Literal[
            'apiKey.create',
            'apiKey.read',
            'apiKey.update',
            'apiKey.delete',
            'interrupt.decide',
            'interrupt.assign',
            'interrupt.escalate',
            'interrupt.read',
            'session.read',
            'session.disconnect',
            'webhook.manage',
            'billing.manage',
            'member.invite',
            'member.manage',
            'role.manage',
            'team.manage',
            'auditLog.read',
            'auditLog.export',
        ]
    ] = Field(..., max_length=18)
    """
    Without repeats; may be empty.
    """


class CurrentSessionResponse(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    member: SignedInMember
    organisation: SignedInOrganisation
    permissions: list[
        Literal[
            'apiKey.create',
            'apiKey.read',
            'apiKey.update',
            'apiKey.delete',
            'interrupt.decide',
            'interrupt.assign',
            'interrupt.escalate',
            'interrupt.read',
            'session.read',
            'session.disconnect',
            'webhook.manage',
            'billing.manage',
            'member.invite',
            'member.manage',
            'role.manage',
            'team.manage',
            'auditLog.read',
            'auditLog.export',
        ]
    ]


class DecideInterruptDto(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    action_name: str = Field(..., alias='actionName', examples=['deploy'])
    """
    The name of one of the interrupt's action requests.
    """
    decision: Literal['approve', 'edit', 'reject', 'respond']
    """
    One of the action's allowedDecisions.
    """
    edited_args: Optional[dict[str, Any]] = Field(None, alias='editedArgs')
    """
    Required with edit, refused otherwise.
    """
    message: Optional[str] = Field(None, max_length=10000, min_length=1)
    """
    Required with respond; optional otherwise.
    """


class DecisionResponse(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    action_name: str = Field(..., alias='actionName')
    decided_at: AwareDatetime = Field(..., alias='decidedAt')
    decided_by: DecidedBy = Field(..., alias='decidedBy')
    decision: Literal['approve', 'edit', 'reject', 'respond']
    """
    Defaults to all four.
    """
    edited_args: Optional[dict[str, Any]] = Field(..., alias='editedArgs')
    """
    Set with decision edit.
    """
    id: UUID
    message: Optional[str] = Field(...)
    """
    Required with respond; optional with the others.
    """


class ErrorBody(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    code: Literal[
        'MISSING_API_KEY',
        'INVALID_API_KEY',
        'API_KEY_EXPIRED',
        'SIGN_IN_REQUIRED',
        'INVALID_CREDENTIALS',
        'MESSAGES_ALLOWANCE_EXHAUSTED',
        'AGENT_HOURS_ALLOWANCE_EXHAUSTED',
        'PLAN_REQUIRED',
        'HUMANS_ONLY',
        'MISSING_PERMISSION',
        'FORBIDDEN',
        'CSRF_REJECTED',
        'SIGNUP_CLOSED',
        'VALIDATION_FAILED',
        'NOT_FOUND',
        'CONFLICT',
        'PAYLOAD_TOO_LARGE',
        'UNSUPPORTED_MEDIA_TYPE',
        'RATE_LIMITED',
        'INTERNAL_ERROR',
        'SERVICE_UNAVAILABLE',
    ]
    """
    Stable: switch on this.
    """
    error: str = Field(..., examples=['Unauthorized'])
    """
    The status's reason phrase.
    """
    message: str = Field(..., examples=['Invalid API key.'])
    """
    Human-readable; the exact texts of SPEC §4.
    """
    request_id: str = Field(
        ..., alias='requestId', examples=['9f1c2b0e-0d3a-4c1e-9b7a-2f0e4d5c6b7a']
    )
    """
    Also sent as the x-request-id header.
    """
    status_code: int = Field(..., alias='statusCode', examples=[401])


class InterruptCountsResponse(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    answered: TabCount
    """
    Answered.
    """
    assigned_to_me: TabCount = Field(..., alias='assignedToMe')
    """
    Open and assigned to the signed-in member (directly, not through a team).
    """
    cap: int = Field(..., examples=[1000])
    """
    Where counting stops.
    """
    escalated: TabCount
    """
    Open and escalated.
    """
    open: TabCount
    """
    Open.
    """


class InterruptResponse(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    action_requests: list[ActionRequestResponse] = Field(..., alias='actionRequests')
    answered_at: Optional[AwareDatetime] = Field(..., alias='answeredAt')
    assignee: Optional[Assignee] = Field(...)
    created_at: AwareDatetime = Field(..., alias='createdAt')
    decisions: list[DecisionResponse]
    """
    In the order they were made.
    """
    description: Optional[str] = Field(...)
    escalated_at: Optional[AwareDatetime] = Field(..., alias='escalatedAt')
    escalation_level: int = Field(..., alias='escalationLevel', ge=0)
    """
    0 until escalated; each escalation adds one.
    """
    escalation_reason: Optional[str] = Field(..., alias='escalationReason')
    external_id: Optional[str] = Field(..., alias='externalId')
    id: UUID
    metadata: Optional[dict[str, Any]] = Field(...)
    session_id: Optional[UUID] = Field(..., alias='sessionId')
    status: Literal['open', 'answered']
    """
    open until every action request has a decision.
    """
    title: str = Field(..., examples=['Deploy to prod'], max_length=200, min_length=1)


class InvitationListResponse(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    invitations: list[InvitationResponse]


class LinkedSession(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    id: UUID
    name: str
    status: Literal['active', 'ended', 'disconnected']


class MemberListResponse(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    members: list[MemberResponse]


class OrganisationEvent(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    action_name: Optional[str] = Field(None, alias='actionName')
    """
    interrupt.decided.
    """
    action_names: Optional[list[str]] = Field(None, alias='actionNames')
    """
    interrupt.created: the action names.
    """
    actor: EventActor
    assignee: Optional[EventAssignee] = None
    """
    interrupt.assigned.
    """
    became_answered: Optional[bool] = Field(None, alias='becameAnswered')
    """
    interrupt.decided: this decision answered the interrupt (an interrupt.answered follows).
    """
    created_at: AwareDatetime = Field(..., alias='createdAt')
    decision: Optional[Literal['approve', 'edit', 'reject', 'respond']] = None
    """
    interrupt.decided.
    """
    external_id: Optional[str] = Field(None, alias='externalId')
    """
    interrupt.created, session.started.
    """
    interrupt: Optional[EventInterrupt] = None
    """
    interrupt.* events.
    """
    level: Optional[int] = Field(None, ge=1)
    """
    interrupt.escalated: the new level.
    """
    message_count: Optional[int] = Field(None, alias='messageCount', ge=0)
    """
    session.ended.
    """
    reason: Optional[str] = None
    """
    interrupt.escalated.
    """
    seq: int = Field(..., ge=1)
    session: Optional[EventSession] = None
    """
    session.* events.
    """
    status: Optional[Literal['active', 'ended', 'disconnected']] = None
    """
    session.ended: ended or disconnected.
    """
    type: Literal[
        'interrupt.created',
        'interrupt.decided',
        'interrupt.answered',
        'interrupt.assigned',
        'interrupt.escalated',
        'session.started',
        'session.ended',
    ]


class OrganisationResponse(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    created_at: AwareDatetime = Field(..., alias='createdAt')
    id: UUID
    name: str
    plan: Literal['free', 'pro']
    usage: UsageSummary
    """
    This month's use of the plan's allowances (SPEC §8).
    """


class RoleListResponse(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    roles: list[RoleResponse]


class SessionMessageDto(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    content: str
    """
    At most 32 kB (32768 bytes of UTF-8).
    """
    role: Literal['agent', 'user', 'tool', 'system']


class SessionResponse(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    ended_at: Optional[AwareDatetime] = Field(..., alias='endedAt')
    external_id: Optional[str] = Field(..., alias='externalId')
    id: UUID
    message_count: int = Field(..., alias='messageCount', ge=0)
    """
    Messages appended so far; the last one is numbered this.
    """
    metadata: Optional[dict[str, Any]] = Field(...)
    name: str = Field(..., examples=['nightly-build'], max_length=200, min_length=1)
    started_at: AwareDatetime = Field(..., alias='startedAt')
    status: Literal['active', 'ended', 'disconnected']


class TeamListResponse(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    teams: list[TeamResponse]


class AppendMessagesDto(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    messages: list[SessionMessageDto] = Field(..., max_length=100, min_length=1)


class InterruptDetailResponse(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    action_requests: list[ActionRequestResponse] = Field(..., alias='actionRequests')
    answered_at: Optional[AwareDatetime] = Field(..., alias='answeredAt')
    assignee: Optional[Assignee] = Field(...)
    created_at: AwareDatetime = Field(..., alias='createdAt')
    decisions: list[DecisionResponse]
    """
    In the order they were made.
    """
    description: Optional[str] = Field(...)
    escalated_at: Optional[AwareDatetime] = Field(..., alias='escalatedAt')
    escalation_level: int = Field(..., alias='escalationLevel', ge=0)
    """
    0 until escalated; each escalation adds one.
    """
    escalation_reason: Optional[str] = Field(..., alias='escalationReason')
    external_id: Optional[str] = Field(..., alias='externalId')
    history: Optional[list[InterruptHistoryEntry]] = None
    """
    With include=history: the interrupt's audit entries, oldest first (the latest 100 at most).
    """
    id: UUID
    metadata: Optional[dict[str, Any]] = Field(...)
    session: Optional[LinkedSession] = None
    """
    With include=session: the session sessionId names, or null.
    """
    session_id: Optional[UUID] = Field(..., alias='sessionId')
    status: Literal['open', 'answered']
    """
    open until every action request has a decision.
    """
    title: str = Field(..., examples=['Deploy to prod'], max_length=200, min_length=1)


class InterruptListResponse(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    interrupts: list[InterruptResponse]
    """
    Newest first.
    """
    next_cursor: Optional[str] = Field(..., alias='nextCursor')
    """
    Opaque; null on the last page.
    """


class SessionListResponse(BaseModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    next_cursor: Optional[str] = Field(..., alias='nextCursor')
    """
    Opaque; null on the last page.
    """
    sessions: list[SessionResponse]
    """
    Newest first.
    """
