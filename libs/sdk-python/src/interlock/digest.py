"""Decisions bound to the action (SPEC §8e): every action request carries ``actionDigest``, the hex
SHA-256 of the RFC 8785 canonical JSON of ``{interruptId, name, args}``, and every decision repeats
it. ``verify_decisions`` checks an answer against what the agent sent, before the agent acts; a client
remembers what it asked in the interrupts it opened (``AskedInterrupts``) so that its waits check them."""

from __future__ import annotations

import hashlib
import json
import math
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Optional

from ._errors import InterlockError

__all__ = [
    "REMEMBERED_CREATES",
    "ActionDigestMismatchError",
    "AskedInterrupts",
    "action_digest",
    "canonical_json",
    "check_digests",
    "expected_digests",
    "verify_decisions",
]


def _number(value: float) -> str:
    """A number as ECMAScript writes it (RFC 8785 §3.2.2.3): the shortest round-trip digits."""
    if not math.isfinite(value):
        raise ValueError("canonical JSON has no non-finite numbers")
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    text = repr(abs(value))
    mantissa, _, exponent = text.partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = whole + fraction
    point = len(whole) + (int(exponent) if exponent else 0)
    stripped = digits.lstrip("0")
    point -= len(digits) - len(stripped)
    digits = stripped.rstrip("0") or "0"
    k, n = len(digits), point
    if k <= n <= 21:
        out = digits + "0" * (n - k)
    elif 0 < n <= 21:
        out = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        out = "0." + "0" * (-n) + digits
    else:
        e = n - 1
        head = digits[0] if k == 1 else digits[0] + "." + digits[1:]
        out = f"{head}e{'+' if e >= 0 else '-'}{abs(e)}"
    return sign + out


def canonical_json(value: Any) -> str:
    """RFC 8785 (JSON Canonicalization Scheme): keys sorted by UTF-16 code units, no whitespace,
    strings and numbers as ECMAScript's ``JSON.stringify`` writes them."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _number(value)
    if isinstance(value, Mapping):
        keys = sorted(value.keys(), key=lambda k: str(k).encode("utf-16-be"))
        return (
            "{" + ",".join(f"{json.dumps(str(k), ensure_ascii=False)}:{canonical_json(value[k])}" for k in keys) + "}"
        )
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(canonical_json(item) for item in value) + "]"
    raise TypeError(f"canonical JSON has no {type(value).__name__}")


def action_digest(interrupt_id: str, name: str, args: Optional[Mapping[str, Any]] = None) -> str:
    """The action's digest as the service computes it: ``{interruptId, name, args}`` (args ``{}``
    when none), canonical JSON, SHA-256, hex."""
    text = canonical_json({"interruptId": interrupt_id, "name": name, "args": dict(args or {})})
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class ActionDigestMismatchError(InterlockError):
    """A decision is not about the action this agent asked about (its ``actionDigest`` differs from
    the digest of what the agent sent): the SDK refuses to resume on it."""

    def __init__(self, interrupt_id: str, action_name: str, expected: str, received: Optional[str]) -> None:
        self.interrupt_id = interrupt_id
        self.action_name = action_name
        self.expected = expected
        self.received = received
        super().__init__(
            f"The decision on action {action_name} of interrupt {interrupt_id} is not about the action this agent "
            f"asked about (its actionDigest is {received or 'missing'}, the action sent hashes to {expected}): "
            "refusing to act on it."
        )


def _field(item: Any, name: str) -> Any:
    return item.get(name) if isinstance(item, Mapping) else getattr(item, name, None)


def expected_digests(interrupt_id: str, asked: Sequence[Any]) -> dict[str, str]:
    """The digest each asked action's name must carry in ``interrupt_id`` (SPEC §8e)."""
    return {
        str(_field(a, "name")): action_digest(interrupt_id, str(_field(a, "name")), _field(a, "args")) for a in asked
    }


