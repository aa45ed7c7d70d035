"""Turns Python arguments into the API's wire shapes: camelCase keys, unset fields left out (the API
refuses unknown and, for some fields, null values), ids escaped into paths."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, Union
from urllib.parse import quote
from uuid import UUID

from pydantic import BaseModel

from ..types import ActionRequestParam, SessionMessageParam

ActionRequestInput = Union[ActionRequestParam, BaseModel, Mapping[str, Any]]
SessionMessageInput = Union[SessionMessageParam, BaseModel, Mapping[str, Any]]

# Only these keys are renamed: `args` and `metadata` are the caller's data and stay as given.
_CAMEL = {
    "allowed_decisions": "allowedDecisions",
    "external_id": "externalId",
    "session_id": "sessionId",
    "response_schema": "responseSchema",
    "required_approvals": "requiredApprovals",
    "approver_team": "approverTeam",
    "team_id": "teamId",
    "team_name": "teamName",
    "member_id": "memberId",
}
# Keys whose value is a request object of its own (its known keys camelCased too).
_NESTED = {"approver_team"}


def assign_to_wire(value: Union[Mapping[str, Any], None]) -> Union[dict[str, Any], None]:
    """``assign_to`` in wire form (``member_id`` → ``memberId``…), or None when not given."""
    return None if value is None else to_wire(value)


def compact(fields: Mapping[str, Any]) -> dict[str, Any]:
    """The fields that were given (None means "not given")."""
    return {name: value for name, value in fields.items() if value is not None}


def to_wire(value: Union[BaseModel, Mapping[str, Any]]) -> dict[str, Any]:
    """A request object in wire form: a model by its aliases, a dict with its known keys camelCased."""
    if isinstance(value, BaseModel):
        dumped: dict[str, Any] = value.model_dump(mode="json", by_alias=True, exclude_none=True)
        return dumped
    return {
        _CAMEL.get(key, key): to_wire(item) if key in _NESTED and isinstance(item, (BaseModel, Mapping)) else item
        for key, item in value.items()
        if item is not None
    }


#: An ISO 8601 timestamp, or a datetime (a naive one is taken as UTC).
Timestamp = Union[str, datetime]

#: An id as the models hold it (a string), or a ``uuid.UUID``.
Id = Union[str, UUID]


def path_id(value: Id) -> str:
    """An id as one path segment."""
    return quote(str(value), safe="")


def wire_id(value: Union[Id, None]) -> Union[str, None]:
    """An id for a JSON body."""
    return None if value is None else str(value)
