"""The bridge on every shape the current packages raise, splitting, and shortened descriptions
(the same cases as libs/sdk-ts/src/lib/langgraph.spec.ts)."""

from __future__ import annotations

from typing import Any

import pytest

from interlock import (
    LANGGRAPH_METADATA_KEY,
    MAX_DESCRIPTION_LENGTH,
    ActionDigestMismatchError,
    InterlockError,
    interlock_decisions,
    interlock_payload,
    interrupt_from_langgraph,
    interrupts_from_langgraph,
    to_langgraph_resume,
)
from interlock.types import CreateInterruptParams

from .factories import answered, decision, digested, interrupt


def stored(params: CreateInterruptParams, *decisions: dict[str, Any]) -> dict[str, Any]:
    """The answered interrupt the service returns for these create parameters (its JSON)."""
    body = interrupt(*(a["name"] for a in params["action_requests"]), metadata=params.get("metadata"))
    return answered(body, *decisions)


class FakeInterrupt:
    """What langgraph.types.Interrupt looks like to the bridge (an object with value, id, response_schema)."""

    def __init__(self, value: Any, id: str, response_schema: Any = None) -> None:
        self.value, self.id, self.response_schema = value, id, response_schema


class FakeGraphOutput:
    """langgraph.types.GraphOutput (version="v2"): .value and .interrupts."""

    def __init__(self, *interrupts: FakeInterrupt) -> None:
        self.value: dict[str, Any] = {}
        self.interrupts = interrupts


def schema(*types: str) -> dict[str, Any]:
    return {
        "oneOf": [{"$ref": f"#/$defs/{t}"} for t in types],
        "$defs": {t: {"type": "object", "properties": {"type": {"const": t}}} for t in types},
    }


def test_per_call_tool_approvals_combine_and_resume_by_interrupt_id() -> None:
    output = FakeGraphOutput(
        FakeInterrupt(
            {
                "type": "tool_approval",
                "tool_call_id": "c1",
                "name": "send_email",
                "args": {"to": "a"},
                "description": "d",
            },
            "i-1",
            schema("approve", "edit", "reject", "respond"),
        ),
        FakeInterrupt(
            {
                "type": "tool_approval",
                "tool_call_id": "c2",
                "name": "send_email",
                "args": {"to": "b"},
                "description": "",
            },
            "i-2",
            schema("approve", "reject"),
        ),
    )
    params = interrupt_from_langgraph(output)
    assert params["action_requests"] == [
        {
            "name": "send_email",
            "args": {"to": "a"},
            "description": "d",
            "allowed_decisions": ["approve", "edit", "reject", "respond"],
        },
        {"name": "send_email #2", "args": {"to": "b"}, "allowed_decisions": ["approve", "reject"]},
    ]
    resume = to_langgraph_resume(
        stored(
            params,
            decision("send_email #2", "reject", message="no", number=2),
            decision("send_email", "edit", edited_args={"to": "c"}),
        ),
        output,
    )
    assert resume == {
        "i-1": {"type": "edit", "edited_action": {"name": "send_email", "args": {"to": "c"}}},
        "i-2": {"type": "reject", "message": "no"},
    }
    one = interrupt_from_langgraph(output.interrupts[0])
    with pytest.raises(InterlockError, match="cannot switch tools"):
        to_langgraph_resume(
            stored(one, decision("send_email", "edit", edited_args={}, edited_name="other")), output.interrupts[0]
        )
    assert to_langgraph_resume(
        stored(one, decision("send_email", "respond", message="done")), output.interrupts[0]
    ) == {
        "type": "respond",
        "message": "done",
    }


def test_langchain_js_camel_case_requests_resume_with_edited_action_and_no_respond() -> None:
    value = {
        "actionRequests": [{"name": "send_email", "args": {"to": "ada"}}],
        "reviewConfigs": [{"actionName": "send_email", "allowedDecisions": ["approve", "edit", "reject"]}],
    }
    source = {"__interrupt__": [{"id": "x", "value": value}]}
    params = interrupt_from_langgraph(source)
    assert params["action_requests"][0].get("allowed_decisions") == ["approve", "edit", "reject"]
    resume = to_langgraph_resume(
        stored(params, decision("send_email", "edit", edited_args={"to": "bob"}, edited_name="send_draft")), source
    )
    assert resume == {"decisions": [{"type": "edit", "editedAction": {"name": "send_draft", "args": {"to": "bob"}}}]}
    default = interrupt_from_langgraph({"actionRequests": [{"name": "x"}]})
    assert default["action_requests"][0].get("allowed_decisions") == ["approve", "edit", "reject"]


