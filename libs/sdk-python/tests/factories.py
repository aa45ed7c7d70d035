"""Response bodies exactly as the service answers them (contract/openapi.json): every required field,
real UUIDs. Each builder takes overrides for the fields a test cares about."""

from __future__ import annotations

from typing import Any

INTERRUPT_ID = "6f0c6f4e-8a4b-4d7e-9c1a-2b3c4d5e6f70"
SESSION_ID = "0d5b8e7a-1c2d-4e3f-8a9b-0c1d2e3f4a5b"
MEMBER_ID = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"
KEY_ID = "3c2b1a09-8f7e-4d6c-9b5a-493827160504"
ORGANISATION_ID = "5e4d3c2b-1a09-4f8e-a7d6-c5b4a3928170"
CREATED_AT = "2025-01-01T00:00:00.000Z"


def action_request(name: str, **overrides: Any) -> dict[str, Any]:
    return {
        "name": name,
        "args": {},
        "description": None,
        "allowedDecisions": ["approve", "edit", "reject", "respond"],
        "responseSchema": None,
    } | overrides


def interrupt(*actions: str, **overrides: Any) -> dict[str, Any]:
    """An open interrupt with an action request per name (default one, ``a``)."""
    return {
        "id": INTERRUPT_ID,
        "title": "t",
        "description": None,
        "externalId": None,
        "sessionId": None,
        "status": "open",
        "actionRequests": [action_request(name) for name in (actions or ("a",))],
        "decisions": [],
        "assignee": None,
        "escalationLevel": 0,
        "escalationReason": None,
        "escalatedAt": None,
        "metadata": None,
        "createdAt": CREATED_AT,
        "answeredAt": None,
    } | overrides


def decision(
    action_name: str,
    kind: str = "approve",
    *,
    edited_args: Any = None,
    edited_name: str | None = None,
    message: str | None = None,
    number: int = 1,
) -> dict[str, Any]:
    return {
        "id": f"00000000-0000-4000-8000-{number:012d}",
        "actionName": action_name,
        "decision": kind,
        "editedArgs": edited_args,
        "editedName": edited_name,
        "message": message,
        "response": None,
        "decidedBy": {"type": "member", "id": MEMBER_ID, "name": "Ada"},
        "decidedAt": "2025-01-01T00:05:00.000Z",
    }


def answered(open_interrupt: dict[str, Any], *decisions: dict[str, Any]) -> dict[str, Any]:
    return open_interrupt | {
        "status": "answered",
        "answeredAt": "2025-01-01T00:05:00.000Z",
        "decisions": list(decisions),
    }


def digested(body: dict[str, Any]) -> dict[str, Any]:
    """The interrupt with the digests the service puts on it (SPEC §8e): each action request's
    from its name and args, and each decision carrying its action's."""
    from interlock.digest import action_digest

    actions = [a | {"actionDigest": action_digest(body["id"], a["name"], a["args"])} for a in body["actionRequests"]]
    by_name = {a["name"]: a["actionDigest"] for a in actions}
    decisions = [d | {"actionDigest": by_name.get(d["actionName"])} for d in body["decisions"]]
    return body | {"actionRequests": actions, "decisions": decisions}


def session(**overrides: Any) -> dict[str, Any]:
    return {
        "id": SESSION_ID,
        "name": "run",
        "externalId": None,
        "status": "active",
        "metadata": None,
        "messageCount": 0,
        "startedAt": CREATED_AT,
        "endedAt": None,
    } | overrides


def whoami(plan: str = "pro", key_name: str = "ci") -> dict[str, Any]:
    return {"organisationId": ORGANISATION_ID, "plan": plan, "apiKey": {"id": KEY_ID, "name": key_name}}
