"""The clients: ``Interlock`` (sync, httpx.Client) and ``AsyncInterlock`` (async, httpx.AsyncClient)."""

from __future__ import annotations

import json
import logging
import os
import platform
import time
import uuid
from collections.abc import Mapping
from datetime import date, datetime, timezone
from types import TracebackType
from typing import Any, Callable, Optional, TypeVar, Union

import httpx

from . import _retry
from ._errors import (
    APIConnectionError,
    APIConnectionTimeoutError,
    APIError,
    InterlockError,
    connection_error_message,
    make_api_error,
)
from ._models import InterlockModel
from ._options import NO_OPTIONS, Headers, RequestOptions, Timeout
from ._pagination import AsyncPage, AsyncPaginator, SyncPage
from ._response import RawResponses, captured
from ._version import __version__
from .resources.audit_log import AsyncAuditLog, AuditLog
from .resources.interrupts import AsyncInterrupts, Interrupts
from .resources.sessions import AsyncSessions, Sessions
from .types import Whoami
from .webhooks import Webhooks

__all__ = [
    "DEFAULT_BASE_URL",
    "DEFAULT_MAX_RETRIES",
    "DEFAULT_TIMEOUT",
    "AsyncInterlock",
    "Interlock",
    "RequestOptions",
    "Timeout",
]

DEFAULT_BASE_URL = "http://localhost:3000"
#: Seconds to wait for each attempt's response.
DEFAULT_TIMEOUT = 60.0
DEFAULT_MAX_RETRIES = 2

T = TypeVar("T")
M = TypeVar("M", bound=InterlockModel)

#: ``INTERLOCK_LOG=debug`` (or ``info``) logs every request through the ``interlock`` logger.
log = logging.getLogger("interlock")
_SECRET_HEADERS = frozenset({"x-api-key", "cookie", "set-cookie", "authorization", "proxy-authorization"})


def _setup_logging() -> None:
    """``INTERLOCK_LOG=debug|info`` turns on the ``interlock`` logger with a stderr handler."""
    level = os.environ.get("INTERLOCK_LOG", "").strip().lower()
    if level not in ("debug", "info"):
        return
    log.setLevel(logging.DEBUG if level == "debug" else logging.INFO)
    if not any(getattr(h, "_interlock", False) for h in log.handlers):
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("[%(asctime)s %(name)s %(levelname)s] %(message)s"))
        handler._interlock = True  # type: ignore[attr-defined]
        log.addHandler(handler)


def redact_headers(headers: Union[Mapping[str, str], httpx.Headers]) -> dict[str, str]:
    """The headers with every secret (the key, cookies, authorization) replaced by ``***``."""
    return {name: "***" if name.lower() in _SECRET_HEADERS else value for name, value in headers.items()}


