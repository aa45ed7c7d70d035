from __future__ import annotations

import email.utils
import re
import time

import httpx
import pytest

from interlock import (
    APIConnectionError,
    APIConnectionTimeoutError,
    BadRequestError,
    Interlock,
    InternalServerError,
    NotFoundError,
    RateLimitError,
)
from interlock._retry import MAX_RETRY_DELAY, retry_after, retry_delay, should_retry

from .conftest import Recorder, error_response, json_response, recorder
from .factories import INTERRUPT_ID, interrupt

INTERRUPT = interrupt("send_email")
UUID4 = r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"


def make(rec: Recorder, max_retries: int = 2) -> Interlock:
    http = httpx.Client(transport=rec.transport())
    return Interlock(api_key="ilk_test", base_url="http://interlock.test", http_client=http, max_retries=max_retries)


def test_retries_a_429_after_the_retry_after_the_service_asked_for(sleeps: list[float]) -> None:
    rec = recorder(
        error_response(429, "RATE_LIMITED", "Too many requests.", {"retry-after": "3"}),
        json_response(200, INTERRUPT),
    )
    assert make(rec).interrupts.get(INTERRUPT_ID).id == INTERRUPT_ID
    assert len(rec.requests) == 2
    assert sleeps == [3.0]


def test_retry_after_as_an_http_date(sleeps: list[float]) -> None:
    when = email.utils.formatdate(time.time() + 5, usegmt=True)
    rec = recorder(
        error_response(503, "SERVICE_UNAVAILABLE", "x", {"retry-after": when}), json_response(200, INTERRUPT)
    )
    make(rec).interrupts.get(INTERRUPT_ID)
    assert len(sleeps) == 1
    assert 3.5 < sleeps[0] <= 5.0


def test_retry_after_ms_wins(sleeps: list[float]) -> None:
    rec = recorder(
        error_response(503, "SERVICE_UNAVAILABLE", "x", {"retry-after": "9", "retry-after-ms": "20"}),
        json_response(200, INTERRUPT),
    )
    make(rec).interrupts.get(INTERRUPT_ID)
    assert sleeps == [0.02]


def test_does_not_retry_a_400(sleeps: list[float]) -> None:
    rec = recorder(error_response(400, "VALIDATION_FAILED", "limit must not be greater than 200"))
    with pytest.raises(BadRequestError):
        make(rec).interrupts.list(limit=500)
    assert len(rec.requests) == 1
    assert sleeps == []


def test_retries_a_post_with_the_same_idempotency_key(sleeps: list[float]) -> None:
    rec = recorder(
        error_response(503, "SERVICE_UNAVAILABLE", "x"),
        error_response(502, "INTERNAL_ERROR", "x"),
        json_response(201, INTERRUPT),
    )
    client = make(rec)
    client.interrupts.create(title="t", action_requests=[{"name": "send_email"}])
    assert len(rec.requests) == 3
    keys = {request.headers["idempotency-key"] for request in rec.requests}
    assert len(keys) == 1
    (key,) = keys
    assert re.match(UUID4, key)
    # Backoff: 0.5 s then 1 s, less up to 25 % jitter.
    assert 0.375 <= sleeps[0] <= 0.5
    assert 0.75 <= sleeps[1] <= 1.0

    client.interrupts.create(title="t", action_requests=[{"name": "send_email"}])
    assert rec.requests[3].headers["idempotency-key"] != key


def test_uses_an_idempotency_key_given_by_the_caller() -> None:
    rec = recorder(json_response(201, {"appended": 1}))
    make(rec).sessions.append("s1", [{"role": "agent", "content": "hi"}], idempotency_key="mine")
    assert rec.requests[0].headers["idempotency-key"] == "mine"


def test_retries_connection_errors_then_raises_api_connection_error(sleeps: list[float]) -> None:
    rec = recorder(httpx.ConnectError("connection refused"))
    with pytest.raises(APIConnectionError) as info:
        make(rec).interrupts.get(INTERRUPT_ID)
    assert not isinstance(info.value, APIConnectionTimeoutError)
    assert isinstance(info.value.__cause__, httpx.ConnectError)
    assert info.value.message == (
        f"Connection error: could not reach http://interlock.test/api/interrupts/{INTERRUPT_ID} (ConnectError: "
        "connection refused). Check that Interlock is running at http://interlock.test, or set base_url (or "
        "INTERLOCK_BASE_URL) to where it runs."
    )
    assert info.value.status is None
    assert len(rec.requests) == 3
    assert len(sleeps) == 2


def test_recovers_when_a_retry_succeeds(sleeps: list[float]) -> None:
    rec = recorder(httpx.ReadError("reset"), json_response(200, INTERRUPT))
    assert make(rec).interrupts.get(INTERRUPT_ID).id == INTERRUPT_ID
    assert len(rec.requests) == 2


