"""The organisation's append-only audit log: ``/api/audit-log`` (Pro plan)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Optional

from .._options import Headers, Timeout
from ..types import ActorType, AuditCategory, AuditLogEntry, TargetType
from ._base import ClientT, ListingResource, ListT, read_options
from ._wire import Id, Timestamp, compact, wire_id

if TYPE_CHECKING:
    # Named by the sync and async classes' base (string type arguments, which ruff does not read).
    from .._client import AsyncInterlock, Interlock  # noqa: F401
    from .._pagination import AsyncPaginator, SyncPage  # noqa: F401

__all__ = ["AsyncAuditLog", "AuditLog"]


def _entries(body: Any) -> list[AuditLogEntry]:
    return [AuditLogEntry.model_validate(item) for item in body.get("entries", [])]


def _params(
    q: Optional[str],
    category: Optional[AuditCategory],
    action: Optional[str],
    actor_type: Optional[ActorType],
    actor_id: Optional[Id],
    target_type: Optional[TargetType],
    target_id: Optional[Id],
    from_: Optional[Timestamp],
    to: Optional[Timestamp],
    limit: Optional[int],
    cursor: Optional[str],
) -> dict[str, object]:
    return compact(
        {
            "q": q,
            "category": category,
            "action": action,
            "actorType": actor_type,
            "actorId": wire_id(actor_id),
            "targetType": target_type,
            "targetId": wire_id(target_id),
            "from": from_,
            "to": to,
            "limit": limit,
            "cursor": cursor,
        }
    )


class _AuditLog(ListingResource[ClientT, ListT]):
    def list(
        self,
        *,
        q: Optional[str] = None,
        category: Optional[AuditCategory] = None,
        action: Optional[str] = None,
        actor_type: Optional[ActorType] = None,
        actor_id: Optional[Id] = None,
        target_type: Optional[TargetType] = None,
        target_id: Optional[Id] = None,
        from_: Optional[Timestamp] = None,
        to: Optional[Timestamp] = None,
        limit: Optional[int] = None,
        cursor: Optional[str] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Mapping[str, object]] = None,
        extra_body: Optional[Mapping[str, Any]] = None,
    ) -> ListT:
        """Entries, newest first. ``for e in client.audit_log.list(...)`` walks every page with the same
        filters; the returned first page also gives page-by-page access (async: ``async for`` walks every
        page; ``await`` it for the first page). ``from_`` is inclusive, ``to`` exclusive (ISO 8601 strings
        or datetimes; naive datetimes are taken as UTC)."""
        options = read_options(timeout, max_retries, extra_headers, extra_query, extra_body)
        params = _params(q, category, action, actor_type, actor_id, target_type, target_id, from_, to, limit, cursor)
        return self._get_list("/api/audit-log", params, _entries, options)


class AuditLog(_AuditLog["Interlock", "SyncPage[AuditLogEntry]"]):
    """``client.audit_log``."""


class AsyncAuditLog(_AuditLog["AsyncInterlock", "AsyncPaginator[AuditLogEntry]"]):
    """``client.audit_log`` of the async client."""
