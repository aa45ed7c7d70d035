"""The LangGraph human-in-the-loop bridge: plain data in, plain data out, no LangGraph import.

It reads every shape of review request the current packages raise with ``interrupt()``:

- langchain's ``HumanInTheLoopMiddleware``, batched (the default): ``{"action_requests",
  "review_configs"}``, resumed with ``{"decisions": [...]}`` (``approve``, ``edit`` with
  ``edited_action``, ``reject``, ``respond``);
- the same with ``interrupt_mode="per_call"``: one ``{"type": "tool_approval", "tool_call_id",
  "name", "args", "description"}`` per tool call, each resumed with one decision, keyed by
  interrupt id (the allowed decisions come from the interrupt's ``response_schema``);
- langchain JS's ``humanInTheLoopMiddleware`` (camelCase ``actionRequests``, ``editedAction``, no
  ``respond``), for a JS graph reviewed from Python;
- the Agent Inbox ``HumanInterrupt`` (``action_request``, ``config.allow_*``), alone or in a
  list, resumed with ``HumanResponse`` (``accept | ignore | response | edit``);
- a payload of ours (``interlock_payload(...)`` given to a plain ``interrupt()``), resumed with the
  members' decisions.

It turns them into the keyword arguments of one or more ``interrupts.create`` calls (20 actions at
most each, long descriptions shortened, args kept whole), records in each interrupt's metadata
how to map the answers back, and merges the answered interrupts into exactly the resume value the
package expects (``to_langgraph_resume``).
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Mapping, Sequence
from typing import Any, Optional, Union, cast

from ._errors import InterlockError
from .digest import verify_decisions
from .types import ActionRequestParam, CreateInterruptParams, Decision, DecisionType, Interrupt

__all__ = [
    "LANGGRAPH_METADATA_KEY",
    "MAX_ACTIONS_PER_INTERRUPT",
    "MAX_DESCRIPTION_LENGTH",
    "interlock_decisions",
    "interlock_payload",
    "interrupt_from_langgraph",
    "interrupts_from_langgraph",
    "langgraph_review_id",
    "shorten_description",
    "to_langgraph_resume",
]

#: Where the bridge keeps, in each interrupt's metadata, how to map its answers back to LangGraph.
LANGGRAPH_METADATA_KEY = "langgraph"
#: At most this many action requests per interrupt; larger requests are split.
MAX_ACTIONS_PER_INTERRUPT = 20
#: An action's description is shortened to this many characters (UTF-16 units); its args are kept.
MAX_DESCRIPTION_LENGTH = 10_000

_MAX_TITLE_LENGTH = 200
_MAX_NAME_LENGTH = 200
_MAX_PART_BYTES = 768 * 1024
_SHORTENED = "\n… [shortened by Interlock: the full arguments are in args]"
_ALL_DECISIONS: tuple[DecisionType, ...] = ("approve", "edit", "reject", "respond")
#: langchain JS's middleware knows no ``respond`` and allows the other three by default.
_JS_DECISIONS: tuple[DecisionType, ...] = ("approve", "edit", "reject")

_Pending = dict[str, Any]  # target, position, name, args, description, allowed


# Reading LangGraph's interrupts.


def _is_human_interrupt(value: Any) -> bool:
    return (
        isinstance(value, Mapping)
        and isinstance(value.get("action_request"), Mapping)
        and isinstance(value.get("config"), Mapping)
    )


def _is_review_value(value: Any) -> bool:
    if isinstance(value, Sequence) and not isinstance(value, (str, bytes)):
        return len(value) > 0 and all(_is_human_interrupt(v) for v in value)
    if not isinstance(value, Mapping):
        return False
    return (
        "action_requests" in value
        or "actionRequests" in value
        or value.get("type") in ("tool_approval", "interlock")
        or _is_human_interrupt(value)
    )


def _as_interrupt(item: Any) -> Optional[tuple[Optional[str], Any, Any]]:
    """(id, value, response_schema) of a LangGraph ``Interrupt`` (object or dict), else None."""
    if isinstance(item, Mapping):
        if "value" in item and not _is_review_value(item):
            return item.get("id"), item["value"], item.get("response_schema")
        return None
    if hasattr(item, "value") and not isinstance(item, (str, bytes)):
        return getattr(item, "id", None), item.value, getattr(item, "response_schema", None)
    return None


def _interrupts_of(source: Any) -> list[tuple[Optional[str], Any, Any]]:
    """The LangGraph interrupts in ``source``: a ``GraphOutput`` (``version="v2"``), its
    ``.interrupts``, a v1 result dict, one ``Interrupt``, or a bare interrupt value."""
    if not isinstance(source, Mapping) and hasattr(source, "interrupts"):
        return _interrupts_of(list(source.interrupts))
    if isinstance(source, Mapping) and "__interrupt__" in source:
        return _interrupts_of(list(source["__interrupt__"]))
    if isinstance(source, Sequence) and not isinstance(source, (str, bytes)) and source:
        found = [_as_interrupt(item) for item in source]
        if all(f is not None for f in found):
            return [f for f in found if f is not None]
    single = _as_interrupt(source)
    if single is not None:
        return [single]
    if _is_review_value(source):
        return [(None, source, None)]
    raise InterlockError(
        "Not a LangGraph review request: expected a run's result (or result.interrupts), an Interrupt, or an "
        "interrupt value (a HITL request with action_requests/actionRequests, a tool_approval request, an "
        "Agent Inbox HumanInterrupt, or an interlock_payload)."
    )


def _args(value: Any, what: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise InterlockError(f"The args of {what} must be an object.")
    return dict(value)


def _name(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InterlockError(f"{what} needs a name.")
    return value


def _decision_types(allowed: Any, action: str) -> list[DecisionType]:
    if not isinstance(allowed, Sequence) or isinstance(allowed, str):
        raise InterlockError(f"The allowed decisions of {action} must be a list.")
    unknown = [str(d) for d in allowed if d not in _ALL_DECISIONS]
    if unknown:
        raise InterlockError(f"Unknown decision type(s) for {action}: {', '.join(unknown)}.")
    if not allowed:
        raise InterlockError(f"{action} allows no decision.")
    return [cast(DecisionType, d) for d in dict.fromkeys(allowed)]


def _decisions_in_schema(schema: Any) -> Optional[list[DecisionType]]:
    """The decision types a JSON Schema of an answer admits (each branch's ``type`` const or enum)."""
    if not isinstance(schema, Mapping):
        return None  # absent, or a Python type: LangGraph surfaces JSON Schema on returned interrupts
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, Mapping):
            props = node.get("properties")
            if isinstance(props, Mapping) and isinstance(props.get("type"), Mapping):
                spec = props["type"]
                values = [spec["const"]] if "const" in spec else list(spec.get("enum") or [])
                found.update(v for v in values if v in _ALL_DECISIONS)
            for child in node.values():
                walk(child)
        elif isinstance(node, list):
            for child in node:
                walk(child)

    walk(schema)
    return [d for d in _ALL_DECISIONS if d in found] or None


