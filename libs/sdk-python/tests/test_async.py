from __future__ import annotations

import httpx
import pytest

from interlock import (
    APIConnectionTimeoutError,
    AsyncInterlock,
    BadRequestError,
    PlanRequiredError,
    WaitTimeoutError,
)

from .conftest import Recorder, error_response, json_response, recorder
from .factories import INTERRUPT_ID, SESSION_ID, whoami
from .factories import session as session_body
from .test_interrupts import ANSWERED, OPEN

pytestmark = pytest.mark.anyio


def make(rec: Recorder, max_retries: int = 2) -> AsyncInterlock:
    http = httpx.AsyncClient(transport=rec.transport())
    return AsyncInterlock(
        api_key="ilk_test", base_url="http://interlock.test", http_client=http, max_retries=max_retries
    )


async def test_the_async_client_sends_the_same_requests() -> None:
    rec = recorder(
        json_response(200, whoami(plan="free")),
        json_response(201, session_body()),
        json_response(201, {"appended": 1}),
        json_response(200, session_body(status="ended", endedAt="2025-01-01T00:10:00.000Z")),
    )
    async with make(rec) as client:
        assert (await client.whoami()).plan == "free"
        session = await client.sessions.start(name="run", external_id="e1")
        await client.sessions.append(session.id, [{"role": "user", "content": "hello"}])
        await client.sessions.end(session.id)
    assert [r.url.path for r in rec.requests] == [
        "/api/whoami",
        "/api/sessions",
        f"/api/sessions/{SESSION_ID}/messages",
        f"/api/sessions/{SESSION_ID}/end",
    ]
    assert rec.body(1) == {"name": "run", "externalId": "e1"}
    assert all(r.headers["x-api-key"] == "ilk_test" and "authorization" not in r.headers for r in rec.requests)


async def test_retries_a_429_honouring_retry_after_and_keeps_the_idempotency_key(sleeps: list[float]) -> None:
    rec = recorder(
        error_response(429, "RATE_LIMITED", "Too many requests.", {"retry-after": "2"}),
        error_response(503, "SERVICE_UNAVAILABLE", "x", {"retry-after-ms": "100"}),
        json_response(201, OPEN),
    )
    created = await make(rec).interrupts.create(title="t", action_requests=[{"name": "a"}])
    assert str(created.id) == INTERRUPT_ID
    assert sleeps == [2.0, 0.1]
    assert len({r.headers["idempotency-key"] for r in rec.requests}) == 1


async def test_no_retry_on_400(sleeps: list[float]) -> None:
    rec = recorder(error_response(400, "VALIDATION_FAILED", "limit must not be greater than 200"))
    with pytest.raises(BadRequestError) as info:
        await make(rec).interrupts.list(limit=500)
    assert info.value.message == "limit must not be greater than 200"
    assert len(rec.requests) == 1
    assert sleeps == []


async def test_timeout_is_raised_as_api_connection_timeout_error(sleeps: list[float]) -> None:
    rec = recorder(httpx.ReadTimeout("timed out"))
    with pytest.raises(APIConnectionTimeoutError):
        await make(rec).interrupts.get(INTERRUPT_ID)
    assert len(rec.requests) == 3


async def test_typed_error_with_exact_message() -> None:
    rec = recorder(error_response(402, "PLAN_REQUIRED", "The audit log API requires the Pro plan."))
    with pytest.raises(PlanRequiredError) as info:
        await make(rec, max_retries=0).audit_log.list()
    assert info.value.message == "The audit log API requires the Pro plan."
    assert info.value.code == "PLAN_REQUIRED"


async def test_wait_for_answer(sleeps: list[float]) -> None:
    rec = recorder(json_response(200, OPEN), json_response(200, ANSWERED))
    answered = await make(rec).interrupts.wait_for_answer(INTERRUPT_ID, poll_interval=1.5)
    assert answered.status == "answered"
    assert sleeps == [1.5]


async def test_wait_for_answer_asks_the_service_to_hold_and_falls_back_to_polling(sleeps: list[float]) -> None:
    rec = recorder(
        json_response(200, OPEN),
        error_response(400, "VALIDATION_FAILED", "property waitSeconds should not exist"),
        json_response(200, {**OPEN, "status": "withdrawn"}),
    )
    result = await make(rec).interrupts.wait_for_answer(INTERRUPT_ID, poll_interval=1.5)
    assert result.status == "withdrawn"
    assert [r.url.params.get("waitSeconds") for r in rec.requests] == ["60", "60", None]
    assert sleeps == [1.5]


async def test_wait_for_answer_times_out() -> None:
    rec = recorder(json_response(200, OPEN))
    with pytest.raises(WaitTimeoutError):
        await make(rec).interrupts.wait_for_answer(INTERRUPT_ID, timeout=0.03, poll_interval=0.01)
