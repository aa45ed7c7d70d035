"""The clients: ``Interlock`` (sync, httpx.Client) and ``AsyncInterlock`` (async, httpx.AsyncClient).

``AsyncInterlock`` is written in ``_async/client.py``; ``Interlock`` is generated from it
(``_sync/client.py``, by unasync); what both share is in ``_base_client.py``.
"""

from ._async.client import AsyncInterlock
from ._base_client import (
    DEFAULT_BASE_URL,
    DEFAULT_MAX_RETRIES,
    DEFAULT_TIMEOUT,
    _setup_logging,
    format_timestamp,
    redact_headers,
)
from ._options import RequestOptions, Timeout
from ._sync.client import Interlock

__all__ = [
    "DEFAULT_BASE_URL",
    "DEFAULT_MAX_RETRIES",
    "DEFAULT_TIMEOUT",
    "AsyncInterlock",
    "Interlock",
    "RequestOptions",
    "Timeout",
    "_setup_logging",
    "format_timestamp",
    "redact_headers",
]
