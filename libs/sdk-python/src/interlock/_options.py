"""Per-call request options, shared by the clients and their resources."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Optional, Union

import httpx

__all__ = ["Headers", "RequestOptions", "Timeout"]

#: Seconds, or an httpx.Timeout for separate connect/read/write/pool limits.
Timeout = Union[float, httpx.Timeout]
#: Extra headers for one call; a None value removes a header the SDK would send.
Headers = Mapping[str, Optional[str]]


@dataclass(frozen=True)
class RequestOptions:
    """Per-call overrides of the client's settings."""

    timeout: Optional[Timeout] = None
    max_retries: Optional[int] = None
    #: The Idempotency-Key of a POST; the SDK makes one per call when this is None.
    idempotency_key: Optional[str] = None
    extra_headers: Optional[Headers] = None
    #: Extra query parameters (they win over the call's own).
    extra_query: Optional[Mapping[str, object]] = None
    #: Extra top-level JSON body fields, for fields this SDK version does not know yet.
    extra_body: Optional[Mapping[str, Any]] = None


NO_OPTIONS = RequestOptions()
