"""The Pydantic AI bridge (``pydantic-ai``): deferred tool approvals, decided in Interlock's inbox.

A tool registered with ``requires_approval=True`` (or one that raises ``ApprovalRequired``) makes
the run end with ``DeferredToolRequests`` as its output (give the agent
``output_type=[..., DeferredToolRequests]``). The bridge opens one interrupt for its
``approvals`` (one action per call, the call's arguments as ``args``) and turns the members'
decisions into the ``DeferredToolResults`` to run again with: approve → ``True``; edit →
``ToolApproved(override_args=edited_args)`` (the tool runs with the member's arguments); reject →
``ToolDenied(message)`` (the model reads the member's message). Calls left undecided because the
interrupt was withdrawn or expired are denied, saying so. ``answered_by`` names who decided each
call (``member:<id>``, ``argus:<rule id>`` or ``system:<reason>``).

Three ways in:

- inline, in the run: ``Agent(..., capabilities=[interlock_approvals(client)])`` — the run waits
  for the members and goes on by itself;
- one call between two runs: ``results = await review_deferred(client, result.output)``, then
  ``agent.run(message_history=result.all_messages(), deferred_tool_results=results)``;
- durable: ``open_review`` opens the interrupt and returns at once; keep the run's messages
  (``result.all_messages_json()``) with the interrupt's id, and later, in any process,
  ``deferred_results(answered, messages)`` gives the results to run again with (each decision
  checked against the call in ``messages``: its ``actionDigest``).

A member may edit the arguments but not rename the call: Pydantic AI runs the tool the model
chose. An edit that renames is denied, saying so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Union

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
from .types import Interrupt

if TYPE_CHECKING:
    from pydantic_ai.capabilities import HandleDeferredToolCalls
    from pydantic_ai.tools import DeferredToolRequests, DeferredToolResults
    from typing_extensions import Unpack

__all__ = [
    "PYDANTIC_AI_METADATA_KEY",
    "InterruptOptions",
    "ReviewOptions",
    "deferred_results",
    "interlock_approvals",
    "interrupt_params",
    "open_review",
    "open_review_sync",
    "review_deferred",
    "review_deferred_sync",
]

#: Where the bridge keeps, in the interrupt's metadata, which action is which tool call.
PYDANTIC_AI_METADATA_KEY = "pydanticAi"
_ALLOWED = ["approve", "edit", "reject"]
_MAX_ACTIONS = 20


def _requests_of(source: Any) -> DeferredToolRequests:
    """The ``DeferredToolRequests`` itself, or a run result whose ``output`` is one."""
    if hasattr(source, "approvals") and hasattr(source, "calls"):
        return source  # type: ignore[no-any-return]
    output: Any = getattr(source, "output", None)
    if hasattr(output, "approvals") and hasattr(output, "calls"):
        return output  # type: ignore[no-any-return]
    raise InterlockError(
        "Expected pydantic-ai DeferredToolRequests "
        "(a run's output when it has DeferredToolRequests in its output_type)."
    )


def interrupt_params(source: Any, **options: Unpack[InterruptOptions]) -> dict[str, Any]:
    """The keyword arguments of ``interrupts.create`` for the approvals of ``DeferredToolRequests``
    (or of a run result whose output it is): one action per call, at most 20."""
    approvals = list(_requests_of(source).approvals)
    if not approvals:
        raise InterlockError("There are no tool calls awaiting approval (DeferredToolRequests.approvals is empty).")
    if len(approvals) > _MAX_ACTIONS:
        raise InterlockError(f"{len(approvals)} tool approvals: an interrupt holds at most {_MAX_ACTIONS}.")
    name_of = action_namer()
    actions: list[dict[str, Any]] = []
    calls: list[list[str]] = []
    for part in approvals:
        name = name_of(part.tool_name)
        actions.append({"name": name, "args": part.args_as_dict(), "allowed_decisions": list(_ALLOWED)})
        calls.append([name, part.tool_call_id, part.tool_name])
    return create_params(
        options,
        default_title=approval_title([part.tool_name for part in approvals]),
        actions=actions,
        key=PYDANTIC_AI_METADATA_KEY,
        bridge={"v": 1, "calls": calls},
    )


def _decider(decision: Mapping[str, Any]) -> str:
    by = decision.get("decidedBy") or {}
    kind = by.get("type", "member")
    ident = by.get("id") or by.get("ruleId") or by.get("reason") or by.get("name") or ""
    return f"{kind}:{ident}"


def _calls_of(source: Any) -> dict[str, dict[str, Any]]:
    """The tool calls of ``DeferredToolRequests``, a run result whose output it is, or a run's
    message history: their arguments by tool call id."""
    try:
        return {part.tool_call_id: part.args_as_dict() for part in _requests_of(source).approvals}
    except InterlockError:
        if not isinstance(source, Sequence) or isinstance(source, (str, bytes)):
            raise
    from pydantic_ai.messages import ModelResponse, ToolCallPart

    return {
        part.tool_call_id: part.args_as_dict()
        for message in source
        if isinstance(message, ModelResponse)
        for part in message.parts
        if isinstance(part, ToolCallPart)
    }


def deferred_results(interrupt: Union[Interrupt, Mapping[str, Any]], source: Any) -> DeferredToolResults:
    """The ``DeferredToolResults`` for an answered interrupt the bridge opened: approve → ``True``;
    edit → ``ToolApproved(override_args=...)``; reject → ``ToolDenied(message)`` (the default
    denial when the member gave no message); undecided (withdrawn or expired) → ``ToolDenied``
    saying so. Run again with ``deferred_tool_results=`` and the run's message history.

    ``source`` is what holds the calls: the ``DeferredToolRequests`` (or the run's result), or the
    message history the next run starts from. Each decision must be about its call as it is there
    (its ``actionDigest``, SPEC §8e): ``ActionDigestMismatchError`` otherwise, and no results."""
    from pydantic_ai.tools import DeferredToolResults, ToolApproved, ToolDenied

    bridge, decisions, status = answered(interrupt, PYDANTIC_AI_METADATA_KEY, "the Pydantic AI bridge")
    calls = _calls_of(source)
    asked: list[dict[str, Any]] = []
    for name, tool_call_id, _ in bridge["calls"]:
        if tool_call_id not in calls:
            raise InterlockError(f"Tool call {tool_call_id} of this interrupt is not in the run given.")
        asked.append({"name": name, "args": calls[tool_call_id]})
    verify_decisions(interrupt, asked)
    results = DeferredToolResults()
    for name, tool_call_id, tool_name in bridge["calls"]:
        decision = decisions.get(name)
        if decision is None:
            results.approvals[tool_call_id] = ToolDenied(not_decided(status))
            continue
        results.answered_by[tool_call_id] = _decider(decision)
        kind = decision.get("decision")
        renamed = decision.get("editedName")
        if kind == "approve":
            results.approvals[tool_call_id] = True
        elif kind == "edit" and renamed not in (None, tool_name):
            results.approvals[tool_call_id] = ToolDenied(
                f"The reviewer asked for {renamed} instead of {tool_name}; "
                "this agent cannot switch tools, so it did not run."
            )
        elif kind == "edit":
            results.approvals[tool_call_id] = ToolApproved(override_args=dict(decision.get("editedArgs") or {}))
        elif kind == "reject":
            message = decision.get("message")
            results.approvals[tool_call_id] = ToolDenied(message) if message else ToolDenied()
        else:
            results.approvals[tool_call_id] = ToolDenied(f"The decision was {kind}, which this tool call cannot take.")
    return results


async def review_deferred(client: AsyncInterlock, source: Any, **options: Unpack[ReviewOptions]) -> DeferredToolResults:
    """Opens one interrupt for the approvals of ``DeferredToolRequests`` (or a run result), waits
    for the members and returns the ``DeferredToolResults`` to run again with."""
    opened = await client.interrupts.create(**interrupt_params(source, **interrupt_options(options)))
    done = (
        opened
        if opened.status != "open"
        else await client.interrupts.wait_for_answer(opened.id, **wait_kwargs(options))
    )
    return deferred_results(done, source)


def review_deferred_sync(client: Interlock, source: Any, **options: Unpack[ReviewOptions]) -> DeferredToolResults:
    """``review_deferred`` with the sync client (for ``agent.run_sync``)."""
    opened = client.interrupts.create(**interrupt_params(source, **interrupt_options(options)))
    done = opened if opened.status != "open" else client.interrupts.wait_for_answer(opened.id, **wait_kwargs(options))
    return deferred_results(done, source)


async def open_review(client: AsyncInterlock, source: Any, **options: Unpack[InterruptOptions]) -> Interrupt:
    """The durable path's first half: opens the interrupt and returns it at once. Keep its ``id``
    with the run's messages (``result.all_messages_json()``); when it is answered (webhook
    ``interrupt.answered``, or ``wait_for_answer`` in a job), run again with
    ``deferred_tool_results=deferred_results(answered, messages)``."""
    return await client.interrupts.create(**interrupt_params(source, **options))


def open_review_sync(client: Interlock, source: Any, **options: Unpack[InterruptOptions]) -> Interrupt:
    """``open_review`` with the sync client."""
    return client.interrupts.create(**interrupt_params(source, **options))


def interlock_approvals(client: AsyncInterlock, **options: Unpack[ReviewOptions]) -> HandleDeferredToolCalls[Any]:
    """A capability that sends the run's tool approvals to the inbox and goes on with the members'
    decisions, inside the run: ``Agent(model, capabilities=[interlock_approvals(client)])``.
    Calls deferred for external execution are left to the next capability (or the run's output)."""
    from pydantic_ai.capabilities import HandleDeferredToolCalls

    async def handle(ctx: Any, requests: DeferredToolRequests) -> DeferredToolResults | None:
        if not requests.approvals:
            return None
        return await review_deferred(client, requests, **options)

    return HandleDeferredToolCalls(handler=handle)