class _BaseClient:
    api_key: str
    base_url: str
    timeout: Timeout
    max_retries: int
    _webhook_secret: Optional[str]

    def __init__(
        self,
        *,
        api_key: Optional[str],
        base_url: Optional[str],
        timeout: Optional[Timeout],
        max_retries: int,
        default_headers: Optional[Mapping[str, str]],
        default_query: Optional[Mapping[str, object]],
        client_timeout: Optional[httpx.Timeout],
    ) -> None:
        _setup_logging()
        if api_key is None:
            api_key = os.environ.get("INTERLOCK_API_KEY", "").strip() or None
        if not api_key:
            raise InterlockError(
                "No API key: set the INTERLOCK_API_KEY environment variable or pass api_key "
                "(Interlock(api_key='ilk_…'))."
            )
        if base_url is None:
            base_url = os.environ.get("INTERLOCK_BASE_URL", "").strip() or DEFAULT_BASE_URL
        if isinstance(max_retries, bool) or not isinstance(max_retries, int) or max_retries < 0:
            raise InterlockError(f"max_retries must be a non-negative integer, got {max_retries!r}.")
        if isinstance(timeout, (int, float)) and not timeout > 0:
            raise InterlockError(f"timeout must be a positive number of seconds, got {timeout!r}.")
        self.api_key = api_key
        self.base_url = base_url.rstrip("/")
        # An injected client's own timeout is kept unless one is given here.
        self.timeout = timeout if timeout is not None else (client_timeout or DEFAULT_TIMEOUT)
        self.max_retries = max_retries
        self._default_headers = dict(default_headers or {})
        self._default_query = dict(default_query or {})

    def _build_request(
        self,
        http: Union[httpx.Client, httpx.AsyncClient],
        method: str,
        path: str,
        params: Optional[Mapping[str, object]],
        body: Optional[Mapping[str, Any]],
        options: RequestOptions,
    ) -> httpx.Request:
        headers = {
            "accept": "application/json",
            "user-agent": f"interlock-sdk-python/{__version__}",
            "x-interlock-sdk": f"python/{__version__} ({platform.python_implementation()} {platform.python_version()})",
            # The key travels in x-api-key only (SPEC §3): never as Authorization.
            "x-api-key": self.api_key,
        }
        content: Optional[bytes] = None
        if options.extra_body:
            body = {**(body or {}), **options.extra_body}
        if body is not None:
            content = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
            headers["content-type"] = "application/json"
        if method == "POST":
            # One key per call, reused by every retry, so the service can recognise a repeat.
            headers["idempotency-key"] = options.idempotency_key or str(uuid.uuid4())
        extra: dict[str, Optional[str]] = {**self._default_headers, **(options.extra_headers or {})}
        for name, value in extra.items():
            if value is None:
                headers.pop(name.lower(), None)
            else:
                headers[name.lower()] = value
        return http.build_request(
            method,
            self.base_url + path,
            params=_query({**self._default_query, **(params or {}), **(options.extra_query or {})}),
            headers=headers,
            content=content,
            timeout=options.timeout if options.timeout is not None else self.timeout,
        )

    def _max_retries(self, options: RequestOptions) -> int:
        return options.max_retries if options.max_retries is not None else self.max_retries

    @staticmethod
    def _log_request(request: httpx.Request, attempt: int) -> None:
        if log.isEnabledFor(logging.DEBUG):
            log.debug(
                "%s %s (attempt %d) headers=%s body_bytes=%d",
                request.method,
                request.url,
                attempt,
                redact_headers(request.headers),
                len(request.content),
            )

    @staticmethod
    def _log_response(request: httpx.Request, response: httpx.Response, started: float) -> None:
        if log.isEnabledFor(logging.DEBUG):
            log.debug(
                "%s %s -> %d in %.0f ms request_id=%s headers=%s",
                request.method,
                request.url,
                response.status_code,
                (time.monotonic() - started) * 1000,
                response.headers.get("x-request-id"),
                redact_headers(response.headers),
            )

    @staticmethod
    def _log_retry(request: httpx.Request, what: str) -> None:
        log.info("%s %s -> %s: retrying", request.method, request.url, what)

    @staticmethod
    def _received(response: httpx.Response) -> None:
        received = captured.get()
        if received is not None:
            received.append(response)

    def _options(self, overrides: Mapping[str, Any]) -> dict[str, Any]:
        """The constructor arguments of a copy of this client with ``overrides`` (``with_options``)."""
        current: dict[str, Any] = {
            "api_key": self.api_key,
            "base_url": self.base_url,
            "timeout": self.timeout,
            "max_retries": self.max_retries,
            "default_headers": self._default_headers,
            "default_query": self._default_query,
            "webhook_secret": self._webhook_secret,
        }
        unknown = set(overrides) - {*current, "http_client"}
        if unknown:
            raise InterlockError(f"Unknown client option(s): {', '.join(sorted(unknown))}.")
        return {**current, **overrides}


