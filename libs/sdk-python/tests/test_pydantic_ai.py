"""The Pydantic AI bridge's mapping, on the real package's own types (pydantic-ai-slim, pinned in
requirements-dev.txt) with its FunctionModel: the requests a run hands out, and that the results the
bridge builds are what the next run accepts. The live service runs in
tests/integration/test_pydantic_ai_real.py."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic_ai import Agent, DeferredToolRequests, ToolApproved, ToolDenied
from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, TextPart, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from interlock import ActionDigestMismatchError, InterlockError
from interlock.pydantic_ai import PYDANTIC_AI_METADATA_KEY, deferred_results, interrupt_params

from .factories import MEMBER_ID, answered, decision, digested, interrupt


def opened_for(params: dict[str, Any]) -> dict[str, Any]:
    """The interrupt the service opens for the bridge's create parameters (its actions as sent)."""
    return interrupt(
        metadata=params["metadata"],
        actionRequests=[
            {"name": a["name"], "args": a["args"], "description": None, "allowedDecisions": a["allowed_decisions"]}
            for a in params["action_requests"]
        ],
    )


def scripted(*turns: list[Any]) -> tuple[FunctionModel, list[list[ModelMessage]]]:
    """A model answering each request with the next turn's parts; keeps what it was sent."""
    pending = list(turns)
    seen: list[list[ModelMessage]] = []

    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        seen.append(list(messages))
        return ModelResponse(parts=pending.pop(0))

    return FunctionModel(respond), seen


def mail_agent(model: FunctionModel, ran: list[tuple[str, dict[str, Any]]]) -> Agent[None, str | DeferredToolRequests]:
    agent: Agent[None, str | DeferredToolRequests] = Agent(model, output_type=[str, DeferredToolRequests])

    @agent.tool_plain(requires_approval=True)
    def send_email(to: str, body: str) -> str:
        ran.append(("send_email", {"to": to, "body": body}))
        return f"Sent to {to}."

    @agent.tool_plain(requires_approval=True)
    def delete_file(path: str) -> str:
        ran.append(("delete_file", {"path": path}))
        return f"Deleted {path}."

    return agent


def test_approve_edit_reject_and_the_run_goes_on_with_them() -> None:
    model, seen = scripted(
        [
            ToolCallPart("send_email", {"to": "ada@example.com", "body": "Hi"}, tool_call_id="c1"),
            ToolCallPart("send_email", {"to": "bob@example.com", "body": "Hi"}, tool_call_id="c2"),
            ToolCallPart("delete_file", '{"path": "/srv/db"}', tool_call_id="c3"),
            ToolCallPart("delete_file", {"path": "/tmp/x"}, tool_call_id="c4"),
        ],
        [TextPart("Done.")],
    )
    ran: list[tuple[str, dict[str, Any]]] = []
    agent = mail_agent(model, ran)
    first = agent.run_sync("Email both and clean up.")
    assert isinstance(first.output, DeferredToolRequests)

    params = interrupt_params(first, external_id="run-1")
    assert params["title"] == "Approve 4 tool calls: send_email, delete_file?"
    assert params["external_id"] == "run-1"
    assert [(a["name"], a["args"], a["allowed_decisions"]) for a in params["action_requests"]] == [
        ("send_email", {"to": "ada@example.com", "body": "Hi"}, ["approve", "edit", "reject"]),
        ("send_email #2", {"to": "bob@example.com", "body": "Hi"}, ["approve", "edit", "reject"]),
        ("delete_file", {"path": "/srv/db"}, ["approve", "edit", "reject"]),
        ("delete_file #2", {"path": "/tmp/x"}, ["approve", "edit", "reject"]),
    ]
    done = digested(
        answered(
            opened_for(params),
            decision("send_email", number=1),
            decision("send_email #2", "edit", edited_args={"to": "bob@example.com", "body": "Hello Bob"}, number=2),
            decision("delete_file", "reject", message="Never the database.", number=3),
            decision("delete_file #2", "edit", edited_name="move_file", edited_args={"path": "/tmp/x"}, number=4),
        )
    )
    results = deferred_results(done, first.all_messages())
    assert deferred_results(done, first) == results  # the run's result holds the same calls
    assert results.approvals["c1"] is True
    assert results.approvals["c2"] == ToolApproved(override_args={"to": "bob@example.com", "body": "Hello Bob"})
    assert results.approvals["c3"] == ToolDenied("Never the database.")
    assert isinstance(results.approvals["c4"], ToolDenied)
    assert "move_file" in results.approvals["c4"].message
    assert results.answered_by == {c: f"member:{MEMBER_ID}" for c in ("c1", "c2", "c3", "c4")}

    second = agent.run_sync(message_history=first.all_messages(), deferred_tool_results=results)
    assert second.output == "Done."
    assert sorted(ran, key=str) == [
        ("send_email", {"to": "ada@example.com", "body": "Hi"}),
        ("send_email", {"to": "bob@example.com", "body": "Hello Bob"}),
    ]
    returned = (
        [p for p in seen[-1][-1].parts if isinstance(p, ToolReturnPart)]
        if isinstance(seen[-1][-1], ModelRequest)
        else []
    )
    assert {p.tool_call_id: p.content for p in returned} == {
        "c1": "Sent to ada@example.com.",
        "c2": "Sent to bob@example.com.",
        "c3": "Never the database.",
        "c4": results.approvals["c4"].message,
    }


