"""The public type names are the generated models, and the hand-kept Literal aliases match them."""

from __future__ import annotations

from typing import Any, get_args

import pytest

import interlock
from interlock import _generated, types


def literal_values(annotation: Any) -> set[str]:
    """The strings of a Literal, looking through Optional, list[...] and the open enum's ``str``."""
    values: set[str] = set()
    for arg in get_args(annotation) or (annotation,):
        if isinstance(arg, str):
            values.add(arg)
        elif arg is not type(None) and arg is not str:
            values |= literal_values(arg)
    return values


def field(model: type[Any], name: str) -> set[str]:
    return literal_values(model.model_fields[name].annotation)


@pytest.mark.parametrize(
    ("alias", "model", "name"),
    [
        (types.DecisionType, _generated.DecisionResponse, "decision"),
        (types.DecisionType, _generated.ActionRequestResponse, "allowed_decisions"),
        (types.InterruptStatus, _generated.InterruptResponse, "status"),
        (types.SessionStatus, _generated.SessionResponse, "status"),
        (types.SessionMessageRole, _generated.SessionMessageDto, "role"),
        (types.AuditCategory, _generated.AuditEntryResponse, "category"),
        (types.ActorType, _generated.AuditEntryResponse, "actor_type"),
        (types.TargetType, _generated.AuditEntryResponse, "target_type"),
        (types.WebhookEventType, _generated.WebhookDeliveryResponse, "event_type"),
        (types.SystemDecisionReason, _generated.SystemDecidedBy, "reason"),
        (types.ClassificationRuleMode, _generated.ClassificationRuleResponse, "mode"),
    ],
)
def test_literal_aliases_match_the_contract(alias: Any, model: type[Any], name: str) -> None:
    assert set(get_args(alias)) == field(model, name)


@pytest.mark.parametrize(
    ("alias", "model"),
    [
        (types.AssigneeFilter, _generated.AssigneeFilter),
        (types.OpenedByFilter, _generated.OpenedByFilter),
        (types.ListOrder, _generated.ListOrder),
        (types.SessionListStatus, _generated.SessionListStatus),
    ],
)
def test_query_literals_match_the_contract(alias: Any, model: type[Any]) -> None:
    assert set(get_args(alias)) == field(model, "root")


def test_public_names_are_the_generated_models() -> None:
    assert interlock.Interrupt is _generated.InterruptResponse
    assert interlock.Session is _generated.SessionResponse
    assert interlock.AuditEntry is interlock.AuditLogEntry is _generated.AuditEntryResponse
    assert interlock.Decision is _generated.DecisionResponse
    assert interlock.ActionRequest is _generated.ActionRequestDto
    assert interlock.Whoami is _generated.WhoamiResponse
    for name in types.__all__:
        assert hasattr(types, name), name


def test_decided_by_is_the_union_of_the_three_deciders() -> None:
    variants = (_generated.MemberDecidedBy, _generated.ArgusDecidedBy, _generated.SystemDecidedBy)
    assert get_args(types.DecidedBy) == variants
    assert set(get_args(types.DeciderType)) == set().union(*(field(m, "type") for m in variants))
    decision = {
        "id": "d1",
        "actionName": "deploy",
        "decision": "approve",
        "editedArgs": None,
        "editedName": None,
        "message": None,
        "decidedAt": "2026-11-26T12:00:00.000Z",
    }
    member = _generated.DecisionResponse.model_validate(
        {**decision, "decidedBy": {"type": "member", "id": "u1", "name": "Ada"}}
    )
    argus = _generated.DecisionResponse.model_validate(
        {**decision, "decidedBy": {"type": "argus", "ruleId": "r1", "name": "argus"}}
    )
    system = _generated.DecisionResponse.model_validate(
        {**decision, "decidedBy": {"type": "system", "reason": "timeout", "name": "system"}}
    )
    assert isinstance(member.decided_by, _generated.MemberDecidedBy)
    assert member.decided_by.name == "Ada"
    assert isinstance(argus.decided_by, _generated.ArgusDecidedBy)
    assert argus.decided_by.rule_id == "r1"
    assert isinstance(system.decided_by, _generated.SystemDecidedBy)
    assert system.decided_by.reason == "timeout"


def test_nullable_fields_accept_null() -> None:
    """The generator must keep the contract's nullable fields Optional (datamodel-codegen --strict-nullable)."""
    page = _generated.AuditLogPage.model_validate({"entries": [], "nextCursor": None})
    assert page.next_cursor is None
