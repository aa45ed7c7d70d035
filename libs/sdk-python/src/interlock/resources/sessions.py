"""Agent runs streamed into the Live View: ``/api/sessions``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Optional

from .._options import Headers, RequestOptions, Timeout
from ..types import Session, SessionAppendResponse, SessionListStatus
from ._base import ClientT, ListingResource, ListT, read_options
from ._wire import Id, SessionMessageInput, compact, path_id, to_wire

if TYPE_CHECKING:
    # Named by the sync and async classes' base (string type arguments, which ruff does not read).
    from .._client import AsyncInterlock, Interlock  # noqa: F401
    from .._pagination import AsyncPaginator, SyncPage  # noqa: F401

__all__ = ["AsyncSessions", "Sessions"]


def _start_body(name: str, external_id: Optional[str], metadata: Optional[Mapping[str, Any]]) -> Mapping[str, Any]:
    return compact({"name": name, "externalId": external_id, "metadata": dict(metadata) if metadata else metadata})


def _append_body(messages: Sequence[SessionMessageInput]) -> Mapping[str, Any]:
    return {"messages": [to_wire(message) for message in messages]}


def _list_params(
    status: Optional[SessionListStatus], external_id: Optional[str], limit: Optional[int], cursor: Optional[str]
) -> Mapping[str, object]:
    return compact({"status": status, "externalId": external_id, "limit": limit, "cursor": cursor})


def _sessions(body: Any) -> list[Session]:
    return [Session.model_validate(item) for item in body.get("sessions", [])]


class _Sessions(ListingResource[ClientT, ListT]):
    def list(
        self,
        *,
        status: Optional[SessionListStatus] = None,
        external_id: Optional[str] = None,
        limit: Optional[int] = None,
        cursor: Optional[str] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Mapping[str, object]] = None,
        extra_body: Optional[Mapping[str, Any]] = None,
    ) -> ListT:
        """Sessions, newest first (by ``started_at``): the first page, iterating which walks every page
        (async: ``await`` it for the first page, or ``async for`` over every item). ``status="ended"`` is
        every session no longer active (ended or disconnected)."""
        options = read_options(timeout, max_retries, extra_headers, extra_query, extra_body)
        return self._get_list("/api/sessions", _list_params(status, external_id, limit, cursor), _sessions, options)


class Sessions(_Sessions["Interlock", "SyncPage[Session]"]):
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

    def retrieve(
        self,
        session_id: Id,
        *,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Mapping[str, object]] = None,
        extra_body: Optional[Mapping[str, Any]] = None,
    ) -> Session:
        """One session (``message_count``, ``status``, ``ended_at``…)."""
        options = read_options(timeout, max_retries, extra_headers, extra_query, extra_body)
        return self._client.request_model(Session, "GET", f"/api/sessions/{path_id(session_id)}", options=options)

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


class AsyncSessions(_Sessions["AsyncInterlock", "AsyncPaginator[Session]"]):
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

    async def retrieve(
        self,
        session_id: Id,
        *,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Mapping[str, object]] = None,
        extra_body: Optional[Mapping[str, Any]] = None,
    ) -> Session:
        """One session (``message_count``, ``status``, ``ended_at``…)."""
        options = read_options(timeout, max_retries, extra_headers, extra_query, extra_body)
        path = f"/api/sessions/{path_id(session_id)}"
        return await self._client.request_model(Session, "GET", path, options=options)

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
