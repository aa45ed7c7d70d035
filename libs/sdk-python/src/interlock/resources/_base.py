"""What every resource shares, sync or async: its client, ``with_raw_response``, and the one way a list
is fetched. A resource's ``list`` is written once, in a base generic over the client and the page type
(``SyncPage[X]`` for ``Interlock``, ``AsyncPaginator[X]`` for ``AsyncInterlock``, whose ``list`` is not
a coroutine either); the sync and async classes only name those two types."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Callable, Generic, Optional, TypeVar, Union, cast

from .._options import Headers, RequestOptions, Timeout
from .._response import RawResponses

if TYPE_CHECKING:
    from .._client import AsyncInterlock, Interlock

__all__ = ["ListingResource", "Resource", "read_options"]

ClientT = TypeVar("ClientT", bound="Union[Interlock, AsyncInterlock]")
#: What a list call returns: ``SyncPage[X]`` (sync) or ``AsyncPaginator[X]`` (async).
ListT = TypeVar("ListT")


def read_options(
    timeout: Optional[Timeout],
    max_retries: Optional[int],
    extra_headers: Optional[Headers],
    extra_query: Optional[Mapping[str, object]],
    extra_body: Optional[Mapping[str, Any]],
) -> RequestOptions:
    """The options of a call that writes nothing (no Idempotency-Key)."""
    return RequestOptions(
        timeout=timeout,
        max_retries=max_retries,
        extra_headers=extra_headers,
        extra_query=extra_query,
        extra_body=extra_body,
    )


class Resource(Generic[ClientT]):
    def __init__(self, client: ClientT) -> None:
        self._client = client

    @property
    def with_raw_response(self) -> Any:
        """The same calls, returning an ``APIResponse`` (status, headers, ``request_id``, ``parse()``)."""
        return RawResponses(self)


class ListingResource(Resource[ClientT], Generic[ClientT, ListT]):
    def _get_list(
        self, path: str, params: Mapping[str, object], items: Callable[[Any], list[Any]], options: RequestOptions
    ) -> ListT:
        """A cursor-paginated GET through the client: its first page (sync), or its paginator (async)."""
        return cast(ListT, self._client.get_list(path, params, items, options))
