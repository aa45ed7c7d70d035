"""The OpenAI Agents bridge's mapping on stand-ins of the SDK's objects (the real package runs in
tests/integration/test_openai_agents_real.py)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from dataclasses import dataclass, field
from typing import Any, Optional

import pytest

from interlock import ActionDigestMismatchError, InterlockError, WebhookVerificationError, resume_signing_secret
from interlock.openai_agents import OPENAI_AGENTS_METADATA_KEY, apply_decisions, interrupt_params, resume_from_webhook

from .factories import answered, decision, digested, interrupt


@dataclass
class Item:
    name: str
    arguments: Optional[str]
    raw_item: dict[str, Any]


@dataclass
class State:
    items: list[Item]
    calls: list[tuple[str, str, Optional[str]]] = field(default_factory=list)

    def get_interruptions(self) -> list[Item]:
        return self.items

    def approve(self, item: Item, always_approve: bool = False) -> None:
        self.calls.append(("approve", item.raw_item["call_id"], None))

    def reject(self, item: Item, always_reject: bool = False, *, rejection_message: Optional[str] = None) -> None:
        self.calls.append(("reject", item.raw_item["call_id"], rejection_message))

    def to_string(self) -> str:
        return '{"state": true}'


def state() -> State:
    return State(
        [
            Item("send_email", '{"to": "ada@example.com"}', {"call_id": "c1"}),
            Item("send_email", '{"to": "bob@example.com"}', {"call_id": "c2"}),
            Item("delete_file", "not json", {"call_id": "c3"}),
        ]
    )


def test_one_action_per_call_unique_names_and_only_approve_or_reject() -> None:
    params = interrupt_params(state(), external_id="run-1")
    assert params["title"] == "Approve 3 tool calls: send_email, delete_file?"
    assert [(a["name"], a["args"], a["allowed_decisions"]) for a in params["action_requests"]] == [
        ("send_email", {"to": "ada@example.com"}, ["approve", "reject"]),
        ("send_email #2", {"to": "bob@example.com"}, ["approve", "reject"]),
        ("delete_file", {"arguments": "not json"}, ["approve", "reject"]),
    ]
    assert params["metadata"][OPENAI_AGENTS_METADATA_KEY] == {
        "v": 1,
        "calls": [["send_email", "c1"], ["send_email #2", "c2"], ["delete_file", "c3"]],
    }
    assert "state" in interrupt_params(state(), include_state=True)["metadata"][OPENAI_AGENTS_METADATA_KEY]


def asked(run: State, *decisions: dict[str, Any], status: str = "answered") -> dict[str, Any]:
    """The interrupt the service answers for ``run``'s approvals: the actions as the bridge sent
    them, with the service's digests on them and on the decisions."""
    params = interrupt_params(run)
    body = interrupt(
        metadata=params["metadata"],
        actionRequests=[
            {"name": a["name"], "args": a["args"], "description": None, "allowedDecisions": a["allowed_decisions"]}
            for a in params["action_requests"]
        ],
    )
    return digested(answered(body, *decisions) | {"status": status})


def test_decisions_are_applied_by_call_id() -> None:
    run = state()
    done = asked(
        run,
        decision("send_email #2", "reject", message="Not Bob.", number=2),
        decision("send_email", number=1),
        decision("delete_file", "reject", number=3),
    )
    apply_decisions(run, done)
    assert run.calls == [("approve", "c1", None), ("reject", "c2", "Not Bob."), ("reject", "c3", None)]


def test_a_decision_about_other_arguments_than_the_run_holds_is_refused() -> None:
    done = asked(state(), decision("send_email", number=1), decision("send_email #2", number=2))
    tampered = state()
    tampered.items[1].arguments = '{"to": "mallory@example.com"}'
    with pytest.raises(ActionDigestMismatchError, match="action send_email #2 of interrupt"):
        apply_decisions(tampered, done)
    assert tampered.calls == []
    forged = done | {
        "decisions": [
            d | {"actionDigest": "f" * 64} if d["actionName"] == "send_email" else d for d in done["decisions"]
        ]
    }
    run = state()
    with pytest.raises(ActionDigestMismatchError):
        apply_decisions(run, forged)
    assert run.calls == []


def signed(body: str, secret: str) -> dict[str, str]:
    """Standard Webhooks headers for ``body`` under ``secret``, as the service sends them."""
    timestamp = str(int(time.time()))
    key = base64.b64decode(secret.removeprefix("whsec_"))
    mac = hmac.new(key, f"evt_1.{timestamp}.{body}".encode(), hashlib.sha256).digest()
    return {
        "webhook-id": "evt_1",
        "webhook-timestamp": timestamp,
        "webhook-signature": "v1," + base64.b64encode(mac).decode(),
    }


@pytest.mark.anyio
async def test_resume_from_webhook_refuses_a_post_not_signed_under_the_key() -> None:
    event = {
        "id": "evt_1",
        "type": "interrupt.answered",
        "createdAt": "2025-01-01T00:05:00.000Z",
        "organisationId": "5e4d3c2b-1a09-4f8e-a7d6-c5b4a3928170",
        "data": asked(state(), decision("send_email")),
    }
    body = json.dumps(event)
    with pytest.raises(WebhookVerificationError):
        await resume_from_webhook(object(), body, signed(body, resume_signing_secret("ilk_other")), api_key="ilk_mine")
    created = json.dumps(event | {"type": "interrupt.created"})
    with pytest.raises(InterlockError, match=r"interrupt\.created event does not end an interrupt"):
        await resume_from_webhook(
            object(), created, signed(created, resume_signing_secret("ilk_mine")), api_key="ilk_mine"
        )


def test_refuses_an_open_interrupt_or_one_of_another_bridge() -> None:
    run = state()
    with pytest.raises(InterlockError, match="still open"):
        apply_decisions(run, asked(run, status="open"))
    with pytest.raises(InterlockError, match="not opened by the OpenAI Agents bridge"):
        apply_decisions(run, answered(interrupt("send_email"), decision("send_email")))
