"""The OpenAI Agents SDK bridge against the real package (openai-agents, pinned in
requirements-dev.txt) and the live service: an agent whose tools need approval pauses, the bridge
opens the interrupt, a member decides over HTTP (the session cookie), and the run resumes with the
right tools run. The model is a scripted ``agents.models.interface.Model`` that emits the tool
calls (no LLM is called); tracing is off (no OpenAI key)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import textwrap
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from agents import Agent, Runner, function_tool, set_tracing_disabled
from agents.items import ModelResponse
from agents.models.interface import Model
from agents.usage import Usage
from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText

from interlock import AsyncInterlock
from interlock.openai_agents import (
    OPENAI_AGENTS_METADATA_KEY,
    open_review,
    resume_from_webhook,
    resume_state,
    review_interruptions,
)

from .conftest import Live, run_tag

pytestmark = [pytest.mark.integration, pytest.mark.anyio]
set_tracing_disabled(True)


def tool_call(call_id: str, name: str, **args: Any) -> ResponseFunctionToolCall:
    return ResponseFunctionToolCall(
        type="function_call", id=f"fc_{call_id}", call_id=call_id, name=name, arguments=json.dumps(args)
    )


def say(text: str) -> ResponseOutputMessage:
    return ResponseOutputMessage(
        type="message",
        id="msg_1",
        role="assistant",
        status="completed",
        content=[ResponseOutputText(type="output_text", text=text, annotations=[])],
    )


class ScriptedModel(Model):
    """Answers each turn with the next scripted output items, and keeps what it was sent."""

    def __init__(self, *turns: list[Any]) -> None:
        self.turns = list(turns)
        self.inputs: list[Any] = []

    async def get_response(self, system_instructions: Any, input: Any, *args: Any, **kwargs: Any) -> ModelResponse:
        self.inputs.append(input)
        return ModelResponse(output=self.turns.pop(0), usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError


def mail_agent(model: Model, ran: list[tuple[str, dict[str, Any]]]) -> Agent[Any]:
    @function_tool(needs_approval=True)
    def send_email(to: str, body: str) -> str:
        """Send an email."""
        ran.append(("send_email", {"to": to, "body": body}))
        return f"Sent to {to}."

    @function_tool(needs_approval=True)
    def delete_file(path: str) -> str:
        """Delete a file."""
        ran.append(("delete_file", {"path": path}))
        return f"Deleted {path}."

    return Agent(name="mailer", instructions="Do as asked.", tools=[send_email, delete_file], model=model)


@pytest.fixture
def client(live: Live) -> AsyncInterlock:
    return AsyncInterlock(api_key=live.api_key, base_url=live.base_url)


def outputs(model: ScriptedModel) -> dict[str, str]:
    """The tool outputs the model was sent on its last turn, by call id."""
    return {
        i["call_id"]: i["output"]
        for i in model.inputs[-1]
        if isinstance(i, dict) and i.get("type") == "function_call_output"
    }


async def test_approve_one_call_and_reject_another_with_a_message(live: Live, client: AsyncInterlock) -> None:
    ran: list[tuple[str, dict[str, Any]]] = []
    model = ScriptedModel(
        [
            tool_call("c1", "send_email", to="ada@example.com", body="Hi"),
            tool_call("c2", "delete_file", path="/srv/db"),
        ],
        [say("Done.")],
    )
    agent = mail_agent(model, ran)
    result = await Runner.run(agent, "Email Ada and clean up.")
    assert [i.name for i in result.interruptions] == ["send_email", "delete_file"]

    external_id = run_tag("oa-")
    choices = {"send_email": ("approve", {}), "delete_file": ("reject", {"message": "Never the database."})}
    join = live.decide_when_open(external_id, lambda action: choices[action["name"]])
    state = await review_interruptions(client, result, external_id=external_id, poll_interval=0.1)
    (opened,) = join()
    assert opened["title"] == "Approve 2 tool calls: send_email, delete_file?"
    assert [(a["name"], a["args"], a["allowedDecisions"]) for a in opened["actionRequests"]] == [
        ("send_email", {"to": "ada@example.com", "body": "Hi"}, ["approve", "reject"]),
        ("delete_file", {"path": "/srv/db"}, ["approve", "reject"]),
    ]

    final = await Runner.run(agent, state)
    assert final.final_output == "Done."
    assert ran == [("send_email", {"to": "ada@example.com", "body": "Hi"})]
    # The model reads the member's message as the rejected call's output.
    assert outputs(model) == {"c1": "Sent to ada@example.com.", "c2": "Never the database."}


DURABLE_OPEN = textwrap.dedent(
    """
    import asyncio, json, sys
    sys.path.insert(0, {tests!r})
    from agents import Runner, set_tracing_disabled
    from interlock import AsyncInterlock
    from interlock.openai_agents import open_review
    from integration.test_openai_agents_real import ScriptedModel, mail_agent, tool_call

    set_tracing_disabled(True)

    async def main():
        model = ScriptedModel([tool_call("c9", "send_email", to="bob@example.com", body="Your order shipped.")])
        result = await Runner.run(mail_agent(model, []), "Tell Bob.")
        client = AsyncInterlock()
        opened = await open_review(client, result, external_id={external_id!r}, title="Email Bob?")
        print(json.dumps({{"id": str(opened.id)}}))

    asyncio.run(main())
    """
)


async def test_the_durable_path_resumes_after_the_opening_process_exited(live: Live, client: AsyncInterlock) -> None:
    external_id = run_tag("oa-durable-")
    tests = str(Path(__file__).resolve().parents[1])
    script = DURABLE_OPEN.format(tests=tests, external_id=external_id)
    env = {**os.environ, "INTERLOCK_API_KEY": live.api_key, "INTERLOCK_BASE_URL": live.base_url}
    opened_by = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
    assert opened_by.returncode == 0, opened_by.stderr
    interrupt_id = json.loads(opened_by.stdout)["id"]

    # The opening process is gone; the member decides afterwards.
    stored = (await client.interrupts.get(interrupt_id)).metadata or {}
    assert isinstance(stored[OPENAI_AGENTS_METADATA_KEY]["state"], str)
    live.decide(interrupt_id, "send_email", "approve")

    # Another process (here: this one) picks the run up from the interrupt alone.
    ran: list[tuple[str, dict[str, Any]]] = []
    model = ScriptedModel([say("Bob has been told.")])
    agent = mail_agent(model, ran)
    answered = await client.interrupts.wait_for_answer(interrupt_id, timeout=30)
    final = await Runner.run(agent, await resume_state(agent, answered))
    assert final.final_output == "Bob has been told."
    assert ran == [("send_email", {"to": "bob@example.com", "body": "Your order shipped."})]
    assert outputs(model) == {"c9": "Sent to bob@example.com."}


async def test_the_resume_url_post_resumes_the_run(live: Live, client: AsyncInterlock) -> None:
    """The agent's own receiver, a real HTTP server on loopback (allowed outside production): the
    service POSTs the answered interrupt there; the receiver verifies it under the key, rebuilds
    the run from the state stored in the interrupt, runs it to the end, and only then answers 200."""
    ran: list[tuple[str, dict[str, Any]]] = []
    model = ScriptedModel([tool_call("c7", "send_email", to="cy@example.com", body="Refund sent.")], [say("Cy knows.")])
    agent = mail_agent(model, ran)
    received: list[dict[str, Any]] = []
    done = threading.Event()

    class Receiver(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("content-length", "0")))

            async def resume() -> dict[str, Any]:
                resumed = await resume_from_webhook(agent, body, dict(self.headers), api_key=live.api_key)
                final = await Runner.run(agent, resumed.state)
                return {"status": 200, "final_output": final.final_output, "interrupt_id": str(resumed.interrupt.id)}

            try:
                outcome = asyncio.run(resume())
            except Exception as error:  # the test reads it from `received`
                outcome = {"status": 400, "error": repr(error)}
            received.append(outcome)
            self.send_response(outcome["status"])
            self.send_header("content-length", "0")
            self.end_headers()
            done.set()

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    serving = threading.Thread(target=server.serve_forever, daemon=True)
    serving.start()
    try:
        result = await Runner.run(agent, "Tell Cy.")
        opened = await open_review(
            client,
            result,
            external_id=run_tag("oa-resume-"),
            resume_url=f"http://127.0.0.1:{server.server_address[1]}/interlock/resume",
        )
        assert opened.status == "open"
        live.decide(opened.id, "send_email", "approve")
        assert await asyncio.to_thread(done.wait, 120), "the service did not POST to the resumeUrl"
        assert received == [{"status": 200, "final_output": "Cy knows.", "interrupt_id": str(opened.id)}]
        assert ran == [("send_email", {"to": "cy@example.com", "body": "Refund sent."})]
        assert outputs(model) == {"c7": "Sent to cy@example.com."}
    finally:
        server.shutdown()
        server.server_close()


async def test_open_review_refuses_a_run_without_approvals(client: AsyncInterlock) -> None:
    model = ScriptedModel([say("Nothing to do.")])
    result = await Runner.run(mail_agent(model, []), "Hello")
    with pytest.raises(Exception, match="no pending tool approvals"):
        await open_review(client, result)
