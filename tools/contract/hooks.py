"""Schemathesis hooks for the contract test (tools/scripts/contract-test.mjs).

The contract states a few rules on queries that JSON Schema cannot (`x-interlock-query-rules` on
the operation, and in the parameters' descriptions). Cases meant to be valid are made to follow
them, so that a 400 for breaking one is not reported as a valid request refused:

- `opaqueCursor`: a cursor is valid only if this operation issued it; a generated one is not,
  so valid cases leave `cursor` out (the e2e tests walk real cursors).
- `fromNotAfterTo`: `from` after `to` is refused; valid cases swap them.
- `maxWords`: a search holds at most so many distinct words, as the service folds them (NFKD,
  marks dropped, lower case, ß as ss, split on anything not a letter or digit); valid cases
  keep the first ones.

On bodies (`x-interlock-body-rules`):

- `ianaTimeZone`: the named fields hold a time zone name the service's database knows; valid
  cases get one of a few real names (which one follows from the generated value).
- `organisationDependent`: the named fields are valid or not depending on the organisation's
  settings or teams (a deadline to apply `onTimeout` to, `approve` allowed, an approver team with
  enough members); paths as in `statedInWords`; valid cases leave them out.
- `statedInWords`: fields whose rules the contract states in words (a `responseSchema` is a JSON
  Schema of a bounded subset); paths, `[]` for each element of an array; valid cases leave them out.
- `requireAnyOf`: `{fields, fill}`: at least one of `fields` must be there; valid cases without
  any get the rule's own `fill`, a value valid for any organisation (the contract states it:
  `lastInterrupts: 1` for the dry run, `approveOnTimeoutAllowed: false` for the deadline settings).
- `callerMember`: the named fields name a current member of the organisation (a made-up id answers
  404); valid cases that give one name the run's own member (`INTERLOCK_TEST_MEMBER_ID`), so the
  links into a team's members and an interrupt's assignment reach the action.
  `callerMemberInsteadOf` names the alternatives to such a field that name something else the
  organisation must have (an assignee team): valid cases holding one name the member instead.

- `callerAssignee`: every `assignTo` object, at any depth (a route outcome's assignee, an interrupt's
  assignee at creation), names a member or team of the organisation (a made-up one answers 404, or
  400 at an interrupt's creation); valid cases name the run's own member there. A route
  outcome's `approverTeam` names a team of the organisation with at least `requiredApprovals`
  members (a made-up one answers 404, a small one 400): valid cases leave it out
  (classification-quorum.e2e-spec.ts covers it).

- `cedarPolicy`: `{fill}`: a Cedar policy text must parse and validate against Interlock's schema;
  valid cases get the rule's `fill` in every `{type: "policy", policy}` outcome, at any depth.

And one of the run's own: `waitSeconds` (a long poll, up to 60 s) holds an open interrupt's read
that long, past the run's 10 s request timeout; valid cases wait at most 5 s (the e2e tests hold
the long ones).

And one the contract states in JSON Schema that OpenAPI 3.0 tools do not read: free-form JSON
(`JsonObject`) has `propertyNames` without NUL; valid bodies get NUL out of their keys.

Cases meant to be invalid are left as generated.

Hypothesis parses source code (to describe its strategies) from the run's worker threads, and
CPython before 3.11.8 can fail two parses at once (gh-106905): `ast.parse` is serialised here.
"""

from __future__ import annotations

import ast
import os
import threading
import unicodedata
from datetime import datetime
from typing import Any

import schemathesis
from schemathesis.core.parameters import ParameterLocation
from schemathesis.generation import GenerationMode

_MAX_WAIT_SECONDS = 5

_parse = ast.parse
_parse_lock = threading.Lock()


def _serialised_parse(*args: Any, **kwargs: Any) -> Any:
    with _parse_lock:
        return _parse(*args, **kwargs)


ast.parse = _serialised_parse


def _rules(context: Any) -> dict[str, Any]:
    operation = getattr(context, "operation", None)
    raw = getattr(getattr(operation, "definition", None), "raw", None) or {}
    rules = raw.get("x-interlock-query-rules")
    return rules if isinstance(rules, dict) else {}


def _body_rules(context: Any) -> dict[str, Any]:
    operation = getattr(context, "operation", None)
    raw = getattr(getattr(operation, "definition", None), "raw", None) or {}
    rules = raw.get("x-interlock-body-rules")
    return rules if isinstance(rules, dict) else {}


_TIME_ZONES = ("UTC", "Europe/Paris", "America/New_York", "Asia/Kolkata", "Australia/Sydney")


def _is_positive(case: Any, location: ParameterLocation) -> bool:
    meta = case.meta
    if meta is None:
        return False
    component = meta.components.get(location)
    mode = component.mode if component is not None else meta.generation.mode
    return mode == GenerationMode.POSITIVE


