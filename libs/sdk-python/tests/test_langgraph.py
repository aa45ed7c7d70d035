from __future__ import annotations

from typing import Any

import httpx
import pytest

from interlock import (
    ActionDigestMismatchError,
    Interlock,
    InterlockError,
    interrupt_from_langgraph,
    to_langgraph_resume,
)
from interlock.types import Interrupt

from .conftest import json_response, recorder
from .factories import action_request, digested
from .factories import decision as make_decision
from .factories import interrupt as interrupt_body

HITL: dict[str, Any] = {
    "action_requests": [
        {"name": "send_email", "args": {"to": "ada@example.com", "body": "Hi"}, "description": "Send the reply"},
        {"name": "delete_file", "args": {"path": "/tmp/x"}, "description": "Clean up"},
        {"name": "book_flight", "args": {"to": "LIS"}},
        {"name": "ask_user", "args": {}},
    ],
    "review_configs": [
        {"action_name": "send_email", "allowed_decisions": ["approve", "edit", "reject"]},
        {"action_name": "delete_file", "allowed_decisions": ["approve", "reject"]},
        {"action_name": "ask_user", "allowed_decisions": ["respond"]},
    ],
}


def decision(number: str, name: str, kind: str, edited: Any = None, message: str | None = None) -> dict[str, Any]:
    return make_decision(name, kind, edited_args=edited, message=message, number=int(number.lstrip("d")))


def test_maps_a_hitl_request_to_create_parameters() -> None:
    params = interrupt_from_langgraph(HITL, external_id="thread-42", session_id="s1")
    bridge = params.pop("metadata")["langgraph"]
    assert {k: bridge[k] for k in ("v", "part", "parts", "targets")} == {
        "v": 1,
        "part": 1,
        "parts": 1,
        "targets": [{"id": None, "kind": "hitl", "size": 4}],
    }
    assert params == {
        "title": "Review 4 actions: send_email, delete_file, book_flight, ask_user",
        "external_id": "thread-42",
        "session_id": "s1",
        "action_requests": [
            {
                "name": "send_email",
                "args": {"to": "ada@example.com", "body": "Hi"},
                "description": "Send the reply",
                "allowed_decisions": ["approve", "edit", "reject"],
            },
            {
                "name": "delete_file",
                "args": {"path": "/tmp/x"},
                "description": "Clean up",
                "allowed_decisions": ["approve", "reject"],
            },
            {"name": "book_flight", "args": {"to": "LIS"}},
            {"name": "ask_user", "args": {}, "allowed_decisions": ["respond"]},
        ],
    }
    assert interrupt_from_langgraph({"action_requests": [{"name": "x"}]}, title="Mine")["title"] == "Mine"
    assert interrupt_from_langgraph({"action_requests": [{"name": "x"}]})["title"] == "Review x"


def test_titles_fit_and_bad_input_is_refused() -> None:
    many = {"action_requests": [{"name": f"a_very_long_tool_name_{i}"} for i in range(20)]}
    assert len(interrupt_from_langgraph(many)["title"]) == 200
    with pytest.raises(InterlockError):
        interrupt_from_langgraph({"action_requests": []})
    with pytest.raises(InterlockError, match="ignore"):
        interrupt_from_langgraph(
            {
                "action_requests": [{"name": "x"}],
                "review_configs": [{"action_name": "x", "allowed_decisions": ["ignore"]}],
            }
        )


def test_round_trip_through_the_client_in_the_original_action_order() -> None:
    params = interrupt_from_langgraph(HITL)
    created = interrupt_body(
        title=params["title"],
        actionRequests=[
            action_request(
                a["name"],
                args=a.get("args", {}),
                allowedDecisions=a.get("allowed_decisions", ["approve", "edit", "reject", "respond"]),
            )
            for a in params["action_requests"]
        ],
    )
    answered = {
        **created,
        "status": "answered",
        "decisions": [
            decision("d4", "ask_user", "respond", message="Tuesday works"),
            decision("d2", "delete_file", "reject", message="Keep it"),
            decision("d1", "send_email", "edit", edited={"to": "ada@example.com", "body": "Hello"}),
            decision("d3", "book_flight", "approve"),
        ],
    }
    rec = recorder(json_response(201, created), json_response(200, answered))
    client = Interlock(
        api_key="ilk_test", base_url="http://x.test", http_client=httpx.Client(transport=rec.transport())
    )
    interrupt = client.interrupts.create(**params)
    assert rec.body(0)["actionRequests"][0]["allowedDecisions"] == ["approve", "edit", "reject"]
    result = client.interrupts.wait_for_answer(interrupt.id)
    expected = {
        "decisions": [
            {
                "type": "edit",
                "edited_action": {"name": "send_email", "args": {"to": "ada@example.com", "body": "Hello"}},
            },
            {"type": "reject", "message": "Keep it"},
            {"type": "approve"},
            {"type": "respond", "message": "Tuesday works"},
        ]
    }
    assert to_langgraph_resume(result, HITL) == expected
    # The raw JSON works too.
    assert to_langgraph_resume(answered, HITL) == expected


