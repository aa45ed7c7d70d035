from __future__ import annotations

import base64
from datetime import datetime, timedelta, timezone
from typing import Any

import httpx
import pytest

from interlock import AsyncInterlock, AsyncPage, Interlock, InterlockError, SyncPage

from .conftest import Recorder, json_response, recorder
from .factories import KEY_ID, interrupt


def entry(n: int) -> dict[str, Any]:
    created = datetime(2025, 1, 1, tzinfo=timezone.utc) - timedelta(seconds=n)
    return {
        "id": f"00000000-0000-4000-8000-{n:012d}",
        "createdAt": created.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "action": "interrupt.created",
        "category": "interrupt",
        "actorType": "api_key",
        "actorId": KEY_ID,
        "actorName": "ci",
        "targetType": "interrupt",
        "targetId": f"int_{n}",
        "targetName": f"Interrupt {n}",
        "summary": f"Interrupt {n} created by ci",
        "metadata": None,
    }


def audit_server(total: int) -> Recorder:
    """A fake audit log of ``total`` entries served ``limit`` at a time with opaque cursors."""
    entries = [entry(n) for n in range(total)]

    def handle(request: httpx.Request) -> httpx.Response:
        limit = int(request.url.params.get("limit", "50"))
        cursor = request.url.params.get("cursor")
        start = 0 if cursor is None else int(base64.urlsafe_b64decode(cursor))
        end = start + limit
        next_cursor = base64.urlsafe_b64encode(str(end).encode()).decode() if end < total else None
        return json_response(200, {"entries": entries[start:end], "nextCursor": next_cursor})

    return recorder(handle)


def make(rec: Recorder) -> Interlock:
    return Interlock(
        api_key="ilk_test", base_url="http://interlock.test", http_client=httpx.Client(transport=rec.transport())
    )


def make_async(rec: Recorder) -> AsyncInterlock:
    http = httpx.AsyncClient(transport=rec.transport())
    return AsyncInterlock(api_key="ilk_test", base_url="http://interlock.test", http_client=http)


def test_walks_every_page_repeating_the_other_parameters() -> None:
    rec = audit_server(23)
    seen = [e.target_id for e in make(rec).audit_log.list(category="interrupt", limit=10)]
    assert seen == [f"int_{n}" for n in range(23)]
    assert len(rec.requests) == 3
    assert "cursor" not in rec.requests[0].url.params
    for request in rec.requests:
        assert request.url.params["category"] == "interrupt"
        assert request.url.params["limit"] == "10"
    assert "cursor" in rec.requests[1].url.params


def test_page_access() -> None:
    rec = audit_server(5)
    first = make(rec).audit_log.list(limit=2)
    assert isinstance(first, SyncPage)
    assert [e.target_id for e in first.data] == ["int_0", "int_1"]
    assert first.data[0].created_at == datetime(2025, 1, 1, tzinfo=timezone.utc)
    assert first.has_next_page()
    second = first.get_next_page()
    assert [e.target_id for e in second.data] == ["int_2", "int_3"]
    third = second.get_next_page()
    assert len(third.data) == 1
    assert not third.has_next_page()
    assert third.next_cursor is None
    with pytest.raises(InterlockError):
        third.get_next_page()
    assert [len(page.data) for page in first.iter_pages()] == [2, 2, 1]


def test_an_empty_log_ends_at_once() -> None:
    rec = recorder(json_response(200, {"entries": [], "nextCursor": None}))
    assert list(make(rec).audit_log.list()) == []
    assert len(rec.requests) == 1


def test_interrupts_page_the_same_way() -> None:
    def titled(title: str) -> dict[str, Any]:
        return interrupt(title=title)

    rec = recorder(
        json_response(200, {"interrupts": [titled("a"), titled("b")], "nextCursor": "c1"}),
        json_response(200, {"interrupts": [titled("c")], "nextCursor": None}),
    )
    titles = [i.title for i in make(rec).interrupts.list(status="open", limit=2)]
    assert titles == ["a", "b", "c"]
    assert rec.requests[1].url.query == b"status=open&limit=2&cursor=c1"


@pytest.mark.anyio
async def test_async_for_walks_every_page() -> None:
    rec = audit_server(23)
    seen = [e.target_id async for e in make_async(rec).audit_log.list(category="interrupt", limit=10)]
    assert seen == [f"int_{n}" for n in range(23)]
    assert len(rec.requests) == 3


@pytest.mark.anyio
async def test_async_page_access() -> None:
    rec = audit_server(5)
    paginator = make_async(rec).audit_log.list(limit=2)
    assert len(rec.requests) == 0  # nothing is sent until awaited or iterated
    first = await paginator
    assert isinstance(first, AsyncPage)
    assert first is await paginator.first_page()
    assert len(rec.requests) == 1
    second = await first.get_next_page()
    assert [e.target_id for e in second.data] == ["int_2", "int_3"]
    sizes = [len(page.data) async for page in first.iter_pages()]
    assert sizes == [2, 2, 1]
    assert len([e async for e in second]) == 3
