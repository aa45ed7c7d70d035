"""Every method of the SDK calls an operation the contract declares, with that method and path.

Each method runs against a recording transport, and every request it sends must match an
operation of contract/openapi.json. The table must name every public method of every resource
(sync and async), so a new method is checked too."""

from __future__ import annotations

import asyncio
import inspect
import json
import re
from pathlib import Path
from typing import Any, Callable, Optional

import httpx
import pytest

from interlock import AsyncInterlock, Interlock
from interlock.resources import audit_log, interrupts, sessions

from .conftest import json_response, recorder
from .factories import INTERRUPT_ID, SESSION_ID, answered, decision, interrupt, session, whoami

CONTRACT: dict[str, Any] = json.loads((Path(__file__).parents[3] / "contract" / "openapi.json").read_text())


def operation_for(document: dict[str, Any], method: str, path: str) -> Optional[str]:
    """The operationId of the contract's operation for this method and concrete path, if any."""
    for template, operations in document["paths"].items():
        pattern = "^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$"
        if not re.match(pattern, path):
            continue
        operation = operations.get(method.lower())
        if operation is not None and "operationId" in operation:
            return str(operation["operationId"])
    return None


HITL: dict[str, Any] = {
    "action_requests": [{"name": "a", "args": {}}],
    "review_configs": [{"action_name": "a", "allowed_decisions": ["approve"]}],
}


def handle(request: httpx.Request) -> httpx.Response:
    path, method = request.url.path, request.method
    if path == "/api/interrupts" and method == "GET":
        return json_response(200, {"interrupts": [interrupt("a")], "nextCursor": None})
    if path == "/api/sessions" and method == "GET":
        return json_response(200, {"sessions": [session()], "nextCursor": None})
    if path == "/api/audit-log":
        return json_response(200, {"entries": [], "nextCursor": None})
    if path == "/api/whoami":
        return json_response(200, whoami())
    if path.endswith("/messages"):
        return json_response(201, {"appended": 1})
    if path.startswith("/api/sessions"):
        return json_response(200, session())
    return json_response(200, answered(interrupt("a"), decision("a", "approve")))


Call = Callable[[Any], Any]

# (resource, method, call): the same calls for the sync and the async client.
METHODS: list[tuple[str, str, Call]] = [
    ("interrupts", "create", lambda c: c.interrupts.create(title="t", action_requests=[{"name": "a"}])),
    ("interrupts", "get", lambda c: c.interrupts.get(INTERRUPT_ID)),
    ("interrupts", "cancel", lambda c: c.interrupts.cancel(INTERRUPT_ID, reason="gave up")),
    ("interrupts", "list", lambda c: c.interrupts.list(status="open")),
    ("interrupts", "wait_for_answer", lambda c: c.interrupts.wait_for_answer(INTERRUPT_ID, timeout=5)),
    ("interrupts", "review_langgraph", lambda c: c.interrupts.review_langgraph(HITL, timeout=5)),
    ("sessions", "start", lambda c: c.sessions.start(name="s")),
    ("sessions", "retrieve", lambda c: c.sessions.retrieve(SESSION_ID)),
    ("sessions", "list", lambda c: c.sessions.list(status="active")),
    ("sessions", "append", lambda c: c.sessions.append(SESSION_ID, [{"role": "agent", "content": "hi"}])),
    ("sessions", "end", lambda c: c.sessions.end(SESSION_ID)),
    ("audit_log", "list", lambda c: c.audit_log.list(category="interrupt")),
    ("client", "whoami", lambda c: c.whoami()),
]

RESOURCES = [
    ("interrupts", interrupts.Interrupts),
    ("interrupts", interrupts.AsyncInterrupts),
    ("sessions", sessions.Sessions),
    ("sessions", sessions.AsyncSessions),
    ("audit_log", audit_log.AuditLog),
    ("audit_log", audit_log.AsyncAuditLog),
]


def public_methods(cls: type[Any]) -> list[str]:
    # with_raw_response is a view of the same methods, not a call of its own.
    return sorted(
        name
        for name, member in inspect.getmembers(cls)
        if not name.startswith("_") and callable(member) and not isinstance(member, property)
    )


@pytest.mark.parametrize(("resource", "cls"), RESOURCES)
def test_the_table_names_every_method(resource: str, cls: type[Any]) -> None:
    assert public_methods(cls) == sorted(m for r, m, _ in METHODS if r == resource)


def unknown_requests(requests: list[httpx.Request]) -> list[str]:
    return [f"{r.method} {r.url.path}" for r in requests if operation_for(CONTRACT, r.method, r.url.path) is None]


async def drain(value: Any) -> Any:
    """Awaits a coroutine, or walks an async pager to its end."""
    if inspect.isawaitable(value):
        return await value
    return [item async for item in value]


@pytest.mark.parametrize(("resource", "method", "call"), METHODS, ids=[f"{r}.{m}" for r, m, _ in METHODS])
def test_the_sync_method_calls_a_contract_operation(resource: str, method: str, call: Call) -> None:
    rec = recorder(handle)
    client = Interlock(
        api_key="ilk_test", base_url="http://interlock.test", http_client=httpx.Client(transport=rec.transport())
    )
    result = call(client)
    if not isinstance(result, (list, dict)) and hasattr(result, "__iter__"):
        list(result)
    assert rec.requests, f"{resource}.{method} sent nothing"
    assert unknown_requests(rec.requests) == []


@pytest.mark.parametrize(("resource", "method", "call"), METHODS, ids=[f"{r}.{m}" for r, m, _ in METHODS])
def test_the_async_method_calls_a_contract_operation(resource: str, method: str, call: Call) -> None:
    rec = recorder(handle)

    async def run() -> None:
        http = httpx.AsyncClient(transport=rec.transport())
        async with AsyncInterlock(api_key="ilk_test", base_url="http://interlock.test", http_client=http) as client:
            await drain(call(client))

    asyncio.run(run())
    assert rec.requests, f"async {resource}.{method} sent nothing"
    assert unknown_requests(rec.requests) == []


def test_matching_is_by_method_and_path() -> None:
    assert operation_for(CONTRACT, "POST", f"/api/sessions/{SESSION_ID}/end") == "endSession"
    assert operation_for(CONTRACT, "GET", "/api/whoami") == "getWhoami"
    assert operation_for(CONTRACT, "POST", f"/api/sessions/{SESSION_ID}/finish") is None
    assert operation_for(CONTRACT, "DELETE", f"/api/sessions/{SESSION_ID}") is None
