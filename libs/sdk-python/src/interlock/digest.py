"""Decisions bound to the action (SPEC §8e): every action request carries ``actionDigest``, the hex
SHA-256 of the RFC 8785 canonical JSON of ``{interruptId, name, args}``, and every decision repeats
it. ``verify_decisions`` checks an answer against what the agent sent, before the agent acts."""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping, Sequence
from typing import Any, Optional

from ._errors import InterlockError

__all__ = ["ActionDigestMismatchError", "action_digest", "canonical_json", "verify_decisions"]


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


def verify_decisions(interrupt: Any, asked: Sequence[Any]) -> None:
    """Checks that every action request and decision of ``interrupt`` is about one of the actions the
    agent asked about (``asked``: mappings or objects with ``name`` and ``args``), exactly as sent;
    raises ``ActionDigestMismatchError`` otherwise. A service that sends no digests at all (one older
    than them) is not checked."""
    interrupt_id = str(_field(interrupt, "id"))
    actions = list(_field(interrupt, "action_requests") or _field(interrupt, "actionRequests") or [])
    decisions = list(_field(interrupt, "decisions") or [])
    found = [_field(a, "action_digest") or _field(a, "actionDigest") for a in actions + decisions]
    if all(d is None for d in found):
        return
    expected = {
        str(_field(a, "name")): action_digest(interrupt_id, str(_field(a, "name")), _field(a, "args")) for a in asked
    }
    for item, key in [(a, "name") for a in actions] + [(d, "action_name") for d in decisions]:
        name = _field(item, key) if key == "name" else (_field(item, "action_name") or _field(item, "actionName"))
        got = _field(item, "action_digest") or _field(item, "actionDigest")
        want = expected.get(str(name))
        if want is None or got != want:
            raise ActionDigestMismatchError(interrupt_id, str(name), want or "(not asked)", got)
