"""The OpenAI Agents bridge's mapping on stand-ins of the SDK's objects (the real package runs in
tests/integration/test_openai_agents_real.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

import pytest

from interlock import InterlockError
from interlock.openai_agents import OPENAI_AGENTS_METADATA_KEY, apply_decisions, interrupt_params

from .factories import answered, decision, interrupt


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


def test_decisions_are_applied_by_call_id() -> None:
    run = state()
    params = interrupt_params(run)
    body = interrupt("send_email", "send_email #2", "delete_file", metadata=params["metadata"])
    done = answered(
        body,
        decision("send_email #2", "reject", message="Not Bob.", number=2),
        decision("send_email", number=1),
        decision("delete_file", "reject", number=3),
    )
    apply_decisions(run, done)
    assert run.calls == [("approve", "c1", None), ("reject", "c2", "Not Bob."), ("reject", "c3", None)]


def test_refuses_an_open_interrupt_or_one_of_another_bridge() -> None:
    run = state()
    with pytest.raises(InterlockError, match="still open"):
        apply_decisions(run, interrupt("send_email", metadata=interrupt_params(run)["metadata"]))
    with pytest.raises(InterlockError, match="not opened by the OpenAI Agents bridge"):
        apply_decisions(run, answered(interrupt("send_email"), decision("send_email")))