def _without_nul_keys(value: Any) -> Any:
    if isinstance(value, dict):
        return {
            key.replace("\x00", "") if isinstance(key, str) else key: _without_nul_keys(item)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [_without_nul_keys(item) for item in value]
    return value


def _is_word_char(char: str) -> bool:
    return unicodedata.category(char)[0] in ("L", "N")


def _words(text: str) -> list[str]:
    folded = "".join(c for c in unicodedata.normalize("NFKD", text) if unicodedata.category(c)[0] != "M")
    folded = folded.lower().replace("ß", "ss")
    words: list[str] = []
    current = ""
    for char in folded:
        if _is_word_char(char):
            current += char
        elif current:
            words.append(current)
            current = ""
    if current:
        words.append(current)
    return list(dict.fromkeys(words))


def _first_words(text: str, limit: int) -> str:
    """The longest prefix of `text` whose folded words are at most `limit`."""
    for end in range(len(text), -1, -1):
        if len(_words(text[:end])) <= limit:
            return text[:end]
    return ""


def _instant(value: Any) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None


def _drop_path(value: Any, parts: list[str]) -> None:
    """Removes the field at `parts` (`name[]` walks every element of an array)."""
    if not parts or not isinstance(value, dict):
        return
    head, rest = parts[0], parts[1:]
    if head.endswith("[]"):
        items = value.get(head[:-2])
        if isinstance(items, list):
            for item in items:
                _drop_path(item, rest)
    elif not rest:
        value.pop(head, None)
    else:
        _drop_path(value.get(head), rest)


def _with_policy(value: Any, policy: str) -> Any:
    """`value` with every `{type: "policy", policy: <text>}` outcome holding `policy` instead."""
    if isinstance(value, list):
        return [_with_policy(item, policy) for item in value]
    if not isinstance(value, dict):
        return value
    out = {key: _with_policy(item, policy) for key, item in value.items()}
    if out.get("type") == "policy" and isinstance(out.get("policy"), str):
        out["policy"] = policy
    return out


def _with_assignee(value: Any, member: str) -> Any:
    """`value` with every `assignTo` object naming `member` instead, and no `approverTeam`."""
    if isinstance(value, list):
        return [_with_assignee(item, member) for item in value]
    if not isinstance(value, dict):
        return value
    out = {key: _with_assignee(item, member) for key, item in value.items()}
    if isinstance(out.get("assignTo"), dict):
        out["assignTo"] = {"memberId": member}
    if isinstance(out.get("approverTeam"), dict):
        del out["approverTeam"]
    return out


@schemathesis.hook
def map_case(context: Any, case: Any) -> Any:
    if isinstance(case.body, (dict, list)) and _is_positive(case, ParameterLocation.BODY):
        case.body = _without_nul_keys(case.body)
        if isinstance(case.body, dict):
            for name in _body_rules(context).get("ianaTimeZone") or []:
                value = case.body.get(name)
                if isinstance(value, str):
                    case.body[name] = _TIME_ZONES[sum(map(ord, value)) % len(_TIME_ZONES)]
            for path in _body_rules(context).get("organisationDependent") or []:
                _drop_path(case.body, path.split("."))
            for path in _body_rules(context).get("statedInWords") or []:
                _drop_path(case.body, path.split("."))
            # A made-up member id answers 404: valid cases name the run's own member (the caller).
            member = os.environ.get("INTERLOCK_TEST_MEMBER_ID")
            callers = _body_rules(context).get("callerMember") or []
            for name in _body_rules(context).get("callerMemberInsteadOf") or []:
                if member and callers and name in case.body:
                    del case.body[name]
                    case.body[callers[0]] = member
            for name in callers:
                if member and isinstance(case.body.get(name), str):
                    case.body[name] = member
            if member and _body_rules(context).get("callerAssignee"):
                case.body = _with_assignee(case.body, member)
            cedar = _body_rules(context).get("cedarPolicy") or {}
            if isinstance(cedar.get("fill"), str):
                case.body = _with_policy(case.body, cedar["fill"])
            any_of = _body_rules(context).get("requireAnyOf") or {}
            fields = any_of.get("fields") or []
            if fields and not any(name in case.body for name in fields):
                case.body.update(any_of.get("fill") or {})
    query = case.query
    if isinstance(query, dict) and _is_positive(case, ParameterLocation.QUERY):
        wait = query.get("waitSeconds")
        if isinstance(wait, int) and not isinstance(wait, bool) and wait > _MAX_WAIT_SECONDS:
            query["waitSeconds"] = wait % (_MAX_WAIT_SECONDS + 1)
    rules = _rules(context)
    if not rules or not isinstance(query, dict) or not _is_positive(case, ParameterLocation.QUERY):
        return case
    if rules.get("opaqueCursor"):
        query.pop("cursor", None)
    if rules.get("fromNotAfterTo"):
        start, end = _instant(query.get("from")), _instant(query.get("to"))
        if start is not None and end is not None:
            try:
                after = start > end
            except TypeError:  # one has a zone and the other not: leave the server to judge
                after = False
            if after:
                query["from"], query["to"] = query["to"], query["from"]
    for name, limit in (rules.get("maxWords") or {}).items():
        value = query.get(name)
        if isinstance(value, str) and len(_words(value)) > limit:
            query[name] = _first_words(value, limit)
    return case


@schemathesis.hook
def filter_case(context: Any, case: Any) -> bool:
    """HTTP has no way to refuse a header it does not know (proxies and browsers add their own), so a
    case whose only fault is an extra header is not a case the service could reject."""
    if any(
        name.endswith("unknown-property") or name.startswith("x-schemathesis-unknown") for name in (case.headers or {})
    ):
        return False
    # x-organisation-id is pinned to the test's organisation (schemathesis.toml [parameters]), which
    # would turn a case about a bad value of it into a valid request; users.e2e-spec.ts tests those.
    data = getattr(getattr(getattr(case, "meta", None), "phase", None), "data", None)
    return getattr(data, "parameter", None) != "x-organisation-id"
