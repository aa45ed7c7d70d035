"""The OpenAI Agents SDK bridge (``openai-agents``): a run paused on tool approvals, reviewed in
Interlock's inbox.

A tool with ``needs_approval`` pauses the run: ``result.interruptions`` lists one
``ToolApprovalItem`` per call. The bridge opens one interrupt for them (one action per call, its
JSON arguments as ``args``), waits, and applies each member's decision to the ``RunState``:
approve → ``state.approve(item)``, reject → ``state.reject(item, rejection_message=...)`` (the
member's message is what the model reads). Resume with ``Runner.run(agent, state)``.

The SDK cannot run a tool with other arguments than the model gave, so the bridge allows only
``approve`` and ``reject`` (no ``edit``, no ``respond``).

Durable path: ``open_review`` stores the serialised ``RunState`` in the interrupt's metadata and
returns at once, so the process can exit; later (a webhook, a job, another process)
``resume_state(agent, interrupt)`` rebuilds the state from the answered interrupt with the
decisions applied. No ``agents`` import here: the bridge works on the objects the SDK hands out.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Optional, Protocol, Union

from ._client import AsyncInterlock, Interlock
from ._errors import InterlockError
from .langgraph import shorten_description
from .resources.interrupts import DEFAULT_POLL_INTERVAL, DEFAULT_WAIT_TIMEOUT
from .types import Interrupt

__all__ = [
    "OPENAI_AGENTS_METADATA_KEY",
    "apply_decisions",
    "interrupt_params",
    "open_review",
    "open_review_sync",
    "resume_state",
    "review_interruptions",
    "review_interruptions_sync",
]

#: Where the bridge keeps, in the interrupt's metadata, which action is which tool call (and, on
#: the durable path, the serialised run state).
OPENAI_AGENTS_METADATA_KEY = "openaiAgents"
_ALLOWED = ["approve", "reject"]
_MAX_TITLE = 200


class _ApprovalItem(Protocol):
    """What the bridge reads of ``agents.ToolApprovalItem``."""

    raw_item: Any

    @property
    def name(self) -> Optional[str]: ...

    @property
    def arguments(self) -> Optional[str]: ...


class _RunState(Protocol):
    """What the bridge uses of ``agents.RunState``."""

    def get_interruptions(self) -> Sequence[Any]: ...

    def approve(self, approval_item: Any, always_approve: bool = False) -> None: ...

    def reject(
        self, approval_item: Any, always_reject: bool = False, *, rejection_message: Optional[str] = None
    ) -> None: ...

    def to_string(self) -> str: ...


def _state_of(source: Any) -> _RunState:
    """The RunState of a run result (``result.to_state()``) or the state itself."""
    if hasattr(source, "get_interruptions") and hasattr(source, "approve"):
        return source  # type: ignore[no-any-return]
    if hasattr(source, "to_state"):
        return source.to_state()  # type: ignore[no-any-return]
    raise InterlockError("Expected an openai-agents RunResult or RunState (result.to_state()).")


def _call_id(item: Any) -> str:
    raw = item.raw_item
    value = raw.get("call_id") if isinstance(raw, Mapping) else getattr(raw, "call_id", None)
    if not isinstance(value, str) or not value:
        raise InterlockError("A tool approval item without a call_id: the bridge cannot map its decision back.")
    return value


def _arguments(item: Any) -> dict[str, Any]:
    text = item.arguments
    if text is None or text == "":
        return {}
    try:
        parsed = json.loads(text) if isinstance(text, str) else text
    except ValueError:
        return {"arguments": text}  # not JSON: shown as the model wrote it
    return parsed if isinstance(parsed, dict) else {"arguments": parsed}


def interrupt_params(
    source: Any,
    *,
    title: Optional[str] = None,
    description: Optional[str] = None,
    external_id: Optional[str] = None,
    session_id: Optional[str] = None,
    metadata: Optional[Mapping[str, Any]] = None,
    include_state: bool = False,
) -> dict[str, Any]:
    """The keyword arguments of ``interrupts.create`` for a paused run's approvals (at most 20)."""
    state = _state_of(source)
    items = list(state.get_interruptions())
    if not items:
        raise InterlockError("This run has no pending tool approvals (result.interruptions is empty).")
    if len(items) > 20:
        raise InterlockError(f"{len(items)} tool approvals: an interrupt holds at most 20.")
    used: set[str] = set()
    actions: list[dict[str, Any]] = []
    calls: list[list[str]] = []
    for item in items:
        tool = item.name or "tool"
        name, n = tool, 2
        while name in used:
            name, n = f"{tool} #{n}", n + 1
        used.add(name)
        action: dict[str, Any] = {"name": name, "args": _arguments(item), "allowed_decisions": list(_ALLOWED)}
        agent = getattr(getattr(item, "agent", None), "name", None)
        if isinstance(agent, str) and agent:
            action["description"] = shorten_description(f"{agent} wants to call {tool}.")
        actions.append(action)
        calls.append([name, _call_id(item)])
    bridge: dict[str, Any] = {"v": 1, "calls": calls}
    if include_state:
        bridge["state"] = state.to_string()
    tools = ", ".join(dict.fromkeys(a["name"].split(" #")[0] for a in actions))
    default_title = f"Approve {tools}?" if len(actions) == 1 else f"Approve {len(actions)} tool calls: {tools}?"
    params: dict[str, Any] = {
        "title": title if title is not None else default_title[:_MAX_TITLE],
        "action_requests": actions,
        "metadata": {**(metadata or {}), OPENAI_AGENTS_METADATA_KEY: bridge},
    }
    for key, value in (("description", description), ("external_id", external_id), ("session_id", session_id)):
        if value is not None:
            params[key] = value
    return params