def test_withdrawn_denies_what_it_left_undecided_and_refusals() -> None:
    model, _ = scripted([ToolCallPart("delete_file", {"path": "/a"}, tool_call_id="c1")])
    first = mail_agent(model, []).run_sync("go")
    params = interrupt_params(first)
    assert params["metadata"][PYDANTIC_AI_METADATA_KEY] == {"v": 1, "calls": [["delete_file", "c1", "delete_file"]]}
    withdrawn = digested(opened_for(params) | {"status": "withdrawn"})
    assert deferred_results(withdrawn, first).approvals == {
        "c1": ToolDenied("The request for approval was withdrawn; the tool did not run.")
    }
    with pytest.raises(InterlockError, match="still open"):
        deferred_results(digested(opened_for(params)), first)
    with pytest.raises(InterlockError, match="not opened by the Pydantic AI bridge"):
        deferred_results(answered(interrupt("delete_file"), decision("delete_file")), first)
    with pytest.raises(InterlockError, match="Tool call c1 of this interrupt is not in the run given"):
        deferred_results(withdrawn, [])
    with pytest.raises(InterlockError, match="no tool calls awaiting approval"):
        interrupt_params(DeferredToolRequests())
    with pytest.raises(InterlockError, match="Expected pydantic-ai DeferredToolRequests"):
        interrupt_params("not a run")


def test_a_decision_about_other_arguments_than_the_run_holds_is_refused() -> None:
    model, _ = scripted([ToolCallPart("delete_file", {"path": "/tmp/a"}, tool_call_id="c1")])
    first = mail_agent(model, []).run_sync("go")
    done = digested(answered(opened_for(interrupt_params(first)), decision("delete_file")))
    # The history the next run would start from asks to delete something else under the same call id.
    other, _ = scripted([ToolCallPart("delete_file", {"path": "/srv/db"}, tool_call_id="c1")])
    tampered = mail_agent(other, []).run_sync("go")
    with pytest.raises(ActionDigestMismatchError, match="action delete_file of interrupt"):
        deferred_results(done, tampered.all_messages())
    forged = done | {"decisions": [d | {"actionDigest": "f" * 64} for d in done["decisions"]]}
    with pytest.raises(ActionDigestMismatchError):
        deferred_results(forged, first)
    assert deferred_results(done, first).approvals == {"c1": True}
