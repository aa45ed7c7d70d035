"""The CrewAI bridge (``crewai``): a flow's ``@human_feedback`` answered in Interlock's inbox.

``InterlockFeedback(client)`` is a human-feedback provider. When a flow reaches a method decorated
with ``@human_feedback(..., provider=InterlockFeedback(client))``, it opens one interrupt: the
decorator's message as the title, the method's output as the action's ``args`` (``{"output": …}``).

- A method with ``emit=[...]`` (a router) asks for one of its outcomes: the action takes a
  ``respond`` whose typed answer (``responseSchema``) is ``{outcome, feedback?}``, the outcome one of
  ``emit`` (``default_outcome`` preselected), so the dashboard shows a select. The flow then goes
  on along the outcome the person chose — the bridge routes it itself; no LLM reinterprets an
  explicit choice — and ``last_human_feedback.feedback`` is the person's text (the outcome's name
  when they wrote none: CrewAI routes an empty reply to the default outcome).
- A method without ``emit`` asks for feedback: ``approve`` (the output as it is: feedback ``""``)
  or ``respond`` with a message (the feedback).

By default the provider raises CrewAI's ``HumanFeedbackPending``: ``flow.kickoff()`` returns it,
CrewAI persists the flow (its ``persistence``, by default SQLite), and the process may exit. When
the interrupt is answered (webhook ``interrupt.answered``, or ``interrupts.wait_for_answer`` in a
job), ``resume_flow(MyFlow, answered, persistence)`` — in any process — restores the flow and
resumes it with the decision. ``InterlockFeedback(client, wait=True)`` waits in the run instead.
An interrupt answered at once (an argus rule) goes on in the run either way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Optional, Union

from ._bridge import InterruptOptions, ReviewOptions, answered, create_params, interrupt_options, wait_kwargs
from ._client import Interlock
from ._errors import InterlockError
from .digest import verify_decisions
from .types import Interrupt

if TYPE_CHECKING:
    from crewai.flow.async_feedback import PendingFeedbackContext
    from crewai.flow.persistence.base import FlowPersistence
    from crewai.flow.runtime import Flow
    from typing_extensions import Unpack

__all__ = [
    "CREWAI_METADATA_KEY",
    "FeedbackNotGivenError",
    "InterlockFeedback",
    "InterruptOptions",
    "ReviewOptions",
    "feedback_of",
    "feedback_params",
    "resume_flow",
    "resume_flow_async",
]

#: Where the bridge keeps, in the interrupt's metadata, which flow and step the interrupt is for.
CREWAI_METADATA_KEY = "crewai"
_MAX_TITLE = 200
_MAX_OUTCOMES = 100


class FeedbackNotGivenError(InterlockError):
    """The interrupt ended without feedback (withdrawn, or expired): the flow stays paused."""


def _title(message: str, method: str) -> str:
    title = " ".join(message.split()) or f"Review {method}"
    return title if len(title) <= _MAX_TITLE else title[: _MAX_TITLE - 1] + "…"


def _outcome_schema(emit: Sequence[str], default: Optional[str]) -> dict[str, Any]:
    outcome: dict[str, Any] = {
        "type": "string",
        "enum": list(emit),
        "title": "Outcome",
        "description": "Where the flow goes next.",
    }
    if default is not None:
        outcome["default"] = default
    return {
        "type": "object",
        "properties": {
            "outcome": outcome,
            "feedback": {
                "type": "string",
                "title": "Feedback",
                "description": "What the flow's next steps read as your feedback (optional).",
            },
        },
        "required": ["outcome"],
        "additionalProperties": False,
    }


def _asked(context: PendingFeedbackContext) -> dict[str, Any]:
    """The action asked about for a request for feedback: named after the method, its output (made
    JSON-safe, as CrewAI persists it) as ``args``."""
    return {"name": context.method_name, "args": {"output": context.to_dict()["method_output"]}}


def feedback_params(context: PendingFeedbackContext, **options: Unpack[InterruptOptions]) -> dict[str, Any]:
    """The keyword arguments of ``interrupts.create`` for a flow's request for feedback (CrewAI's
    ``PendingFeedbackContext``): one action named after the method, its output as ``args``."""
    emit = list(context.emit or [])
    action: dict[str, Any] = _asked(context)
    if emit:
        if len(emit) > _MAX_OUTCOMES:
            raise InterlockError(f"{len(emit)} outcomes: an interrupt offers at most {_MAX_OUTCOMES}.")
        action["allowed_decisions"] = ["respond"]
        action["response_schema"] = _outcome_schema(emit, context.default_outcome)
    else:
        action["allowed_decisions"] = ["approve", "respond"]
    bridge = {
        "v": 1,
        "flowId": context.flow_id,
        "flowClass": context.flow_class,
        "method": context.method_name,
        "emit": emit or None,
    }
    return create_params(
        options,
        default_title=_title(context.message, context.method_name),
        actions=[action],
        key=CREWAI_METADATA_KEY,
        bridge=bridge,
    )


def feedback_of(interrupt: Union[Interrupt, Mapping[str, Any]]) -> tuple[Optional[str], str]:
    """The outcome (``None`` for a method without ``emit``) and the feedback text of an answered
    interrupt the bridge opened. Raises ``FeedbackNotGivenError`` when it ended undecided."""
    bridge, decisions, status = answered(interrupt, CREWAI_METADATA_KEY, "the CrewAI bridge")
    method = str(bridge["method"])
    decision = decisions.get(method)
    if decision is None:
        raise FeedbackNotGivenError(
            f"Nobody gave feedback on {method}: the request was {status}, so the flow stays paused."
        )
    kind = decision.get("decision")
    message = decision.get("message") or ""
    emit = bridge.get("emit") or []
    if emit:
        response = decision.get("response")
        outcome = response.get("outcome") if kind == "respond" and isinstance(response, Mapping) else None
        if outcome not in emit:
            raise InterlockError(f"The decision on {method} ({kind}) names none of the outcomes {emit}.")
        text = (response or {}).get("feedback") or message
        return str(outcome), str(text)
    if kind == "approve":
        return None, ""
    if kind == "respond":
        return None, str(message)
    raise InterlockError(f"The decision on {method} was {kind}, which a flow's feedback cannot take.")


def _route(flow: Flow[Any], outcome: str) -> None:
    """Makes the flow take ``outcome`` for the feedback it is about to read, once: CrewAI would ask
    an LLM to map free text to an outcome; here the person chose it."""

    def chosen(feedback: str, outcomes: Sequence[str], llm: Any) -> str:
        flow.__dict__.pop("_collapse_to_outcome", None)
        if outcome not in outcomes:
            raise InterlockError(f"{outcome!r} is not one of this step's outcomes {list(outcomes)}.")
        return outcome

    object.__setattr__(flow, "_collapse_to_outcome", chosen)


def _feedback_for(flow: Flow[Any], interrupt: Union[Interrupt, Mapping[str, Any]]) -> str:
    """The text to resume with, the flow routed to the chosen outcome (if any). CrewAI routes an
    empty reply to the default outcome, so an outcome without words is given its own name."""
    outcome, text = feedback_of(interrupt)
    if outcome is None:
        return text
    _route(flow, outcome)
    return text if text.strip() else outcome


class InterlockFeedback:
    """A CrewAI ``HumanFeedbackProvider`` that asks in Interlock's inbox:
    ``@human_feedback(message=…, emit=[…], provider=InterlockFeedback(client))``.

    By default it opens the interrupt and pauses the flow (``HumanFeedbackPending``; resume with
    ``resume_flow``). ``wait=True`` waits for the answer in the run. The keywords are the
    bridges' ``ReviewOptions`` (``title``, ``description``, ``external_id``, ``session_id``,
    ``metadata``, ``timeout_seconds``, ``on_timeout``, ``wait_timeout``, ``poll_interval``)."""

    def __init__(self, client: Interlock, *, wait: bool = False, **options: Unpack[ReviewOptions]) -> None:
        self.client = client
        self.wait = wait
        self.options: ReviewOptions = options

    def request_feedback(self, context: PendingFeedbackContext, flow: Flow[Any]) -> str:
        from crewai.flow.async_feedback import HumanFeedbackPending

        opened = self.client.interrupts.create(**feedback_params(context, **interrupt_options(self.options)))
        if opened.status == "open" and not self.wait:
            raise HumanFeedbackPending(context=context, callback_info={"interruptId": str(opened.id)})
        done = (
            opened
            if opened.status != "open"
            else self.client.interrupts.wait_for_answer(opened.id, **wait_kwargs(self.options))
        )
        verify_decisions(done, [_asked(context)])  # about this step's output as sent (its digest)
        return _feedback_for(flow, done)


def _restore(
    flow: type[Flow[Any]],
    interrupt: Union[Interrupt, Mapping[str, Any]],
    persistence: Optional[FlowPersistence],
    kwargs: Mapping[str, Any],
) -> tuple[Flow[Any], str]:
    bridge, _, _ = answered(interrupt, CREWAI_METADATA_KEY, "the CrewAI bridge")
    instance = flow.from_pending(str(bridge["flowId"]), persistence, **kwargs)
    pending = instance.pending_feedback
    if pending is None or pending.method_name != bridge["method"]:
        at = pending.method_name if pending is not None else "no step"
        raise InterlockError(
            f"Flow {bridge['flowId']} is paused at {at}, not at {bridge['method']} (the step this interrupt is about)."
        )
    # The decision must be about the output the flow paused with, as persisted (its digest).
    verify_decisions(interrupt, [_asked(pending)])
    return instance, _feedback_for(instance, interrupt)


def resume_flow(
    flow: type[Flow[Any]],
    interrupt: Union[Interrupt, Mapping[str, Any]],
    persistence: Optional[FlowPersistence] = None,
    **kwargs: Any,
) -> Any:
    """Restores the flow an answered interrupt paused (``flow.from_pending`` with its id, from
    ``persistence`` — CrewAI's default when ``None``) and resumes it with the decision: the chosen
    outcome and the person's feedback. Returns what ``Flow.resume`` returns (the flow's result, or
    ``HumanFeedbackPending`` at its next pause). Not inside a running event loop: use
    ``resume_flow_async`` there."""
    instance, text = _restore(flow, interrupt, persistence, kwargs)
    return instance.resume(text)


async def resume_flow_async(
    flow: type[Flow[Any]],
    interrupt: Union[Interrupt, Mapping[str, Any]],
    persistence: Optional[FlowPersistence] = None,
    **kwargs: Any,
) -> Any:
    """``resume_flow`` inside an event loop (``Flow.resume_async``)."""
    instance, text = _restore(flow, interrupt, persistence, kwargs)
    return await instance.resume_async(text)
