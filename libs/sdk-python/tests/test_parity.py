"""What openai-python gives and this SDK matches: raw responses, with_options, request ids, extra
query/body, generic verbs, logging with secrets redacted, str ids, open enums."""

from __future__ import annotations

import json
import logging
from typing import Any

import httpx
import pytest

from interlock import APIResponse, AsyncInterlock, Interlock, Interrupt
from interlock._client import _setup_logging

from .conftest import json_response, recorder
from .factories import INTERRUPT_ID, decision, interrupt, session

KEY = "ilk_secretsecretsecret"


def make(handler: httpx.MockTransport, **kwargs: Any) -> Interlock:
    http = httpx.Client(transport=handler)
    return Interlock(api_key=KEY, base_url="http://interlock.test", http_client=http, **kwargs)


def test_with_raw_response_gives_the_http_response_and_the_parsed_result() -> None:
    rec = recorder(json_response(200, interrupt("a"), {"x-request-id": "req-1"}))
    raw = make(rec.transport()).interrupts.with_raw_response.get(INTERRUPT_ID)
    assert isinstance(raw, APIResponse)
    assert (raw.status_code, raw.request_id, raw.headers["x-request-id"]) == (200, "req-1", "req-1")
    parsed = raw.parse()
    assert isinstance(parsed, Interrupt)
    assert parsed.id == INTERRUPT_ID
    assert raw.json()["id"] == INTERRUPT_ID


def test_results_carry_the_request_id_outside_their_data() -> None:
    rec = recorder(json_response(201, interrupt("a"), {"x-request-id": "req-2"}))
    created = make(rec.transport()).interrupts.create(title="t", action_requests=[{"name": "a"}])
    assert created._request_id == "req-2"
    assert "_request_id" not in created.model_dump()
    # Nor in equality: the same interrupt read by another request is equal.
    same = Interrupt.model_validate(interrupt("a"))
    assert same._request_id is None
    assert created == same
    assert created != Interrupt.model_validate(interrupt("a", title="other"))
    # Ids are strings: results serialise with json.dumps.
    assert json.loads(json.dumps({"id": created.id, "actions": [a.name for a in created.action_requests]})) == {
        "id": INTERRUPT_ID,
        "actions": ["a"],
    }


def test_with_options_copies_the_client_with_changes() -> None:
    rec = recorder(json_response(200, session()))
    base = make(rec.transport(), default_headers={"x-team": "ops"})
    quick = base.with_options(timeout=5.0, max_retries=0)
    assert (quick.timeout, quick.max_retries, quick.api_key, quick.base_url) == (5.0, 0, KEY, base.base_url)
    assert base.max_retries == 2
    quick.sessions.end("s1")
    assert rec.requests[0].headers["x-team"] == "ops"
    with pytest.raises(Exception, match="Unknown client option"):
        base.with_options(timeot=1)


def test_default_query_extra_query_and_extra_body() -> None:
    rec = recorder(json_response(201, interrupt("a")), json_response(200, {"ok": True}))
    client = make(rec.transport(), default_query={"tenant": "eu", "v": "1"})
    client.interrupts.create(
        title="t",
        action_requests=[{"name": "a"}],
        extra_query={"v": "2", "trace": "x"},
        extra_body={"priority": "high"},
    )
    assert dict(rec.requests[0].url.params) == {"tenant": "eu", "v": "2", "trace": "x"}
    assert rec.body(0) == {"title": "t", "actionRequests": [{"name": "a"}], "priority": "high"}
    client.patch("/api/widgets/1", body={"a": 1}, extra_body={"b": 2})
    assert (rec.requests[1].method, rec.body(1)) == ("PATCH", {"a": 1, "b": 2})
    assert "idempotency-key" not in rec.requests[1].headers


@pytest.mark.parametrize("verb", ["get", "post", "put", "patch", "delete"])
def test_generic_verbs(verb: str) -> None:
    rec = recorder(json_response(200, {"done": verb}))
    assert getattr(make(rec.transport()), verb)("/api/anything", params={"q": 1}) == {"done": verb}
    assert (rec.requests[0].method, rec.requests[0].url.path, rec.requests[0].url.params["q"]) == (
        verb.upper(),
        "/api/anything",
        "1",
    )


def test_interlock_log_debug_logs_requests_with_secrets_redacted(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("INTERLOCK_LOG", "debug")
    _setup_logging()
    rec = recorder(json_response(200, interrupt("a"), {"x-request-id": "req-3", "set-cookie": "session=abc"}))
    with caplog.at_level(logging.DEBUG, logger="interlock"):
        make(rec.transport(), default_headers={"cookie": "session=topsecret"}).interrupts.get(INTERRUPT_ID)
    text = caplog.text
    assert f"GET http://interlock.test/api/interrupts/{INTERRUPT_ID}" in text
    assert "req-3" in text
    assert "'x-api-key': '***'" in text
    assert KEY not in text
    assert "topsecret" not in text
    assert "session=abc" not in text
    logging.getLogger("interlock").setLevel(logging.NOTSET)


def test_unknown_enum_values_from_a_newer_service_parse_as_strings() -> None:
    newer = interrupt("a", status="archived") | {
        "actionRequests": [{"name": "a", "args": {}, "description": None, "allowedDecisions": ["approve", "delegate"]}],
        "decisions": [decision("a", "delegate")],
        "assignee": {"type": "robot", "id": "r1", "name": "Bot"},
    }
    rec = recorder(json_response(200, newer))
    got = make(rec.transport()).interrupts.get(INTERRUPT_ID)
    assert got.status == "archived"
    assert got.action_requests[0].allowed_decisions == ["approve", "delegate"]
    assert got.decisions[0].decision == "delegate"
    assert got.assignee is not None
    assert got.assignee.type == "robot"
    known = Interrupt.model_validate(interrupt("a"))
    assert known.status == "open"


@pytest.mark.anyio
async def test_async_raw_response_and_request_id() -> None:
    transport = httpx.MockTransport(lambda request: json_response(200, session(), {"x-request-id": "req-4"}))
    client = AsyncInterlock(
        api_key=KEY, base_url="http://interlock.test", http_client=httpx.AsyncClient(transport=transport)
    )
    raw = await client.sessions.with_raw_response.end("s1")
    assert raw.request_id == "req-4"
    assert raw.parse()._request_id == "req-4"
    copy = client.with_options(max_retries=0)
    assert isinstance(copy, AsyncInterlock)
    assert copy.max_retries == 0
