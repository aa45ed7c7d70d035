"""Agent runs streamed into the Live View (`/api/sessions`): what the sync and async classes share."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Optional

from .._options import Headers, Timeout
from ..types import Session, SessionListStatus
from ._base import ClientT, ListingResource, ListT, read_options
from ._wire import SessionMessageInput, compact, to_wire

if TYPE_CHECKING:
    from .._pagination import AsyncPaginator, SyncPage

    #: The page types of ``sessions.list``: unasync turns the async name into the sync one.
    AsyncSessionPages = AsyncPaginator[Session]
    SessionPages = SyncPage[Session]


def _start_body(name: str, external_id: Optional[str], metadata: Optional[Mapping[str, Any]]) -> Mapping[str, Any]:
    return compact({"name": name, "externalId": external_id, "metadata": dict(metadata) if metadata else metadata})


def _append_body(messages: Sequence[SessionMessageInput]) -> Mapping[str, Any]:
    return {"messages": [to_wire(message) for message in messages]}


def _list_params(
    status: Optional[SessionListStatus],
    external_id: Optional[str],
    q: Optional[str],
    limit: Optional[int],
    cursor: Optional[str],
) -> Mapping[str, object]:
    return compact({"status": status, "externalId": external_id, "q": q, "limit": limit, "cursor": cursor})


def _sessions(body: Any) -> list[Session]:
    return [Session.model_validate(item) for item in body.get("sessions", [])]


class _Sessions(ListingResource[ClientT, ListT]):
    def list(
        self,
        *,
        status: Optional[SessionListStatus] = None,
        external_id: Optional[str] = None,
        q: Optional[str] = None,
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
        every session no longer active (ended or disconnected). ``q`` finds sessions by name (every word a
        prefix of a word of the name; case and accents ignored; at most 8 words) or by the beginning of
        their id (8 characters or more)."""
        options = read_options(timeout, max_retries, extra_headers, extra_query, extra_body)
        params = _list_params(status, external_id, q, limit, cursor)
        return self._get_list("/api/sessions", params, _sessions, options)
