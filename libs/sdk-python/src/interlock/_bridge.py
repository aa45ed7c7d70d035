"""What the framework bridges share: the options every bridge takes for the interrupt it opens and
for waiting (one set of keywords, ``InterruptOptions`` / ``ReviewOptions``), unique action names,
the title made from them, and reading an answered interrupt's decisions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Callable, Optional, TypedDict, Union, cast

from ._errors import InterlockError
from .resources.interrupts import DEFAULT_POLL_INTERVAL, DEFAULT_WAIT_TIMEOUT
from .types import Interrupt, OnTimeout

_MAX_TITLE = 200


class InterruptOptions(TypedDict, total=False):
    """What a bridge's caller may set on the interrupt it opens (each optional)."""

    title: Optional[str]
    description: Optional[str]
    external_id: Optional[str]
    session_id: Optional[str]
    metadata: Optional[Mapping[str, Any]]
    #: A deadline: the service decides what is undecided after this many seconds (``on_timeout``).
    timeout_seconds: Optional[int]
    on_timeout: Optional[OnTimeout]
    #: Where the service POSTs the interrupt once it is answered, expires or is withdrawn (signed
    #: under ``resume_signing_secret(api_key)``; SPEC §8e).
    resume_url: Optional[str]


class ReviewOptions(InterruptOptions, total=False):
    """A bridge that waits: the interrupt's fields, and how long to wait for the answer."""

    #: Seconds to wait in all before ``WaitTimeoutError`` (``None``: for ever). Default 10 minutes.
    wait_timeout: Optional[float]
    #: Seconds between reads when the service does not hold the request.
    poll_interval: float


def interrupt_options(options: Mapping[str, Any]) -> InterruptOptions:
    """The ``InterruptOptions`` among a bridge's ``ReviewOptions``."""
    picked: dict[str, Any] = {k: v for k, v in options.items() if k in InterruptOptions.__annotations__}
    return cast(InterruptOptions, picked)


def wait_kwargs(options: Mapping[str, Any]) -> dict[str, Any]:
    """``wait_for_answer``'s keywords from a bridge's options."""
    return {
        "timeout": options.get("wait_timeout", DEFAULT_WAIT_TIMEOUT),
        "poll_interval": options.get("poll_interval", DEFAULT_POLL_INTERVAL),
    }


def action_namer() -> Callable[[str], str]:
    """Names each tool call's action: the tool's name, then ``name #2``, ``name #3`` for repeats."""
    used: set[str] = set()

    def name_of(tool: str) -> str:
        name, n = tool, 2
        while name in used:
            name, n = f"{tool} #{n}", n + 1
        used.add(name)
        return name

    return name_of


def approval_title(tools: Sequence[str]) -> str:
    """``Approve send_email?``, or ``Approve 3 tool calls: send_email, delete_file?`` (each named once)."""
    names = ", ".join(dict.fromkeys(tools))
    title = f"Approve {names}?" if len(tools) == 1 else f"Approve {len(tools)} tool calls: {names}?"
    return title if len(title) <= _MAX_TITLE else title[: _MAX_TITLE - 1] + "…"


def create_params(
    options: Mapping[str, Any],
    *,
    default_title: str,
    actions: list[dict[str, Any]],
    key: str,
    bridge: Mapping[str, Any],
) -> dict[str, Any]:
    """``interrupts.create``'s keywords: the caller's options (``None`` left out), the actions, and
    the bridge's own record under ``metadata[key]``."""
    title = options.get("title")
    params: dict[str, Any] = {
        "title": title if title is not None else default_title,
        "action_requests": actions,
        "metadata": {**(options.get("metadata") or {}), key: dict(bridge)},
    }
    for name in ("description", "external_id", "session_id", "timeout_seconds", "on_timeout", "resume_url"):
        value = options.get(name)
        if value is not None:
            params[name] = value
    return params


def answered(
    interrupt: Union[Interrupt, Mapping[str, Any]], key: str, opened_by: str
) -> tuple[dict[str, Any], dict[str, dict[str, Any]], str]:
    """The bridge's record, the decisions by action name (wire field names) and the status of an
    answered interrupt. Refuses one still open, and one another bridge opened."""
    if isinstance(interrupt, Interrupt):
        metadata: Any = interrupt.metadata
        decisions = {d.action_name: d.model_dump(by_alias=True) for d in interrupt.decisions}
        status = str(interrupt.status)
    else:
        metadata = interrupt.get("metadata")
        decisions = {d["actionName"]: d for d in interrupt.get("decisions") or []}
        status = str(interrupt.get("status"))
    bridge = metadata.get(key) if isinstance(metadata, Mapping) else None
    if not isinstance(bridge, Mapping) or bridge.get("v") != 1:
        raise InterlockError(f"This interrupt was not opened by {opened_by} (no metadata.{key}).")
    if status == "open":
        raise InterlockError("The interrupt is still open: wait for the answer first (interrupts.wait_for_answer).")
    return dict(bridge), decisions, status


def not_decided(status: str) -> str:
    """What the framework is told of a call left without a decision (withdrawn, or expired)."""
    return f"The request for approval was {status}; the tool did not run."