class Interlock(_BaseClient):
    """The synchronous Interlock client.

    ``Interlock()`` reads the key from ``INTERLOCK_API_KEY`` and the service's origin from
    ``INTERLOCK_BASE_URL`` (default http://localhost:3000). Timeouts are in seconds.
    """

    interrupts: Interrupts
    sessions: Sessions
    audit_log: AuditLog
    #: Verifies the webhooks Interlock sends (``verify``, ``unwrap``).
    webhooks: Webhooks

    def __init__(
        self,
        *,
        api_key: Optional[str] = None,
        base_url: Optional[str] = None,
        timeout: Optional[Timeout] = None,
        max_retries: int = DEFAULT_MAX_RETRIES,
        default_headers: Optional[Mapping[str, str]] = None,
        default_query: Optional[Mapping[str, object]] = None,
        http_client: Optional[httpx.Client] = None,
        webhook_secret: Optional[str] = None,
    ) -> None:
        super().__init__(
            api_key=api_key,
            base_url=base_url,
            timeout=timeout,
            max_retries=max_retries,
            default_headers=default_headers,
            default_query=default_query,
            client_timeout=http_client.timeout if http_client is not None else None,
        )
        self._owns_client = http_client is None
        self._client = http_client if http_client is not None else httpx.Client()
        self.interrupts = Interrupts(self)
        self.sessions = Sessions(self)
        self.audit_log = AuditLog(self)
        self._webhook_secret = webhook_secret
        self.webhooks = Webhooks(webhook_secret)

    def whoami(
        self,
        *,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Mapping[str, object]] = None,
        extra_body: Optional[Mapping[str, Any]] = None,
    ) -> Whoami:
        """Which key this is, for which organisation, on which plan."""
        options = RequestOptions(timeout, max_retries, None, extra_headers, extra_query, extra_body)
        return self.request_model(Whoami, "GET", "/api/whoami", options=options)

    def with_options(self, **overrides: Any) -> Interlock:
        """A copy of this client with some settings changed (``timeout``, ``max_retries``, ``api_key``,
        ``base_url``, ``default_headers``, ``default_query``, ``http_client``, ``webhook_secret``); it shares the HTTP
        client unless given another."""
        options = self._options(overrides)
        options.setdefault("http_client", self._client)
        return Interlock(**options)

    @property
    def with_raw_response(self) -> Any:
        """The same calls, returning an ``APIResponse`` (status, headers, ``request_id``, ``parse()``)::

        response = client.with_raw_response.whoami()
        print(response.headers["x-request-id"], response.parse().plan)
        """
        return RawResponses(self)

    def get(
        self,
        path: str,
        *,
        params: Optional[Mapping[str, object]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Mapping[str, object]] = None,
        extra_body: Optional[Mapping[str, Any]] = None,
    ) -> Any:
        """A GET to any path of the API (for endpoints this SDK does not wrap yet); the parsed JSON body."""
        options = RequestOptions(timeout, max_retries, None, extra_headers, extra_query, extra_body)
        return self.request("GET", path, params=params, options=options)

    def post(
        self,
        path: str,
        *,
        params: Optional[Mapping[str, object]] = None,
        body: Optional[Mapping[str, Any]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Mapping[str, object]] = None,
        extra_body: Optional[Mapping[str, Any]] = None,
    ) -> Any:
        """A POST to any path of the API (with an Idempotency-Key); the parsed JSON body."""
        options = RequestOptions(timeout, max_retries, idempotency_key, extra_headers, extra_query, extra_body)
        return self.request("POST", path, params=params, body=body, options=options)

    def put(
        self,
        path: str,
        *,
        params: Optional[Mapping[str, object]] = None,
        body: Optional[Mapping[str, Any]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Mapping[str, object]] = None,
        extra_body: Optional[Mapping[str, Any]] = None,
    ) -> Any:
        """A PUT to any path of the API; the parsed JSON body."""
        options = RequestOptions(timeout, max_retries, None, extra_headers, extra_query, extra_body)
        return self.request("PUT", path, params=params, body=body, options=options)

    def patch(
        self,
        path: str,
        *,
        params: Optional[Mapping[str, object]] = None,
        body: Optional[Mapping[str, Any]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Mapping[str, object]] = None,
        extra_body: Optional[Mapping[str, Any]] = None,
    ) -> Any:
        """A PATCH to any path of the API; the parsed JSON body."""
        options = RequestOptions(timeout, max_retries, None, extra_headers, extra_query, extra_body)
        return self.request("PATCH", path, params=params, body=body, options=options)

    def delete(
        self,
        path: str,
        *,
        params: Optional[Mapping[str, object]] = None,
        body: Optional[Mapping[str, Any]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Mapping[str, object]] = None,
        extra_body: Optional[Mapping[str, Any]] = None,
    ) -> Any:
        """A DELETE to any path of the API; the parsed JSON body (None when empty)."""
        options = RequestOptions(timeout, max_retries, None, extra_headers, extra_query, extra_body)
        return self.request("DELETE", path, params=params, body=body, options=options)

    def request(
        self,
        method: str,
        path: str,
        *,
        params: Optional[Mapping[str, object]] = None,
        body: Optional[Mapping[str, Any]] = None,
        options: RequestOptions = NO_OPTIONS,
    ) -> Any:
        """Sends one call (retrying as allowed) and returns its parsed JSON body."""
        return _parse_json(self._send(method, path, params=params, body=body, options=options))

    def request_model(
        self,
        model: type[M],
        method: str,
        path: str,
        *,
        params: Optional[Mapping[str, object]] = None,
        body: Optional[Mapping[str, Any]] = None,
        options: RequestOptions = NO_OPTIONS,
    ) -> M:
        """Sends one call and returns its body as ``model``, with ``_request_id`` set."""
        response = self._send(method, path, params=params, body=body, options=options)
        result = model.model_validate(_parse_json(response))
        result._request_id = response.headers.get("x-request-id")
        return result

    def _send(
        self,
        method: str,
        path: str,
        *,
        params: Optional[Mapping[str, object]],
        body: Optional[Mapping[str, Any]],
        options: RequestOptions,
    ) -> httpx.Response:
        """The call's successful response (its body read), after retries; raises an APIError otherwise."""
        request = self._build_request(self._client, method, path, params, body, options)
        max_retries = self._max_retries(options)
        retries_taken = 0
        while True:
            self._log_request(request, retries_taken + 1)
            started = time.monotonic()
            try:
                response = self._client.send(request)
            except httpx.TimeoutException as exc:
                if retries_taken < max_retries:
                    self._log_retry(request, "timeout")
                    _retry.sleep(_retry.retry_delay(retries_taken))
                    retries_taken += 1
                    continue
                raise APIConnectionTimeoutError(request=request) from exc
            except httpx.TransportError as exc:
                if retries_taken < max_retries:
                    self._log_retry(request, "connection error")
                    _retry.sleep(_retry.retry_delay(retries_taken))
                    retries_taken += 1
                    continue
                raise APIConnectionError(message=connection_error_message(request, exc), request=request) from exc
            self._log_response(request, response, started)
            if response.is_success:
                self._received(response)
                return response
            if retries_taken < max_retries and _retry.should_retry(response.status_code, response.headers):
                response.close()
                self._log_retry(request, str(response.status_code))
                _retry.sleep(_retry.retry_delay(retries_taken, response.headers))
                retries_taken += 1
                continue
            raise make_api_error(response)

    def get_list(
        self,
        path: str,
        params: Mapping[str, object],
        items: Callable[[Any], list[T]],
        options: RequestOptions = NO_OPTIONS,
    ) -> SyncPage[T]:
        """A cursor-paginated GET: ``items`` turns a page's body into its items."""

        def fetch(cursor: Optional[str]) -> SyncPage[T]:
            query = dict(params) if cursor is None else {**params, "cursor": cursor}
            body = self.request("GET", path, params=query, options=options)
            return SyncPage(data=items(body), next_cursor=_next_cursor(body), fetch_page=fetch)

        return fetch(None)

    def close(self) -> None:
        """Closes the HTTP client, unless it was given to this one."""
        if self._owns_client:
            self._client.close()

    def __enter__(self) -> Interlock:
        return self

    def __exit__(
        self,
        exc_type: Optional[type[BaseException]],
        exc: Optional[BaseException],
        tb: Optional[TracebackType],
    ) -> None:
        self.close()


