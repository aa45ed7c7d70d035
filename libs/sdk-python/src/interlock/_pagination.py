"""Cursor pagination (SPEC §7): every list answers ``{<items>, nextCursor}``; the next page is the same
request with ``cursor`` set and every other parameter identical; a null ``nextCursor`` ends it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Generator, Iterator
from typing import Any, Callable, Generic, Optional, TypeVar

from ._errors import InterlockError

__all__ = ["AsyncPage", "AsyncPaginator", "SyncPage"]

T = TypeVar("T")


class _Page(Generic[T]):
    """What a sync and an async page share: the items, the next cursor and whether there is a next page."""

    def __init__(self, data: list[T], next_cursor: Optional[str]) -> None:
        #: The items of this page.
        self.data = data
        #: The cursor of the next page; None on the last.
        self.next_cursor = next_cursor

    def has_next_page(self) -> bool:
        return isinstance(self.next_cursor, str) and self.next_cursor != ""

    def _next_page_cursor(self) -> str:
        """The cursor to fetch the next page with; raises when there is none."""
        if self.next_cursor is None or not self.has_next_page():
            raise InterlockError("No next page: check has_next_page() before calling get_next_page().")
        return self.next_cursor

    def __repr__(self) -> str:
        return f"{type(self).__name__}(items={len(self.data)}, next_cursor={self.next_cursor!r})"


class SyncPage(_Page[T]):
    """One page of a list. Iterating it walks this page's items and every later page's."""

    def __init__(self, *, data: list[T], next_cursor: Optional[str], fetch_page: Callable[[str], SyncPage[T]]) -> None:
        super().__init__(data, next_cursor)
        self._fetch_page = fetch_page

    def get_next_page(self) -> SyncPage[T]:
        """The next page; raises when there is none (check ``has_next_page()`` first)."""
        return self._fetch_page(self._next_page_cursor())

    def iter_pages(self) -> Iterator[SyncPage[T]]:
        """This page and each later one, fetched as the loop asks for them."""
        page: Optional[SyncPage[T]] = self
        while page is not None:
            yield page
            page = page.get_next_page() if page.has_next_page() else None

    def __iter__(self) -> Iterator[T]:
        for page in self.iter_pages():
            yield from page.data


class AsyncPage(_Page[T]):
    """One page of a list. ``async for`` over it walks this page's items and every later page's."""

    def __init__(
        self, *, data: list[T], next_cursor: Optional[str], fetch_page: Callable[[str], Awaitable[AsyncPage[T]]]
    ) -> None:
        super().__init__(data, next_cursor)
        self._fetch_page = fetch_page

    async def get_next_page(self) -> AsyncPage[T]:
        """The next page; raises when there is none (check ``has_next_page()`` first)."""
        return await self._fetch_page(self._next_page_cursor())

    async def iter_pages(self) -> AsyncIterator[AsyncPage[T]]:
        page: Optional[AsyncPage[T]] = self
        while page is not None:
            yield page
            page = await page.get_next_page() if page.has_next_page() else None

    async def __aiter__(self) -> AsyncIterator[T]:
        async for page in self.iter_pages():
            for item in page.data:
                yield item


class AsyncPaginator(Generic[T]):
    """What an async ``list`` returns: ``await`` it for the first page, or ``async for`` over it for every
    item of every page. The first request is made when first needed."""

    def __init__(self, load: Callable[[], Awaitable[AsyncPage[T]]]) -> None:
        self._load = load
        self._first: Optional[AsyncPage[T]] = None

    async def first_page(self) -> AsyncPage[T]:
        if self._first is None:
            self._first = await self._load()
        return self._first

    def __await__(self) -> Generator[Any, None, AsyncPage[T]]:
        return self.first_page().__await__()

    async def __aiter__(self) -> AsyncIterator[T]:
        page = await self.first_page()
        async for item in page:
            yield item


def pages(load: Callable[[], SyncPage[T]]) -> SyncPage[T]:
    """What the sync client's listings return: the first page, loaded now (iterating it walks every page)."""
    return load()


def async_pages(load: Callable[[], Awaitable[AsyncPage[T]]]) -> AsyncPaginator[T]:
    """What the async client's listings return (the source ``pages`` is generated from, by unasync)."""
    return AsyncPaginator(load)
