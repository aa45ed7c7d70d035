"""What the two clients share: settings, request building, logging, the response helpers."""

from __future__ import annotations

import json
import logging
import os
import platform
import time
import uuid
from collections.abc import Mapping
from datetime import date, datetime, timezone
from typing import Any, Optional, TypeVar, Union

import httpx

from ._errors import (
    APIError,
    InterlockError,
)
from ._models import InterlockModel
from ._options import RequestOptions, Timeout
from ._response import captured
from ._version import __version__

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
