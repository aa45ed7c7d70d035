"""The LangGraph bridge against the real packages (langchain, langgraph: pinned in
requirements-dev.txt) and the live service: a real graph with a checkpointer pauses on a tool call,
the bridge opens the interrupt(s), a member decides over HTTP with the session cookie, and the graph
resumes and runs the right tools with the right args. The chat model is langchain-core's own
``FakeMessagesListChatModel`` (with ``bind_tools`` returning itself: the model is not what is
tested). Runs use ``version="v2"``, whose ``GraphOutput`` the bridge reads through ``.interrupts``;
deprecation warnings are errors here."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from typing import Annotated, Any

import pytest
from langchain.agents import create_agent
from langchain.agents.middleware import HumanInTheLoopMiddleware
from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.tools import BaseTool, tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, StateGraph
from langgraph.types import Command, interrupt
from typing_extensions import TypedDict

from interlock import (
    Interlock,
    InterlockError,
    interlock_decisions,
    interlock_payload,
    interrupt_from_langgraph,
    to_langgraph_resume,
)

from .conftest import Live, run_tag

pytestmark = pytest.mark.integration


@pytest.fixture(autouse=True)
def deprecations_are_errors() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        yield


class ToolCallingFake(FakeMessagesListChatModel):
    """The package's fake chat model, usable by create_agent (which binds the tools first)."""

    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
        return self


def call(name: str, call_id: str, **args: Any) -> dict[str, Any]:
    return {"name": name, "args": args, "id": call_id, "type": "tool_call"}


def recording_tools(ran: list[tuple[str, dict[str, Any]]]) -> list[BaseTool]:
    @tool
    def send_email(to: str, body: str = "") -> str:
        """Send an email."""
        ran.append(("send_email", {"to": to, "body": body}))
        return "sent"

    @tool
    def send_draft(to: str, body: str = "") -> str:
        """Save an email as a draft."""
        ran.append(("send_draft", {"to": to, "body": body}))
        return "drafted"

    @tool
    def delete_file(path: str) -> str:
        """Delete a file."""
        ran.append(("delete_file", {"path": path}))
        return "deleted"

    @tool
    def ask_user(question: str) -> str:
        """Ask the user (a human answers instead)."""
        ran.append(("ask_user", {"question": question}))
        return "asked"

    return [send_email, send_draft, delete_file, ask_user]


def tool_messages(value: Any) -> dict[str, Any]:
    return {m.tool_call_id: m for m in value["messages"] if isinstance(m, ToolMessage)}


