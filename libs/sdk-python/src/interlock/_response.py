"""Raw response access (openai's ``with_raw_response``): the HTTP response of a call beside its result."""

from __future__ import annotations

import inspect
from contextvars import ContextVar
from typing import Any, Callable, Generic, Optional, TypeVar

import httpx

__all__ = ["APIResponse", "RawResponses", "captured"]

T = TypeVar("T")

#: While a ``with_raw_response`` call runs, the successful HTTP responses it received.
captured: ContextVar[Optional[list[httpx.Response]]] = ContextVar("interlock_captured", default=None)


class APIResponse(Generic[T]):
    """A call's HTTP response (``with_raw_response``): its status, headers and request id, and
    ``parse()`` for the result the method would have returned."""

    def __init__(self, http_response: httpx.Response, parsed: T) -> None:
        self.http_response = http_response
        self._parsed = parsed

    @property
    def status_code(self) -> int:
        return self.http_response.status_code

    @property
    def headers(self) -> httpx.Headers:
        return self.http_response.headers

    @property
    def request_id(self) -> Optional[str]:
        request_id: Optional[str] = self.http_response.headers.get("x-request-id")
        return request_id

    @property
    def content(self) -> bytes:
        return self.http_response.content

    def json(self) -> Any:
        return self.http_response.json()

    def parse(self) -> T:
        return self._parsed


class RawResponses:
    """``x.with_raw_response.method(...)``: the same call, returning an ``APIResponse`` (the last HTTP
    response the call received) instead of the parsed result."""

    def __init__(self, target: object) -> None:
        self._target = target

    def __getattr__(self, name: str) -> Callable[..., Any]:
        method = getattr(self._target, name)
        if not callable(method):
            raise AttributeError(name)
        if inspect.iscoroutinefunction(method):

            async def call_async(*args: Any, **kwargs: Any) -> APIResponse[Any]:
                token = captured.set([])
                try:
                    parsed = await method(*args, **kwargs)
                    responses = captured.get() or []
                finally:
                    captured.reset(token)
                return APIResponse(responses[-1], parsed)

            return call_async

        def call(*args: Any, **kwargs: Any) -> APIResponse[Any]:
            token = captured.set([])
            try:
                parsed = method(*args, **kwargs)
                responses = captured.get() or []
            finally:
                captured.reset(token)
            return APIResponse(responses[-1], parsed)

        return call