def _read(index: int, interrupt_id: Any, value: Any, schema: Any, targets: list[dict[str, Any]]) -> list[_Pending]:
    id_ = interrupt_id if isinstance(interrupt_id, str) and interrupt_id else None

    def push(kind: str, items: list[dict[str, Any]], as_list: Optional[bool] = None) -> list[_Pending]:
        if not items:
            raise InterlockError("A LangGraph review request needs at least one action.")
        target: dict[str, Any] = {"id": id_, "kind": kind, "size": len(items)}
        if as_list is not None:
            target["list"] = as_list
        targets.append(target)
        return [{**item, "target": index, "position": i} for i, item in enumerate(items)]

    if isinstance(value, Mapping) and ("actionRequests" in value or "action_requests" in value):
        camel = "actionRequests" in value
        key = "actionRequests" if camel else "action_requests"
        requests = value.get(key)
        if not isinstance(requests, Sequence) or isinstance(requests, str) or not requests:
            raise InterlockError(f"A LangGraph HITL request needs at least one entry in {key}.")
        allowed_by_name: dict[str, Any] = {}
        for config in value.get("reviewConfigs" if camel else "review_configs") or []:
            if isinstance(config, Mapping):
                action_name = config.get("actionName" if camel else "action_name")
                if isinstance(action_name, str):
                    allowed_by_name[action_name] = config.get("allowedDecisions" if camel else "allowed_decisions")
        items = []
        for i, request in enumerate(requests):
            if not isinstance(request, Mapping):
                raise InterlockError(f"Action request {i + 1} must be an object.")
            name = _name(request.get("name"), f"Action request {i + 1}")
            allowed = allowed_by_name.get(name)
            decisions = (
                _decision_types(allowed, name) if allowed is not None else (list(_JS_DECISIONS) if camel else None)
            )
            if camel and decisions is not None and "respond" in decisions:
                raise InterlockError(f"langchain JS has no respond decision (action {name}).")
            description = request.get("description")
            items.append(
                {
                    "name": name,
                    "args": _args(request.get("args"), name),
                    "description": description if isinstance(description, str) else None,
                    "allowed": decisions,
                }
            )
        return push("hitl-js" if camel else "hitl", items)

    if isinstance(value, Mapping) and value.get("type") == "tool_approval":
        name = _name(value.get("name"), "A tool_approval request")
        description = value.get("description")
        return push(
            "tool-approval",
            [
                {
                    "name": name,
                    "args": _args(value.get("args"), name),
                    "description": description if isinstance(description, str) and description else None,
                    "allowed": _decisions_in_schema(schema),
                }
            ],
        )

    if isinstance(value, Mapping) and value.get("type") == "interlock":
        request = value.get("request")
        actions = request.get("actionRequests") if isinstance(request, Mapping) else None
        if not isinstance(actions, Sequence) or isinstance(actions, str):
            raise InterlockError("An interlock payload needs request.actionRequests (use interlock_payload).")
        items = []
        for i, action in enumerate(actions):
            if not isinstance(action, Mapping):
                raise InterlockError(f"Action request {i + 1} must be an object.")
            name = _name(action.get("name"), f"Action request {i + 1}")
            description = action.get("description")
            allowed = action.get("allowedDecisions")
            items.append(
                {
                    "name": name,
                    "args": _args(action.get("args"), name),
                    "description": description if isinstance(description, str) else None,
                    "allowed": None if allowed is None else _decision_types(allowed, name),
                }
            )
        return push("interlock", items)

    is_list = isinstance(value, Sequence) and not isinstance(value, (str, bytes, Mapping))
    inbox = list(value) if is_list else [value]
    if inbox and all(_is_human_interrupt(v) for v in inbox):
        items = []
        for request in inbox:
            name = _name(request["action_request"].get("action"), "An Agent Inbox action_request")
            config = request["config"]
            answers: list[DecisionType] = []
            if config.get("allow_accept"):
                answers.append("approve")
            if config.get("allow_edit"):
                answers.append("edit")
            if config.get("allow_ignore"):
                answers.append("reject")
            if config.get("allow_respond"):
                answers.append("respond")
            if not answers:
                raise InterlockError(f"Agent Inbox request {name} allows no answer.")
            description = request.get("description")
            items.append(
                {
                    "name": name,
                    "args": _args(request["action_request"].get("args"), name),
                    "description": description if isinstance(description, str) else None,
                    "allowed": answers,
                }
            )
        return push("agent-inbox", items, is_list)

    raise InterlockError(f"LangGraph interrupt {index + 1} is not a review request this bridge knows.")