def test_agent_inbox_human_interrupts_answer_with_human_responses() -> None:
    config = {"allow_ignore": True, "allow_respond": True, "allow_edit": True, "allow_accept": False}
    request: dict[str, Any] = {
        "action_request": {"action": "run_command", "args": {"command": "ls"}},
        "config": config,
        "description": "Please review",
    }
    params = interrupt_from_langgraph([request])
    assert params["action_requests"] == [
        {
            "name": "run_command",
            "args": {"command": "ls"},
            "description": "Please review",
            "allowed_decisions": ["edit", "reject", "respond"],
        }
    ]
    edit = decision("run_command", "edit", edited_args={"command": "pwd"}, edited_name="run_shell")
    assert to_langgraph_resume(stored(params, edit), [request]) == [
        {"type": "edit", "args": {"action": "run_shell", "args": {"command": "pwd"}}}
    ]
    assert to_langgraph_resume(stored(params, decision("run_command", "reject")), [request]) == [
        {"type": "ignore", "args": None}
    ]
    one = {**request, "config": {**config, "allow_accept": True}}
    single = interrupt_from_langgraph(one)
    assert to_langgraph_resume(stored(single, decision("run_command", "approve")), one) == {
        "type": "accept",
        "args": None,
    }
    reply = decision("run_command", "respond", message="use ls -l")
    assert to_langgraph_resume(stored(single, reply), one) == {"type": "response", "args": "use ls -l"}
    with pytest.raises(InterlockError, match="allows no answer"):
        interrupt_from_langgraph({**request, "config": dict.fromkeys(config, False)})


def test_a_payload_of_ours_resumes_with_the_decisions_in_action_order() -> None:
    payload = interlock_payload(
        title="Refund?",
        action_requests=[
            {"name": "refund", "args": {"amount": 40}, "allowed_decisions": ["approve", "reject"]},
            {"name": "notify"},
        ],
    )
    assert payload["request"]["actionRequests"][0]["allowedDecisions"] == ["approve", "reject"]
    source = FakeInterrupt(payload, "p1")
    params = interrupt_from_langgraph(source, external_id="order-1")
    resume = to_langgraph_resume(
        stored(params, decision("notify", "approve", number=2), decision("refund", "reject", message="too much")),
        source,
    )
    assert [(d.action_name, d.decision, d.message) for d in interlock_decisions(resume)] == [
        ("refund", "reject", "too much"),
        ("notify", "approve", None),
    ]
    with pytest.raises(InterlockError):
        interlock_decisions({"decisions": [{"nope": 1}]})


def test_45_actions_split_into_interrupts_of_20_and_merge_back_in_order() -> None:
    request = {"action_requests": [{"name": "tool", "args": {"i": i}} for i in range(45)]}
    source = FakeInterrupt(request, "big")
    parts = interrupts_from_langgraph(source, title="Batch")
    assert [len(p["action_requests"]) for p in parts] == [20, 20, 5]
    assert [p["title"] for p in parts] == ["Batch (1/3)", "Batch (2/3)", "Batch (3/3)"]
    with pytest.raises(InterlockError, match="needs 3 interrupts"):
        interrupt_from_langgraph(request)
    bodies = []
    for p, params in enumerate(parts):
        decisions = []
        for j, action in enumerate(params["action_requests"]):
            i = p * 20 + j
            kind = "approve" if i % 2 == 0 else "reject"
            decisions.append(decision(action["name"], kind, message=None if i % 2 == 0 else f"no {i}", number=i))
        bodies.append(stored(params, *decisions))
    resume = to_langgraph_resume([bodies[2], bodies[0], bodies[1]], source)
    assert len(resume["decisions"]) == 45
    assert resume["decisions"][:3] == [{"type": "approve"}, {"type": "reject", "message": "no 1"}, {"type": "approve"}]
    with pytest.raises(InterlockError, match="Part 2 of 3"):
        to_langgraph_resume([bodies[0], bodies[2]], source)


def test_a_description_over_10000_characters_is_shortened_and_the_args_kept() -> None:
    big = "x" * 9_990
    description = f"Tool execution requires approval\n\nTool: write\nArgs: {{'content': '{big}'}}"
    params = interrupt_from_langgraph(
        {"action_requests": [{"name": "write", "args": {"content": big}, "description": description}]}
    )
    shortened = params["action_requests"][0].get("description", "")
    assert len(shortened) <= MAX_DESCRIPTION_LENGTH
    assert shortened.startswith("Tool execution requires approval")
    assert shortened.endswith("the full arguments are in args]")
    assert params["action_requests"][0].get("args") == {"content": big}
    # Astral characters count twice, as the service counts them.
    emoji = interrupt_from_langgraph({"action_requests": [{"name": "w", "description": "😀" * 6_000}]})
    assert len(emoji["action_requests"][0].get("description", "").encode("utf-16-le")) // 2 <= MAX_DESCRIPTION_LENGTH


def test_unknown_decision_types_are_refused_clearly() -> None:
    request = {"action_requests": [{"name": "a"}]}
    params = interrupt_from_langgraph(request)
    with pytest.raises(InterlockError, match="unknown decision type delegate"):
        to_langgraph_resume(stored(params, decision("a", "delegate")), request)
    with pytest.raises(InterlockError, match="Not a LangGraph review request"):
        interrupts_from_langgraph({"foo": 1})


