"""Every resource method takes the per-call options (openai-python's ``extra_headers``, ``extra_query``,
``extra_body``, ``timeout``, ``max_retries``), sync and async; and they reach the wire."""

from __future__ import annotations

import inspect
from typing import Any

import httpx
import pytest

from interlock import AsyncInterlock, Interlock
from interlock.resources import audit_log, interrupts, sessions

from .conftest import json_response, recorder
from .factories import INTERRUPT_ID, SESSION_ID, interrupt, session

PER_CALL = {"extra_headers", "extra_query", "extra_body", "max_retries"}
# review_langgraph makes several calls (creates, then polls) and takes only how long to wait.
MULTI_CALL = {"review_langgraph"}


def public_methods(cls: type[Any]) -> list[str]:
    return [name for name, _ in inspect.getmembers(cls, inspect.isfunction) if not name.startswith("_")]


@pytest.mark.parametrize(
    "cls",
    [
        interrupts.Interrupts,
        interrupts.AsyncInterrupts,
        sessions.Sessions,
        sessions.AsyncSessions,
        audit_log.AuditLog,
        audit_log.AsyncAuditLog,
    ],
)
def test_every_resource_method_takes_the_per_call_options(cls: type[Any]) -> None:
    for name in public_methods(cls):
        if name in MULTI_CALL:
            continue
        parameters = set(inspect.signature(getattr(cls, name)).parameters)
        assert parameters >= PER_CALL, f"{cls.__name__}.{name} lacks {PER_CALL - parameters}"
        assert {"timeout", "request_timeout"} & parameters, f"{cls.__name__}.{name} takes no timeout"


@pytest.mark.parametrize("cls", [Interlock, AsyncInterlock])
def test_whoami_takes_them_too(cls: type[Any]) -> None:
    assert set(inspect.signature(cls.whoami).parameters) >= PER_CALL


def test_the_options_reach_the_request() -> None:
    def handle(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/api/sessions" and request.method == "GET":
            return json_response(200, {"sessions": [session()], "nextCursor": None})
        if request.url.path.startswith("/api/sessions"):
            return json_response(200, session())
        return json_response(200, interrupt())

    rec = recorder(handle)
    client = Interlock(
        api_key="ilk_test", base_url="http://interlock.test", http_client=httpx.Client(transport=rec.transport())
    )
    extras: dict[str, Any] = {"extra_headers": {"x-extra": "yes"}, "extra_query": {"trace": "t1"}}
    client.sessions.list(status="active", **extras)
    client.sessions.retrieve(SESSION_ID, **extras)
    client.sessions.start(name="s", extra_body={"priority": "high"}, **extras)
    client.interrupts.get(INTERRUPT_ID, **extras)
    for request in rec.requests:
        assert (request.headers["x-extra"], request.url.params["trace"]) == ("yes", "t1")
    assert rec.body(2) == {"name": "s", "priority": "high"}
