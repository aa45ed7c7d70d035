"""Test support: a scripted httpx transport that records what the client sent, and recorded sleeps."""

from __future__ import annotations

import importlib.util
import json
from dataclasses import dataclass, field
from typing import Any, Callable, Union

import httpx
import pytest

from interlock import _retry

# tests/crewai runs in the CrewAI venv (tools/scripts/python-sdk.mjs --venv crewai): the dev venv has no crewai.
collect_ignore = [] if importlib.util.find_spec("crewai") else ["crewai"]

Handler = Union[httpx.Response, Exception, Callable[[httpx.Request], httpx.Response]]


def json_response(status: int, body: Any, headers: dict[str, str] | None = None) -> httpx.Response:
    return httpx.Response(status, json=body, headers=headers or {})


def error_response(status: int, code: str, message: str, headers: dict[str, str] | None = None) -> httpx.Response:
    """The SPEC §4 error body, as the service sends it."""
    request_id = f"req-{status}-{code}"
    body = {"statusCode": status, "error": "Error", "code": code, "message": message, "requestId": request_id}
    return httpx.Response(status, json=body, headers={"x-request-id": request_id, **(headers or {})})


@dataclass
class Recorder:
    """Answers each request with the next handler (the last one repeats) and keeps the requests."""

    handlers: list[Handler]
    requests: list[httpx.Request] = field(default_factory=list)

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        handler = self.handlers[min(len(self.requests), len(self.handlers)) - 1]
        if isinstance(handler, Exception):
            raise handler
        if isinstance(handler, httpx.Response):
            # A fresh copy each time: a response can be read only once.
            return httpx.Response(handler.status_code, headers=handler.headers, content=handler.content)
        return handler(request)

    def transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self)

    def body(self, index: int) -> Any:
        content = self.requests[index].content
        return json.loads(content) if content else None


def recorder(*handlers: Handler) -> Recorder:
    return Recorder(list(handlers))


@pytest.fixture
def sleeps(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Records the SDK's waits instead of waiting."""
    waits: list[float] = []

    def fake_sleep(seconds: float) -> None:
        waits.append(seconds)

    async def fake_async_sleep(seconds: float) -> None:
        waits.append(seconds)

    monkeypatch.setattr(_retry, "sleep", fake_sleep)
    monkeypatch.setattr(_retry, "async_sleep", fake_async_sleep)
    return waits


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