def test_batched_middleware_approve_edit_with_rename_reject_and_respond(client: Interlock, live: Live) -> None:
    ran: list[tuple[str, dict[str, Any]]] = []
    model = ToolCallingFake(
        responses=[
            AIMessage(
                content="",
                tool_calls=[
                    call("send_email", "c1", to="ada@example.com", body="Hi"),
                    call("send_email", "c2", to="bob@example.com", body="Hi"),
                    call("delete_file", "c3", path="/srv/report.pdf"),
                    call("ask_user", "c4", question="Which day?"),
                ],
            ),
            AIMessage(content="All done."),
        ]
    )
    agent = create_agent(
        model,
        tools=recording_tools(ran),
        middleware=[
            HumanInTheLoopMiddleware(
                interrupt_on={
                    "send_email": True,
                    "delete_file": {"allowed_decisions": ["approve", "reject"]},
                    "ask_user": {"allowed_decisions": ["respond"]},
                }
            )
        ],
        checkpointer=InMemorySaver(),
    )
    thread = run_tag("py-hitl-")
    config: Any = {"configurable": {"thread_id": thread}}
    first = agent.invoke(
        {"messages": [{"role": "user", "content": "Email Ada and Bob, tidy up."}]}, config, version="v2"
    )

    def choose(action: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        if action["name"] == "send_email":
            return "approve", {}
        if action["name"] == "send_email #2":
            return "edit", {"editedName": "send_draft", "editedArgs": {"to": "bob@example.com", "body": "Hello Bob"}}
        if action["name"] == "delete_file":
            assert action["allowedDecisions"] == ["approve", "reject"]
            return "reject", {"message": "Keep the report."}
        return "respond", {"message": "Tuesday"}

    human = live.decide_when_open(thread, choose)
    resume = client.interrupts.review_langgraph(first, external_id=thread, poll_interval=0.1, timeout=120)
    human()
    assert resume == {
        "decisions": [
            {"type": "approve"},
            {
                "type": "edit",
                "edited_action": {"name": "send_draft", "args": {"to": "bob@example.com", "body": "Hello Bob"}},
            },
            {"type": "reject", "message": "Keep the report."},
            {"type": "respond", "message": "Tuesday"},
        ]
    }
    done = agent.invoke(Command(resume=resume), config, version="v2")
    # The tool node runs the approved calls concurrently: which finishes first is not fixed.
    assert sorted(ran, key=lambda call: call[0]) == [
        ("send_draft", {"to": "bob@example.com", "body": "Hello Bob"}),
        ("send_email", {"to": "ada@example.com", "body": "Hi"}),
    ]
    messages = tool_messages(done.value)
    assert "Keep the report." in str(messages["c3"].content)
    assert messages["c4"].content == "Tuesday"
    assert done.value["messages"][-1].content == "All done."


def test_per_call_mode_one_interrupt_per_call_answered_by_id(client: Interlock, live: Live) -> None:
    ran: list[tuple[str, dict[str, Any]]] = []
    model = ToolCallingFake(
        responses=[
            AIMessage(
                content="",
                tool_calls=[
                    call("send_email", "c1", to="ada@example.com", body="Hi"),
                    call("send_email", "c2", to="bob@example.com", body="Hi"),
                    call("ask_user", "c3", question="Which day?"),
                ],
            ),
            AIMessage(content="All done."),
        ]
    )
    agent = create_agent(
        model,
        tools=recording_tools(ran),
        middleware=[
            HumanInTheLoopMiddleware(
                interrupt_on={"send_email": True, "ask_user": {"allowed_decisions": ["respond"]}},
                interrupt_mode="per_call",
            )
        ],
        checkpointer=InMemorySaver(),
    )
    thread = run_tag("py-per-call-")
    config: Any = {"configurable": {"thread_id": thread}}
    first = agent.invoke({"messages": [{"role": "user", "content": "Email Ada and Bob."}]}, config, version="v2")
    assert len(first.interrupts) == 3

    def choose(action: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        if action["name"] == "ask_user":
            assert action["allowedDecisions"] == ["respond"]
            return "respond", {"message": "Tuesday"}
        if action["args"]["to"] == "bob@example.com":
            return "edit", {"editedArgs": {"to": "bob@example.com", "body": "Hello Bob"}}
        return "approve", {}

    human = live.decide_when_open(thread, choose)
    resume = client.interrupts.review_langgraph(first, external_id=thread, poll_interval=0.1, timeout=120)
    human()
    assert set(resume) == {i.id for i in first.interrupts}
    done = agent.invoke(Command(resume=resume), config, version="v2")
    assert sorted(ran, key=lambda r: r[1]["to"]) == [
        ("send_email", {"to": "ada@example.com", "body": "Hi"}),
        ("send_email", {"to": "bob@example.com", "body": "Hello Bob"}),
    ]
    assert tool_messages(done.value)["c3"].content == "Tuesday"
    assert done.interrupts == ()


class Log(TypedDict):
    log: Annotated[list[str], lambda a, b: [*a, *b]]


@pytest.mark.parametrize(
    ("decision", "extras", "expected"),
    [
        ("approve", {}, {"type": "accept", "args": None}),
        (
            "edit",
            {"editedName": "run_shell", "editedArgs": {"command": "pwd"}},
            {"type": "edit", "args": {"action": "run_shell", "args": {"command": "pwd"}}},
        ),
        ("respond", {"message": "Use ls -la"}, {"type": "response", "args": "Use ls -la"}),
        ("reject", {}, {"type": "ignore", "args": None}),
    ],
)
def test_agent_inbox_human_interrupt_in_a_plain_graph(
    client: Interlock, live: Live, decision: str, extras: dict[str, Any], expected: dict[str, Any]
) -> None:
    def ask(state: Log) -> dict[str, Any]:
        request = {
            "action_request": {"action": "run_command", "args": {"command": "ls -l"}},
            "config": {"allow_accept": True, "allow_edit": True, "allow_respond": True, "allow_ignore": True},
            "description": "Run this command?",
        }
        response = interrupt([request])[0]
        return {"log": [json.dumps(response)]}

    graph = StateGraph(Log).add_node("ask", ask).add_edge(START, "ask").compile(checkpointer=InMemorySaver())
    thread = run_tag("py-inbox-")
    config: Any = {"configurable": {"thread_id": thread}}
    first = graph.invoke({"log": []}, config, version="v2")
    human = live.decide_when_open(thread, lambda action: (decision, extras))
    resume = client.interrupts.review_langgraph(first, external_id=thread, poll_interval=0.1, timeout=120)
    human()
    done = graph.invoke(Command(resume=resume), config, version="v2")
    assert [json.loads(line) for line in done.value["log"]] == [expected]


def test_durable_path_a_later_process_resumes_from_the_checkpointer_checked_against_the_graph(
    client: Interlock, live: Live
) -> None:
    def ask(state: Log) -> dict[str, Any]:
        request = {
            "action_request": {"action": "run_command", "args": {"command": "ls -l"}},
            "config": {"allow_accept": True, "allow_edit": True, "allow_respond": True, "allow_ignore": True},
        }
        return {"log": [json.dumps(interrupt([request])[0])]}

    checkpointer = InMemorySaver()

    def build() -> Any:
        return StateGraph(Log).add_node("ask", ask).add_edge(START, "ask").compile(checkpointer=checkpointer)

    thread = run_tag("py-inbox-durable-")
    config: Any = {"configurable": {"thread_id": thread}}
    # The process that opens the interrupt, then exits.
    first = build().invoke({"log": []}, config, version="v2")
    opened = client.interrupts.create(**interrupt_from_langgraph(first, external_id=thread))
    human = live.decide_when_open(thread, lambda action: ("edit", {"editedArgs": {"command": "ls -la"}}))
    human()
    # A later one: the graph's pending review from the checkpointer, the answer from the service.
    later = build()
    pending = later.get_state(config).interrupts
    answered = client.interrupts.wait_for_answer(opened.id, poll_interval=0.1, timeout=120)
    resume = to_langgraph_resume(answered, pending)
    done = later.invoke(Command(resume=resume), config, version="v2")
    assert [json.loads(line) for line in done.value["log"]] == [
        {"type": "edit", "args": {"action": "run_command", "args": {"command": "ls -la"}}}
    ]
    # Checked against what the graph asked: another graph's pending review is refused.
    with pytest.raises(InterlockError, match="do not answer the review request the graph is waiting on"):
        to_langgraph_resume(answered, [{"id": "another-interrupt", "value": pending[0].value}])


def test_a_payload_of_ours_in_a_plain_graph(client: Interlock, live: Live) -> None:
    def refund(state: Log) -> dict[str, Any]:
        answer = interrupt(
            interlock_payload(
                title="Refund order 1234?",
                action_requests=[
                    {"name": "refund", "args": {"amount": 40}, "allowed_decisions": ["approve", "edit", "reject"]},
                    {"name": "notify", "args": {"channel": "#billing"}},
                ],
            )
        )
        return {
            "log": [
                f"{d.action_name}:{d.decision}:{json.dumps(d.edited_args)}:{d.message}"
                for d in interlock_decisions(answer)
            ]
        }

    graph = StateGraph(Log).add_node("refund", refund).add_edge(START, "refund").compile(checkpointer=InMemorySaver())
    thread = run_tag("py-payload-")
    config: Any = {"configurable": {"thread_id": thread}}
    first = graph.invoke({"log": []}, config, version="v2")

    def choose(action: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        if action["name"] == "refund":
            return "edit", {"editedArgs": {"amount": 30}}
        return "respond", {"message": "Posted."}

    human = live.decide_when_open(thread, choose)
    resume = client.interrupts.review_langgraph(first, external_id=thread, poll_interval=0.1, timeout=120)
    human()
    done = graph.invoke(Command(resume=resume), config, version="v2")
    assert done.value["log"] == ['refund:edit:{"amount": 30}:None', "notify:respond:null:Posted."]
