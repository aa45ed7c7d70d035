"""``AsyncInterlock``: the source of the generated sync client ``_sync/client.py`` (``Interlock``).

Edit this file, then run ``node tools/scripts/python-sdk.mjs unasync`` to regenerate the sync twin.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from types import TracebackType
from typing import Any, Callable, Optional

import httpx

from .. import _retry
from .._base_client import (
    DEFAULT_MAX_RETRIES,
    M,
    T,
    _BaseClient,
    _next_cursor,
    _parse_json,
)
from .._errors import APIConnectionError, APIConnectionTimeoutError, connection_error_message, make_api_error
from .._options import NO_OPTIONS, Headers, RequestOptions, Timeout
from .._pagination import AsyncPage, AsyncPaginator, async_pages
from .._response import RawResponses
from ..resources.audit_log import AsyncAuditLog
from ..resources.interrupts import AsyncInterrupts
from ..resources.sessions import AsyncSessions
from ..types import Whoami
from ..webhooks import Webhooks

__all__ = ["AsyncInterlock"]


class AsyncInterlock(_BaseClient):
    """The Interlock client, sync (``Interlock``, on httpx.Client) or async (``AsyncInterlock``, on
    httpx.AsyncClient): the same calls, awaited on the async one.

    It reads the key from ``INTERLOCK_API_KEY`` and the service's origin from ``INTERLOCK_BASE_URL``
    (default http://localhost:3000). Timeouts are in seconds.
    """

    interrupts: AsyncInterrupts
    sessions: AsyncSessions
    audit_log: AsyncAuditLog
    #: Verifies the webhooks Interlock sends (``verify``, ``unwrap``: no I/O, never awaited).
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
        """A cursor-paginated GET: ``items`` turns a page's body into its items. The sync client returns the
        first page; the async one a paginator (await it for the first page, or ``async for`` over every item)."""

        async def fetch(cursor: Optional[str]) -> AsyncPage[T]:
            query = dict(params) if cursor is None else {**params, "cursor": cursor}
            body = await self.request("GET", path, params=query, options=options)
            return AsyncPage(data=items(body), next_cursor=_next_cursor(body), fetch_page=fetch)

        return async_pages(lambda: fetch(None))

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