def verify_decisions(interrupt: Any, asked: Sequence[Any], *, required: bool = False) -> None:
    """Checks that every action request and decision of ``interrupt`` is about one of the actions the
    agent asked about (``asked``: mappings or objects with ``name`` and ``args``), exactly as sent;
    raises ``ActionDigestMismatchError`` otherwise. An interrupt that carries no digest at all is taken
    for one from a service older than them and is not checked — unless ``required`` says this service
    sends them (its answer to the create carried them), when a missing digest is a mismatch."""
    check_digests(interrupt, expected_digests(str(_field(interrupt, "id")), asked), required)


def check_digests(interrupt: Any, expected: Mapping[str, str], required: bool) -> None:
    """``verify_decisions`` against digests computed already (name → digest)."""
    interrupt_id = str(_field(interrupt, "id"))
    if required:
        _refuse_stripped(interrupt, interrupt_id, expected)
    actions = list(_field(interrupt, "action_requests") or _field(interrupt, "actionRequests") or [])
    decisions = list(_field(interrupt, "decisions") or [])
    found = [_field(a, "action_digest") or _field(a, "actionDigest") for a in actions + decisions]
    if not required and all(d is None for d in found):
        return
    for item, key in [(a, "name") for a in actions] + [(d, "action_name") for d in decisions]:
        name = _field(item, key) if key == "name" else (_field(item, "action_name") or _field(item, "actionName"))
        got = _field(item, "action_digest") or _field(item, "actionDigest")
        want = expected.get(str(name))
        if want is None or got != want:
            raise ActionDigestMismatchError(interrupt_id, str(name), want or "(not asked)", got)


def _refuse_stripped(interrupt: Any, interrupt_id: str, expected: Mapping[str, str]) -> None:
    """Where digests are required, an answer must still say what it is about: the contract requires
    both lists, and every action asked about must be among the action requests. An answer without
    them, or without one of the actions, has been cut on its way and is refused as a mismatch."""
    actions = _field(interrupt, "action_requests")
    if actions is None:
        actions = _field(interrupt, "actionRequests")
    listed = {str(_field(a, "name")) for a in actions or []}
    for name, want in expected.items():
        if name not in listed:
            raise ActionDigestMismatchError(interrupt_id, name, want, None)
    if _field(interrupt, "decisions") is None:
        name, want = next(iter(expected.items()), ("(none)", "(not asked)"))
        raise ActionDigestMismatchError(interrupt_id, name, want, None)


#: How many of its creates a client remembers what it asked in (SPEC §8e).
REMEMBERED_CREATES = 10_000


@dataclass(frozen=True)
class AskedInterrupt:
    """What a client asked in an interrupt it opened: each action's digest as sent (name → digest),
    and whether the service's answer to the create carried digests (then an answer without is refused)."""

    expected: Mapping[str, str]
    digested: bool


class AskedInterrupts:
    """What a client asked in the interrupts it opened: the last ``capacity``, the oldest forgotten first."""

    def __init__(self, capacity: int = REMEMBERED_CREATES) -> None:
        self.capacity = capacity
        self._by_id: OrderedDict[str, AskedInterrupt] = OrderedDict()

    def remember(self, created: Any, sent: Sequence[Mapping[str, Any]]) -> None:
        """Remembers a create: ``created`` is the service's answer, ``sent`` the actions as sent on the wire
        (camelCase mappings). The digests are of the arguments as serialised then, not as they may be later."""
        interrupt_id = str(_field(created, "id"))
        wire = json.loads(json.dumps([{"name": a["name"], "args": a.get("args")} for a in sent]))
        actions = list(_field(created, "action_requests") or _field(created, "actionRequests") or [])
        asked = AskedInterrupt(
            expected=expected_digests(interrupt_id, wire),
            digested=any((_field(a, "action_digest") or _field(a, "actionDigest")) is not None for a in actions),
        )
        self._by_id.pop(interrupt_id, None)
        while len(self._by_id) >= self.capacity:
            self._by_id.popitem(last=False)
        self._by_id[interrupt_id] = asked

    def get(self, interrupt_id: str) -> Optional[AskedInterrupt]:
        return self._by_id.get(interrupt_id)
