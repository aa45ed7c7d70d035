"""sessions.list (auto-paginating) and sessions.retrieve, sync and async, against a scripted transport."""

from __future__ import annotations

import base64
from typing import Any

import httpx
import pytest

from interlock import AsyncInterlock, Interlock, NotFoundError

from .conftest import Recorder, error_response, json_response, recorder
from .factories import SESSION_ID, session


def numbered(n: int) -> dict[str, Any]:
    return session(id=f"00000000-0000-4000-8000-{n:012d}", name=f"run {n}", messageCount=n)


def sessions_server(total: int) -> Recorder:
    """``total`` sessions served ``limit`` at a time with opaque cursors, as GET /api/sessions does."""
    every = [numbered(n) for n in range(total)]

    def handle(request: httpx.Request) -> httpx.Response:
        limit = int(request.url.params.get("limit", "50"))
        cursor = request.url.params.get("cursor")
        start = 0 if cursor is None else int(base64.urlsafe_b64decode(cursor))
        end = start + limit
        next_cursor = base64.urlsafe_b64encode(str(end).encode()).decode() if end < total else None
        return json_response(200, {"sessions": every[start:end], "nextCursor": next_cursor})

    return recorder(handle)


def make(rec: Recorder) -> Interlock:
    return Interlock(
        api_key="ilk_test", base_url="http://interlock.test", http_client=httpx.Client(transport=rec.transport())
    )


def test_list_walks_every_page_repeating_the_filters() -> None:
    rec = sessions_server(7)
    names = [s.name for s in make(rec).sessions.list(status="ended", external_id="nightly", q="Déploi run", limit=3)]
    assert names == [f"run {n}" for n in range(7)]
    assert [(r.method, r.url.path) for r in rec.requests] == [("GET", "/api/sessions")] * 3
    for request in rec.requests:
        params = request.url.params
        assert (params["status"], params["externalId"], params["q"], params["limit"]) == (
            "ended",
            "nightly",
            "Déploi run",
            "3",
        )
    assert ["cursor" in r.url.params for r in rec.requests] == [False, True, True]


def test_list_returns_the_first_page_for_page_by_page_access() -> None:
    page = make(sessions_server(5)).sessions.list(limit=2)
    assert [s.message_count for s in page.data] == [0, 1]
    assert page.has_next_page()
    assert [s.message_count for s in page.get_next_page().data] == [2, 3]


def test_retrieve_reads_one_session_its_id_escaped() -> None:
    rec = recorder(json_response(200, session(messageCount=4)), error_response(404, "NOT_FOUND", "Not found."))
    client = make(rec)
    got = client.sessions.retrieve(SESSION_ID)
    assert (got.id, got.message_count) == (SESSION_ID, 4)
    assert rec.requests[0].url.path == f"/api/sessions/{SESSION_ID}"
    with pytest.raises(NotFoundError):
        client.sessions.retrieve("a/b")
    assert rec.requests[1].url.raw_path == b"/api/sessions/a%2Fb"


@pytest.mark.anyio
async def test_async_list_and_retrieve() -> None:
    rec = sessions_server(3)
    client = AsyncInterlock(
        api_key="ilk_test", base_url="http://interlock.test", http_client=httpx.AsyncClient(transport=rec.transport())
    )
    names = [s.name async for s in client.sessions.list(limit=2)]
    assert names == ["run 0", "run 1", "run 2"]
    first = await client.sessions.list(status="active")
    assert len(first.data) == 3
    one = await AsyncInterlock(
        api_key="ilk_test",
        base_url="http://interlock.test",
        http_client=httpx.AsyncClient(transport=recorder(json_response(200, session())).transport()),
    ).sessions.retrieve(SESSION_ID)
    assert one.status == "active"
