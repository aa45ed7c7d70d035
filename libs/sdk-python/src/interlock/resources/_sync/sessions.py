"""Generated from ``interlock/resources/_async/sessions.py`` by unasync (``scripts/gen_sync.py``): do not edit.

Change the async source, then run ``node tools/scripts/python-sdk.mjs unasync``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Optional

from ..._options import Headers, RequestOptions, Timeout
from ...types import Session, SessionAppendResponse
from .._base import read_options
from .._sessions_base import _append_body, _Sessions, _start_body
from .._wire import Id, SessionMessageInput, path_id

if TYPE_CHECKING:
    from ..._client import Interlock  # noqa: F401
    from .._sessions_base import SessionPages  # noqa: F401

__all__ = ["Sessions"]


class Sessions(_Sessions["Interlock", "SessionPages"]):
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
        path = f"/api/sessions/{path_id(session_id)}"
        return self._client.request_model(Session, "GET", path, options=options)

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