# Building the create parameters.


def _utf16_cut(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` UTF-16 units (as the service counts lengths)."""
    units = 0
    for i, char in enumerate(text):
        units += 2 if ord(char) > 0xFFFF else 1
        if units > limit:
            return text[:i]
    return text


def _utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def shorten_description(description: str) -> str:
    """A description within the service's limit: shortened, with a note, when longer."""
    if _utf16_len(description) <= MAX_DESCRIPTION_LENGTH:
        return description
    return _utf16_cut(description, MAX_DESCRIPTION_LENGTH - _utf16_len(_SHORTENED)) + _SHORTENED


def _fit_title(title: str) -> str:
    return title if _utf16_len(title) <= _MAX_TITLE_LENGTH else _utf16_cut(title, _MAX_TITLE_LENGTH - 1) + "…"


def _summarise_names(names: Sequence[str]) -> str:
    """The names of a part, each once, with how many times it was asked: ``send_email ×2, read_file``."""
    counts: dict[str, int] = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    return ", ".join(name if count == 1 else f"{name} ×{count}" for name, count in counts.items())


def _default_title(names: Sequence[str], total: int, part: int, parts: int) -> str:
    if parts == 1:
        return _fit_title(
            f"Review {names[0]}" if len(names) == 1 else f"Review {len(names)} actions: {_summarise_names(names)}"
        )
    return _fit_title(f"Review {total} actions ({part}/{parts}): {_summarise_names(names)}")


def _payload_defaults(values: list[Any]) -> dict[str, Any]:
    """What a reviewed ``interlock_payload`` request gives the interrupt besides its actions (title,
    description, externalId, sessionId, metadata): used when it is the only interrupt reviewed."""
    if len(values) != 1:
        return {}
    value = values[0]
    request = value.get("request") if isinstance(value, Mapping) and value.get("type") == "interlock" else None
    if not isinstance(request, Mapping):
        return {}
    wire = {"title": "title", "description": "description", "externalId": "external_id", "sessionId": "session_id"}
    defaults: dict[str, Any] = {py: request[key] for key, py in wire.items() if isinstance(request.get(key), str)}
    if isinstance(request.get("metadata"), Mapping):
        defaults["metadata"] = request["metadata"]
    return defaults


def _unique_name(original: str, used: set[str]) -> str:
    """A name for the service: at most 200 characters, unique within its interrupt (``name #2``…)."""
    candidate, n = _utf16_cut(original, _MAX_NAME_LENGTH), 2
    while candidate in used:
        suffix = f" #{n}"
        candidate, n = _utf16_cut(original, _MAX_NAME_LENGTH - len(suffix)) + suffix, n + 1
    used.add(candidate)
    return candidate


def _split(actions: list[_Pending]) -> list[list[_Pending]]:
    parts: list[list[_Pending]] = []
    current: list[_Pending] = []
    size_so_far = 0
    for action in actions:
        size = len(json.dumps(action["args"], default=str).encode()) + len((action["description"] or "").encode()) + 512
        if current and (len(current) == MAX_ACTIONS_PER_INTERRUPT or size_so_far + size > _MAX_PART_BYTES):
            parts.append(current)
            current, size_so_far = [], 0
        current.append(action)
        size_so_far += size
    if current:
        parts.append(current)
    return parts


def interrupts_from_langgraph(
    source: Any,
    *,
    title: Optional[str] = None,
    description: Optional[str] = None,
    external_id: Optional[str] = None,
    session_id: Optional[str] = None,
    metadata: Optional[Mapping[str, Any]] = None,
) -> list[CreateInterruptParams]:
    """The keyword arguments of ``interrupts.create`` for LangGraph's review request(s): one
    interrupt, or several when there are more than 20 actions.

    ``source`` is a run's result (``GraphOutput`` with ``version="v2"``, or a v1 dict with
    ``__interrupt__``), its ``.interrupts``, one ``Interrupt``, or a bare interrupt value. Each action
    keeps its name and args; a description over 10,000 characters is shortened; the allowed
    decisions come from the request. An ``interlock_payload`` request keeps its own title,
    description, external id, session id and metadata (the arguments win over them). A name
    repeated in one interrupt becomes ``name #2``…; the metadata (``langgraph``) records how to map
    the answers back (``to_langgraph_resume``).
    """
    targets: list[dict[str, Any]] = []
    actions: list[_Pending] = []
    interrupts = _interrupts_of(source)
    for index, (interrupt_id, value, schema) in enumerate(interrupts):
        actions.extend(_read(index, interrupt_id, value, schema, targets))
    defaults = _payload_defaults([value for _, value, _ in interrupts])
    title = title if title is not None else defaults.get("title")
    description = description if description is not None else defaults.get("description")
    external_id = external_id if external_id is not None else defaults.get("external_id")
    session_id = session_id if session_id is not None else defaults.get("session_id")
    metadata = {**defaults.get("metadata", {}), **(metadata or {})}

    parts = _split(actions)
    ids = [t["id"] for t in targets]
    review = hashlib.sha256("\n".join(ids).encode()).hexdigest()[:32] if all(ids) else uuid.uuid4().hex
    result: list[CreateInterruptParams] = []
    for i, part in enumerate(parts):
        used: set[str] = set()
        action_requests: list[ActionRequestParam] = []
        for action in part:
            mapped: ActionRequestParam = {"name": _unique_name(action["name"], used), "args": action["args"]}
            if action["description"] is not None:
                mapped["description"] = shorten_description(action["description"])
            if action["allowed"] is not None:
                mapped["allowed_decisions"] = action["allowed"]
            action_requests.append(mapped)
        bridge = {
            "v": 1,
            "review": review,
            "part": i + 1,
            "parts": len(parts),
            "targets": targets,
            "actions": [[a["target"], a["position"], a["name"]] for a in part],
        }
        names = [a["name"] for a in part]
        if title is None:
            part_title = _default_title(names, len(actions), i + 1, len(parts))
        else:
            part_title = title if len(parts) == 1 else _fit_title(f"{title} ({i + 1}/{len(parts)})")
        params: CreateInterruptParams = {
            "title": part_title,
            "action_requests": action_requests,
            "metadata": {**(metadata or {}), LANGGRAPH_METADATA_KEY: bridge},
        }
        if description is not None:
            params["description"] = description
        if external_id is not None:
            params["external_id"] = external_id
        if session_id is not None:
            params["session_id"] = session_id
        result.append(params)
    return result


def interrupt_from_langgraph(
    source: Any,
    *,
    title: Optional[str] = None,
    description: Optional[str] = None,
    external_id: Optional[str] = None,
    session_id: Optional[str] = None,
    metadata: Optional[Mapping[str, Any]] = None,
) -> CreateInterruptParams:
    """The keyword arguments of ``interrupts.create`` for a LangGraph review request that fits one
    interrupt (20 actions at most); ``interrupts_from_langgraph`` splits larger ones::

        client.interrupts.create(**interrupt_from_langgraph(result, external_id=thread_id))
    """
    params = interrupts_from_langgraph(
        source, title=title, description=description, external_id=external_id, session_id=session_id, metadata=metadata
    )
    if len(params) > 1:
        raise InterlockError(
            f"This review request needs {len(params)} interrupts (at most {MAX_ACTIONS_PER_INTERRUPT} actions each): "
            "use interrupts_from_langgraph, or client.interrupts.review_langgraph."
        )
    return params[0]


def interlock_payload(
    *,
    title: str,
    action_requests: Sequence[Mapping[str, Any]],
    description: Optional[str] = None,
    external_id: Optional[str] = None,
    session_id: Optional[str] = None,
    metadata: Optional[Mapping[str, Any]] = None,
) -> dict[str, Any]:
    """The payload of a plain ``interrupt()`` that asks for an Interlock review::

    answer = interrupt(interlock_payload(title="Refund?", action_requests=[{"name": "refund"}]))
    for decision in interlock_decisions(answer): ...
    """
    from .resources._wire import to_wire

    request: dict[str, Any] = {"title": title, "actionRequests": [to_wire(a) for a in action_requests]}
    for key, value in (("description", description), ("externalId", external_id), ("sessionId", session_id)):
        if value is not None:
            request[key] = value
    if metadata is not None:
        request["metadata"] = dict(metadata)
    return {"type": "interlock", "request": request}


def interlock_decisions(resume: Any) -> list[Decision]:
    """The decisions of an ``interlock_payload`` interrupt's resume value, in the order of its actions."""
    decisions = resume.get("decisions") if isinstance(resume, Mapping) else None
    if not isinstance(decisions, list):
        raise InterlockError("Not the resume value of an interlock_payload interrupt ({'decisions': [...]}).")
    try:
        return [Decision.model_validate(d) for d in decisions]
    except ValueError as exc:
        raise InterlockError(f"Not the resume value of an interlock_payload interrupt: {exc}") from exc


# Merging the answers into the resume value.


def _view(interrupt: Union[Interrupt, Mapping[str, Any]]) -> tuple[str, list[str], dict[str, dict[str, Any]], Any]:
    """(id, action names, decisions by action name as wire dicts, metadata) of a model or its JSON."""
    if isinstance(interrupt, Interrupt):
        data: Mapping[str, Any] = interrupt.model_dump(mode="json", by_alias=True)
    else:
        data = interrupt
    actions = data.get("actionRequests", data.get("action_requests")) or []
    decisions: dict[str, dict[str, Any]] = {}
    for d in data.get("decisions") or []:
        wire = {
            "id": d.get("id"),
            "actionName": d.get("actionName", d.get("action_name")),
            "decision": d.get("decision"),
            "editedArgs": d.get("editedArgs", d.get("edited_args")),
            "editedName": d.get("editedName", d.get("edited_name")),
            "message": d.get("message"),
            "decidedBy": d.get("decidedBy", d.get("decided_by")),
            "decidedAt": d.get("decidedAt", d.get("decided_at")),
        }
        decisions[str(wire["actionName"])] = wire
    return str(data.get("id", "")), [str(a["name"]) for a in actions], decisions, data.get("metadata") or {}


def _bridge_metadata(metadata: Any) -> Optional[dict[str, Any]]:
    kept = metadata.get(LANGGRAPH_METADATA_KEY) if isinstance(metadata, Mapping) else None
    if (
        isinstance(kept, Mapping)
        and kept.get("v") == 1
        and isinstance(kept.get("targets"), list)
        and isinstance(kept.get("actions"), list)
    ):
        return dict(kept)
    return None


def _legacy_metadata(interrupt_id: str, names: list[str], metadata: Any) -> dict[str, Any]:
    """An interrupt made without the bridge's metadata reads as one Python HITL request."""
    kept = metadata.get(LANGGRAPH_METADATA_KEY) if isinstance(metadata, Mapping) else None
    originals = kept.get("actionNames") if isinstance(kept, Mapping) else None
    if not (
        isinstance(originals, list) and len(originals) == len(names) and all(isinstance(n, str) for n in originals)
    ):
        originals = names
    return {
        "v": 1,
        "review": interrupt_id,
        "part": 1,
        "parts": 1,
        "targets": [{"id": None, "kind": "hitl", "size": len(names)}],
        "actions": [[0, i, n] for i, n in enumerate(originals)],
    }


def _resume_item(kind: str, decision: dict[str, Any], original: str, interrupt_id: str) -> Any:
    kind_of = decision["decision"]
    message = decision.get("message")
    edited: dict[str, Any] = {
        "name": decision.get("editedName") or original,
        "args": decision.get("editedArgs") if decision.get("editedArgs") is not None else {},
    }
    if kind == "interlock":
        return {**decision, "actionName": original}
    if kind == "agent-inbox":
        if kind_of == "approve":
            return {"type": "accept", "args": None}
        if kind_of == "reject":
            return {"type": "ignore", "args": None}
        if kind_of == "respond":
            return {"type": "response", "args": message or ""}
        if kind_of == "edit":
            return {"type": "edit", "args": {"action": edited["name"], "args": edited["args"]}}
    elif kind == "hitl-js":
        if kind_of == "approve":
            return {"type": "approve"}
        if kind_of == "edit":
            return {"type": "edit", "editedAction": edited}
        if kind_of == "reject":
            return {"type": "reject"} if message is None else {"type": "reject", "message": message}
        if kind_of == "respond":
            raise InterlockError(f"Interrupt {interrupt_id}: langchain JS has no respond decision (action {original}).")
    elif kind in ("hitl", "tool-approval"):
        if kind_of == "approve":
            return {"type": "approve"}
        if kind_of == "edit":
            if kind == "tool-approval" and edited["name"] != original:
                raise InterlockError(
                    f"Interrupt {interrupt_id}: action {original} was renamed to {edited['name']}, but an edit in "
                    'interrupt_mode="per_call" cannot switch tools (the batched mode can).'
                )
            return {"type": "edit", "edited_action": edited}
        if kind_of == "reject":
            return {"type": "reject"} if message is None else {"type": "reject", "message": message}
        if kind_of == "respond":
            return {"type": "respond", "message": message or ""}
    raise InterlockError(
        f"Interrupt {interrupt_id}: unknown decision type {kind_of} (a newer decision than this SDK knows)."
    )


def to_langgraph_resume(
    answered: Union[Interrupt, Mapping[str, Any], Sequence[Union[Interrupt, Mapping[str, Any]]]],
    source: Any,
) -> Any:
    """The value to resume LangGraph with (``Command(resume=...)``), from the answered interrupt(s) the
    bridge created (all parts of a split request, in any order; models or their JSON).

    ``source`` is the review request the graph is still waiting on: what was given to
    ``interrupts_from_langgraph`` (a run's result, its ``.interrupts``, one ``Interrupt`` or a bare
    value); after a restart, read it back from the checkpointer
    (``graph.get_state(config).interrupts``). The answers are checked against it before anything is
    mapped (SPEC §8e): the interrupts must ask about exactly the graph's actions, and every action
    request and decision must carry the digest of the arguments the graph sent, else
    ``ActionDigestMismatchError`` and nothing to resume with.

    Exactly what each package expects, under LangGraph's own action names, in the original order; a
    dict keyed by interrupt id when several LangGraph interrupts were reviewed together (as
    ``interrupt_mode="per_call"`` raises them). Raises when a part or a decision is missing.
    """
    items: list[Union[Interrupt, Mapping[str, Any]]] = (
        [answered] if isinstance(answered, (Interrupt, Mapping)) else list(answered)
    )
    if not items:
        raise InterlockError("to_langgraph_resume needs the answered interrupt(s).")
    asked = interrupts_from_langgraph(source)
    asked_meta = [cast(dict[str, Any], _bridge_metadata(params["metadata"])) for params in asked]
    views = [_view(i) for i in items]
    kept = [_bridge_metadata(v[3]) for v in views]
    metas = list(kept)
    if len(views) == 1 and metas[0] is None:
        metas = [_legacy_metadata(views[0][0], views[0][1], views[0][3])]
    if any(m is None for m in metas):
        raise InterlockError("These interrupts were not made by the LangGraph bridge (no metadata.langgraph).")
    parts = [cast(dict[str, Any], m) for m in metas]
    first = parts[0]
    seen: set[int] = set()
    for meta in parts:
        if meta.get("review") != first.get("review"):
            raise InterlockError("These interrupts belong to different LangGraph reviews.")
        if meta["part"] in seen:
            raise InterlockError(f"Part {meta['part']} of the review was given twice.")
        seen.add(meta["part"])
    for part in range(1, int(first["parts"]) + 1):
        if part not in seen:
            raise InterlockError(f"Part {part} of {first['parts']} of this LangGraph review is missing.")
    # The graph's own request decides what was asked: the review (when its interrupts have ids, the
    # review id is theirs), the parts, each part's actions and their arguments.
    graph_ids = all(t["id"] is not None for t in asked_meta[0]["targets"])
    if int(first["parts"]) != len(asked) or (
        graph_ids and kept[0] is not None and first.get("review") != asked_meta[0]["review"]
    ):
        raise InterlockError("These interrupts do not answer the review request the graph is waiting on (source).")
    for item, (interrupt_id, names, _, _), meta in zip(items, views, parts):
        params = asked[int(meta["part"]) - 1]
        if names != [a["name"] for a in params["action_requests"]]:
            raise InterlockError(
                f"Interrupt {interrupt_id} does not ask about the actions the graph is waiting on (source)."
            )
        verify_decisions(item, params["action_requests"])
    parts = [{**meta, "actions": asked_meta[int(meta["part"]) - 1]["actions"]} for meta in parts]
    first = {**first, "targets": asked_meta[0]["targets"]}

    targets: list[dict[str, Any]] = first["targets"]
    values: list[list[Any]] = [[None] * int(t["size"]) for t in targets]
    for (interrupt_id, names, decisions, _), meta in zip(views, parts):
        for name, (target, position, original) in zip(names, meta["actions"]):
            decision = decisions.get(name)
            if decision is None:
                raise InterlockError(
                    f"Interrupt {interrupt_id} has no decision for action {name} yet: wait for it to be answered."
                )
            values[target][position] = _resume_item(targets[target]["kind"], decision, original, interrupt_id)

    resumes: list[Any] = []
    for target, items_of in zip(targets, values):
        kind = target["kind"]
        if kind in ("hitl", "hitl-js", "interlock"):
            resumes.append({"decisions": items_of})
        elif kind == "tool-approval":
            resumes.append(items_of[0])
        else:
            resumes.append(items_of if target.get("list") else items_of[0])
    if len(resumes) == 1:
        return resumes[0]
    if any(t["id"] is None for t in targets):
        raise InterlockError("Several LangGraph interrupts were reviewed, but not all have ids: pass the Interrupts.")
    return {t["id"]: r for t, r in zip(targets, resumes)}


def langgraph_review_id(params: Mapping[str, Any]) -> Optional[str]:
    """The review id of an interrupt (or its create parameters) made by the bridge."""
    kept = params.get("metadata")
    review = kept.get(LANGGRAPH_METADATA_KEY, {}).get("review") if isinstance(kept, Mapping) else None
    return review if isinstance(review, str) else None
