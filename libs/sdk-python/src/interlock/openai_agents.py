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
decisions applied. With ``resume_url`` on the interrupt the service POSTs the answered interrupt
there (signed under the key that opened it), and ``resume_from_webhook`` turns that POST into the
state: no process waits and nothing polls. No ``agents`` import here (but in ``resume_state``):
the bridge works on the objects the SDK hands out.

Before any decision is applied, the bridge checks that it is about the tool call the run holds
(SPEC §8e: ``actionDigest`` over the call's name and arguments) and raises
``ActionDigestMismatchError``, applying nothing, when one differs.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, Optional, Protocol, Union

from ._bridge import (
    InterruptOptions,
    ReviewOptions,
    action_namer,
    answered,
    approval_title,
    create_params,
    interrupt_options,
    not_decided,
    wait_kwargs,
)
from ._client import AsyncInterlock, Interlock
from ._errors import InterlockError
from .digest import verify_decisions
from .langgraph import shorten_description
from .types import Interrupt
from .webhooks import DEFAULT_WEBHOOK_TOLERANCE_SECONDS, Webhooks, resume_signing_secret

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = [
    "OPENAI_AGENTS_METADATA_KEY",
    "InterruptOptions",
    "ReviewOptions",
    "WebhookResume",
    "apply_decisions",
    "interrupt_params",
    "open_review",
    "open_review_sync",
    "resume_from_webhook",
    "resume_state",
    "review_interruptions",
    "review_interruptions_sync",
]

#: Where the bridge keeps, in the interrupt's metadata, which action is which tool call (and, on
#: the durable path, the serialised run state).
OPENAI_AGENTS_METADATA_KEY = "openaiAgents"
_ALLOWED = ["approve", "reject"]


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
    source: Any, *, include_state: bool = False, **options: Unpack[InterruptOptions]
) -> dict[str, Any]:
    """The keyword arguments of ``interrupts.create`` for a paused run's approvals (at most 20)."""
    state = _state_of(source)
    items = list(state.get_interruptions())
    if not items:
        raise InterlockError("This run has no pending tool approvals (result.interruptions is empty).")
    if len(items) > 20:
        raise InterlockError(f"{len(items)} tool approvals: an interrupt holds at most 20.")
    name_of = action_namer()
    actions: list[dict[str, Any]] = []
    calls: list[list[str]] = []
    for item in items:
        tool = item.name or "tool"
        name = name_of(tool)
        action: dict[str, Any] = {"name": name, "args": _arguments(item), "allowed_decisions": list(_ALLOWED)}
        agent = getattr(getattr(item, "agent", None), "name", None)
        if isinstance(agent, str) and agent:
            action["description"] = shorten_description(f"{agent} wants to call {tool}.")
        actions.append(action)
        calls.append([name, _call_id(item)])
    bridge: dict[str, Any] = {"v": 1, "calls": calls}
    if include_state:
        bridge["state"] = state.to_string()
    return create_params(
        options,
        default_title=approval_title([item.name or "tool" for item in items]),
        actions=actions,
        key=OPENAI_AGENTS_METADATA_KEY,
        bridge=bridge,
    )


def apply_decisions(state: Any, interrupt: Union[Interrupt, Mapping[str, Any]]) -> Any:
    """Applies the members' decisions of an answered interrupt to the run state: approve →
    ``state.approve(item)``; reject → ``state.reject(item, rejection_message=message)``. A call
    left without a decision (the interrupt was withdrawn or expired) is rejected with a message
    saying so. Returns the state, ready for ``Runner.run(agent, state)``.

    First checks every action and decision against the tool calls the state holds (their digests,
    SPEC §8e): raises ``ActionDigestMismatchError``, applying nothing, when one differs."""
    bridge, decisions, status = answered(interrupt, OPENAI_AGENTS_METADATA_KEY, "the OpenAI Agents bridge")
    by_call = {call_id: name for name, call_id in bridge["calls"]}
    pending: list[tuple[Any, str]] = []
    for item in list(state.get_interruptions()):
        name = by_call.get(_call_id(item))
        if name is not None:  # else a newer approval this interrupt did not ask about
            pending.append((item, name))
    verify_decisions(interrupt, [{"name": name, "args": _arguments(item)} for item, name in pending])
    for item, name in pending:
        decision = decisions.get(name)
        kind = decision.get("decision") if decision else None
        if kind == "approve":
            state.approve(item)
        elif decision is None:
            state.reject(item, rejection_message=not_decided(status))
        elif kind == "reject":
            state.reject(item, rejection_message=decision.get("message"))
        else:
            state.reject(
                item, rejection_message=f"The decision was {kind}, which this tool call cannot take; it did not run."
            )
    return state