def _bridge(interrupt: Union[Interrupt, Mapping[str, Any]]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The bridge's metadata and the decisions by action name, of an answered interrupt."""
    status: Any
    if isinstance(interrupt, Interrupt):
        metadata: Any = interrupt.metadata
        decisions = {d.action_name: d.model_dump(by_alias=True) for d in interrupt.decisions}
        status = interrupt.status
    else:
        metadata = interrupt.get("metadata")
        decisions = {d["actionName"]: d for d in interrupt.get("decisions") or []}
        status = interrupt.get("status")
    bridge = metadata.get(OPENAI_AGENTS_METADATA_KEY) if isinstance(metadata, Mapping) else None
    if not isinstance(bridge, Mapping) or bridge.get("v") != 1:
        raise InterlockError("This interrupt was not opened by the OpenAI Agents bridge (no metadata.openaiAgents).")
    if status == "open":
        raise InterlockError("The interrupt is still open: wait for the answer first (interrupts.wait_for_answer).")
    return dict(bridge), decisions


def apply_decisions(state: Any, interrupt: Union[Interrupt, Mapping[str, Any]]) -> Any:
    """Applies the members' decisions of an answered interrupt to the run state: approve →
    ``state.approve(item)``; reject → ``state.reject(item, rejection_message=message)``. A call
    left without a decision (the interrupt was withdrawn) is rejected with a message saying so.
    Returns the state, ready for ``Runner.run(agent, state)``."""
    bridge, decisions = _bridge(interrupt)
    by_call = {call_id: name for name, call_id in bridge["calls"]}
    for item in list(state.get_interruptions()):
        name = by_call.get(_call_id(item))
        if name is None:
            continue  # a newer approval this interrupt did not ask about
        decision = decisions.get(name)
        kind = decision.get("decision") if decision else None
        if kind == "approve":
            state.approve(item)
        elif kind == "reject":
            state.reject(item, rejection_message=decision.get("message") if decision else None)
        elif decision is None:
            state.reject(item, rejection_message="The request for approval was withdrawn; the tool did not run.")
        else:
            raise InterlockError(f"Decision {kind} on {name} cannot be applied to an openai-agents run.")
    return state


async def review_interruptions(
    client: AsyncInterlock,
    source: Any,
    *,
    title: Optional[str] = None,
    description: Optional[str] = None,
    external_id: Optional[str] = None,
    session_id: Optional[str] = None,
    metadata: Optional[Mapping[str, Any]] = None,
    wait_timeout: Optional[float] = DEFAULT_WAIT_TIMEOUT,
    poll_interval: float = DEFAULT_POLL_INTERVAL,
) -> Any:
    """Opens one interrupt for a paused run's tool approvals, waits for the members, applies
    their decisions and returns the ``RunState``: ``result = await Runner.run(agent, state)``."""
    state = _state_of(source)
    params = interrupt_params(
        state, title=title, description=description, external_id=external_id, session_id=session_id, metadata=metadata
    )
    opened = await client.interrupts.create(**params)
    answered = await client.interrupts.wait_for_answer(opened.id, timeout=wait_timeout, poll_interval=poll_interval)
    return apply_decisions(state, answered)


def review_interruptions_sync(
    client: Interlock,
    source: Any,
    *,
    title: Optional[str] = None,
    description: Optional[str] = None,
    external_id: Optional[str] = None,
    session_id: Optional[str] = None,
    metadata: Optional[Mapping[str, Any]] = None,
    wait_timeout: Optional[float] = DEFAULT_WAIT_TIMEOUT,
    poll_interval: float = DEFAULT_POLL_INTERVAL,
) -> Any:
    """``review_interruptions`` with the sync client (for ``Runner.run_sync``)."""
    state = _state_of(source)
    params = interrupt_params(
        state, title=title, description=description, external_id=external_id, session_id=session_id, metadata=metadata
    )
    opened = client.interrupts.create(**params)
    answered = client.interrupts.wait_for_answer(opened.id, timeout=wait_timeout, poll_interval=poll_interval)
    return apply_decisions(state, answered)


async def open_review(
    client: AsyncInterlock,
    source: Any,
    *,
    title: Optional[str] = None,
    description: Optional[str] = None,
    external_id: Optional[str] = None,
    session_id: Optional[str] = None,
    metadata: Optional[Mapping[str, Any]] = None,
) -> Interrupt:
    """The durable path's first half: opens the interrupt with the serialised run state in its
    metadata and returns it at once (keep its ``id``, or receive ``interrupt.answered`` by
    webhook). Resume later, in any process, with ``resume_state``."""
    params = interrupt_params(
        source,
        title=title,
        description=description,
        external_id=external_id,
        session_id=session_id,
        metadata=metadata,
        include_state=True,
    )
    return await client.interrupts.create(**params)


def open_review_sync(
    client: Interlock,
    source: Any,
    *,
    title: Optional[str] = None,
    description: Optional[str] = None,
    external_id: Optional[str] = None,
    session_id: Optional[str] = None,
    metadata: Optional[Mapping[str, Any]] = None,
) -> Interrupt:
    """``open_review`` with the sync client."""
    params = interrupt_params(
        source,
        title=title,
        description=description,
        external_id=external_id,
        session_id=session_id,
        metadata=metadata,
        include_state=True,
    )
    return client.interrupts.create(**params)


async def resume_state(agent: Any, interrupt: Union[Interrupt, Mapping[str, Any]]) -> Any:
    """The durable path's second half: the ``RunState`` stored by ``open_review``, rebuilt for
    ``agent`` (the same agent definition the run started with) with the decisions of the answered
    interrupt applied: ``result = await Runner.run(agent, await resume_state(agent, answered))``.

    The state comes from the interrupt your organisation's key opened (members cannot change
    metadata); read the interrupt with your own key, never from a client's request."""
    from agents import RunState  # the SDK itself, only on this path

    bridge, _ = _bridge(interrupt)
    text = bridge.get("state")
    if not isinstance(text, str):
        raise InterlockError(
            "This interrupt holds no run state: it was opened with review_interruptions, not open_review."
        )
    state = await RunState.from_string(agent, text)
    return apply_decisions(state, interrupt)
