from __future__ import annotations

import time
from datetime import datetime, timezone
from typing import Any, Callable
from uuid import UUID

import httpx
import pytest

from interlock import BadRequestError, Interlock, NotFoundError, WaitTimeoutError
from interlock.types import MemberDecidedBy

from .conftest import Recorder, error_response, json_response, recorder
from .factories import INTERRUPT_ID, MEMBER_ID, SESSION_ID, answered, decision, interrupt

OPEN: dict[str, Any] = interrupt("a")
ANSWERED: dict[str, Any] = answered(OPEN, decision("a", "approve"))


def make(rec: Recorder) -> Interlock:
    return Interlock(
        api_key="ilk_test", base_url="http://interlock.test", http_client=httpx.Client(transport=rec.transport())
    )


def test_create_and_get() -> None:
    rec = recorder(json_response(201, OPEN), json_response(200, ANSWERED))
    client = make(rec)
    created = client.interrupts.create(
        title="t", action_requests=[{"name": "a"}], session_id=UUID(SESSION_ID), metadata={"k": 1}
    )
    assert created.status == "open"
    assert rec.requests[0].method == "POST"
    assert rec.body(0) == {
        "title": "t",
        "actionRequests": [{"name": "a"}],
        "sessionId": SESSION_ID,
        "metadata": {"k": 1},
    }
    got = client.interrupts.get(created.id)
    assert got.decisions[0].action_name == "a"
    decided_by = got.decisions[0].decided_by
    assert isinstance(decided_by, MemberDecidedBy)
    assert (decided_by.type, decided_by.id, decided_by.name) == ("member", MEMBER_ID, "Ada")
    assert rec.requests[1].url.path == f"/api/interrupts/{INTERRUPT_ID}"


def test_wait_for_answer_polls_until_answered(sleeps: list[float]) -> None:
    rec = recorder(json_response(200, OPEN), json_response(200, OPEN), json_response(200, ANSWERED))
    result = make(rec).interrupts.wait_for_answer(INTERRUPT_ID, poll_interval=0.5)
    assert result.status == "answered"
    assert result.decisions[0].decision == "approve"
    assert len(rec.requests) == 3
    assert all(r.method == "GET" and r.url.path == f"/api/interrupts/{INTERRUPT_ID}" for r in rec.requests)
    assert sleeps == [0.5, 0.5]


def test_wait_for_answer_asks_the_service_to_hold_each_read(sleeps: list[float]) -> None:
    expired = {**OPEN, "status": "expired"}
    rec = recorder(json_response(200, OPEN), json_response(200, expired))
    result = make(rec).interrupts.wait_for_answer(INTERRUPT_ID, poll_interval=0.5)
    assert result.status == "expired"
    assert [r.url.params.get("waitSeconds") for r in rec.requests] == ["60", "60"]
    # The read may take its wait besides the client's own timeout (here the injected httpx client's 5 s).
    assert rec.requests[0].extensions["timeout"]["read"] == pytest.approx(65.0)
    # Answered at once while still open (a service restarting): a pause before the next read.
    assert sleeps == [0.5]

    short = recorder(json_response(200, ANSWERED))
    make(short).interrupts.wait_for_answer(INTERRUPT_ID, timeout=5.5)
    assert short.requests[0].url.params.get("waitSeconds") == "5"


def test_wait_for_answer_asks_again_at_once_after_a_hold_ended_early_to_spread_a_herd(
    sleeps: list[float], monkeypatch: pytest.MonkeyPatch
) -> None:
    # SPEC §8e: a hold of 20 s or more may end early, no sooner than half of it, when many waits would
    # end with it; each read takes its time on a fake clock.
    clock = [1000.0]
    monkeypatch.setattr(time, "monotonic", lambda: clock[0])

    def held(seconds: float, body: dict[str, Any]) -> Callable[[httpx.Request], httpx.Response]:
        def handler(request: httpx.Request) -> httpx.Response:
            clock[0] += seconds
            return json_response(200, body)

        return handler

    rec = recorder(held(30.0, OPEN), held(57.1, OPEN), held(1.0, ANSWERED))
    assert make(rec).interrupts.wait_for_answer(INTERRUPT_ID, poll_interval=0.5).status == "answered"
    assert len(rec.requests) == 3
    assert sleeps == []
    # 29.9 s of 60 (less than half): a service restarting, the next read pauses first.
    cut = recorder(held(29.9, OPEN), held(1.0, ANSWERED))
    make(cut).interrupts.wait_for_answer(INTERRUPT_ID, poll_interval=0.5)
    assert sleeps == [0.5]


def test_wait_for_answer_polls_an_older_service_that_refuses_wait_seconds(sleeps: list[float]) -> None:
    rec = recorder(
        error_response(400, "VALIDATION_FAILED", "property waitSeconds should not exist"),
        json_response(200, OPEN),
        json_response(200, ANSWERED),
    )
    client = make(rec)
    assert client.interrupts.wait_for_answer(INTERRUPT_ID, poll_interval=0.5).status == "answered"
    assert [r.url.params.get("waitSeconds") for r in rec.requests] == ["60", None, None]
    client.interrupts.wait_for_answer(INTERRUPT_ID)
    assert rec.requests[3].url.params.get("waitSeconds") is None


def test_wait_for_answer_passes_other_bad_requests_through() -> None:
    rec = recorder(error_response(400, "VALIDATION_FAILED", "id: must be a UUID"))
    with pytest.raises(BadRequestError):
        make(rec).interrupts.wait_for_answer(INTERRUPT_ID)


def test_wait_for_answer_gives_up_with_wait_timeout_error() -> None:
    rec = recorder(json_response(200, OPEN))
    with pytest.raises(WaitTimeoutError) as info:
        make(rec).interrupts.wait_for_answer(INTERRUPT_ID, timeout=0.05, poll_interval=0.01)
    assert info.value.interrupt_id == INTERRUPT_ID
    assert len(rec.requests) >= 2


def test_wait_for_answer_passes_api_errors_through() -> None:
    rec = recorder(error_response(404, "NOT_FOUND", "Not found."))
    with pytest.raises(NotFoundError):
        make(rec).interrupts.wait_for_answer("nope")


def test_list_sends_every_filter_of_the_contract_and_repeats_them_on_each_page() -> None:
    rec = recorder(
        json_response(200, {"interrupts": [OPEN], "nextCursor": "c2"}),
        json_response(200, {"interrupts": [], "nextCursor": None}),
    )
    listed = make(rec).interrupts.list(
        status="open",
        external_id="run-1",
        opened_by="me",
        assignee="unassigned",
        escalated=False,
        q="deploy prod",
        from_=datetime(2026, 1, 1, tzinfo=timezone.utc),
        to="2026-02-01",
        order="oldest",
        limit=10,
    )
    assert [i.id for i in listed] == [INTERRUPT_ID]
    query = {
        "status": "open",
        "externalId": "run-1",
        "openedBy": "me",
        "assignee": "unassigned",
        "escalated": "false",
        "q": "deploy prod",
        "from": "2026-01-01T00:00:00.000Z",
        "to": "2026-02-01",
        "order": "oldest",
        "limit": "10",
    }
    assert [dict(r.url.params) for r in rec.requests] == [query, {**query, "cursor": "c2"}]
