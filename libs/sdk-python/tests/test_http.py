"""The client against a real HTTP server on loopback, with httpx's real transport: real timeouts,
real headers on the wire, real JSON bodies."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable

import pytest

from interlock import APIConnectionError, APIConnectionTimeoutError, AuthenticationError, Interlock

from .factories import SESSION_ID
from .factories import session as session_body

Route = Callable[["Handler", bytes], None]


class Handler(BaseHTTPRequestHandler):
    route: Route
    seen: list[tuple[str, dict[str, str], bytes]]

    def _handle(self) -> None:
        body = self.rfile.read(int(self.headers.get("content-length") or 0))
        self.seen.append((self.command, {k.lower(): v for k, v in self.headers.items()}, body))
        self.route(self, body)

    do_GET = _handle  # noqa: N815
    do_POST = _handle  # noqa: N815

    def send_json(self, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        for name, value in {"content-type": "application/json", **(headers or {})}.items():
            self.send_header(name, value)
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def server() -> Iterator[tuple[str, type[Handler]]]:
    handler = type("TestHandler", (Handler,), {"seen": []})
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", handler
    httpd.shutdown()
    httpd.server_close()


def test_posts_json_and_retries_a_429_after_retry_after(server: tuple[str, type[Handler]]) -> None:
    base_url, handler = server
    calls: list[int] = []

    def route(h: Handler, body: bytes) -> None:
        calls.append(1)
        if len(calls) == 1:
            h.send_json(429, {"statusCode": 429, "code": "RATE_LIMITED", "message": "slow"}, {"retry-after": "1"})
        else:
            h.send_json(201, session_body(name=json.loads(body)["name"]))

    handler.route = staticmethod(route)
    with Interlock(api_key="ilk_http", base_url=base_url) as client:
        started = time.monotonic()
        session = client.sessions.start(name="run")
        elapsed = time.monotonic() - started
    assert str(session.id) == SESSION_ID
    assert elapsed >= 0.95
    (m1, h1, _), (_, h2, b2) = handler.seen
    assert m1 == "POST"
    assert h1["x-api-key"] == "ilk_http"
    assert "authorization" not in h1
    assert h1["content-type"] == "application/json"
    assert h1["idempotency-key"] == h2["idempotency-key"]
    assert json.loads(b2) == {"name": "run"}


def test_ends_a_session_with_an_empty_body(server: tuple[str, type[Handler]]) -> None:
    base_url, handler = server
    handler.route = staticmethod(lambda h, _b: h.send_json(200, session_body(status="ended")))
    with Interlock(api_key="k", base_url=base_url) as client:
        client.sessions.end(SESSION_ID)
    method, headers, body = handler.seen[0]
    assert (method, body) == ("POST", b"")
    assert "content-type" not in headers


def test_a_stalled_response_times_out(server: tuple[str, type[Handler]]) -> None:
    base_url, handler = server
    # The server stalls for 10 s (released at the end): a client without the 0.1 s timeout would
    # wait it out, and the bound below tells the two apart by far more than a loaded machine's delay.
    release = threading.Event()

    def stall(_h: Handler, _b: bytes) -> None:
        release.wait(10)

    handler.route = staticmethod(stall)
    try:
        with Interlock(api_key="k", base_url=base_url, timeout=0.1, max_retries=0) as client:
            started = time.monotonic()
            with pytest.raises(APIConnectionTimeoutError):
                client.whoami()
            assert time.monotonic() - started < 5
    finally:
        release.set()


def test_error_bodies_and_refused_connections(server: tuple[str, type[Handler]]) -> None:
    base_url, handler = server
    body = {"statusCode": 401, "error": "Unauthorized", "code": "INVALID_API_KEY", "message": "Invalid API key."}
    handler.route = staticmethod(lambda h, _b: h.send_json(401, {**body, "requestId": "abc"}))
    with Interlock(api_key="k", base_url=base_url) as client, pytest.raises(AuthenticationError) as info:
        client.whoami()
    assert info.value.message == "Invalid API key."
    assert info.value.request_id == "abc"
    with (
        Interlock(api_key="k", base_url="http://127.0.0.1:9", max_retries=0) as closed,
        pytest.raises(APIConnectionError),
    ):
        closed.whoami()