class AsyncInterlock(_BaseClient):
    """The asynchronous Interlock client: the same calls as ``Interlock``, awaited."""

    interrupts: AsyncInterrupts
    sessions: AsyncSessions
    audit_log: AsyncAuditLog
    #: Verifies the webhooks Interlock sends (``verify``, ``unwrap``: no I/O, so not awaited).
    webhooks: Webhooks

    def __init__(
        self,
        *,
        api_key: Optional[str] = None,
        base_url: Optional[str] = None,
        timeout: Optional[Timeout] = None,
        max_retries: int = DEFAULT_MAX_RETRIES,
        default_headers: Optional[Mapping[str, str]] = None,
        default_query: Optional[Mapping[str, object]] = None,
        http_client: Optional[httpx.AsyncClient] = None,
        webhook_secret: Optional[str] = None,
    ) -> None:
        super().__init__(
            api_key=api_key,
            base_url=base_url,
            timeout=timeout,
            max_retries=max_retries,
            default_headers=default_headers,
            default_query=default_query,
            client_timeout=http_client.timeout if http_client is not None else None,
        )
        self._owns_client = http_client is None
        self._client = http_client if http_client is not None else httpx.AsyncClient()
        self.interrupts = AsyncInterrupts(self)
        self.sessions = AsyncSessions(self)
        self.audit_log = AsyncAuditLog(self)
        self._webhook_secret = webhook_secret
        self.webhooks = Webhooks(webhook_secret)

    async def whoami(
        self,
        *,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Mapping[str, object]] = None,
        extra_body: Optional[Mapping[str, Any]] = None,
    ) -> Whoami:
        """Which key this is, for which organisation, on which plan."""
        options = RequestOptions(timeout, max_retries, None, extra_headers, extra_query, extra_body)
        return await self.request_model(Whoami, "GET", "/api/whoami", options=options)

    def with_options(self, **overrides: Any) -> AsyncInterlock:
        """A copy of this client with some settings changed (``timeout``, ``max_retries``, ``api_key``,
        ``base_url``, ``default_headers``, ``default_query``, ``http_client``, ``webhook_secret``); it shares the HTTP
        client unless given another."""
        options = self._options(overrides)
        options.setdefault("http_client", self._client)
        return AsyncInterlock(**options)

    @property
    def with_raw_response(self) -> Any:
        """The same calls, returning an ``APIResponse`` (status, headers, ``request_id``, ``parse()``)::

        response = client.with_raw_response.whoami()
        print(response.headers["x-request-id"], response.parse().plan)
        """
        return RawResponses(self)

    async def get(
        self,
        path: str,
        *,
        params: Optional[Mapping[str, object]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Mapping[str, object]] = None,
        extra_body: Optional[Mapping[str, Any]] = None,
    ) -> Any:
        """A GET to any path of the API (for endpoints this SDK does not wrap yet); the parsed JSON body."""
        options = RequestOptions(timeout, max_retries, None, extra_headers, extra_query, extra_body)
        return await self.request("GET", path, params=params, options=options)

    async def post(
        self,
        path: str,
        *,
        params: Optional[Mapping[str, object]] = None,
        body: Optional[Mapping[str, Any]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Mapping[str, object]] = None,
        extra_body: Optional[Mapping[str, Any]] = None,
    ) -> Any:
        """A POST to any path of the API (with an Idempotency-Key); the parsed JSON body."""
        options = RequestOptions(timeout, max_retries, idempotency_key, extra_headers, extra_query, extra_body)
        return await self.request("POST", path, params=params, body=body, options=options)

    async def put(
        self,
        path: str,
        *,
        params: Optional[Mapping[str, object]] = None,
        body: Optional[Mapping[str, Any]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Mapping[str, object]] = None,
        extra_body: Optional[Mapping[str, Any]] = None,
    ) -> Any:
        """A PUT to any path of the API; the parsed JSON body."""
        options = RequestOptions(timeout, max_retries, None, extra_headers, extra_query, extra_body)
        return await self.request("PUT", path, params=params, body=body, options=options)

    async def patch(
        self,
        path: str,
        *,
        params: Optional[Mapping[str, object]] = None,
        body: Optional[Mapping[str, Any]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Mapping[str, object]] = None,
        extra_body: Optional[Mapping[str, Any]] = None,
    ) -> Any:
        """A PATCH to any path of the API; the parsed JSON body."""
        options = RequestOptions(timeout, max_retries, None, extra_headers, extra_query, extra_body)
        return await self.request("PATCH", path, params=params, body=body, options=options)

    async def delete(
        self,
        path: str,
        *,
        params: Optional[Mapping[str, object]] = None,
        body: Optional[Mapping[str, Any]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Mapping[str, object]] = None,
        extra_body: Optional[Mapping[str, Any]] = None,
    ) -> Any:
        """A DELETE to any path of the API; the parsed JSON body (None when empty)."""
        options = RequestOptions(timeout, max_retries, None, extra_headers, extra_query, extra_body)
        return await self.request("DELETE", path, params=params, body=body, options=options)

    async def request(
        self,
        method: str,
        path: str,
        *,
        params: Optional[Mapping[str, object]] = None,
        body: Optional[Mapping[str, Any]] = None,
        options: RequestOptions = NO_OPTIONS,
    ) -> Any:
        """Sends one call (retrying as allowed) and returns its parsed JSON body."""
        return _parse_json(await self._send(method, path, params=params, body=body, options=options))

    async def request_model(
        self,
        model: type[M],
        method: str,
        path: str,
        *,
        params: Optional[Mapping[str, object]] = None,
        body: Optional[Mapping[str, Any]] = None,
        options: RequestOptions = NO_OPTIONS,
    ) -> M:
        """Sends one call and returns its body as ``model``, with ``_request_id`` set."""
        response = await self._send(method, path, params=params, body=body, options=options)
        result = model.model_validate(_parse_json(response))
        result._request_id = response.headers.get("x-request-id")
        return result

    async def _send(
        self,
        method: str,
        path: str,
        *,
        params: Optional[Mapping[str, object]],
        body: Optional[Mapping[str, Any]],
        options: RequestOptions,
    ) -> httpx.Response:
        """The call's successful response (its body read), after retries; raises an APIError otherwise."""
        request = self._build_request(self._client, method, path, params, body, options)
        max_retries = self._max_retries(options)
        retries_taken = 0
        while True:
            self._log_request(request, retries_taken + 1)
            started = time.monotonic()
            try:
                response = await self._client.send(request)
            except httpx.TimeoutException as exc:
                if retries_taken < max_retries:
                    self._log_retry(request, "timeout")
                    await _retry.async_sleep(_retry.retry_delay(retries_taken))
                    retries_taken += 1
                    continue
                raise APIConnectionTimeoutError(request=request) from exc
            except httpx.TransportError as exc:
                if retries_taken < max_retries:
                    self._log_retry(request, "connection error")
                    await _retry.async_sleep(_retry.retry_delay(retries_taken))
                    retries_taken += 1
                    continue
                raise APIConnectionError(message=connection_error_message(request, exc), request=request) from exc
            self._log_response(request, response, started)
            if response.is_success:
                self._received(response)
                return response
            if retries_taken < max_retries and _retry.should_retry(response.status_code, response.headers):
                await response.aclose()
                self._log_retry(request, str(response.status_code))
                await _retry.async_sleep(_retry.retry_delay(retries_taken, response.headers))
                retries_taken += 1
                continue
            raise make_api_error(response)

    def get_list(
        self,
        path: str,
        params: Mapping[str, object],
        items: Callable[[Any], list[T]],
        options: RequestOptions = NO_OPTIONS,
    ) -> AsyncPaginator[T]:
        """A cursor-paginated GET: await it for the first page, or ``async for`` over every item."""

        async def fetch(cursor: Optional[str]) -> AsyncPage[T]:
            query = dict(params) if cursor is None else {**params, "cursor": cursor}
            body = await self.request("GET", path, params=query, options=options)
            return AsyncPage(data=items(body), next_cursor=_next_cursor(body), fetch_page=fetch)

        return AsyncPaginator(lambda: fetch(None))

    async def close(self) -> None:
        """Closes the HTTP client, unless it was given to this one."""
        if self._owns_client:
            await self._client.aclose()

    async def __aenter__(self) -> AsyncInterlock:
        return self

    async def __aexit__(
        self,
        exc_type: Optional[type[BaseException]],
        exc: Optional[BaseException],
        tb: Optional[TracebackType],
    ) -> None:
        await self.close()


