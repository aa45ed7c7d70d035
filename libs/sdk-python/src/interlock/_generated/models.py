# Generated from contract/openapi.json by datamodel-code-generator (tools/scripts/codegen.mjs). Do not edit.

from __future__ import annotations

from typing import Any, Literal, Optional, Union

from interlock._models import InterlockModel
from pydantic import AwareDatetime, ConfigDict, Field, RootModel


class AcceptInvitationDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    email_proof: Optional[str] = Field(
        None, alias='emailProof', max_length=100, pattern='^[^\\u0000]*$'
    )
    """
    The part after the # of the invitation email's link: it proves the address (only that mailbox has it), so the account's address counts as verified.
    """
    name: str = Field(
        ...,
        examples=['Grace Hopper'],
        max_length=100,
        min_length=1,
        pattern='^[^\\u0000]*[^\\u0000\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff][^\\u0000]*$',
    )
    """
    The new member's name.
    """
    password: str = Field(..., max_length=200, min_length=8, pattern='^[^\\u0000]*$')


class AccountSignInSession(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    created_at: AwareDatetime = Field(..., alias='createdAt')
    """
    When this sign-in happened.
    """
    current: bool
    """
    Whether this is the session making the request.
    """
    ends_at: AwareDatetime = Field(..., alias='endsAt')
    """
    When it ends unless used again: the idle timeout after lastUsedAt, or its absolute end (30 days after sign-in), whichever is sooner.
    """
    id: str
    ip_address: Optional[str] = Field(..., alias='ipAddress')
    """
    The client address of its latest use.
    """
    last_used_at: AwareDatetime = Field(..., alias='lastUsedAt')
    """
    Its latest use (to within a minute).
    """
    user_agent: Optional[str] = Field(..., alias='userAgent')
    """
    The User-Agent of its latest use (up to 512 characters).
    """


class AccountSignInSessionsResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    sessions: list[AccountSignInSession]
    """
    The most recently used first.
    """


class AccountUser(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    email: str
    email_verified: bool = Field(..., alias='emailVerified')
    """
    Whether the person proved this address by a link emailed to it (SPEC §8f). Accepting invitations and receiving notifications wait for it where the server requires verification.
    """
    id: str
    name: str


class Args(InterlockModel):
    pass
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )


class ResponseSchema(InterlockModel):
    """
    Typed input: the answer a person gives with respond, as JSON Schema — an object of string, number, integer, boolean, enum and arrays of those (title, description, required, default, minLength/maxLength, minimum/maximum, minItems/maxItems, uniqueItems; nothing else). The dashboard renders it as a form; a respond on this action must carry a response valid against it. Requires respond among allowedDecisions.
    """

    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )


class AddTeamMemberDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    member_id: str = Field(..., alias='memberId')
    """
    A member of the organisation.
    """


class Allowance(InterlockModel):
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


class ApiKeyResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    created_at: AwareDatetime = Field(..., alias='createdAt')
    expires_at: Optional[AwareDatetime] = Field(..., alias='expiresAt')
    """
    null: never expires.
    """
    id: str
    last_used_at: Optional[AwareDatetime] = Field(..., alias='lastUsedAt')
    """
    Kept to within a minute.
    """
    name: str = Field(..., examples=['ci-runner'], max_length=32, min_length=1)
    start: str = Field(..., examples=['ilk_AbCd'])
    """
    The prefix and the first 4 letters, e.g. ilk_AbCd.
    """


class AppendMessagesResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    appended: int = Field(..., ge=1, le=100)


class ApplySuggestionDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    mode: Union[Literal['shadow', 'enforce'], str]
    """
    shadow: record what the rule would do first; enforce: approve from now on.
    """


class ApprovalResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    approved_at: AwareDatetime = Field(..., alias='approvedAt')
    member_id: str = Field(..., alias='memberId')
    """
    The member's user id.
    """
    member_name: str = Field(..., alias='memberName')
    """
    The member's name at the time of the approval.
    """


class ApproveDecision(InterlockModel):
    """
    Run the action as the agent asked.
    """

    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    action_name: str = Field(
        ...,
        alias='actionName',
        examples=['deploy'],
        max_length=200,
        min_length=1,
        pattern='^[^\\u0000]*$',
    )
    """
    The name of one of the interrupt's action requests.
    """
    decision: Union[Literal['approve'], str]
    message: Optional[str] = Field(
        None,
        max_length=10000,
        min_length=1,
        pattern='^[^\\u0000]*[^\\u0000\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff][^\\u0000]*$',
    )
    """
    Required with respond unless it carries a response; optional otherwise.
    """


class ApproveOutcome(InterlockModel):
    """
    Approve the action (only where it allows approve).
    """

    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    type: Union[Literal['approve'], str]