async def review_interruptions(client: AsyncInterlock, source: Any, **options: Unpack[ReviewOptions]) -> Any:
    """Opens one interrupt for a paused run's tool approvals, waits for the members, applies
    their decisions and returns the ``RunState``: ``result = await Runner.run(agent, state)``.
    Takes the bridges' ``ReviewOptions``: ``title``, ``description``, ``external_id``,
    ``session_id``, ``metadata``, ``timeout_seconds``, ``on_timeout``, ``wait_timeout``,
    ``poll_interval``."""
    state = _state_of(source)
    opened = await client.interrupts.create(**interrupt_params(state, **interrupt_options(options)))
    return apply_decisions(state, await client.interrupts.wait_for_answer(opened.id, **wait_kwargs(options)))


def review_interruptions_sync(client: Interlock, source: Any, **options: Unpack[ReviewOptions]) -> Any:
    """``review_interruptions`` with the sync client (for ``Runner.run_sync``)."""
    state = _state_of(source)
    opened = client.interrupts.create(**interrupt_params(state, **interrupt_options(options)))
    return apply_decisions(state, client.interrupts.wait_for_answer(opened.id, **wait_kwargs(options)))


async def open_review(client: AsyncInterlock, source: Any, **options: Unpack[InterruptOptions]) -> Interrupt:
    """The durable path's first half: opens the interrupt with the serialised run state in its
    metadata and returns it at once (keep its ``id``, or receive ``interrupt.answered`` by
    webhook). Resume later, in any process, with ``resume_state``."""
    return await client.interrupts.create(**interrupt_params(source, include_state=True, **options))


def open_review_sync(client: Interlock, source: Any, **options: Unpack[InterruptOptions]) -> Interrupt:
    """``open_review`` with the sync client."""
    return client.interrupts.create(**interrupt_params(source, include_state=True, **options))


async def resume_state(agent: Any, interrupt: Union[Interrupt, Mapping[str, Any]]) -> Any:
    """The durable path's second half: the ``RunState`` stored by ``open_review``, rebuilt for
    ``agent`` (the same agent definition the run started with) with the decisions of the answered
    interrupt applied: ``result = await Runner.run(agent, await resume_state(agent, answered))``.

    The state comes from the interrupt your organisation's key opened (members cannot change
    metadata); read the interrupt with your own key, never from a client's request."""
    from agents import RunState  # the SDK itself, only on this path

    bridge, _, _ = answered(interrupt, OPENAI_AGENTS_METADATA_KEY, "the OpenAI Agents bridge")
    text = bridge.get("state")
    if not isinstance(text, str):
        raise InterlockError(
            "This interrupt holds no run state: it was opened with review_interruptions, not open_review."
        )
    state = await RunState.from_string(agent, text)
    return apply_decisions(state, interrupt)


#: The events that end an interrupt: the ones a ``resume_url`` receives.
_ENDING_EVENTS = ("interrupt.answered", "interrupt.expired", "interrupt.withdrawn")


class WebhookResume(NamedTuple):
    """What ``resume_from_webhook`` gives: the interrupt the POST carried and the run state."""

    interrupt: Interrupt
    state: Any


async def resume_from_webhook(
    agent: Any,
    payload: Union[str, bytes],
    headers: Mapping[str, Any],
    *,
    api_key: Optional[str] = None,
    secret: Optional[str] = None,
    tolerance: int = DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
) -> WebhookResume:
    """The webhook half of the durable path: a ``resume_url`` POST (or an organisation webhook's
    ``interrupt.answered``) as received — the raw body, not re-encoded, and its headers — verified
    (signature and timestamp; ``WebhookVerificationError`` else), then the stored run state rebuilt
    for ``agent`` with the decisions applied (digests checked), as ``resume_state`` does.

    A ``resume_url`` POST is signed under ``resume_signing_secret(api_key)`` (``api_key`` defaults
    to ``INTERLOCK_API_KEY``); pass ``secret`` (``whsec_…``) for an organisation webhook instead.
    Answer the POST with a 2xx once you have kept or run the state: the service retries otherwise."""
    if secret is None:
        key = api_key if api_key is not None else os.environ.get("INTERLOCK_API_KEY", "").strip()
        if not key:
            raise InterlockError(
                "No API key to verify the resume_url POST with: pass api_key or set INTERLOCK_API_KEY."
            )
        secret = resume_signing_secret(key)
    event = Webhooks(secret=secret).unwrap(payload, headers, tolerance=tolerance)
    kind = getattr(event, "type", None)
    interrupt = getattr(event, "data", None)
    if kind not in _ENDING_EVENTS or not isinstance(interrupt, Interrupt):
        raise InterlockError(
            f"A {kind} event does not end an interrupt: only interrupt.answered, interrupt.expired and "
            "interrupt.withdrawn resume a run."
        )
    return WebhookResume(interrupt, await resume_state(agent, interrupt))
