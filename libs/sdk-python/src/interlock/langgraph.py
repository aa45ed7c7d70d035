"""The LangGraph human-in-the-loop bridge: plain data in, plain data out, no LangGraph import.

LangGraph's HITL middleware interrupts with ``{"action_requests": [...], "review_configs": [...]}``
and resumes with ``{"decisions": [...]}``, one decision per action request, in the same order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple, Optional, Union, cast

from ._errors import InterlockError
from .types import ActionRequestParam, CreateInterruptParams, DecisionType, Interrupt

__all__ = ["LANGGRAPH_METADATA_KEY", "interrupt_from_langgraph", "to_langgraph_resume"]

#: Where the bridge keeps LangGraph's own action names in the interrupt's metadata, when it had to make
#: them unique (the service keys decisions by action name; LangGraph may ask about two calls of the
#: same tool at once).
LANGGRAPH_METADATA_KEY = "langgraph"

_DECISION_TYPES = ("approve", "edit", "reject", "respond")
_MAX_TITLE_LENGTH = 200


def interrupt_from_langgraph(
    request: Mapping[str, Any],
    *,
    title: Optional[str] = None,
    description: Optional[str] = None,
    external_id: Optional[str] = None,
    session_id: Optional[str] = None,
    metadata: Optional[Mapping[str, Any]] = None,
) -> CreateInterruptParams:
    """The keyword arguments of ``interrupts.create`` for a LangGraph HITL request.

    Each action keeps its name, args and description; its review config's ``allowed_decisions``
    become ``allowed_decisions``. A name repeated in one request becomes ``name #2``, ``name #3``…
    (the originals are kept in ``metadata["langgraph"]["actionNames"]``). Without a ``title`` one is
    made from the action names::

        client.interrupts.create(**interrupt_from_langgraph(hitl_request, external_id=thread_id))
    """
    actions = request.get("action_requests")
    if not isinstance(actions, Sequence) or isinstance(actions, str) or len(actions) == 0:
        raise InterlockError("A LangGraph HITL request needs at least one entry in action_requests.")
    configs: dict[str, Mapping[str, Any]] = {}
    for config in request.get("review_configs") or []:
        configs[str(config["action_name"])] = config

    original_names = [str(action["name"]) for action in actions]
    used: set[str] = set()
    action_requests: list[ActionRequestParam] = []
    for action, original in zip(actions, original_names):
        name, n = original, 2
        while name in used:
            name, n = f"{original} #{n}", n + 1
        used.add(name)
        mapped: ActionRequestParam = {"name": name, "args": dict(action.get("args") or {})}
        if isinstance(action.get("description"), str):
            mapped["description"] = action["description"]
        allowed = configs.get(original, {}).get("allowed_decisions")
        if allowed is not None:
            unknown = [d for d in allowed if d not in _DECISION_TYPES]
            if unknown:
                raise InterlockError(f"Unknown decision type(s) for {original}: {', '.join(map(str, unknown))}.")
            mapped["allowed_decisions"] = [cast(DecisionType, d) for d in allowed]
        action_requests.append(mapped)

    params: CreateInterruptParams = {
        "title": title if title is not None else _default_title(original_names),
        "action_requests": action_requests,
    }
    if description is not None:
        params["description"] = description
    if external_id is not None:
        params["external_id"] = external_id
    if session_id is not None:
        params["session_id"] = session_id
    renamed = any(a["name"] != original for a, original in zip(action_requests, original_names))
    if renamed:
        params["metadata"] = {**(metadata or {}), LANGGRAPH_METADATA_KEY: {"actionNames": original_names}}
    elif metadata is not None:
        params["metadata"] = dict(metadata)
    return params


def to_langgraph_resume(interrupt: Union[Interrupt, Mapping[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The resume value for LangGraph from an answered interrupt (a model, or its JSON as a dict):
    one decision per action request, in the original order, under LangGraph's own action names.
    Raises when an action has no decision yet.
    """
    view = _view(interrupt)
    # Decisions are keyed by action name; a name used twice is matched in order.
    by_name: dict[str, list[_Decided]] = {}
    for decided in view.decisions:
        by_name.setdefault(decided.action_name, []).append(decided)

    decisions: list[dict[str, Any]] = []
    for action_name, name in zip(view.action_names, _langgraph_names(view)):
        queue = by_name.get(action_name)
        if not queue:
            raise InterlockError(
                f"Interrupt {view.id} has no decision for action {action_name} yet: wait for it to be answered."
            )
        decided = queue.pop(0)
        if decided.decision == "approve":
            decisions.append({"type": "approve"})
        elif decided.decision == "edit":
            args = decided.edited_args if decided.edited_args is not None else {}
            decisions.append({"type": "edit", "edited_action": {"name": name, "args": args}})
        elif decided.decision == "reject":
            decisions.append(
                {"type": "reject"} if decided.message is None else {"type": "reject", "message": decided.message}
            )
        elif decided.decision == "respond":
            decisions.append({"type": "respond", "message": decided.message or ""})
        else:
            raise InterlockError(f"Unknown decision type: {decided.decision}.")
    return {"decisions": decisions}


class _Decided(NamedTuple):
    action_name: str
    decision: str
    edited_args: Optional[dict[str, Any]]
    message: Optional[str]


class _View(NamedTuple):
    """The parts of an interrupt the bridge reads."""

    id: str
    action_names: list[str]
    decisions: list[_Decided]
    metadata: Mapping[str, Any]


def _view(interrupt: Union[Interrupt, Mapping[str, Any]]) -> _View:
    if isinstance(interrupt, Interrupt):
        return _View(
            id=str(interrupt.id),
            action_names=[action.name for action in interrupt.action_requests],
            decisions=[_Decided(d.action_name, d.decision, d.edited_args, d.message) for d in interrupt.decisions],
            metadata=interrupt.metadata or {},
        )

    # The interrupt's JSON (camelCase, as the API answers) or a snake_case dict: only the parts the
    # bridge reads need to be there.
    def field(data: Mapping[str, Any], camel: str, snake: str) -> Any:
        return data[camel] if camel in data else data.get(snake)

    actions = field(interrupt, "actionRequests", "action_requests") or []
    return _View(
        id=str(interrupt.get("id", "")),
        action_names=[str(action["name"]) for action in actions],
        decisions=[
            _Decided(
                str(field(d, "actionName", "action_name")),
                str(d["decision"]),
                field(d, "editedArgs", "edited_args"),
                d.get("message"),
            )
            for d in interrupt.get("decisions") or []
        ],
        metadata=interrupt.get("metadata") or {},
    )


def _langgraph_names(view: _View) -> list[str]:
    """LangGraph's names of the actions: kept in metadata when the bridge renamed any."""
    kept = view.metadata.get(LANGGRAPH_METADATA_KEY)
    names = kept.get("actionNames") if isinstance(kept, dict) else None
    if isinstance(names, list) and len(names) == len(view.action_names) and all(isinstance(n, str) for n in names):
        return names
    return view.action_names


def _default_title(names: Sequence[str]) -> str:
    title = f"Review {names[0]}" if len(names) == 1 else f"Review {len(names)} actions: {', '.join(names)}"
    return title if len(title) <= _MAX_TITLE_LENGTH else title[: _MAX_TITLE_LENGTH - 1] + "…"