class ApproverTeam(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    id: str
    name: str
    """
    The name when the interrupt opened.
    """


class ApproverTeamDto(InterlockModel):
    """
    The team whose members alone may decide the action: by id (teamId) or by name (teamName), exactly one.
    """

    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    team_id: Optional[str] = Field(None, alias='teamId')
    """
    The team, by id (or give teamName).
    """
    team_name: Optional[str] = Field(
        None, alias='teamName', max_length=200, min_length=1, pattern='^[^\\u0000]*$'
    )
    """
    The team, by name (or give teamId).
    """


class ArgusDecidedBy(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    name: Union[Literal['argus'], str]
    rule_id: str = Field(..., alias='ruleId')
    """
    The classification rule that decided.
    """
    type: Union[Literal['argus'], str]


class AssignToDto(InterlockModel):
    """
    Whom to assign the interrupt to as it opens: a member by memberId or email, or a team by teamId or teamName — exactly one.
    """

    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    email: Optional[str] = Field(
        None,
        examples=['grace@example.com'],
        max_length=254,
        min_length=3,
        pattern='^[^\\u0000]*$',
    )
    """
    A member of the organisation, by email address (trimmed, compared case-insensitively).
    """
    member_id: Optional[str] = Field(None, alias='memberId')
    """
    A member of the organisation, by id.
    """
    team_id: Optional[str] = Field(None, alias='teamId')
    """
    A team of the organisation, by id.
    """
    team_name: Optional[str] = Field(
        None, alias='teamName', max_length=200, min_length=1, pattern='^[^\\u0000]*$'
    )
    """
    A team of the organisation, by name.
    """


class AssignToMember(InterlockModel):
    """
    Assign to a member of the organisation.
    """

    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    member_id: Optional[str] = Field(..., alias='memberId')
    """
    A member of the organisation (or give teamId); null unassigns the interrupt.
    """


class AssignToTeam(InterlockModel):
    """
    Assign to a team of the organisation.
    """

    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    team_id: str = Field(..., alias='teamId')
    """
    A team of the organisation (or give memberId).
    """


class Assignee(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    id: str
    name: str
    """
    The name when assigned.
    """
    type: Union[Literal['member', 'team'], str]


class AssigneeFilter(RootModel[Union[Literal['me', 'my_teams', 'unassigned'], str]]):
    model_config = ConfigDict(
        populate_by_name=True,
    )
    root: Union[Literal['me', 'my_teams', 'unassigned'], str]


class CancelInterruptDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    reason: Optional[str] = Field(
        None,
        max_length=1000,
        min_length=1,
        pattern='^[^\\u0000]*[^\\u0000\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff][^\\u0000]*$',
    )
    """
    Why the agent no longer needs the review; shown in the inbox.
    """


class ChangeEmailDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    email: str = Field(..., max_length=254)
    """
    The new address: it takes effect once the link emailed to it is opened.
    """
    password: str = Field(..., max_length=200, pattern='^[^\\u0000]*$')
    """
    Your current password.
    """


class ChangeMemberRoleDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    role_id: str = Field(..., alias='roleId')
    """
    The role to give the member.
    """


class ChangePasswordDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    current_password: str = Field(
        ..., alias='currentPassword', max_length=200, pattern='^[^\\u0000]*$'
    )
    new_password: str = Field(
        ..., alias='newPassword', max_length=200, min_length=8, pattern='^[^\\u0000]*$'
    )


class ClassificationDisagreement(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    action_name: str = Field(..., alias='actionName')
    decided_at: AwareDatetime = Field(..., alias='decidedAt')
    decided_by_name: Optional[str] = Field(..., alias='decidedByName')
    """
    The person, by name at the time.
    """
    decision: str
    """
    What the person decided: approve, edit, reject or respond.
    """
    interrupt_id: str = Field(..., alias='interruptId')
    outcome: str
    """
    What the rule would have done: approve or reject.
    """
    title: str


class ClassificationEnforceStats(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    decided: int
    """
    Of those, the actions it decided.
    """
    matched: int
    """
    Actions the rule matched in enforce mode.
    """


class ClassificationRuleMode(RootModel[Union[Literal['off', 'shadow', 'enforce'], str]]):
    model_config = ConfigDict(
        populate_by_name=True,
    )
    root: Union[Literal['off', 'shadow', 'enforce'], str]


class ClassificationRuleOrigin(
    RootModel[Union[Literal['member', 'always_allow', 'suggestion'], str]]
):
    model_config = ConfigDict(
        populate_by_name=True,
    )
    root: Union[Literal['member', 'always_allow', 'suggestion'], str]
    """
    member: written in the editor or the API; always_allow: made by "Always allow this" on an interrupt; suggestion: applied from a suggestion.
    """


class ClassificationRulePause(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    action_name: str = Field(..., alias='actionName')
    at: AwareDatetime
    by_name: str = Field(..., alias='byName')
    """
    Who rejected it, by name at the time.
    """
    interrupt_id: str = Field(..., alias='interruptId')
    """
    The interrupt whose action was rejected.
    """


class ClassificationShadowStats(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    agreed: int
    """
    Of those, the actions the person decided as the rule would have.
    """
    decided_by_people: int = Field(..., alias='decidedByPeople')
    """
    Of those, the actions a person has since decided.
    """
    matched: int
    """
    Actions the rule matched in shadow mode.
    """
    would_decide: int = Field(..., alias='wouldDecide')
    """
    Of those, the actions it would have decided (approve or reject, allowed by the action).
    """


class ClassifierResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    created_at: AwareDatetime = Field(..., alias='createdAt')
    enabled: bool
    previous_secret_expires_at: Optional[AwareDatetime] = Field(
        ..., alias='previousSecretExpiresAt'
    )
    """
    After a rotation: until when the previous secret signs beside the new one.
    """
    timeout_ms: float = Field(..., alias='timeoutMs', ge=100.0, le=10000.0)
    updated_at: AwareDatetime = Field(..., alias='updatedAt')
    url: str


class ClassifierSecretResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    classifier: ClassifierResponse
    secret: str
    """
    The new signing secret: shown this once.
    """


class ClassifierSettingsResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    classifier: Optional[ClassifierResponse] = Field(...)
    """
    null: none is set up.
    """


class CompleteSignUpDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    token: str = Field(..., max_length=4000, pattern='^[^\\u0000]*$')
    """
    The token from the sign-up link (the part after the link's #).
    """


class ConfirmEmailChangeDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    token: str = Field(..., max_length=200, pattern='^[^\\u0000]*$')
    """
    The token from the link emailed to the new address (the part after the link's #).
    """


class CreateApiKeyDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    expiry: Union[Literal['never', '7d', '30d', '90d'], str]
    """
    Fixed at creation: never, or 7, 30 or 90 days.
    """
    name: str = Field(
        ...,
        examples=['ci-runner'],
        max_length=32,
        min_length=1,
        pattern='^[^\\u0000]*[^\\u0000\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff][^\\u0000]*$',
    )


class Metadata(InterlockModel):
    pass
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )


class CreateInvitationDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    email: str = Field(..., examples=['grace@example.com'], max_length=254)
    role_id: str = Field(..., alias='roleId')
    """
    The role the invitee joins with.
    """


class CreateOrganisationDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    name: str = Field(
        ...,
        examples=['Acme staging'],
        max_length=100,
        min_length=1,
        pattern='^[^\\u0000]*[^\\u0000\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff][^\\u0000]*$',
    )


class CreateTeamDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    name: str = Field(
        ...,
        examples=['Platform'],
        max_length=50,
        min_length=1,
        pattern='^[^\\u0000]*[^\\u0000\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff][^\\u0000]*$',
    )


class CreatedApiKeyResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    created_at: AwareDatetime = Field(..., alias='createdAt')
    expires_at: Optional[AwareDatetime] = Field(..., alias='expiresAt')
    """
    null: never expires.
    """
    id: str
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


class CreatedInvitationResponse(InterlockModel):
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
    id: str
    role_id: str = Field(..., alias='roleId')
    token: str
    """
    The one-time token for the accept link. Shown once; send it to the invitee now.
    """


class DecideWithActionLinkDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    message: Optional[str] = Field(
        None,
        max_length=10000,
        min_length=1,
        pattern='^[^\\u0000]*[^\\u0000\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff][^\\u0000]*$',
    )
    """
    A message for the agent (a reason for a rejection).
    """
    token: str = Field(
        ..., examples=['al1.eyJv….mac'], max_length=4096, pattern='^[^\\u0000]*$'
    )
    """
    The token of an emailed action link (the part after '#' in the link). It is a credential: it names the member who decides.
    """


class DecisionType(RootModel[Union[Literal['approve', 'edit', 'reject', 'respond'], str]]):
    model_config = ConfigDict(
        populate_by_name=True,
    )
    root: Union[Literal['approve', 'edit', 'reject', 'respond'], str]


class DryRunActionDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    allowed_decisions: Optional[
        list[Union[Literal['approve', 'edit', 'reject', 'respond'], str]]
    ] = Field(None, alias='allowedDecisions', min_length=1)
    args: Optional[Args] = None
    name: str = Field(..., max_length=200, min_length=1, pattern='^[^\\u0000]*$')


class DryRunSampleDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    action_requests: list[DryRunActionDto] = Field(
        ..., alias='actionRequests', max_length=20, min_length=1
    )
    key_id: Optional[str] = Field(None, alias='keyId')
    """
    The API key that would open it.
    """
    session_id: Optional[str] = Field(None, alias='sessionId')
    title: str = Field('', max_length=200, min_length=0, pattern='^[^\\u0000]*$')


class EditedArgs(InterlockModel):
    """
    Required with edit, refused otherwise.
    """

    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )


class EditDecision(InterlockModel):
    """
    Run the action with other arguments (and, optionally, another name).
    """

    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    action_name: str = Field(
        ...,
        alias='actionName',
        examples=['deploy'],
        max_length=200,
        min_length=1,
        pattern='^[^\\u0000]*$',
    )
    """
    The name of one of the interrupt's action requests.
    """
    decision: Union[Literal['edit'], str]
    edited_args: EditedArgs = Field(..., alias='editedArgs')
    """
    Required with edit, refused otherwise.
    """
    edited_name: Optional[str] = Field(
        None,
        alias='editedName',
        examples=['send_draft'],
        max_length=200,
        min_length=1,
        pattern='^[^\\u0000]*[^\\u0000\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff][^\\u0000]*$',
    )
    """
    Optional with edit, refused otherwise: the name of the action to run instead.
    """
    message: Optional[str] = Field(
        None,
        max_length=10000,
        min_length=1,
        pattern='^[^\\u0000]*[^\\u0000\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff][^\\u0000]*$',
    )
    """
    Required with respond unless it carries a response; optional otherwise.
    """


class EmailChangePendingResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    email: str
    """
    The address a link was emailed to (normalised); the account keeps its own until the link is opened.
    """


class EscalateInterruptDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    reason: Optional[str] = Field(
        None,
        max_length=1000,
        min_length=1,
        pattern='^[^\\u0000]*[^\\u0000\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff][^\\u0000]*$',
    )


class EscalationAssigneeDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    member_id: Optional[str] = Field(None, alias='memberId')
    """
    A member of the organisation (or teamId).
    """
    team_id: Optional[str] = Field(None, alias='teamId')
    """
    A team of the organisation (or memberId).
    """


class EscalationAssigneeResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    member_id: Optional[str] = Field(None, alias='memberId')
    team_id: Optional[str] = Field(None, alias='teamId')


class EscalationPolicyTeam(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    id: str
    name: str


class EscalationStepDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    action: Union[Literal['remind', 'escalate'], str]
    """
    remind: the assignee (or, unassigned, the readers) hears the interrupt still waits; escalate: its escalation level rises (and assignTo, when given, takes it).
    """
    after_minutes: int = Field(..., alias='afterMinutes', ge=1, le=43200)
    """
    Minutes after the interrupt opened; each step later than the one before.
    """
    assign_to: Optional[EscalationAssigneeDto] = Field(None, alias='assignTo')
    """
    escalate only: the member or team the interrupt is assigned to.
    """
    when: Union[Literal['undecided', 'unassigned'], str] = 'undecided'
    """
    undecided (the default): while the interrupt is open; unassigned: only while nobody is assigned either.
    """


class EscalationStepResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    action: Union[Literal['remind', 'escalate'], str]
    after_minutes: int = Field(..., alias='afterMinutes', ge=1, le=43200)
    assign_to: Optional[EscalationAssigneeResponse] = Field(..., alias='assignTo')
    when: Union[Literal['undecided', 'unassigned'], str]


class EventActor(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    id: Optional[str] = Field(...)
    name: str
    """
    As it was at the time.
    """
    type: Union[Literal['member', 'api_key', 'system', 'argus'], str]


class EventAssignee(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    id: str
    name: str
    type: Union[Literal['member', 'team'], str]


class EventInterrupt(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    id: str
    title: str


class EventSession(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    id: str
    name: str


class EventStreamPosition(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    seq: int = Field(..., ge=0)
    """
    The stream continues after this audit-log sequence number.
    """


class ExtendDeadlineDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    timeout_seconds: int = Field(..., alias='timeoutSeconds', ge=1, le=2592000)
    """
    The new deadline, in seconds from now: later than the current one, within the organisation's maximum.
    """


class FinishSsoDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    callback_query: str = Field(
        ...,
        alias='callbackQuery',
        examples=['?code=…&state=…&iss=…'],
        max_length=4096,
        pattern='^[^\\u0000]*$',
    )
    """
    The query string of the dashboard page the provider redirected to (`<DASHBOARD_URL>/sso/callback`), as received.
    """


class HealthStatus(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    status: Union[Literal['ok'], str]


class InterruptDeadlineSettingsResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    approve_on_timeout_allowed: bool = Field(..., alias='approveOnTimeoutAllowed')
    """
    Whether an agent may ask for onTimeout: approve. Off, such an interrupt is refused at creation, and one already open is rejected at its deadline instead.
    """
    default_timeout_seconds: Optional[int] = Field(
        ..., alias='defaultTimeoutSeconds', ge=1, le=2592000
    )
    """
    The deadline, in seconds, of an interrupt opened without timeoutSeconds; null: such interrupts wait without a deadline.
    """
    max_timeout_seconds: int = Field(..., alias='maxTimeoutSeconds', ge=1, le=2592000)
    """
    The longest deadline an agent (timeoutSeconds) or a member (extend) may set, in seconds.
    """


class InterruptHistoryEntry(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    action: str = Field(..., examples=['interrupt.assigned'])
    """
    interrupt.created, interrupt.decided (metadata {actionName, decision, becameAnswered}), interrupt.assigned (metadata {assigneeType, assigneeId, assigneeName, previousAssigneeType, previousAssigneeId, previousAssigneeName}), interrupt.unassigned (metadata {previousAssigneeType, previousAssigneeId, previousAssigneeName}), interrupt.escalated (metadata {level, reason}); treat others as opaque.
    """
    actor_id: Optional[str] = Field(..., alias='actorId')
    actor_name: str = Field(..., alias='actorName')
    """
    As it was at the time.
    """
    actor_type: Union[Literal['member', 'api_key', 'system', 'argus'], str] = Field(
        ..., alias='actorType'
    )
    created_at: AwareDatetime = Field(..., alias='createdAt')
    id: str
    """
    The audit entry id.
    """
    metadata: Optional[dict[str, Any]] = Field(...)
    summary: str


class InterruptLabel(RootModel[str]):
    model_config = ConfigDict(
        populate_by_name=True,
    )
    root: str = Field(
        ..., max_length=50, min_length=1, pattern='^[A-Za-z0-9_.:/+-]{1,50}$'
    )
    """
    A label: 1 to 50 ASCII letters, digits and _ . : / + - (no spaces).
    """


class InterruptStatus(RootModel[Union[Literal['open', 'answered', 'expired', 'withdrawn'], str]]):
    model_config = ConfigDict(
        populate_by_name=True,
    )
    root: Union[Literal['open', 'answered', 'expired', 'withdrawn'], str]
    """
    open until every action request has a decision (answered), its deadline passes (expired) or its agent withdraws it (withdrawn). Every status but open is final.
    """


class InvitationPreviewResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    email: str
    """
    The address it was sent to: the account that may accept it.
    """
    expires_at: AwareDatetime = Field(..., alias='expiresAt')
    organisation_name: str = Field(..., alias='organisationName', examples=['Acme'])
    role_name: str = Field(..., alias='roleName', examples=['Developer'])


class InvitationResponse(InterlockModel):
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
    id: str
    role_id: str = Field(..., alias='roleId')


class JoinInvitationDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    email_proof: Optional[str] = Field(
        None, alias='emailProof', max_length=100, pattern='^[^\\u0000]*$'
    )
    """
    The part after the # of the invitation email's link: it proves the address (only that mailbox has it), so the account's address counts as verified.
    """


class ListOrder(RootModel[Union[Literal['newest', 'oldest', 'deadline'], str]]):
    model_config = ConfigDict(
        populate_by_name=True,
    )
    root: Union[Literal['newest', 'oldest', 'deadline'], str]


class MemberDecidedBy(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    id: str
    """
    The member's user id.
    """
    name: str
    """
    The member's name at the time of the decision.
    """
    type: Union[Literal['member'], str]


class MemberResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    created_at: AwareDatetime = Field(..., alias='createdAt')
    """
    When they joined the organisation (their current membership began).
    """
    email: str = Field(..., examples=['grace@example.com'], max_length=254)
    id: str
    """
    The member's id: their user id, the same in every organisation they belong to.
    """
    name: str = Field(..., examples=['Grace Hopper'], max_length=100, min_length=1)
    role_id: str = Field(..., alias='roleId')
    role_name: str = Field(..., alias='roleName', examples=['Developer'])
    """
    The name of the member's role.
    """


class MySingleSignOnOrganisation(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    issuer: str
    """
    The organisation's OpenID provider (its issuer URL).
    """
    linked_at: Optional[AwareDatetime] = Field(..., alias='linkedAt')
    """
    Since when your account is linked to that provider (it signs you in to this organisation); null: not linked yet — single sign-on from a browser holding your password sign-in session links it.
    """
    organisation_id: str = Field(..., alias='organisationId')
    organisation_name: str = Field(..., alias='organisationName')


class MySingleSignOnResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    organisations: list[MySingleSignOnOrganisation]
    """
    The organisations you are a member of whose provider signs in your address (its domain verified by them): at most one, since a verified domain is one organisation’s.
    """


class NextEscalationStep(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    action: Union[Literal['remind', 'escalate'], str]
    after_minutes: int = Field(..., alias='afterMinutes', ge=1)
    assign_to: Optional[Assignee] = Field(..., alias='assignTo')
    """
    escalate: who gets the interrupt, named as now (null: nobody new, or a member who left / a team deleted since).
    """
    due_at: AwareDatetime = Field(..., alias='dueAt')
    """
    When it is due; in the past when it is due already (the escalation job applies it within about 15 s).
    """
    step: int = Field(..., ge=1)
    """
    The step's number in its policy (1 is the first).
    """
    when: Union[Literal['undecided', 'unassigned'], str]
    """
    unassigned: it acts only if nobody holds the interrupt then.
    """


class OpenedBy(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    id: str
    name: str
    """
    The key's name when it opened the interrupt (keys are renamed, and deleted when revoked).
    """
    type: Union[Literal['api_key'], str]


class OpenedByFilter(RootModel[Union[Literal['me'], str]]):
    model_config = ConfigDict(
        populate_by_name=True,
    )
    root: Union[Literal['me'], str]


class PasswordResetConfirmDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    password: str = Field(..., max_length=200, min_length=8, pattern='^[^\\u0000]*$')
    token: str = Field(..., max_length=200, pattern='^[^\\u0000]*$')
    """
    The token from the reset link (the part after the link's #).
    """


class PasswordResetRequestDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    email: str = Field(..., max_length=254)


class PolicyOutcome(InterlockModel):
    """
    Cedar policies decide (validated against the schema on save; SPEC §8d): permit approves, forbid rejects with its @message, neither leaves the action to later rules; an evaluation error sends it to a person.
    """

    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    policy: str = Field(
        ...,
        examples=[
            'permit (principal, action, resource) when { resource.name == "refund" };'
        ],
        max_length=20000,
        min_length=1,
        pattern='^[^\\u0000]*[^\\u0000\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff][^\\u0000]*$',
    )
    type: Union[Literal['policy'], str]


class PreviewActionLinkDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    token: str = Field(
        ..., examples=['al1.eyJv….mac'], max_length=4096, pattern='^[^\\u0000]*$'
    )
    """
    The token of an emailed action link (the part after '#' in the link). It is a credential: it names the member who decides.
    """


class PutClassifierDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    enabled: bool = True
    """
    Off: argus asks nothing (the setup is kept).
    """
    timeout_ms: float = Field(2000, alias='timeoutMs', ge=100.0, le=10000.0)
    """
    How long argus waits for an answer (the lookup included); past it the action goes to a person.
    """
    url: str = Field(
        ...,
        examples=['https://risk.example.com/interlock/classify'],
        max_length=2048,
        pattern='^(https://[A-Za-z][A-Za-z0-9-]*([.][A-Za-z][A-Za-z0-9-]*)*|http://(localhost|127[.]0[.]0[.]1|\\[::1\\]))(:[0-9]{1,4})?(/[^\\u0000]*)?$',
    )
    """
    https (http only to loopback, outside production). No credentials; in production no private, loopback, link-local or metadata address. Redirects are never followed.
    """


class AllowedDomain(RootModel[str]):
    model_config = ConfigDict(
        populate_by_name=True,
    )
    root: str = Field(..., pattern='^[^\\u0000]*$')


class PutSsoConnectionDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    allowed_domains: list[AllowedDomain] = Field(
        ...,
        alias='allowedDomains',
        examples=[['example.com']],
        max_length=20,
        min_length=1,
    )
    """
    Email domains (lower-case) whose people sign in with this provider once each is verified by DNS (see domains); not a public email domain, nor one another organisation has verified.
    """
    client_id: str = Field(
        ..., alias='clientId', max_length=255, min_length=1, pattern='^[^\\u0000]*$'
    )
    client_secret: Optional[str] = Field(
        None,
        alias='clientSecret',
        max_length=1024,
        min_length=1,
        pattern='^[^\\u0000]*$',
    )
    """
    The client secret; required when connecting, left out to keep the stored one. Stored encrypted, never shown again.
    """
    default_role_id: str = Field(..., alias='defaultRoleId')
    """
    The role a person gets when their first sign-in makes them a member (not the Owner role; no permission you do not hold).
    """
    issuer: str = Field(
        ...,
        examples=['https://login.example.com/realms/acme'],
        max_length=2048,
        pattern='^[^\\u0000]*$',
    )
    """
    The provider's issuer URL (its discovery document is at `<issuer>/.well-known/openid-configuration`, read when saving). https (http only outside production).
    """


class PutSsoRequirementDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    require_sso: bool = Field(..., alias='requireSso')
    """
    true: members sign in with single sign-on only (a password sign-in no longer acts for the organisation; Owners' is the audited break-glass path). Needs a provider that has signed someone in.
    """


class PutTwoFactorRequirementDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    require_two_factor: bool = Field(..., alias='requireTwoFactor')
    """
    true: a member signed in with a password acts for the organisation only once two-factor sign-in is on for their account (until then every request for it answers 403 TWO_FACTOR_ENROLMENT_REQUIRED, and only their own account settings work); single sign-on sessions follow the provider’s policy. API keys are not affected.
    """


class Quota(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    included: int
    """
    The most the organisation's plan includes.
    """
    used: int
    """
    Held now.
    """


class RecoveryCodesResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    recovery_codes: list[str] = Field(
        ..., alias='recoveryCodes', examples=[['k7m2p-x9q4r']]
    )


class RejectDecision(InterlockModel):
    """
    Do not run the action; optionally say why.
    """

    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    action_name: str = Field(
        ...,
        alias='actionName',
        examples=['deploy'],
        max_length=200,
        min_length=1,
        pattern='^[^\\u0000]*$',
    )
    """
    The name of one of the interrupt's action requests.
    """
    decision: Union[Literal['reject'], str]
    message: Optional[str] = Field(
        None,
        max_length=10000,
        min_length=1,
        pattern='^[^\\u0000]*[^\\u0000\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff][^\\u0000]*$',
    )
    """
    Required with respond unless it carries a response; optional otherwise.
    """


class RejectOutcome(InterlockModel):
    """
    Reject the action with the message the agent receives (only where it allows reject).
    """

    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    message: str = Field(
        ...,
        max_length=1000,
        min_length=1,
        pattern='^[^\\u0000]*[^\\u0000\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff][^\\u0000]*$',
    )
    type: Union[Literal['reject'], str]


class RenameApiKeyDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    name: str = Field(
        ...,
        max_length=32,
        min_length=1,
        pattern='^[^\\u0000]*[^\\u0000\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff][^\\u0000]*$',
    )


class RenameTeamDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    name: str = Field(
        ...,
        examples=['Platform'],
        max_length=50,
        min_length=1,
        pattern='^[^\\u0000]*[^\\u0000\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff][^\\u0000]*$',
    )


class RequireHumanOutcome(InterlockModel):
    """
    Leave the action for a person, and stop later rules from deciding it.
    """

    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    type: Union[Literal['require_human'], str]


class Response(InterlockModel):
    """
    With respond on an action that has a responseSchema (required there; refused on other actions): the typed answer, valid against the action's responseSchema.
    """

    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )


class RespondDecision(InterlockModel):
    """
    Answer instead of running the action: a message, or (an action with a responseSchema) a response valid against it, or both.
    """

    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    action_name: str = Field(
        ...,
        alias='actionName',
        examples=['deploy'],
        max_length=200,
        min_length=1,
        pattern='^[^\\u0000]*$',
    )
    """
    The name of one of the interrupt's action requests.
    """
    decision: Union[Literal['respond'], str]
    message: Optional[str] = Field(
        None,
        max_length=10000,
        min_length=1,
        pattern='^[^\\u0000]*[^\\u0000\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff][^\\u0000]*$',
    )
    """
    Required with respond unless it carries a response; optional otherwise.
    """
    response: Optional[Response] = Field(
        None, examples=[{'region': 'eu-west-1', 'replicas': 3}]
    )
    """
    With respond on an action that has a responseSchema (required there; refused on other actions): the typed answer, valid against the action's responseSchema.
    """


class RoleResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    built_in: Optional[Union[Literal['owner', 'developer', 'manager'], str]] = Field(
        ..., alias='builtIn'
    )
    """
    owner, developer or manager for a built-in role; null for a custom role.
    """
    created_at: AwareDatetime = Field(..., alias='createdAt')
    id: str
    name: str = Field(..., examples=['Reviewer'], max_length=50, min_length=1)
    permissions: list[
        Union[Literal['apiKey.create',
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
            'classification.read',
            'classification.manage'], str]
    ]


class RouteToMember(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    member_id: str = Field(..., alias='memberId')


class RouteToTeam(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    team_id: str = Field(..., alias='teamId')


class RuleActionPattern(RootModel[str]):
    model_config = ConfigDict(
        populate_by_name=True,
    )
    root: str = Field(..., max_length=200, min_length=1, pattern='^[^\\u0000]*$')
    """
    An action name, or a glob of them.
    """


class RuleComparePredicate(InterlockModel):
    """
    A numeric comparison; only a JSON number compares (a string "50" does not).
    """

    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    op: Union[Literal['lt', 'lte', 'gt', 'gte'], str]
    path: str = Field(
        ..., max_length=200, pattern='^[A-Za-z0-9_$-]+(\\.[A-Za-z0-9_$-]+)*$'
    )
    """
    A dotted path into the arguments, e.g. amount or customer.tier.
    """
    value: float


class RuleEqualsPredicate(InterlockModel):
    """
    Equal (ne: not equal) as JSON: same type and value.
    """

    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    op: Union[Literal['eq', 'ne'], str]
    path: str = Field(
        ..., max_length=200, pattern='^[A-Za-z0-9_$-]+(\\.[A-Za-z0-9_$-]+)*$'
    )
    """
    A dotted path into the arguments, e.g. amount or customer.tier.
    """
    value: Any


class RuleGlobPredicate(InterlockModel):
    """
    A string matching a glob: * any run of characters, ? one.
    """

    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    op: Union[Literal['matches'], str]
    path: str = Field(
        ..., max_length=200, pattern='^[A-Za-z0-9_$-]+(\\.[A-Za-z0-9_$-]+)*$'
    )
    """
    A dotted path into the arguments, e.g. amount or customer.tier.
    """
    value: str = Field(..., max_length=1000, min_length=1, pattern='^[^\\u0000]*$')


class RuleInPredicate(InterlockModel):
    """
    Equal to one of the values.
    """

    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    op: Union[Literal['in'], str]
    path: str = Field(
        ..., max_length=200, pattern='^[A-Za-z0-9_$-]+(\\.[A-Za-z0-9_$-]+)*$'
    )
    """
    A dotted path into the arguments, e.g. amount or customer.tier.
    """
    value: list[Any] = Field(..., max_length=100, min_length=1)


class Label(RootModel[str]):
    model_config = ConfigDict(
        populate_by_name=True,
    )
    root: str = Field(..., max_length=50, min_length=1, pattern='^[^\\u0000]*$')


class TitleWord(RootModel[str]):
    model_config = ConfigDict(
        populate_by_name=True,
    )
    root: str = Field(
        ...,
        max_length=50,
        min_length=1,
        pattern='^[^\\u0000\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]+$',
    )


class SavedClassifierResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    classifier: ClassifierResponse
    secret: Optional[str] = None
    """
    The signing secret (`whsec_` + base64), only in the answer that created the classifier: it is never shown again.
    """


class SessionListStatus(RootModel[Union[Literal['active', 'ended'], str]]):
    model_config = ConfigDict(
        populate_by_name=True,
    )
    root: Union[Literal['active', 'ended'], str]


class SetPriorityDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    priority: Union[Literal['low', 'normal', 'high', 'urgent'], str] = Field(
        ..., examples=['urgent']
    )
    """
    How urgent it is: low, normal (the default), high or urgent. An enforced argus route's priority replaces it.
    """


class SignInDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    code: Optional[str] = Field(None, max_length=64, pattern='^[^\\u0000]*$')
    """
    Where two-factor sign-in is on: the 6-digit code from the authenticator app, or an unused recovery code. Without it such an account answers 401 TWO_FACTOR_REQUIRED (the password was right).
    """
    email: str = Field(..., max_length=254)
    password: str = Field(..., max_length=200, pattern='^[^\\u0000]*$')


class SignUpDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    email: str = Field(..., max_length=254)
    name: str = Field(
        ...,
        max_length=100,
        min_length=1,
        pattern='^[^\\u0000]*[^\\u0000\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff][^\\u0000]*$',
    )
    """
    Your name, as colleagues see it.
    """
    organisation_name: str = Field(
        ...,
        alias='organisationName',
        max_length=100,
        min_length=1,
        pattern='^[^\\u0000]*[^\\u0000\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff][^\\u0000]*$',
    )
    password: str = Field(..., max_length=200, min_length=8, pattern='^[^\\u0000]*$')


class SignUpPendingResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    email: str
    """
    The address (normalised) a link was emailed to: open it to create the account and its organisation.
    """


class SignedInMember(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    email: str
    id: str
    """
    The member's id: their user id.
    """
    name: str
    role_id: str = Field(..., alias='roleId')
    role_name: str = Field(..., alias='roleName', examples=['Owner'])
    """
    The name of the member's role in this organisation.
    """


class SignedInOrganisation(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    id: str
    name: str
    plan: Union[Literal['free', 'pro'], str]


class SlackConnectionResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    channel_id: str = Field(..., alias='channelId', examples=['C0123ABCD'])
    credentials_set_at: AwareDatetime = Field(..., alias='credentialsSetAt')
    min_risk: Optional[Union[Literal['low', 'medium', 'high', 'critical'], str]] = Field(
        ..., alias='minRisk'
    )
    """
    The least risk posted (unknown risks are posted too); null: whatever the risk.
    """
    request_url: str = Field(..., alias='requestUrl')
    """
    The Request URL to enter under the Slack app's Interactivity & Shortcuts: the service's public origin and /api/slack/interactions/{organisationId}.
    """
    slack_team_id: str = Field(..., alias='slackTeamId', examples=['T0123ABCD'])
    slack_team_name: str = Field(
        ..., alias='slackTeamName', examples=['Analytical Engines']
    )
    team_id: Optional[str] = Field(..., alias='teamId')
    team_name: Optional[str] = Field(..., alias='teamName')
    """
    The team, when it still exists.
    """


class SsoDomainResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    domain: str = Field(..., examples=['example.com'])
    failed_checks: float = Field(..., alias='failedChecks', ge=0.0)
    """
    Periodic look-ups in a row that did not find the record (0: found at the last one). At `SSO_DOMAIN_RECHECK_FAILURES` the proof is withdrawn and the domain must be verified again.
    """
    last_checked_at: Optional[AwareDatetime] = Field(..., alias='lastCheckedAt')
    """
    A proven domain's record is looked up again periodically (`SSO_DOMAIN_RECHECK_INTERVAL`): when it last was since the proof (null: not yet).
    """
    record_name: str = Field(
        ..., alias='recordName', examples=['_interlock-challenge.example.com']
    )
    """
    The DNS name of the TXT record to publish.
    """
    record_value: str = Field(
        ..., alias='recordValue', examples=['interlock-domain-verification=3f2a…']
    )
    """
    The TXT record's value: this organisation's token for the domain.
    """
    verified_at: Optional[AwareDatetime] = Field(..., alias='verifiedAt')
    """
    When the TXT record was found (null: not proven yet, so the domain signs nobody in: no sign-in is routed by it, no account linked, no member provisioned).
    """


class SsoStartResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    authorization_url: str = Field(..., alias='authorizationUrl')
    """
    The provider's sign-in page: send the browser there (the answer also sets a short-lived HttpOnly cookie that finishing needs).
    """


class StartSessionDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    external_id: Optional[str] = Field(
        None, alias='externalId', max_length=200, min_length=1, pattern='^[^\\u0000]*$'
    )
    metadata: Optional[Metadata] = None
    name: str = Field(
        ...,
        examples=['nightly-build'],
        max_length=200,
        min_length=1,
        pattern='^[^\\u0000]*[^\\u0000\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff][^\\u0000]*$',
    )


class StartSsoDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    email: str = Field(..., examples=['ada@example.com'], max_length=254)


class TabCount(InterlockModel):
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


class TeamResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    created_at: AwareDatetime = Field(..., alias='createdAt')
    id: str
    member_ids: list[str] = Field(..., alias='memberIds')
    """
    Member ids, in the order they joined the team.
    """
    name: str = Field(..., examples=['Platform'], max_length=50, min_length=1)


class TestClassifierDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    action_name: str = Field(
        'interlock.test',
        alias='actionName',
        max_length=200,
        min_length=1,
        pattern='^[^\\u0000]*$',
    )
    args: Args = Field(default_factory=lambda: Args.model_validate({}))
    title: str = Field(
        'A test from Interlock', max_length=200, min_length=1, pattern='^[^\\u0000]*$'
    )


class TwoFactorConfirmDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    code: str = Field(..., examples=['123456'], max_length=64, pattern='^[^\\u0000]*$')
    """
    The 6-digit code your authenticator app shows for the new key.
    """


class TwoFactorDisableDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    code: str = Field(..., examples=['123456'], max_length=64, pattern='^[^\\u0000]*$')
    """
    Your authenticator app's 6-digit code, or an unused recovery code.
    """
    password: str = Field(..., max_length=200, pattern='^[^\\u0000]*$')
    """
    Your current password.
    """


class TwoFactorPasswordDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    password: str = Field(..., max_length=200, pattern='^[^\\u0000]*$')
    """
    Your current password.
    """


class TwoFactorRequirementResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    require_two_factor: bool = Field(..., alias='requireTwoFactor')
    """
    true: a member signed in with a password acts for the organisation only once two-factor sign-in is on for their account (until then every request for it answers 403 TWO_FACTOR_ENROLMENT_REQUIRED, and only their own account settings work); single sign-on sessions follow the provider’s policy. API keys are not affected.
    """


class TwoFactorSetupResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    otpauth_uri: str = Field(..., alias='otpauthUri')
    """
    The same key as an otpauth:// URI (TOTP, SHA-1, 6 digits, 30 s) for a QR code.
    """
    secret: str = Field(..., examples=['JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP'])
    """
    The key in base32 (RFC 4648), for typing into an authenticator app.
    """


class TwoFactorStatusResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    enabled: bool
    enabled_at: Optional[AwareDatetime] = Field(..., alias='enabledAt')
    recovery_codes_left: float = Field(..., alias='recoveryCodesLeft')
    """
    Unused recovery codes (0 while two-factor is off).
    """


class UndoEmailChangeDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    password: str = Field(..., max_length=200, min_length=8, pattern='^[^\\u0000]*$')
    token: str = Field(..., max_length=200, pattern='^[^\\u0000]*$')
    """
    The token from the link emailed to the old address (the part after the link's #).
    """


class UpdateInterruptDeadlineSettingsDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    approve_on_timeout_allowed: Optional[bool] = Field(
        None, alias='approveOnTimeoutAllowed'
    )
    default_timeout_seconds: Optional[int] = Field(
        None, alias='defaultTimeoutSeconds', ge=1, le=2592000
    )
    """
    null: no default deadline. At most maxTimeoutSeconds (as it is after this change).
    """
    max_timeout_seconds: Optional[int] = Field(
        None, alias='maxTimeoutSeconds', ge=1, le=2592000
    )


class UpdateProfileDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    name: str = Field(
        ...,
        max_length=100,
        min_length=1,
        pattern='^[^\\u0000]*[^\\u0000\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff][^\\u0000]*$',
    )
    """
    Your name, as colleagues see it.
    """


class UpdateRoleDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    name: Optional[str] = Field(
        None,
        examples=['Reviewer'],
        max_length=50,
        min_length=1,
        pattern='^[^\\u0000]*[^\\u0000\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff][^\\u0000]*$',
    )
    """
    Omit to keep the name.
    """
    permissions: Optional[
        list[
            Union[Literal['apiKey.create',
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
                'classification.read',
                'classification.manage'], str]
        ]
    ] = Field(None, max_length=20)
    """
    The whole new set, without repeats; omit to keep the permissions.
    """


class UsageSummary(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    active_sessions: Quota = Field(..., alias='activeSessions')
    """
    Sessions active now; starting one past the quota answers 402 ACTIVE_SESSIONS_EXHAUSTED.
    """
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
    session_message_bytes: Quota = Field(..., alias='sessionMessageBytes')
    """
    Bytes of session-message content stored (UTF-8); appends past the quota answer 402 SESSION_STORAGE_EXHAUSTED, and the retention frees space.
    """
    session_message_retention_seconds: int = Field(
        ..., alias='sessionMessageRetentionSeconds'
    )
    """
    Session messages are deleted this many seconds after they were appended (SESSION_MESSAGE_RETENTION).
    """


class VerifyEmailDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    token: str = Field(..., max_length=200, pattern='^[^\\u0000]*$')
    """
    The token from the verification link (the part after the link's #).
    """


class VerifySsoDomainDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    domain: str = Field(
        ...,
        examples=['example.com'],
        max_length=253,
        pattern='^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z]{2,63}$',
    )
    """
    One of the connection's allowedDomains.
    """


class WebhookDeliveryAttempt(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    duration_ms: int = Field(..., alias='durationMs', ge=0)
    error: Optional[str] = Field(...)
    """
    Why it failed; null on a 2xx.
    """
    number: int = Field(..., ge=1)
    response_status: Optional[int] = Field(..., alias='responseStatus')
    """
    null: no answer (refused, timed out, not sent).
    """
    started_at: AwareDatetime = Field(..., alias='startedAt')


class WebhookResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    created_at: AwareDatetime = Field(..., alias='createdAt')
    description: str
    enabled: bool
    event_types: Optional[
        list[
            Union[Literal['interrupt.created',
                'interrupt.decided',
                'interrupt.answered',
                'interrupt.assigned',
                'interrupt.unassigned',
                'interrupt.escalated',
                'interrupt.expired',
                'interrupt.withdrawn',
                'interrupt.reminder',
                'interrupt.approval_added',
                'session.started',
                'session.ended'], str]
        ]
    ] = Field(..., alias='eventTypes')
    """
    null: every type.
    """
    failing_since: Optional[AwareDatetime] = Field(..., alias='failingSince')
    """
    Since when every attempt has failed; null after a success. Five days of it disables the webhook.
    """
    id: str
    previous_secret_expires_at: Optional[AwareDatetime] = Field(
        ..., alias='previousSecretExpiresAt'
    )
    """
    After a rotation: until when the previous secret still signs beside the new one.
    """
    updated_at: AwareDatetime = Field(..., alias='updatedAt')
    url: str


class WebhookTestData(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    message: str = Field(..., examples=['A test event sent from Interlock.'])
    webhook_id: str = Field(..., alias='webhookId')


class WebhookTestEvent(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    created_at: AwareDatetime = Field(..., alias='createdAt')
    """
    When the change happened.
    """
    data: WebhookTestData
    id: str
    """
    The event id: also the webhook-id header. The same on every attempt; deduplicate on it.
    """
    organisation_id: str = Field(..., alias='organisationId')
    type: Union[Literal['webhook.test'], str]
    """
    A test a member sent (POST /api/webhooks/{id}/test).
    """


class WebhookWithSecretResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    created_at: AwareDatetime = Field(..., alias='createdAt')
    description: str
    enabled: bool
    event_types: Optional[
        list[
            Union[Literal['interrupt.created',
                'interrupt.decided',
                'interrupt.answered',
                'interrupt.assigned',
                'interrupt.unassigned',
                'interrupt.escalated',
                'interrupt.expired',
                'interrupt.withdrawn',
                'interrupt.reminder',
                'interrupt.approval_added',
                'session.started',
                'session.ended'], str]
        ]
    ] = Field(..., alias='eventTypes')
    """
    null: every type.
    """
    failing_since: Optional[AwareDatetime] = Field(..., alias='failingSince')
    """
    Since when every attempt has failed; null after a success. Five days of it disables the webhook.
    """
    id: str
    previous_secret_expires_at: Optional[AwareDatetime] = Field(
        ..., alias='previousSecretExpiresAt'
    )
    """
    After a rotation: until when the previous secret still signs beside the new one.
    """
    secret: str = Field(..., examples=['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'])
    """
    The signing secret: whsec_ and the base64 of 32 random bytes. Shown once; store it now.
    """
    updated_at: AwareDatetime = Field(..., alias='updatedAt')
    url: str


class WhoamiApiKey(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    id: str
    name: str


class WhoamiResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    api_key: WhoamiApiKey = Field(..., alias='apiKey')
    organisation_id: str = Field(..., alias='organisationId')
    plan: Union[Literal['free', 'pro'], str]


class AccountOrganisation(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    id: str
    """
    The organisation id: send it as x-organisation-id to act for it.
    """
    joined_at: AwareDatetime = Field(..., alias='joinedAt')
    name: str
    plan: Union[Literal['free', 'pro'], str]
    role_id: str = Field(..., alias='roleId')
    role_name: str = Field(..., alias='roleName', examples=['Owner'])
    """
    The name of the person's role in this organisation.
    """


class AccountResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    organisations: list[AccountOrganisation]
    """
    Current memberships, in the order they were joined.
    """
    user: AccountUser


class ActionLinkDecided(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    decided_at: AwareDatetime = Field(..., alias='decidedAt')
    decided_by: str = Field(..., alias='decidedBy')
    """
    The decider's name.
    """
    decision: Union[Literal['approve', 'edit', 'reject', 'respond'], str]


class ActionRequestDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    allowed_decisions: Optional[
        list[Union[Literal['approve', 'edit', 'reject', 'respond'], str]]
    ] = Field(
        None,
        alias='allowedDecisions',
        examples=[['approve', 'reject', 'respond']],
        min_length=1,
    )
    """
    Defaults to all four.
    """
    approver_team: Optional[ApproverTeamDto] = Field(
        None, alias='approverTeam', examples=[{'teamName': 'Reviewers'}]
    )
    """
    Only members of this team (of the organisation) may decide the action; it must have at least requiredApprovals members.
    """
    args: Optional[Args] = Field(
        None, examples=[{'service': 'api', 'version': '1.4.2'}]
    )
    description: Optional[str] = Field(None, max_length=10000, pattern='^[^\\u0000]*$')
    name: str = Field(
        ...,
        examples=['deploy'],
        max_length=200,
        min_length=1,
        pattern='^[^\\u0000]*[^\\u0000\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff][^\\u0000]*$',
    )
    """
    Unique within the interrupt.
    """
    required_approvals: Optional[int] = Field(
        None, alias='requiredApprovals', ge=1, le=5
    )
    """
    How many distinct members must approve before the action is approved (default 1); one rejection by a member who may decide it rejects it. Above 1 the action cannot be edited (allowedDecisions then defaults to approve, reject, respond).
    """
    response_schema: Optional[ResponseSchema] = Field(
        None,
        alias='responseSchema',
        examples=[
            {
                'properties': {
                    'region': {
                        'enum': ['eu-west-1', 'us-east-1'],
                        'title': 'Region',
                        'type': 'string',
                    },
                    'replicas': {'maximum': 20, 'minimum': 1, 'type': 'integer'},
                },
                'required': ['region'],
                'type': 'object',
            }
        ],
    )
    """
    Typed input: the answer a person gives with respond, as JSON Schema — an object of string, number, integer, boolean, enum and arrays of those (title, description, required, default, minLength/maxLength, minimum/maximum, minItems/maxItems, uniqueItems; nothing else). The dashboard renders it as a form; a respond on this action must carry a response valid against it. Requires respond among allowedDecisions.
    """


class ActionRequestResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    action_digest: Optional[str] = Field(
        None, alias='actionDigest', pattern='^[0-9a-f]{64}$'
    )
    """
    What this action asks, as a fingerprint: the hex SHA-256 of the RFC 8785 canonical JSON of {interruptId, name, args} (SPEC §8e). An agent computes it from what it sent and compares: the SDKs refuse a decision whose digest differs. Absent from services before it was introduced.
    """
    allowed_decisions: list[Union[Literal['approve', 'edit', 'reject', 'respond'], str]] = Field(
        ..., alias='allowedDecisions'
    )
    approvals: Optional[list[ApprovalResponse]] = None
    """
    With requiredApprovals above 1: the approvals so far, in order (the one that meets the quorum is also the decision). Empty for an action needing one approval: its decision says who.
    """
    approver_team: Optional[ApproverTeam] = Field(None, alias='approverTeam')
    """
    Only members of this team may decide the action; null: any member who may decide.
    """
    args: dict[str, Any]
    """
    {} when none were given.
    """
    description: Optional[str] = Field(...)
    name: str = Field(..., examples=['deploy'], max_length=200, min_length=1)
    required_approvals: Optional[int] = Field(
        None, alias='requiredApprovals', ge=1, le=5
    )
    """
    How many distinct members must approve the action before it is approved (SPEC §8e); one qualified rejection rejects it. Absent (1) from services before several approvers.
    """
    response_schema: Optional[dict[str, Any]] = Field(None, alias='responseSchema')
    """
    Typed input: the JSON Schema a respond answers with (its response), or null when the action asks for none.
    """


class ApiKeyListResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    api_keys: list[ApiKeyResponse] = Field(..., alias='apiKeys')


class AssignInterruptDto(RootModel[Union[AssignToMember, AssignToTeam]]):
    model_config = ConfigDict(
        populate_by_name=True,
    )
    root: Union[AssignToMember, AssignToTeam]
    """
    To a member (memberId) or to a team (teamId): exactly one.
    """


class AuditEntryResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    action: Union[Literal['api_key.created',
        'api_key.renamed',
        'api_key.revoked',
        'billing.plan_changed',
        'classification.rule_created',
        'classification.suggestion_dismissed',
        'classification.suggestion_restored',
        'classification.rule_paused',
        'classification.rule_updated',
        'classification.rule_deleted',
        'classification.applied',
        'classification.shadowed',
        'classification.failed',
        'classification.classified',
        'classification.classifier_failed',
        'classification.classifier_configured',
        'classification.classifier_secret_rotated',
        'classification.classifier_deleted',
        'classification.breaker_tripped',
        'interrupt.created',
        'interrupt.decided',
        'interrupt.approval_added',
        'interrupt.assigned',
        'interrupt.priority_changed',
        'interrupt.unassigned',
        'interrupt.escalated',
        'interrupt.expired',
        'interrupt.withdrawn',
        'interrupt.reminder',
        'interrupt.deadline_extended',
        'member.invited',
        'member.invitation_deleted',
        'member.joined',
        'member.removed',
        'member.provisioned',
        'member.sso_linked',
        'member.break_glass_sign_in',
        'member.password_changed',
        'member.sessions_ended',
        'member.email_verified',
        'member.email_changed',
        'member.renamed',
        'member.two_factor_enabled',
        'member.two_factor_disabled',
        'member.recovery_code_used',
        'member.recovery_codes_regenerated',
        'member.role_changed',
        'organisation.created',
        'settings.notification_preferences_updated',
        'settings.notifications_updated',
        'settings.interrupt_deadlines_updated',
        'settings.escalation_policy_updated',
        'settings.sso_configured',
        'settings.sso_removed',
        'settings.sso_requirement_changed',
        'settings.sso_domain_verified',
        'settings.sso_domain_unverified',
        'settings.two_factor_requirement_changed',
        'role.created',
        'role.updated',
        'role.deleted',
        'session.started',
        'session.ended',
        'session.disconnected',
        'team.created',
        'team.renamed',
        'team.deleted',
        'team.escalation_policy_updated',
        'team.member_added',
        'team.member_removed',
        'webhook.created',
        'webhook.updated',
        'webhook.deleted',
        'webhook.secret_rotated',
        'webhook.delivery_retried',
        'webhook.disabled'], str] = Field(..., examples=['api_key.created'])
    """
    <category>.<verb>: the actions the service writes today; new actions may appear: treat unknown ones as opaque.
    """
    actor_id: Optional[str] = Field(None, alias='actorId')
    """
    A member's user id or an API key's id; absent for the system.
    """
    actor_name: str = Field(..., alias='actorName')
    """
    The name as it was at the time.
    """
    actor_type: Union[Literal['member', 'api_key', 'system', 'argus'], str] = Field(
        ..., alias='actorType'
    )
    category: Union[Literal['interrupt',
        'session',
        'member',
        'role',
        'team',
        'api_key',
        'webhook',
        'classification',
        'settings',
        'billing',
        'organisation'], str]
    created_at: AwareDatetime = Field(
        ..., alias='createdAt', examples=['2026-11-21T12:00:00.000Z']
    )
    """
    ISO 8601, UTC, with milliseconds.
    """
    id: str
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
        Union[Literal['interrupt',
            'session',
            'user',
            'invitation',
            'role',
            'team',
            'api_key',
            'webhook',
            'classification',
            'organisation'], str]
    ] = Field(None, alias='targetType')


class AuditLogPage(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    entries: list[AuditEntryResponse]
    next_cursor: Optional[str] = Field(..., alias='nextCursor')
    """
    Opaque; null at the end of the walk.
    """


class ChangePlanDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    plan: Union[Literal['free', 'pro'], str]


class ClassificationRuleStats(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    enforce: ClassificationEnforceStats
    last_matched_at: Optional[AwareDatetime] = Field(..., alias='lastMatchedAt')
    shadow: ClassificationShadowStats


class ClassificationRuleStatsResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    disagreements: list[ClassificationDisagreement]
    """
    The latest 50, newest first.
    """
    enforce: ClassificationEnforceStats
    last_matched_at: Optional[AwareDatetime] = Field(..., alias='lastMatchedAt')
    rule_id: str = Field(..., alias='ruleId')
    shadow: ClassificationShadowStats


class ClassifierTestResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    classifier_ms: float = Field(..., alias='classifierMs')
    """
    How long it took, the lookup included.
    """
    error: Optional[str] = Field(...)
    """
    Why there is no answer (the words a receipt would carry); null when ok.
    """
    labels: list[str]
    ok: bool
    """
    Whether the classifier answered well, in time.
    """
    reasons: list[str]
    risk: Optional[Union[Literal['low', 'medium', 'high', 'critical'], str]] = Field(...)


class ConnectSlackDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    bot_token: str = Field(
        ...,
        alias='botToken',
        examples=['xoxb-1234-5678-abcdef'],
        pattern='^xoxb-[A-Za-z0-9-]{1,250}$',
    )
    """
    The Slack app's bot token (OAuth & Permissions → Bot User OAuth Token; scopes chat:write, users:read, users:read.email). Checked with Slack's auth.test; stored encrypted, never shown again.
    """
    channel_id: str = Field(
        ..., alias='channelId', examples=['C0123ABCD'], pattern='^[CG][A-Z0-9]{2,40}$'
    )
    """
    The channel new interrupts are posted to (its id, e.g. C0123ABCD); invite the app to it.
    """
    min_risk: Optional[Union[Literal['low', 'medium', 'high', 'critical'], str]] = Field(
        None, alias='minRisk'
    )
    """
    Post only the interrupts whose risk (the organisation's classifier, Settings → Classification) is at least this one — and those whose risk is unknown (no classifier, or it did not answer), which go to a person; null or absent: whatever the risk. With teamId, both must hold.
    """
    signing_secret: str = Field(
        ..., alias='signingSecret', pattern='^[A-Za-z0-9]{16,128}$'
    )
    """
    The Slack app's signing secret (Basic Information → App Credentials): interactivity requests are verified with it. Stored encrypted, never shown again.
    """
    team_id: Optional[str] = Field(None, alias='teamId')
    """
    Post only the interrupts assigned to this team (when opened or assigned to it); null or absent: every new interrupt.
    """


class CreateInterruptDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    action_requests: list[ActionRequestDto] = Field(
        ..., alias='actionRequests', max_length=20, min_length=1
    )
    assign_to: Optional[AssignToDto] = Field(
        None, alias='assignTo', examples=[{'teamName': 'Reviewers'}]
    )
    """
    Assign it as it opens: exactly one of memberId, email (a member), teamId or teamName (a team) of the organisation. Audited as interrupt.assigned by the key, with the effects of a member assigning it (notifications, a team escalation policy).
    """
    description: Optional[str] = Field(None, max_length=10000, pattern='^[^\\u0000]*$')
    external_id: Optional[str] = Field(
        None, alias='externalId', max_length=200, min_length=1, pattern='^[^\\u0000]*$'
    )
    """
    The agent's own id for this request.
    """
    labels: Optional[list[InterruptLabel]] = Field(
        None, examples=[['billing', 'eu']], max_length=10
    )
    """
    Up to 10 labels, each 1 to 50 ASCII letters, digits and _ . : / + - (no spaces); repeated ones count once. The record's labels are these, then the external classifier's.
    """
    metadata: Optional[Metadata] = None
    on_timeout: Optional[Union[Literal['reject', 'approve', 'escalate'], str]] = Field(
        None, alias='onTimeout'
    )
    """
    What the deadline does: reject every undecided action (the default), approve them (only where the organisation allows it), or escalate the interrupt and extend the deadline once by the same time.
    """
    priority: Union[Literal['low', 'normal', 'high', 'urgent'], str] = 'normal'
    """
    How urgent it is: low, normal (the default), high or urgent. An enforced argus route's priority replaces it.
    """
    resume_url: Optional[str] = Field(
        None,
        alias='resumeUrl',
        examples=['https://agents.example.com/resume/run-42'],
        max_length=2048,
        pattern='^(https://[A-Za-z][A-Za-z0-9-]*([.][A-Za-z][A-Za-z0-9-]*)*|http://(localhost|127[.]0[.]0[.]1|\\[::1\\]))(:[0-9]{1,4})?(/[^\\u0000]*)?$',
    )
    """
    When the interrupt is answered, expires or is withdrawn, the service POSTs the result here once (the webhook payload {id, type, createdAt, organisationId, data: the interrupt}), signed as webhooks are under resumeSigningSecret(the API key that opened it), retried on the webhook schedule. The webhook URL rules apply: https (http only to loopback, outside production), no credentials, in production no private, loopback, link-local or metadata address. Never shown again.
    """
    session_id: Optional[str] = Field(None, alias='sessionId')
    """
    A session of this organisation; null is no session.
    """
    timeout_seconds: Optional[int] = Field(
        None, alias='timeoutSeconds', ge=1, le=2592000
    )
    """
    Seconds until the deadline, within the organisation's maximum; without it, the organisation's default deadline (if any). At the deadline the service applies onTimeout as actor system.
    """
    title: str = Field(
        ...,
        examples=['Deploy to prod'],
        max_length=200,
        min_length=1,
        pattern='^[^\\u0000]*[^\\u0000\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff][^\\u0000]*$',
    )


class CreateRoleDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    name: str = Field(
        ...,
        examples=['Reviewer'],
        max_length=50,
        min_length=1,
        pattern='^[^\\u0000]*[^\\u0000\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff][^\\u0000]*$',
    )
    permissions: list[
        Union[Literal['apiKey.create',
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
            'classification.read',
            'classification.manage'], str]
    ] = Field(..., max_length=20)
    """
    Without repeats; may be empty.
    """


class CreateWebhookDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    description: str = Field('', max_length=500, pattern='^[^\\u0000]*$')
    enabled: bool = True
    event_types: Optional[
        list[
            Union[Literal['interrupt.created',
                'interrupt.decided',
                'interrupt.answered',
                'interrupt.assigned',
                'interrupt.unassigned',
                'interrupt.escalated',
                'interrupt.expired',
                'interrupt.withdrawn',
                'interrupt.reminder',
                'interrupt.approval_added',
                'session.started',
                'session.ended'], str]
        ]
    ] = Field(None, alias='eventTypes', max_length=12, min_length=1)
    """
    The event types to send; null or absent: every type, including ones added later.
    """
    url: str = Field(
        ...,
        examples=['https://agents.example.com/interlock/webhooks'],
        max_length=2048,
        pattern='^(https://[A-Za-z][A-Za-z0-9-]*([.][A-Za-z][A-Za-z0-9-]*)*|http://(localhost|127[.]0[.]0[.]1|\\[::1\\]))(:[0-9]{1,4})?(/[^\\u0000]*)?$',
    )
    """
    https (http only to loopback, outside production). No credentials; in production no private, loopback, link-local or metadata address.
    """


class DecideInterruptDto(
    RootModel[Union[ApproveDecision, EditDecision, RejectDecision, RespondDecision]]
):
    model_config = ConfigDict(
        populate_by_name=True,
    )
    root: Union[ApproveDecision, EditDecision, RejectDecision, RespondDecision]
    """
    One decision on one action request; the fields allowed depend on `decision`.
    """


class DryRunActionResult(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    action_name: str = Field(..., alias='actionName')
    classifier: Union[Literal['none', 'not_asked', 'answered', 'failed'], str]
    """
    The external classifier for this action: none (the organisation has none enabled), not_asked (askClassifier was not set), answered, failed (argus would fail closed: a person decides).
    """
    classifier_error: Optional[str] = Field(..., alias='classifierError')
    """
    failed: why the classifier gave no answer.
    """
    labels: list[str]
    """
    The classifier's labels (answered only).
    """
    message: Optional[str] = Field(...)
    """
    With reject: the message the agent would receive.
    """
    result: Union[Literal['approve', 'reject', 'route', 'require_human', 'person'], str]
    """
    What argus would do; person: no rule decides.
    """
    risk: Optional[Union[Literal['low', 'medium', 'high', 'critical'], str]] = Field(...)
    """
    The classifier's risk for the action (answered only).
    """
    rule_id: Optional[str] = Field(..., alias='ruleId')
    """
    The enforce rule that decides, if one does.
    """
    shadow_rule_ids: list[str] = Field(..., alias='shadowRuleIds')
    """
    Shadow rules that would match (recorded, not applied).
    """
    skipped: Optional[str] = Field(...)
    """
    Why an enforce rule would not apply (decision_not_allowed).
    """


class DryRunInterruptResult(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    actions: list[DryRunActionResult]
    interrupt_id: Optional[str] = Field(..., alias='interruptId')
    """
    The interrupt classified (null for a sample).
    """
    title: str


class DryRunResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    results: list[DryRunInterruptResult]


class ErrorBody(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    code: Union[Literal['MISSING_API_KEY',
        'INVALID_API_KEY',
        'API_KEY_EXPIRED',
        'SIGN_IN_REQUIRED',
        'INVALID_CREDENTIALS',
        'TWO_FACTOR_REQUIRED',
        'SSO_SIGN_IN_FAILED',
        'MESSAGES_ALLOWANCE_EXHAUSTED',
        'AGENT_HOURS_ALLOWANCE_EXHAUSTED',
        'SESSION_STORAGE_EXHAUSTED',
        'ACTIVE_SESSIONS_EXHAUSTED',
        'PLAN_REQUIRED',
        'HUMANS_ONLY',
        'MISSING_PERMISSION',
        'FORBIDDEN',
        'CSRF_REJECTED',
        'WRONG_PASSWORD',
        'INVALID_TWO_FACTOR_CODE',
        'EMAIL_NOT_VERIFIED',
        'SSO_REQUIRED',
        'TWO_FACTOR_ENROLMENT_REQUIRED',
        'SIGNUP_CLOSED',
        'VALIDATION_FAILED',
        'INVALID_TOKEN',
        'SSO_DISCOVERY_FAILED',
        'NOT_FOUND',
        'SSO_NOT_CONFIGURED',
        'METHOD_NOT_ALLOWED',
        'CONFLICT',
        'DOMAIN_NOT_VERIFIED',
        'PAYLOAD_TOO_LARGE',
        'UNSUPPORTED_MEDIA_TYPE',
        'RATE_LIMITED',
        'INTERNAL_ERROR',
        'SERVICE_UNAVAILABLE'], str]
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


class EscalationPolicyDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    steps: list[EscalationStepDto] = Field(..., max_length=10)
    """
    Soonest first; [] removes the policy.
    """


class EscalationPolicyResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    steps: list[EscalationStepResponse]
    """
    Soonest first; [] when none.
    """


class InterruptCountsResponse(InterlockModel):
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
    waiting_for_me: TabCount = Field(..., alias='waitingForMe')
    """
    Open and assigned to the signed-in member or to a team they belong to: what waits for them (the tab title and browser notifications count it).
    """


class InterruptEscalation(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    entries: list[InterruptHistoryEntry]
    """
    The entries the service itself (actor system) wrote about the interrupt, oldest first: reminders (interrupt.reminder, metadata {step, afterMinutes, assigneeType, assigneeId, assigneeName, teamId?, teamName?}), escalations (interrupt.escalated), the assignments they made (interrupt.assigned, metadata with previousAssigneeName), deadline outcomes (interrupt.expired). Needs only interrupt.read (the latest 100 at most).
    """
    next: Optional[NextEscalationStep] = Field(...)
    """
    The next step of that policy; null when none is left (or none governs).
    """
    policy: Optional[Union[Literal['organisation', 'team'], str]] = Field(...)
    """
    Which policy governs the interrupt now: the organisation's, or that of the team it is assigned to; null when none does (no steps, or it is no longer open).
    """
    team: Optional[EscalationPolicyTeam] = Field(...)
    """
    policy team: which team.
    """


class InvitationListResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    invitations: list[InvitationResponse]


class LinkedSession(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    id: str
    name: str
    status: Union[Literal['active', 'ended', 'disconnected'], str]


class LiveViewMessage(InterlockModel):
    """
    A `message` event of the Live View: one message of the session (the event id is its number).
    """

    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    content: str
    created_at: AwareDatetime = Field(..., alias='createdAt')
    role: Union[Literal['agent', 'user', 'tool', 'system'], str]
    seq: int = Field(..., ge=1)
    """
    Its number in the session; also the event id.
    """


class MemberListResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    members: list[MemberResponse]


class NotificationChannelModes(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    browser: Optional[Union[Literal['immediately', 'off'], str]] = None
    email: Optional[Union[Literal['immediately', 'hourly', 'daily', 'off'], str]] = None


class NotificationDeliveryResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    attempts: int
    channel: str = Field(..., examples=['email'])
    created_at: AwareDatetime = Field(..., alias='createdAt')
    id: str
    kind: str = Field(..., examples=['interrupt.opened'])
    """
    A notification kind, or invitation.
    """
    last_error: Optional[str] = Field(..., alias='lastError')
    mode: Union[Literal['immediately', 'hourly', 'daily'], str]
    recipient_email: str = Field(..., alias='recipientEmail')
    scheduled_for: AwareDatetime = Field(..., alias='scheduledFor')
    """
    When it leaves: now, or its digest’s time.
    """
    sent_at: Optional[AwareDatetime] = Field(..., alias='sentAt')
    status: Union[Literal['pending', 'sending', 'sent', 'logged', 'failed'], str]
    """
    logged: email is off (no SMTP_URL): not sent; outside production the message is an .eml file in MAIL_DIR.
    """
    subject_id: Optional[str] = Field(..., alias='subjectId')
    """
    The interrupt (or invitation) it is about.
    """
    title: Optional[str] = Field(...)
    """
    The interrupt's title when it was written.
    """


class NotificationPreferenceSet(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    interrupt_approval_needed: Optional[NotificationChannelModes] = Field(
        None, alias='interrupt.approval_needed'
    )
    """
    An action that needs several approvers got an approval short of its quorum ("1 of 2 approved — your approval is needed"): to the other members who may approve it (interrupt.decide, of its approver team when it names one), never to those who approved already.
    """
    interrupt_assigned: Optional[NotificationChannelModes] = Field(
        None, alias='interrupt.assigned'
    )
    """
    An interrupt assigned to you or a team of yours.
    """
    interrupt_closed: Optional[NotificationChannelModes] = Field(
        None, alias='interrupt.closed'
    )
    """
    An interrupt that waited on you no longer does: withdrawn (by whom, and why) or expired at its deadline. To its assignee, or to every reader when nobody is assigned; never to the member who withdrew it.
    """
    interrupt_deadline_approaching: Optional[NotificationChannelModes] = Field(
        None, alias='interrupt.deadline_approaching'
    )
    """
    An open interrupt's deadline is near ("Deadline in 12 minutes — at the deadline it will be rejected"), once per deadline: when the time left first falls to max(1 min, min(60 min, 20 % of the time from its opening to its deadline)). To its assignee, or to every reader when nobody is assigned.
    """
    interrupt_decided: Optional[NotificationChannelModes] = Field(
        None, alias='interrupt.decided'
    )
    """
    An interrupt assigned to you or your team was answered.
    """
    interrupt_escalated: Optional[NotificationChannelModes] = Field(
        None, alias='interrupt.escalated'
    )
    """
    An interrupt escalated.
    """
    interrupt_opened: Optional[NotificationChannelModes] = Field(
        None, alias='interrupt.opened'
    )
    """
    A new interrupt in the inbox.
    """
    interrupt_reminder: Optional[NotificationChannelModes] = Field(
        None, alias='interrupt.reminder'
    )
    """
    A reminder that an interrupt still waits (an escalation chain's remind step): to its assignee, or to every reader when nobody is assigned.
    """


class NotificationPreferencesResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    effective: NotificationPreferenceSet
    """
    Every kind and channel, as they apply now.
    """
    email_enabled: bool = Field(..., alias='emailEnabled')
    """
    False when the service has no SMTP_URL: email notifications are written to the log, not sent.
    """
    preferences: NotificationPreferenceSet
    """
    The member's own choices (what is absent follows the organisation).
    """
    time_zone: str = Field(..., alias='timeZone', examples=['UTC'])


class NotificationSettingsResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    built_in_defaults: NotificationPreferenceSet = Field(..., alias='builtInDefaults')
    """
    The built-in defaults.
    """
    defaults: NotificationPreferenceSet
    """
    The organisation's defaults (what is absent follows the built-in default).
    """
    email_enabled: bool = Field(..., alias='emailEnabled')
    """
    False when the service has no SMTP_URL.
    """
    token_actions: bool = Field(..., alias='tokenActions')
    """
    Whether an email's action links decide without signing in (single-use, 24 hours).
    """


class OrganisationEvent(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    action_name: Optional[str] = Field(None, alias='actionName')
    """
    interrupt.decided, interrupt.approval_added.
    """
    action_names: Optional[list[str]] = Field(None, alias='actionNames')
    """
    interrupt.created: the action names; interrupt.expired: the actions its deadline decided.
    """
    actor: EventActor
    approvals: Optional[int] = Field(None, ge=1)
    """
    interrupt.approval_added: the action's distinct approvals so far (short of the quorum).
    """
    assignee: Optional[EventAssignee] = None
    """
    interrupt.assigned; interrupt.reminder: who was reminded (null: nobody assigned).
    """
    became_answered: Optional[bool] = Field(None, alias='becameAnswered')
    """
    interrupt.decided: this decision answered the interrupt (an interrupt.answered follows).
    """
    created_at: AwareDatetime = Field(..., alias='createdAt')
    decision: Optional[Union[Literal['approve', 'edit', 'reject', 'respond'], str]] = None
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
    outcome: Optional[Union[Literal['approve', 'reject'], str]] = None
    """
    interrupt.expired: what the deadline decided.
    """
    previous_assignee: Optional[EventAssignee] = Field(None, alias='previousAssignee')
    """
    interrupt.unassigned: who it was assigned to.
    """
    reason: Optional[str] = None
    """
    interrupt.escalated, interrupt.withdrawn.
    """
    required_approvals: Optional[int] = Field(
        None, alias='requiredApprovals', ge=2, le=5
    )
    """
    interrupt.approval_added: how many approvals the action needs.
    """
    seq: int = Field(..., ge=1)
    session: Optional[EventSession] = None
    """
    session.* events.
    """
    status: Optional[Union[Literal['active', 'ended', 'disconnected'], str]] = None
    """
    session.ended: ended or disconnected.
    """
    step: Optional[int] = Field(None, ge=1)
    """
    interrupt.reminder: the escalation policy's step (1 is the first).
    """
    type: Union[Literal['interrupt.created',
        'interrupt.decided',
        'interrupt.answered',
        'interrupt.assigned',
        'interrupt.unassigned',
        'interrupt.escalated',
        'interrupt.expired',
        'interrupt.withdrawn',
        'interrupt.reminder',
        'interrupt.approval_added',
        'session.started',
        'session.ended'], str]


class OrganisationJoinedResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    organisation: AccountOrganisation
    """
    The organisation just created or joined (also in organisations).
    """
    organisations: list[AccountOrganisation]
    """
    Current memberships, in the order they were joined.
    """
    user: AccountUser


class OrganisationResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    created_at: AwareDatetime = Field(..., alias='createdAt')
    id: str
    name: str
    plan: Union[Literal['free', 'pro'], str]
    usage: UsageSummary
    """
    This month's use of the plan's allowances (SPEC §8).
    """


class ResumeDelivery(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    attempts: int = Field(..., ge=0)
    """
    Attempts made so far.
    """
    finished_at: Optional[AwareDatetime] = Field(..., alias='finishedAt')
    """
    delivered / failed: when.
    """
    last_attempt_at: Optional[AwareDatetime] = Field(..., alias='lastAttemptAt')
    last_error: Optional[str] = Field(..., alias='lastError')
    """
    Why the last attempt failed (e.g. "The endpoint answered 503.", "The connection was refused."); null after a success.
    """
    last_response_status: Optional[int] = Field(..., alias='lastResponseStatus')
    """
    The last attempt's HTTP status (null: no answer).
    """
    max_attempts: int = Field(..., alias='maxAttempts', ge=1)
    """
    Attempts it gets in all (the webhook retry schedule, plus the first).
    """
    next_attempt_at: Optional[AwareDatetime] = Field(..., alias='nextAttemptAt')
    """
    pending / retrying: when the next attempt is due.
    """
    status: Union[Literal['waiting', 'pending', 'delivering', 'retrying', 'delivered', 'failed'], str]
    """
    waiting: the interrupt is still open; pending: due, not tried yet; delivering: an attempt is under way; retrying: an attempt failed and another is due at nextAttemptAt; delivered: the endpoint answered 2xx; failed: the last attempt failed.
    """


class RoleListResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    roles: list[RoleResponse]


class RouteOutcome(InterlockModel):
    """
    Leave the action for a person, assigned to a member or team and/or escalated, and/or needing several approvals or approvals from one team (SPEC §8d quorum).
    """

    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    approver_team: Optional[RouteToTeam] = Field(None, alias='approverTeam')
    assign_to: Optional[Union[RouteToMember, RouteToTeam]] = Field(
        None, alias='assignTo'
    )
    escalate: Optional[bool] = None
    priority: Optional[Union[Literal['low', 'normal', 'high', 'urgent'], str]] = None
    """
    The interrupt's priority (SPEC §8e), replacing the one its agent gave.
    """
    required_approvals: Optional[int] = Field(
        None, alias='requiredApprovals', ge=2, le=5
    )
    """
    The action needs this many members' approvals (the agent's own requiredApprovals stays when higher).
    """
    type: Union[Literal['route'], str]


class RuleMatch(InterlockModel):
    """
    What a rule matches: every condition given must hold ({} matches every action).
    """

    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    actions: Optional[list[RuleActionPattern]] = Field(
        None, max_length=50, min_length=1
    )
    """
    Action names, exact or globs (* any run of characters, ? one).
    """
    args: Optional[
        list[
            Union[
                RuleEqualsPredicate,
                RuleInPredicate,
                RuleComparePredicate,
                RuleGlobPredicate,
            ]
        ]
    ] = Field(None, max_length=20, min_length=1)
    """
    Conditions on the arguments, each.
    """
    key_ids: Optional[list[str]] = Field(
        None, alias='keyIds', max_length=50, min_length=1
    )
    """
    The API key that opened the interrupt.
    """
    labels: Optional[list[Label]] = Field(None, max_length=20, min_length=1)
    """
    The external classifier's labels for the action, any of them: matches nothing where it gave none.
    """
    risk: Optional[list[Union[Literal['low', 'medium', 'high', 'critical'], str]]] = Field(
        None, max_length=4, min_length=1
    )
    """
    The external classifier's risk for the action (SPEC §8d): matches nothing where it gave none.
    """
    session_ids: Optional[list[str]] = Field(
        None, alias='sessionIds', max_length=50, min_length=1
    )
    """
    The session the interrupt is linked to.
    """
    title_words: Optional[list[TitleWord]] = Field(
        None, alias='titleWords', max_length=20, min_length=1
    )
    """
    Words the title must contain, each (case- and accent-insensitively).
    """


class SessionMessageDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    content: str = Field(..., pattern='^[^\\u0000]*$')
    """
    At most 32 kB (32768 bytes of UTF-8).
    """
    role: Union[Literal['agent', 'user', 'tool', 'system'], str]


class SessionResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    ended_at: Optional[AwareDatetime] = Field(..., alias='endedAt')
    external_id: Optional[str] = Field(..., alias='externalId')
    id: str
    message_count: int = Field(..., alias='messageCount', ge=0)
    """
    Messages appended so far; the last one is numbered this.
    """
    metadata: Optional[dict[str, Any]] = Field(...)
    name: str = Field(..., examples=['nightly-build'], max_length=200, min_length=1)
    started_at: AwareDatetime = Field(..., alias='startedAt')
    status: Union[Literal['active', 'ended', 'disconnected'], str]


class SessionStartedEvent(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    created_at: AwareDatetime = Field(..., alias='createdAt')
    """
    When the change happened.
    """
    data: SessionResponse
    """
    The session, as GET /api/sessions/{id} returns it.
    """
    id: str
    """
    The event id: also the webhook-id header. The same on every attempt; deduplicate on it.
    """
    organisation_id: str = Field(..., alias='organisationId')
    type: Union[Literal['session.started'], str]
    """
    An agent started a Live View session.
    """


class SignInSessionResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    member: SignedInMember
    organisation: SignedInOrganisation
    permissions: list[
        Union[Literal['apiKey.create',
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
            'classification.read',
            'classification.manage'], str]
    ]
    signed_in_with: Union[Literal['password', 'single_sign_on'], str] = Field(
        ..., alias='signedInWith'
    )
    """
    How this sign-in was made. `single_sign_on`: by this organisation's single sign-on, which acts for it only — creating an organisation or accepting an invitation into another answers 403, so a dashboard does not offer them (SPEC §8f).
    """


class SlackMessageResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    interrupt_id: str = Field(..., alias='interruptId')
    last_error: Optional[str] = Field(..., alias='lastError')
    posted: bool
    """
    Whether the message is in the channel (posted at least once).
    """
    status: Union[Literal['pending', 'sending', 'sent', 'failed'], str]
    title: str
    updated_at: AwareDatetime = Field(..., alias='updatedAt')


class SlackSettingsResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    connection: Optional[SlackConnectionResponse] = Field(...)
    messages: list[SlackMessageResponse]
    """
    The 20 messages changed last, newest first.
    """


class SsoConnectionResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    allowed_domains: list[str] = Field(..., alias='allowedDomains')
    client_id: str = Field(..., alias='clientId')
    created_at: AwareDatetime = Field(..., alias='createdAt')
    default_role_id: str = Field(..., alias='defaultRoleId')
    domains: list[SsoDomainResponse]
    """
    allowedDomains with their proof: each signs people in only once its TXT record is verified.
    """
    issuer: str
    require_sso: bool = Field(..., alias='requireSso')
    """
    Password sign-in no longer acts for the organisation: its members sign in with this provider (Owners keep their password as an audited break-glass path).
    """
    updated_at: AwareDatetime = Field(..., alias='updatedAt')
    verified_at: Optional[AwareDatetime] = Field(..., alias='verifiedAt')
    """
    When this issuer and client id first signed someone in (null: never yet). Requiring single sign-on needs it.
    """


class SsoSettingsResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    connection: Optional[SsoConnectionResponse] = Field(...)
    redirect_uri: str = Field(..., alias='redirectUri')
    """
    The redirect URI to register with the provider for this service (`<DASHBOARD_URL>/sso/callback`).
    """


class SuggestedRule(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    match: RuleMatch
    name: str = Field(..., examples=['Approve refund from billing-agent'])
    outcome: ApproveOutcome
    priority: int
    """
    1000: after the organisation's own rules at the default 100.
    """


class SystemDecidedBy(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    name: Union[Literal['system'], str]
    reason: Union[Literal['timeout'], str]
    """
    Why the service decided.
    """
    type: Union[Literal['system'], str]


class TeamListResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    teams: list[TeamResponse]


class UpdateClassificationRuleDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    expires_at: Optional[AwareDatetime] = Field(None, alias='expiresAt')
    """
    null: never expires.
    """
    match: Optional[RuleMatch] = None
    mode: Optional[Union[Literal['off', 'shadow', 'enforce'], str]] = None
    name: Optional[str] = Field(
        None,
        max_length=100,
        min_length=1,
        pattern='^[^\\u0000]*[^\\u0000\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff][^\\u0000]*$',
    )
    outcome: Optional[
        Union[
            ApproveOutcome,
            RejectOutcome,
            RouteOutcome,
            RequireHumanOutcome,
            PolicyOutcome,
        ]
    ] = None
    """
    What a rule does: approve, reject, route, require_human, policy.
    """
    priority: Optional[int] = Field(None, ge=0, le=1000000)


class UpdateNotificationPreferencesDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    preferences: Optional[NotificationPreferenceSet] = None
    """
    Kinds: interrupt.opened, interrupt.assigned, interrupt.escalated, interrupt.decided, interrupt.reminder, interrupt.closed, interrupt.approval_needed, interrupt.deadline_approaching.
    """
    time_zone: Optional[str] = Field(
        None,
        alias='timeZone',
        examples=['Europe/Paris'],
        max_length=64,
        pattern='^[^\\u0000]*$',
    )
    """
    An IANA time zone name such as Europe/Paris or UTC (the daily digest leaves at 09:00 there); a name the time zone database does not know answers 400.
    """


class UpdateNotificationSettingsDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    defaults: Optional[NotificationPreferenceSet] = None
    """
    Kinds: interrupt.opened, interrupt.assigned, interrupt.escalated, interrupt.decided, interrupt.reminder, interrupt.closed, interrupt.approval_needed, interrupt.deadline_approaching. Replaces the defaults.
    """
    token_actions: Optional[bool] = Field(None, alias='tokenActions')
    """
    Whether an email's Approve / Reject links may decide without signing in: each is a single-use link for the member it was sent to, bound to the action's digest, working for 24 hours. Off by default.
    """


class UpdateWebhookDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    description: Optional[str] = Field(None, max_length=500, pattern='^[^\\u0000]*$')
    enabled: Optional[bool] = None
    """
    false stops deliveries (pending ones wait); true resumes them and clears the failure streak.
    """
    event_types: Optional[
        list[
            Union[Literal['interrupt.created',
                'interrupt.decided',
                'interrupt.answered',
                'interrupt.assigned',
                'interrupt.unassigned',
                'interrupt.escalated',
                'interrupt.expired',
                'interrupt.withdrawn',
                'interrupt.reminder',
                'interrupt.approval_added',
                'session.started',
                'session.ended'], str]
        ]
    ] = Field(None, alias='eventTypes', max_length=12, min_length=1)
    """
    null: every type.
    """
    url: Optional[str] = Field(
        None,
        max_length=2048,
        pattern='^(https://[A-Za-z][A-Za-z0-9-]*([.][A-Za-z][A-Za-z0-9-]*)*|http://(localhost|127[.]0[.]0[.]1|\\[::1\\]))(:[0-9]{1,4})?(/[^\\u0000]*)?$',
    )


class WebhookDeliveryResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    attempt_count: int = Field(..., alias='attemptCount', ge=0)
    attempts: list[WebhookDeliveryAttempt]
    """
    Every attempt, oldest first.
    """
    created_at: AwareDatetime = Field(..., alias='createdAt')
    duration_ms: Optional[int] = Field(..., alias='durationMs')
    """
    The last attempt's duration.
    """
    error: Optional[str] = Field(...)
    """
    Why the last attempt failed.
    """
    event_id: str = Field(..., alias='eventId')
    """
    The event: the body's id and the webhook-id header.
    """
    event_type: Union[Literal['interrupt.created',
        'interrupt.decided',
        'interrupt.answered',
        'interrupt.assigned',
        'interrupt.unassigned',
        'interrupt.escalated',
        'interrupt.expired',
        'interrupt.withdrawn',
        'interrupt.reminder',
        'interrupt.approval_added',
        'session.started',
        'session.ended',
        'webhook.test'], str] = Field(..., alias='eventType')
    finished_at: Optional[AwareDatetime] = Field(..., alias='finishedAt')
    id: str
    last_attempt_at: Optional[AwareDatetime] = Field(..., alias='lastAttemptAt')
    next_attempt_at: Optional[AwareDatetime] = Field(..., alias='nextAttemptAt')
    """
    When a pending delivery is attempted next; null otherwise (and while the webhook is disabled).
    """
    response_status: Optional[int] = Field(..., alias='responseStatus')
    """
    The last attempt's HTTP status.
    """
    status: Union[Literal['pending', 'delivering', 'succeeded', 'failed'], str]
    """
    pending (waiting for its next attempt), delivering (an attempt under way), succeeded, failed (retries exhausted).
    """
    webhook_id: str = Field(..., alias='webhookId')


class WebhookListResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    webhooks: list[WebhookResponse]


class ActionLinkPreviewResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    action: ActionRequestResponse
    decided: Optional[ActionLinkDecided] = Field(...)
    """
    The action’s decision, when it has one (by anyone).
    """
    decision: Union[Literal['approve', 'reject'], str]
    description: Optional[str] = Field(...)
    expires_at: AwareDatetime = Field(..., alias='expiresAt')
    """
    The link works until then (24 hours after the email was sent).
    """
    interrupt_id: str = Field(..., alias='interruptId')
    member_name: str = Field(..., alias='memberName')
    """
    The member the link was sent to: the decision is theirs.
    """
    organisation_name: str = Field(..., alias='organisationName')
    status: Union[Literal['open', 'answered', 'expired', 'withdrawn'], str]
    """
    open until every action request has a decision (answered), its deadline passes (expired) or its agent withdraws it (withdrawn). Every status but open is final.
    """
    title: str
    used: bool
    """
    True once the link has decided.
    """


class AlwaysAllowDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    action_name: str = Field(
        ..., alias='actionName', max_length=200, min_length=1, pattern='^[^\\u0000]*$'
    )
    """
    One of its action requests.
    """
    args: Optional[
        list[
            Union[
                RuleEqualsPredicate,
                RuleInPredicate,
                RuleComparePredicate,
                RuleGlobPredicate,
            ]
        ]
    ] = Field(None, max_length=20)
    """
    Conditions on the arguments (RuleArgPredicate), each of which must hold for this action's own arguments — equal values, or a range the person chooses. Absent: every argument equal to its value here. Empty: any arguments.
    """
    expires_in_days: int = Field(30, alias='expiresInDays', ge=1, le=365)
    """
    Days until the rule expires.
    """
    interrupt_id: str = Field(..., alias='interruptId')
    """
    The interrupt whose action is always allowed.
    """


class AppendMessagesDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    messages: list[SessionMessageDto] = Field(..., max_length=100, min_length=1)


class ClassificationRuleListItem(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    created_at: AwareDatetime = Field(..., alias='createdAt')
    expires_at: Optional[AwareDatetime] = Field(..., alias='expiresAt')
    id: str
    match: RuleMatch
    mode: Union[Literal['off', 'shadow', 'enforce'], str]
    name: str
    origin: Union[Literal['member', 'always_allow', 'suggestion'], str]
    """
    member: written in the editor or the API; always_allow: made by "Always allow this" on an interrupt; suggestion: applied from a suggestion.
    """
    origin_interrupt_id: Optional[str] = Field(..., alias='originInterruptId')
    """
    For always_allow: the interrupt it was made from.
    """
    outcome: Union[
        ApproveOutcome, RejectOutcome, RouteOutcome, RequireHumanOutcome, PolicyOutcome
    ]
    """
    What a rule does: approve, reject, route, require_human, policy.
    """
    paused: Optional[ClassificationRulePause] = Field(...)
    """
    Set when a person rejected an action this always_allow rule would approve, which switched it off; cleared by the next mode change.
    """
    priority: int
    stats: ClassificationRuleStats
    updated_at: AwareDatetime = Field(..., alias='updatedAt')


class ClassificationRuleListResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    rules: list[ClassificationRuleListItem]
    """
    In evaluation order: priority, then creation; each with its statistics.
    """


class ClassificationRuleResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    created_at: AwareDatetime = Field(..., alias='createdAt')
    expires_at: Optional[AwareDatetime] = Field(..., alias='expiresAt')
    id: str
    match: RuleMatch
    mode: Union[Literal['off', 'shadow', 'enforce'], str]
    name: str
    origin: Union[Literal['member', 'always_allow', 'suggestion'], str]
    """
    member: written in the editor or the API; always_allow: made by "Always allow this" on an interrupt; suggestion: applied from a suggestion.
    """
    origin_interrupt_id: Optional[str] = Field(..., alias='originInterruptId')
    """
    For always_allow: the interrupt it was made from.
    """
    outcome: Union[
        ApproveOutcome, RejectOutcome, RouteOutcome, RequireHumanOutcome, PolicyOutcome
    ]
    """
    What a rule does: approve, reject, route, require_human, policy.
    """
    paused: Optional[ClassificationRulePause] = Field(...)
    """
    Set when a person rejected an action this always_allow rule would approve, which switched it off; cleared by the next mode change.
    """
    priority: int
    updated_at: AwareDatetime = Field(..., alias='updatedAt')


class ClassificationSuggestionResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    action_name: str = Field(..., alias='actionName')
    approvals: int = Field(..., ge=5)
    """
    Approvals by people in the last 30 days (and no rejection).
    """
    id: str
    """
    Stable while the evidence holds (derived from key, action name and shape).
    """
    key_id: str = Field(..., alias='keyId')
    key_name: str = Field(..., alias='keyName')
    """
    The key, by its current name.
    """
    last_approved_at: AwareDatetime = Field(..., alias='lastApprovedAt')
    latest_interrupt_id: str = Field(..., alias='latestInterruptId')
    """
    The latest interrupt approved.
    """
    rule: SuggestedRule
    shape: dict[str, str] = Field(
        ..., examples=[{'amount': 'number', 'currency': 'string'}]
    )
    """
    Each top-level argument and its JSON type (string, number, boolean, object, array, null).
    """


class CreateClassificationRuleDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    expires_at: Optional[AwareDatetime] = Field(None, alias='expiresAt')
    """
    After this the rule no longer applies; null or absent: never.
    """
    match: RuleMatch
    mode: Union[Literal['off', 'shadow', 'enforce'], str]
    """
    off: ignored; shadow: recorded, never applied; enforce: applied.
    """
    name: str = Field(
        ...,
        examples=['Small refunds from the billing agent'],
        max_length=100,
        min_length=1,
        pattern='^[^\\u0000]*[^\\u0000\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff][^\\u0000]*$',
    )
    outcome: Union[
        ApproveOutcome, RejectOutcome, RouteOutcome, RequireHumanOutcome, PolicyOutcome
    ]
    """
    What a rule does: approve, reject, route, require_human, policy.
    """
    priority: int = Field(100, ge=0, le=1000000)
    """
    Lower runs first.
    """


class DecisionResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    action_digest: Optional[str] = Field(
        None, alias='actionDigest', pattern='^[0-9a-f]{64}$'
    )
    """
    The decided action's actionDigest: what the decision is about. Absent from services before it was introduced.
    """
    action_name: str = Field(..., alias='actionName')
    decided_at: AwareDatetime = Field(..., alias='decidedAt')
    decided_by: Union[MemberDecidedBy, ArgusDecidedBy, SystemDecidedBy] = Field(
        ..., alias='decidedBy'
    )
    """
    Who decided: a member (type member, with the member's id and name at the time), argus (the automatic classifier, with the rule) or the service itself (type system, with the reason).
    """
    decision: Union[Literal['approve', 'edit', 'reject', 'respond'], str]
    edited_action_digest: Optional[str] = Field(
        None, alias='editedActionDigest', pattern='^[0-9a-f]{64}$'
    )
    """
    With decision edit: the digest of the action as edited — {interruptId, name: editedName or the action name, args: editedArgs}; null otherwise.
    """
    edited_args: Optional[dict[str, Any]] = Field(..., alias='editedArgs')
    """
    Set with decision edit.
    """
    edited_name: Optional[str] = Field(..., alias='editedName')
    """
    Set with decision edit when the member renamed the action.
    """
    id: str
    message: Optional[str] = Field(...)
    """
    Set with respond unless it carried a response; optional with the others.
    """
    response: Optional[dict[str, Any]] = None
    """
    Typed input: with respond on an action that has a responseSchema, the answer, valid against it; null otherwise.
    """


class DryRunDto(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    ask_classifier: bool = Field(False, alias='askClassifier')
    """
    Ask the organisation's external classifier about each action, as POST /api/interrupts does (signed, fail closed), so rules on risk and labels preview truthfully; at most 20 lastInterrupts with it. Absent or false: it is not asked (each action says classifier not_asked) and rules naming risk or labels match nothing.
    """
    last_interrupts: Optional[int] = Field(None, alias='lastInterrupts', ge=1, le=200)
    rules: Optional[list[CreateClassificationRuleDto]] = Field(None, max_length=20)
    """
    Draft rules to run instead of the saved ones.
    """
    sample: Optional[DryRunSampleDto] = None


class InterruptDetailResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    action_requests: list[ActionRequestResponse] = Field(..., alias='actionRequests')
    answered_at: Optional[AwareDatetime] = Field(..., alias='answeredAt')
    argus: Optional[list[InterruptHistoryEntry]] = None
    """
    With include=argus: the entries argus wrote about the interrupt, oldest first — its receipts (classification.applied / classification.shadowed, metadata {actionName, ruleIds, policyVersion, mode, outcome, enforced, skipped?, policyIds?, error?}), classification.failed, classification.breaker_tripped, and the assignments and escalations its routes made. Needs only interrupt.read (the latest 100 at most).
    """
    assignee: Optional[Assignee] = Field(...)
    classifier_labels: Optional[list[str]] = Field(None, alias='classifierLabels')
    """
    The external classifier's labels for the actions alone, each once, in the order first given; empty when it gave none.
    """
    closed_at: Optional[AwareDatetime] = Field(None, alias='closedAt')
    """
    When it expired or was withdrawn.
    """
    created_at: AwareDatetime = Field(..., alias='createdAt')
    decisions: list[DecisionResponse]
    """
    In the order they were made.
    """
    description: Optional[str] = Field(...)
    escalated_at: Optional[AwareDatetime] = Field(..., alias='escalatedAt')
    escalation: Optional[InterruptEscalation] = None
    """
    With include=escalation: the reminders and escalations its escalation policy made, and the next step. Needs only interrupt.read.
    """
    escalation_level: int = Field(..., alias='escalationLevel', ge=0)
    """
    0 until escalated; each escalation adds one.
    """
    escalation_reason: Optional[str] = Field(..., alias='escalationReason')
    expires_at: Optional[AwareDatetime] = Field(None, alias='expiresAt')
    """
    The deadline, or null for none.
    """
    external_id: Optional[str] = Field(..., alias='externalId')
    history: Optional[list[InterruptHistoryEntry]] = None
    """
    With include=history: the interrupt's audit entries, oldest first (the latest 100 at most).
    """
    id: str
    labels: Optional[list[str]] = None
    """
    Its labels, each once: the ones its agent gave it, then the external classifier's for its actions, in the order first given; empty when none.
    """
    metadata: Optional[dict[str, Any]] = Field(...)
    on_timeout: Optional[Union[Literal['reject', 'approve', 'escalate'], str]] = Field(
        None, alias='onTimeout'
    )
    """
    What the deadline does: reject (the default) or approve the undecided actions, or escalate and extend once. Null without a deadline.
    """
    opened_by: Optional[OpenedBy] = Field(None, alias='openedBy')
    """
    The API key that opened it (its agent), named as it was then; null when no key is recorded.
    """
    priority: Optional[Union[Literal['low', 'normal', 'high', 'urgent'], str]] = None
    """
    How urgent it is: low, normal (the default), high or urgent — set by its agent, an argus route, or a member since.
    """
    resume: Optional[ResumeDelivery] = None
    """
    With include=resume: where the POST to its resumeUrl stands (null: it was opened without one). Needs only interrupt.read; never shows the URL.
    """
    risk: Optional[Union[Literal['low', 'medium', 'high', 'critical'], str]] = None
    """
    The organisation's external classifier's highest risk over the actions it answered for (SPEC §8d); null when none answered or none is set up.
    """
    session: Optional[LinkedSession] = None
    """
    With include=session: the session sessionId names, or null.
    """
    session_id: Optional[str] = Field(..., alias='sessionId')
    status: Union[Literal['open', 'answered', 'expired', 'withdrawn'], str]
    """
    open until every action request has a decision (answered), its deadline passes (expired) or its agent withdraws it (withdrawn). Every status but open is final.
    """
    title: str = Field(..., examples=['Deploy to prod'], max_length=200, min_length=1)
    withdrawn_reason: Optional[str] = Field(None, alias='withdrawnReason')
    """
    Why its agent withdrew it, when it said.
    """


class InterruptResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    action_requests: list[ActionRequestResponse] = Field(..., alias='actionRequests')
    answered_at: Optional[AwareDatetime] = Field(..., alias='answeredAt')
    assignee: Optional[Assignee] = Field(...)
    classifier_labels: Optional[list[str]] = Field(None, alias='classifierLabels')
    """
    The external classifier's labels for the actions alone, each once, in the order first given; empty when it gave none.
    """
    closed_at: Optional[AwareDatetime] = Field(None, alias='closedAt')
    """
    When it expired or was withdrawn.
    """
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
    expires_at: Optional[AwareDatetime] = Field(None, alias='expiresAt')
    """
    The deadline, or null for none.
    """
    external_id: Optional[str] = Field(..., alias='externalId')
    id: str
    labels: Optional[list[str]] = None
    """
    Its labels, each once: the ones its agent gave it, then the external classifier's for its actions, in the order first given; empty when none.
    """
    metadata: Optional[dict[str, Any]] = Field(...)
    on_timeout: Optional[Union[Literal['reject', 'approve', 'escalate'], str]] = Field(
        None, alias='onTimeout'
    )
    """
    What the deadline does: reject (the default) or approve the undecided actions, or escalate and extend once. Null without a deadline.
    """
    opened_by: Optional[OpenedBy] = Field(None, alias='openedBy')
    """
    The API key that opened it (its agent), named as it was then; null when no key is recorded.
    """
    priority: Optional[Union[Literal['low', 'normal', 'high', 'urgent'], str]] = None
    """
    How urgent it is: low, normal (the default), high or urgent — set by its agent, an argus route, or a member since.
    """
    risk: Optional[Union[Literal['low', 'medium', 'high', 'critical'], str]] = None
    """
    The organisation's external classifier's highest risk over the actions it answered for (SPEC §8d); null when none answered or none is set up.
    """
    session_id: Optional[str] = Field(..., alias='sessionId')
    status: Union[Literal['open', 'answered', 'expired', 'withdrawn'], str]
    """
    open until every action request has a decision (answered), its deadline passes (expired) or its agent withdraws it (withdrawn). Every status but open is final.
    """
    title: str = Field(..., examples=['Deploy to prod'], max_length=200, min_length=1)
    withdrawn_reason: Optional[str] = Field(None, alias='withdrawnReason')
    """
    Why its agent withdrew it, when it said.
    """


class InterruptUnassignedEvent(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    created_at: AwareDatetime = Field(..., alias='createdAt')
    """
    When the change happened.
    """
    data: InterruptResponse
    """
    The interrupt with its decisions, as GET /api/interrupts/{id} returns it.
    """
    id: str
    """
    The event id: also the webhook-id header. The same on every attempt; deduplicate on it.
    """
    organisation_id: str = Field(..., alias='organisationId')
    type: Union[Literal['interrupt.unassigned'], str]
    """
    A member removed the assignee.
    """


class InterruptWithdrawnEvent(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    created_at: AwareDatetime = Field(..., alias='createdAt')
    """
    When the change happened.
    """
    data: InterruptResponse
    """
    The interrupt with its decisions, as GET /api/interrupts/{id} returns it.
    """
    id: str
    """
    The event id: also the webhook-id header. The same on every attempt; deduplicate on it.
    """
    organisation_id: str = Field(..., alias='organisationId')
    type: Union[Literal['interrupt.withdrawn'], str]
    """
    Its agent withdrew the interrupt: its undecided actions can no longer be decided.
    """


class NotificationDeliveryListResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    deliveries: list[NotificationDeliveryResponse]
    """
    Newest first, `limit` of them.
    """
    next_cursor: Optional[str] = Field(..., alias='nextCursor')
    """
    The next page: repeat the request with it (and the same scope); null at the end.
    """


class SessionEndedEvent(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    created_at: AwareDatetime = Field(..., alias='createdAt')
    """
    When the change happened.
    """
    data: SessionResponse
    """
    The session, as GET /api/sessions/{id} returns it.
    """
    id: str
    """
    The event id: also the webhook-id header. The same on every attempt; deduplicate on it.
    """
    organisation_id: str = Field(..., alias='organisationId')
    type: Union[Literal['session.ended'], str]
    """
    The agent ended the session, or a member disconnected it (data.status says which).
    """


class SessionListResponse(InterlockModel):
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


class WebhookDeliveryListResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    deliveries: list[WebhookDeliveryResponse]
    next_cursor: Optional[str] = Field(..., alias='nextCursor')
    """
    null on the last page.
    """


class ClassificationSuggestionListResponse(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    suggestions: list[ClassificationSuggestionResponse]
    """
    At most 50, the most approved first.
    """


class InterruptAnsweredEvent(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    created_at: AwareDatetime = Field(..., alias='createdAt')
    """
    When the change happened.
    """
    data: InterruptResponse
    """
    The interrupt with its decisions, as GET /api/interrupts/{id} returns it.
    """
    id: str
    """
    The event id: also the webhook-id header. The same on every attempt; deduplicate on it.
    """
    organisation_id: str = Field(..., alias='organisationId')
    type: Union[Literal['interrupt.answered'], str]
    """
    Every action is decided: follows the interrupt.decided of the last one.
    """


class InterruptApprovalAddedEvent(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    created_at: AwareDatetime = Field(..., alias='createdAt')
    """
    When the change happened.
    """
    data: InterruptResponse
    """
    The interrupt with its decisions, as GET /api/interrupts/{id} returns it.
    """
    id: str
    """
    The event id: also the webhook-id header. The same on every attempt; deduplicate on it.
    """
    organisation_id: str = Field(..., alias='organisationId')
    type: Union[Literal['interrupt.approval_added'], str]
    """
    A member approved an action that needs several approvals, short of its quorum: the action stays undecided, and its approvals in `data` show who approved so far.
    """


class InterruptAssignedEvent(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    created_at: AwareDatetime = Field(..., alias='createdAt')
    """
    When the change happened.
    """
    data: InterruptResponse
    """
    The interrupt with its decisions, as GET /api/interrupts/{id} returns it.
    """
    id: str
    """
    The event id: also the webhook-id header. The same on every attempt; deduplicate on it.
    """
    organisation_id: str = Field(..., alias='organisationId')
    type: Union[Literal['interrupt.assigned'], str]
    """
    A member assigned the interrupt to a member or team.
    """


class InterruptCreatedEvent(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    created_at: AwareDatetime = Field(..., alias='createdAt')
    """
    When the change happened.
    """
    data: InterruptResponse
    """
    The interrupt with its decisions, as GET /api/interrupts/{id} returns it.
    """
    id: str
    """
    The event id: also the webhook-id header. The same on every attempt; deduplicate on it.
    """
    organisation_id: str = Field(..., alias='organisationId')
    type: Union[Literal['interrupt.created'], str]
    """
    An agent opened an interrupt.
    """


class InterruptDecidedEvent(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    created_at: AwareDatetime = Field(..., alias='createdAt')
    """
    When the change happened.
    """
    data: InterruptResponse
    """
    The interrupt with its decisions, as GET /api/interrupts/{id} returns it.
    """
    id: str
    """
    The event id: also the webhook-id header. The same on every attempt; deduplicate on it.
    """
    organisation_id: str = Field(..., alias='organisationId')
    type: Union[Literal['interrupt.decided'], str]
    """
    A member decided one action (the interrupt as it is after the decision).
    """


class InterruptEscalatedEvent(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    created_at: AwareDatetime = Field(..., alias='createdAt')
    """
    When the change happened.
    """
    data: InterruptResponse
    """
    The interrupt with its decisions, as GET /api/interrupts/{id} returns it.
    """
    id: str
    """
    The event id: also the webhook-id header. The same on every attempt; deduplicate on it.
    """
    organisation_id: str = Field(..., alias='organisationId')
    type: Union[Literal['interrupt.escalated'], str]
    """
    A member escalated the interrupt (or, with onTimeout escalate, its deadline did).
    """


class InterruptExpiredEvent(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    created_at: AwareDatetime = Field(..., alias='createdAt')
    """
    When the change happened.
    """
    data: InterruptResponse
    """
    The interrupt with its decisions, as GET /api/interrupts/{id} returns it.
    """
    id: str
    """
    The event id: also the webhook-id header. The same on every attempt; deduplicate on it.
    """
    organisation_id: str = Field(..., alias='organisationId')
    type: Union[Literal['interrupt.expired'], str]
    """
    The deadline passed: the service decided every undecided action (onTimeout) as actor system.
    """


class InterruptListResponse(InterlockModel):
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


class InterruptReminderEvent(InterlockModel):
    model_config = ConfigDict(
        extra='allow',
        populate_by_name=True,
    )
    created_at: AwareDatetime = Field(..., alias='createdAt')
    """
    When the change happened.
    """
    data: InterruptResponse
    """
    The interrupt with its decisions, as GET /api/interrupts/{id} returns it.
    """
    id: str
    """
    The event id: also the webhook-id header. The same on every attempt; deduplicate on it.
    """
    organisation_id: str = Field(..., alias='organisationId')
    type: Union[Literal['interrupt.reminder'], str]
    """
    A step of the organisation's escalation policy reminded the assignee (or, unassigned, its readers) that the interrupt waits.
    """


class WebhookEvent(
    RootModel[
        Union[
            InterruptCreatedEvent,
            InterruptDecidedEvent,
            InterruptAnsweredEvent,
            InterruptAssignedEvent,
            InterruptUnassignedEvent,
            InterruptEscalatedEvent,
            InterruptExpiredEvent,
            InterruptWithdrawnEvent,
            InterruptReminderEvent,
            InterruptApprovalAddedEvent,
            SessionStartedEvent,
            SessionEndedEvent,
            WebhookTestEvent,
        ]
    ]
):
    model_config = ConfigDict(
        populate_by_name=True,
    )
    root: Union[
        InterruptCreatedEvent,
        InterruptDecidedEvent,
        InterruptAnsweredEvent,
        InterruptAssignedEvent,
        InterruptUnassignedEvent,
        InterruptEscalatedEvent,
        InterruptExpiredEvent,
        InterruptWithdrawnEvent,
        InterruptReminderEvent,
        InterruptApprovalAddedEvent,
        SessionStartedEvent,
        SessionEndedEvent,
        WebhookTestEvent,
    ]
    """
    The JSON body of a webhook delivery: {id, type, createdAt, organisationId, data}. Signed the Standard Webhooks way (webhook-id, webhook-timestamp, webhook-signature headers); verify it with the SDKs' webhooks.unwrap.
    """