def test_a_payload_keeps_its_title_description_and_fields_under_the_callers_arguments() -> None:
    payload = interlock_payload(
        title="Refund order 1234?",
        description="The customer says the parcel never came.",
        external_id="order-1234",
        metadata={"shop": "eu"},
        action_requests=[{"name": "refund", "args": {"amount": 40}}],
    )
    params = interrupt_from_langgraph({"id": "p1", "value": payload})
    assert params["title"] == "Refund order 1234?"
    assert params.get("description") == "The customer says the parcel never came."
    assert params.get("external_id") == "order-1234"
    assert params["metadata"]["shop"] == "eu"
    assert LANGGRAPH_METADATA_KEY in params["metadata"]
    mine = interrupt_from_langgraph([{"id": "p1", "value": payload}], title="Mine", metadata={"run": 7})
    assert (mine["title"], mine.get("description")) == ("Mine", "The customer says the parcel never came.")
    assert {k: v for k, v in mine["metadata"].items() if k != LANGGRAPH_METADATA_KEY} == {"shop": "eu", "run": 7}
    # Two payloads reviewed together: neither title speaks for both.
    other = interlock_payload(title="Other", action_requests=[{"name": "notify"}])
    two = interrupt_from_langgraph([{"id": "a", "value": payload}, {"id": "b", "value": other}])
    assert two["title"] == "Review 2 actions: refund, notify"
    assert "description" not in two


def test_generated_titles_name_each_tool_once_with_how_often_it_was_called() -> None:
    request = {
        "action_requests": [
            {"name": "send_email"},
            {"name": "send_email"},
            {"name": "read_file"},
            {"name": "send_email"},
        ]
    }
    params = interrupt_from_langgraph(request)
    assert params["title"] == "Review 4 actions: send_email ×3, read_file"
    assert [a["name"] for a in params["action_requests"]] == [
        "send_email",
        "send_email #2",
        "read_file",
        "send_email #3",
    ]
    parts = interrupts_from_langgraph({"action_requests": [{"name": "tool"}] * 21})
    assert [p["title"] for p in parts] == ["Review 21 actions (1/2): tool ×20", "Review 21 actions (2/2): tool"]


# The durable path: a later process resumes with the answered interrupt (fetched, or from a
# webhook) and the review request the graph still waits on (read back from its checkpointer).
PENDING = [
    FakeInterrupt(
        {
            "action_requests": [
                {"name": "send_email", "args": {"to": "ada@example.com", "body": "Hi"}},
                {"name": "delete_file", "args": {"path": "/tmp/x"}},
            ]
        },
        "lg-7",
    )
]


def served(params: CreateInterruptParams, *decisions: dict[str, Any], args: Any = None) -> dict[str, Any]:
    """The answer with the service's digests, over ``args`` (per action) instead of the args sent when given."""
    body = stored(params, *decisions)
    actions = [
        a | {"args": (args[i] if args is not None else params["action_requests"][i].get("args", {}))}
        for i, a in enumerate(body["actionRequests"])
    ]
    return digested(body | {"actionRequests": actions})


def test_the_durable_path_resumes_on_an_answer_about_exactly_the_graphs_actions() -> None:
    params = interrupt_from_langgraph(PENDING)
    body = served(params, decision("send_email", "approve"), decision("delete_file", "reject", number=2))
    assert to_langgraph_resume(body, PENDING) == {"decisions": [{"type": "approve"}, {"type": "reject"}]}


def test_the_durable_path_refuses_a_tampered_decision_and_an_answer_about_other_arguments() -> None:
    params = interrupt_from_langgraph(PENDING)
    body = served(params, decision("send_email", "approve"), decision("delete_file", "approve", number=2))
    forged = body | {
        "decisions": [
            d | {"actionDigest": "f" * 64} if d["actionName"] == "delete_file" else d for d in body["decisions"]
        ]
    }
    with pytest.raises(ActionDigestMismatchError, match="action delete_file"):
        to_langgraph_resume(forged, PENDING)
    rewritten = served(
        params,
        decision("send_email", "approve"),
        decision("delete_file", "approve", number=2),
        args=[{"to": "mallory@example.com", "body": "Hi"}, {"path": "/"}],
    )
    with pytest.raises(ActionDigestMismatchError):
        to_langgraph_resume(rewritten, PENDING)


def test_the_durable_path_refuses_an_answer_to_another_review() -> None:
    params = interrupt_from_langgraph(PENDING)
    body = served(params, decision("send_email", "approve"), decision("delete_file", "approve", number=2))
    with pytest.raises(InterlockError, match="do not answer the review request the graph is waiting on"):
        to_langgraph_resume(body, [FakeInterrupt(PENDING[0].value, "lg-8")])
    fewer = [FakeInterrupt({"action_requests": PENDING[0].value["action_requests"][:1]}, "lg-7")]
    with pytest.raises(InterlockError, match="does not ask about the actions the graph is waiting on"):
        to_langgraph_resume(body, fewer)
