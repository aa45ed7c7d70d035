"""Agent runs streamed into the Live View: ``/api/sessions``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Optional

from .._options import Headers, RequestOptions, Timeout
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
    ) -> Session:
        """Starts a session."""
        options = RequestOptions(timeout, max_retries, idempotency_key, extra_headers)
        body = _start_body(name, external_id, metadata)
        return Session.model_validate(self._client.request("POST", "/api/sessions", body=body, options=options))

    def append(
        self,
        session_id: Id,
        messages: Sequence[SessionMessageInput],
        *,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Headers] = None,
    ) -> SessionAppendResponse:
        """Appends 1–100 messages (``{"role": ..., "content": ...}``) to a session's transcript."""
        options = RequestOptions(timeout, max_retries, idempotency_key, extra_headers)
        path = f"/api/sessions/{path_id(session_id)}/messages"
        return SessionAppendResponse.model_validate(
            self._client.request("POST", path, body=_append_body(messages), options=options)
        )

    def end(
        self,
        session_id: Id,
        *,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Headers] = None,
    ) -> Session:
        """Ends a session (a POST with no body)."""
        options = RequestOptions(timeout, max_retries, idempotency_key, extra_headers)
        path = f"/api/sessions/{path_id(session_id)}/end"
        return Session.model_validate(self._client.request("POST", path, options=options))


class AsyncSessions:
    def __init__(self, client: AsyncInterlock) -> None:
        self._client = client

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
    ) -> Session:
        """Starts a session."""
        options = RequestOptions(timeout, max_retries, idempotency_key, extra_headers)
        body = _start_body(name, external_id, metadata)
        return Session.model_validate(await self._client.request("POST", "/api/sessions", body=body, options=options))

    async def append(
        self,
        session_id: Id,
        messages: Sequence[SessionMessageInput],
        *,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Headers] = None,
    ) -> SessionAppendResponse:
        """Appends 1–100 messages (``{"role": ..., "content": ...}``) to a session's transcript."""
        options = RequestOptions(timeout, max_retries, idempotency_key, extra_headers)
        path = f"/api/sessions/{path_id(session_id)}/messages"
        return SessionAppendResponse.model_validate(
            await self._client.request("POST", path, body=_append_body(messages), options=options)
        )

    async def end(
        self,
        session_id: Id,
        *,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Headers] = None,
    ) -> Session:
        """Ends a session (a POST with no body)."""
        options = RequestOptions(timeout, max_retries, idempotency_key, extra_headers)
        path = f"/api/sessions/{path_id(session_id)}/end"
        return Session.model_validate(await self._client.request("POST", path, options=options))