def test_review_langgraph_refuses_an_answer_about_other_arguments() -> None:
    params = interrupt_from_langgraph(HITL)
    created = interrupt_body(
        title=params["title"],
        actionRequests=[action_request(a["name"], args=a.get("args", {})) for a in params["action_requests"]],
    )
    # The service's answer is about send_email to someone else: its digests are of other args.
    other = [
        action_request(
            a["name"], args={"to": "mallory@example.com"} if a["name"] == "send_email" else a.get("args", {})
        )
        for a in params["action_requests"]
    ]
    decided = [decision(f"d{i + 1}", a["name"], "approve") for i, a in enumerate(params["action_requests"])]
    tampered = digested({**created, "actionRequests": other, "status": "answered", "decisions": decided})
    rec = recorder(json_response(201, created), json_response(200, tampered))
    client = Interlock(
        api_key="ilk_test", base_url="http://x.test", http_client=httpx.Client(transport=rec.transport())
    )
    with pytest.raises(ActionDigestMismatchError, match="action send_email of interrupt"):
        client.interrupts.review_langgraph(HITL)


def test_repeated_tool_names_are_made_unique_and_restored_in_the_resume_value() -> None:
    request = {
        "action_requests": [
            {"name": "send_email", "args": {"to": "a"}},
            {"name": "send_email", "args": {"to": "b"}},
        ],
        "review_configs": [{"action_name": "send_email", "allowed_decisions": ["approve", "edit"]}],
    }
    params = interrupt_from_langgraph(request, metadata={"run": 7})
    assert [a["name"] for a in params["action_requests"]] == ["send_email", "send_email #2"]
    assert params["action_requests"][1].get("allowed_decisions") == ["approve", "edit"]
    assert params.get("metadata", {})["langgraph"]["actions"] == [[0, 0, "send_email"], [0, 1, "send_email"]]
    assert params.get("metadata", {})["run"] == 7
    answered = Interrupt.model_validate(
        interrupt_body(
            "send_email",
            "send_email #2",
            title=params["title"],
            status="answered",
            metadata=params.get("metadata"),
            decisions=[
                decision("2", "send_email #2", "edit", edited={"to": "c"}),
                decision("1", "send_email", "approve"),
            ],
        )
    )
    assert to_langgraph_resume(answered, request) == {
        "decisions": [
            {"type": "approve"},
            {"type": "edit", "edited_action": {"name": "send_email", "args": {"to": "c"}}},
        ]
    }


def test_an_empty_reject_message_is_left_out_and_a_missing_decision_refused() -> None:
    base = Interrupt.model_validate(
        interrupt_body(
            "a", "b", status="answered", decisions=[decision("1", "b", "approve"), decision("2", "a", "reject")]
        )
    )
    asked = {"action_requests": [{"name": "a"}, {"name": "b"}]}
    assert to_langgraph_resume(base, asked) == {"decisions": [{"type": "reject"}, {"type": "approve"}]}
    partial = base.model_copy(update={"decisions": base.decisions[:1]})
    with pytest.raises(InterlockError, match="no decision for action a"):
        to_langgraph_resume(partial, asked)


def test_the_resume_value_from_a_partial_dict_in_either_key_style() -> None:
    camel = {
        "actionRequests": [{"name": "a"}, {"name": "b"}],
        "decisions": [
            {"actionName": "b", "decision": "respond", "message": "later"},
            {"actionName": "a", "decision": "edit", "editedArgs": {"x": 2}},
        ],
    }
    snake = {
        "action_requests": [{"name": "a"}, {"name": "b"}],
        "decisions": [
            {"action_name": "b", "decision": "respond", "message": "later"},
            {"action_name": "a", "decision": "edit", "edited_args": {"x": 2}},
        ],
    }
    expected = {
        "decisions": [
            {"type": "edit", "edited_action": {"name": "a", "args": {"x": 2}}},
            {"type": "respond", "message": "later"},
        ]
    }
    asked = {"action_requests": [{"name": "a"}, {"name": "b"}]}
    assert to_langgraph_resume(camel, asked) == expected
    assert to_langgraph_resume(snake, asked) == expected
