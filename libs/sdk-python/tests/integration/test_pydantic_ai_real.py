"""The Pydantic AI bridge against the real package (pydantic-ai-slim, pinned in
requirements-dev.txt) and the live service: an agent whose tools need approval defers them, the
bridge opens the interrupt, a member decides over HTTP (the session cookie) — approve, edit,
reject with a message — and the run goes on with the right tools run. The model is Pydantic AI's
own FunctionModel, scripted (no LLM is called)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from pydantic_ai import Agent, DeferredToolRequests
from pydantic_ai.messages import (
    ModelMessage,
    ModelMessagesTypeAdapter,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel

from interlock import AsyncInterlock
from interlock.pydantic_ai import PYDANTIC_AI_METADATA_KEY, deferred_results, interlock_approvals, review_deferred_sync

from .conftest import Live, run_tag

pytestmark = [pytest.mark.integration, pytest.mark.anyio]


class Scripted:
    """A FunctionModel answering each request with the next turn's parts; keeps what it was sent."""

    def __init__(self, *turns: list[Any]) -> None:
        self.turns = list(turns)
        self.seen: list[list[ModelMessage]] = []
        self.model = FunctionModel(self.respond)

    def respond(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        self.seen.append(list(messages))
        return ModelResponse(parts=self.turns.pop(0))

    def tool_returns(self) -> dict[str, Any]:
        """What the model was sent as each call's result on its last turn, by call id."""
        last = self.seen[-1][-1]
        assert isinstance(last, ModelRequest)
        return {p.tool_call_id: p.content for p in last.parts if p.part_kind == "tool-return"}


def mail_agent(model: FunctionModel, ran: list[tuple[str, dict[str, Any]]], **kwargs: Any) -> Agent[None, Any]:
    agent: Agent[None, Any] = Agent(model, output_type=[str, DeferredToolRequests], **kwargs)

    @agent.tool_plain(requires_approval=True)
    def send_email(to: str, body: str) -> str:
        """Send an email."""
        ran.append(("send_email", {"to": to, "body": body}))
        return f"Sent to {to}."

    @agent.tool_plain(requires_approval=True)
    def delete_file(path: str) -> str:
        """Delete a file."""
        ran.append(("delete_file", {"path": path}))
        return f"Deleted {path}."

    return agent


async def test_inline_capability_approve_edit_and_reject_with_a_message(live: Live) -> None:
    scripted = Scripted(
        [
            ToolCallPart("send_email", {"to": "ada@example.com", "body": "Hi"}, tool_call_id="c1"),
            ToolCallPart("send_email", {"to": "bob@example.com", "body": "Hi"}, tool_call_id="c2"),
            ToolCallPart("delete_file", {"path": "/srv/db"}, tool_call_id="c3"),
        ],
        [TextPart("Done.")],
    )
    external_id = run_tag("pai-")
    client = AsyncInterlock(api_key=live.api_key, base_url=live.base_url)
    ran: list[tuple[str, dict[str, Any]]] = []
    agent = mail_agent(
        scripted.model, ran, capabilities=[interlock_approvals(client, external_id=external_id, poll_interval=0.1)]
    )
    choices: dict[str, tuple[str, dict[str, Any]]] = {
        "send_email": ("approve", {}),
        "send_email #2": ("edit", {"editedArgs": {"to": "bob@example.com", "body": "Hello Bob, your order shipped."}}),
        "delete_file": ("reject", {"message": "Never the database."}),
    }
    join = live.decide_when_open(external_id, lambda action: choices[action["name"]])
    result = await agent.run("Email both and clean up.")
    (opened,) = join()

    assert opened["title"] == "Approve 3 tool calls: send_email, delete_file?"
    assert [(a["name"], a["args"], a["allowedDecisions"]) for a in opened["actionRequests"]] == [
        ("send_email", {"to": "ada@example.com", "body": "Hi"}, ["approve", "edit", "reject"]),
        ("send_email #2", {"to": "bob@example.com", "body": "Hi"}, ["approve", "edit", "reject"]),
        ("delete_file", {"path": "/srv/db"}, ["approve", "edit", "reject"]),
    ]
    assert result.output == "Done."
    assert sorted(ran, key=str) == [
        ("send_email", {"to": "ada@example.com", "body": "Hi"}),
        ("send_email", {"to": "bob@example.com", "body": "Hello Bob, your order shipped."}),
    ]
    assert scripted.tool_returns() == {
        "c1": "Sent to ada@example.com.",
        "c2": "Sent to bob@example.com.",
        "c3": "Never the database.",
    }


def test_between_two_runs_with_the_sync_client(live: Live, client: Any) -> None:
    scripted = Scripted([ToolCallPart("delete_file", {"path": "/tmp/old"}, tool_call_id="d1")], [TextPart("Cleaned.")])
    ran: list[tuple[str, dict[str, Any]]] = []
    agent = mail_agent(scripted.model, ran)
    first = agent.run_sync("Clean up.")
    assert isinstance(first.output, DeferredToolRequests)
    external_id = run_tag("pai-sync-")
    join = live.decide_when_open(external_id, lambda action: ("approve", {}))
    results = review_deferred_sync(client, first, external_id=external_id, title="Delete /tmp/old?", poll_interval=0.1)
    (opened,) = join()
    assert opened["title"] == "Delete /tmp/old?"
    second = agent.run_sync(message_history=first.all_messages(), deferred_tool_results=results)
    assert second.output == "Cleaned."
    assert ran == [("delete_file", {"path": "/tmp/old"})]


DURABLE_OPEN = textwrap.dedent(
    """
    import json, sys
    sys.path.insert(0, {tests!r})
    from pydantic_ai.messages import ToolCallPart
    from interlock import Interlock
    from interlock.pydantic_ai import open_review_sync
    from integration.test_pydantic_ai_real import Scripted, mail_agent

    scripted = Scripted([
        ToolCallPart("send_email", {{"to": "bob@example.com", "body": "Your order shipped."}}, tool_call_id="c8"),
        ToolCallPart("delete_file", {{"path": "/srv/orders"}}, tool_call_id="c9"),
    ])
    result = mail_agent(scripted.model, []).run_sync("Tell Bob, then tidy up.")
    # The run's messages, kept where the app keeps its conversations (here: a file).
    with open({stored!r}, "wb") as f:
        f.write(result.all_messages_json())
    opened = open_review_sync(Interlock(), result, external_id={external_id!r})
    print(json.dumps({{"id": str(opened.id)}}))
    """
)


async def test_the_durable_path_resumes_after_the_opening_process_exited(live: Live, tmp_path: Path) -> None:
    external_id = run_tag("pai-durable-")
    stored = tmp_path / "messages.json"
    tests = str(Path(__file__).resolve().parents[1])
    script = DURABLE_OPEN.format(tests=tests, external_id=external_id, stored=str(stored))
    env = {**os.environ, "INTERLOCK_API_KEY": live.api_key, "INTERLOCK_BASE_URL": live.base_url}
    opened_by = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
    assert opened_by.returncode == 0, opened_by.stderr
    interrupt_id = json.loads(opened_by.stdout)["id"]

    # The opening process is gone; the member decides afterwards.
    client = AsyncInterlock(api_key=live.api_key, base_url=live.base_url)
    opened = await client.interrupts.get(interrupt_id)
    assert (opened.metadata or {})[PYDANTIC_AI_METADATA_KEY]["calls"] == [
        ["send_email", "c8", "send_email"],
        ["delete_file", "c9", "delete_file"],
    ]
    live.decide(interrupt_id, "send_email", "approve")
    live.decide(interrupt_id, "delete_file", "reject", message="Keep the orders.")

    # Any later process: the stored messages, and the results from the answered interrupt.
    answered = await client.interrupts.wait_for_answer(interrupt_id, timeout=30)
    scripted = Scripted([TextPart("Bob has been told; the orders stay.")])
    ran: list[tuple[str, dict[str, Any]]] = []
    history = ModelMessagesTypeAdapter.validate_json(stored.read_bytes())
    result = await mail_agent(scripted.model, ran).run(
        message_history=history, deferred_tool_results=deferred_results(answered, history)
    )
    assert result.output == "Bob has been told; the orders stay."
    assert ran == [("send_email", {"to": "bob@example.com", "body": "Your order shipped."})]
    assert scripted.tool_returns() == {"c8": "Sent to bob@example.com.", "c9": "Keep the orders."}