def _query(params: Optional[Mapping[str, object]]) -> httpx.QueryParams:
    """Query pairs: unset values dropped, datetimes as ISO 8601 UTC, booleans as true/false."""
    pairs: list[tuple[str, Union[str, int, float, bool, None]]] = []
    for name, value in (params or {}).items():
        if value is None:
            continue
        if isinstance(value, bool):
            pairs.append((name, "true" if value else "false"))
        elif isinstance(value, datetime):
            pairs.append((name, format_timestamp(value)))
        elif isinstance(value, date):
            pairs.append((name, value.isoformat()))
        else:
            pairs.append((name, str(value)))
    return httpx.QueryParams(pairs)


def format_timestamp(value: datetime) -> str:
    """ISO 8601 UTC with milliseconds, as the API writes them; a naive datetime is taken as UTC."""
    if value.tzinfo is None:
        value = value.replace(tzinfo=timezone.utc)
    return value.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _parse_json(response: httpx.Response) -> Any:
    if not response.content:
        return None
    try:
        return response.json()
    except ValueError as exc:
        raise APIError(
            f"{response.status_code} response was not valid JSON.",
            status=response.status_code,
            body=response.text,
            response=response,
        ) from exc


def _next_cursor(body: Any) -> Optional[str]:
    cursor = body.get("nextCursor") if isinstance(body, dict) else None
    return cursor if isinstance(cursor, str) and cursor else None
