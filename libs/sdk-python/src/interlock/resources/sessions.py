"""Agent runs streamed into the Live View: ``/api/sessions``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Optional

from .._options import Headers, RequestOptions, Timeout
from .._response import RawResponses
from ..types import Session, SessionAppendResponse
from ._wire import Id, SessionMessageInput, compact, path_id, to_wire

if TYPE_CHECKING:
    from .._client import AsyncInterlock, Interlock

__all__ = ["AsyncSessions", "Sessions"]


def _start_body(name: str, external_id: Optional[str], metadata: Optional[Mapping[str, Any]]) -> Mapping[str, Any]:
    return compact({"name": name, "externalId": external_id, "metadata": dict(metadata) if metadata else metadata})


def _append_body(messages: Sequence[SessionMessageInput]) -> Mapping[str, Any]:
    return {"messages": [to_wire(message) for message in messages]}


class Sessions:
    def __init__(self, client: Interlock) -> None:
        self._client = client

    @property
    def with_raw_response(self) -> Any:
        """The same calls, returning an ``APIResponse`` (status, headers, ``request_id``, ``parse()``)."""
        return RawResponses(self)

    def start(
        self,
        *,
        name: str,
        external_id: Optional[str] = None,
        metadata: Optional[Mapping[str, Any]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Mapping[str, object]] = None,
        extra_body: Optional[Mapping[str, Any]] = None,
    ) -> Session:
        """Starts a session."""
        options = RequestOptions(timeout, max_retries, idempotency_key, extra_headers, extra_query, extra_body)
        body = _start_body(name, external_id, metadata)
        return self._client.request_model(Session, "POST", "/api/sessions", body=body, options=options)

    def append(
        self,
        session_id: Id,
        messages: Sequence[SessionMessageInput],
        *,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Mapping[str, object]] = None,
        extra_body: Optional[Mapping[str, Any]] = None,
    ) -> SessionAppendResponse:
        """Appends 1–100 messages (``{"role": ..., "content": ...}``) to a session's transcript."""
        options = RequestOptions(timeout, max_retries, idempotency_key, extra_headers, extra_query, extra_body)
        path = f"/api/sessions/{path_id(session_id)}/messages"
        return self._client.request_model(
            SessionAppendResponse, "POST", path, body=_append_body(messages), options=options
        )

    def end(
        self,
        session_id: Id,
        *,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Mapping[str, object]] = None,
        extra_body: Optional[Mapping[str, Any]] = None,
    ) -> Session:
        """Ends a session (a POST with no body)."""
        options = RequestOptions(timeout, max_retries, idempotency_key, extra_headers, extra_query, extra_body)
        path = f"/api/sessions/{path_id(session_id)}/end"
        return self._client.request_model(Session, "POST", path, options=options)


class AsyncSessions:
    def __init__(self, client: AsyncInterlock) -> None:
        self._client = client

    @property
    def with_raw_response(self) -> Any:
        """The same calls, returning an ``APIResponse`` (status, headers, ``request_id``, ``parse()``)."""
        return RawResponses(self)

    async def start(
        self,
        *,
        name: str,
        external_id: Optional[str] = None,
        metadata: Optional[Mapping[str, Any]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Mapping[str, object]] = None,
        extra_body: Optional[Mapping[str, Any]] = None,
    ) -> Session:
        """Starts a session."""
        options = RequestOptions(timeout, max_retries, idempotency_key, extra_headers, extra_query, extra_body)
        body = _start_body(name, external_id, metadata)
        return await self._client.request_model(Session, "POST", "/api/sessions", body=body, options=options)

    async def append(
        self,
        session_id: Id,
        messages: Sequence[SessionMessageInput],
        *,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Mapping[str, object]] = None,
        extra_body: Optional[Mapping[str, Any]] = None,
    ) -> SessionAppendResponse:
        """Appends 1–100 messages (``{"role": ..., "content": ...}``) to a session's transcript."""
        options = RequestOptions(timeout, max_retries, idempotency_key, extra_headers, extra_query, extra_body)
        path = f"/api/sessions/{path_id(session_id)}/messages"
        return await self._client.request_model(
            SessionAppendResponse, "POST", path, body=_append_body(messages), options=options
        )

    async def end(
        self,
        session_id: Id,
        *,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Mapping[str, object]] = None,
        extra_body: Optional[Mapping[str, Any]] = None,
    ) -> Session:
        """Ends a session (a POST with no body)."""
        options = RequestOptions(timeout, max_retries, idempotency_key, extra_headers, extra_query, extra_body)
        path = f"/api/sessions/{path_id(session_id)}/end"
        return await self._client.request_model(Session, "POST", path, options=options)