def test_a_timeout_is_raised_as_api_connection_timeout_error(sleeps: list[float]) -> None:
    rec = recorder(httpx.ReadTimeout("timed out"))
    with pytest.raises(APIConnectionTimeoutError) as info:
        make(rec, max_retries=0).whoami(timeout=0.05)
    assert isinstance(info.value, APIConnectionError)
    assert str(info.value) == "Request timed out."
    assert len(rec.requests) == 1
    assert rec.requests[0].extensions["timeout"]["read"] == 0.05


def test_a_real_timeout_against_a_slow_transport(sleeps: list[float]) -> None:
    """httpx enforces the timeout itself; the SDK maps what it raises."""

    def slow(request: httpx.Request) -> httpx.Response:
        timeout = request.extensions["timeout"]["read"]
        time.sleep(timeout)
        raise httpx.ReadTimeout("timed out", request=request)

    rec = recorder(slow, json_response(200, INTERRUPT))
    assert make(rec).interrupts.get(INTERRUPT_ID, timeout=0.01).id == INTERRUPT_ID
    assert len(rec.requests) == 2


def test_stops_after_max_retries_with_the_last_error(sleeps: list[float]) -> None:
    rec = recorder(error_response(500, "INTERNAL_ERROR", "Internal server error."))
    with pytest.raises(InternalServerError):
        make(rec, max_retries=3).whoami()
    assert len(rec.requests) == 4
    assert len(sleeps) == 3


def test_max_retries_per_request_and_x_should_retry(sleeps: list[float]) -> None:
    rec = recorder(error_response(429, "RATE_LIMITED", "slow down"))
    with pytest.raises(RateLimitError):
        make(rec).whoami(max_retries=0)
    assert len(rec.requests) == 1

    rec = recorder(error_response(503, "SERVICE_UNAVAILABLE", "x", {"x-should-retry": "false"}))
    with pytest.raises(InternalServerError):
        make(rec).whoami()
    assert len(rec.requests) == 1


def test_retry_policy_rules() -> None:
    for status in (408, 409, 429, 500, 502, 503, 504):
        assert should_retry(status, {})
    for status in (400, 401, 402, 403, 404, 413, 422):
        assert not should_retry(status, {})
    assert should_retry(400, {"x-should-retry": "true"})
    now = email.utils.parsedate_to_datetime("Sun, 01 Jun 2025 12:00:00 GMT").timestamp()
    assert retry_after({"retry-after": "Sun, 01 Jun 2025 12:00:05 GMT"}, now) == 5.0
    assert retry_after({"retry-after": "soon"}, now) is None
    assert retry_after({}, now) is None
    for _ in range(50):
        assert 0.375 <= retry_delay(0) <= 0.5
        assert MAX_RETRY_DELAY * 0.75 <= retry_delay(10) <= MAX_RETRY_DELAY
    # An absurd or negative Retry-After falls back to the backoff.
    assert retry_delay(0, {"retry-after": "3600"}) <= 0.5
    assert retry_delay(0, {"retry-after": "-5"}) > 0


def test_a_refused_connection_names_the_url_and_the_operating_systems_reason() -> None:
    import socket

    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    client = Interlock(api_key="ilk_test", base_url=f"http://127.0.0.1:{port}", max_retries=0)
    with pytest.raises(APIConnectionError) as info:
        client.interrupts.list(status="open")
    message = info.value.message
    assert message.startswith(
        f"Connection error: could not reach http://127.0.0.1:{port}/api/interrupts (ConnectError: "
    )
    assert "refused" in message.lower()
    assert message.endswith(
        f"running at http://127.0.0.1:{port}, or set base_url (or INTERLOCK_BASE_URL) to where it runs."
    )


def test_a_base_url_ending_in_api_gets_a_404_that_says_so_and_how_to_fix_it() -> None:
    rec = recorder(error_response(404, "NOT_FOUND", "Not found."))
    http = httpx.Client(transport=rec.transport())
    client = Interlock(api_key="ilk_test", base_url="http://interlock.test/api", http_client=http)
    with pytest.raises(NotFoundError) as info:
        client.interrupts.get(INTERRUPT_ID)
    assert info.value.message == (
        f"Not found. (GET http://interlock.test/api/api/interrupts/{INTERRUPT_ID}: the base URL "
        "http://interlock.test/api ends in /api, but the SDK adds /api itself; set base_url (or INTERLOCK_BASE_URL) "
        "to http://interlock.test)"
    )
    # An unknown id under the right base URL keeps the service's text exactly.
    with pytest.raises(NotFoundError) as plain:
        make(recorder(error_response(404, "NOT_FOUND", "Not found."))).interrupts.get(INTERRUPT_ID)
    assert plain.value.message == "Not found."
