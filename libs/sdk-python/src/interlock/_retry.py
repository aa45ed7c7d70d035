"""When and how long to wait before retrying a request: 408/409/429/5xx and connection errors, with
exponential backoff and jitter; the server's Retry-After wins when it is sane."""

from __future__ import annotations

import asyncio
import email.utils
import random
import time
from collections.abc import Mapping
from typing import Optional

INITIAL_RETRY_DELAY = 0.5
MAX_RETRY_DELAY = 8.0
#: A server-suggested wait longer than this (seconds) is ignored in favour of the backoff.
MAX_RETRY_AFTER = 60.0


def should_retry(status: int, headers: Mapping[str, str]) -> bool:
    """Whether a response with this status (and headers) is worth retrying."""
    explicit = headers.get("x-should-retry")
    if explicit == "true":
        return True
    if explicit == "false":
        return False
    return status in (408, 409, 429) or status >= 500


def retry_after(headers: Optional[Mapping[str, str]], now: Optional[float] = None) -> Optional[float]:
    """The server's suggested wait in seconds (``retry-after-ms``, else ``Retry-After`` as seconds or
    an HTTP date), if it gave a readable one."""
    if headers is None:
        return None
    ms = headers.get("retry-after-ms")
    if ms is not None and ms.strip():
        try:
            return float(ms) / 1000
        except ValueError:
            pass
    after = headers.get("retry-after")
    if after is None or not after.strip():
        return None
    try:
        return float(after)
    except ValueError:
        pass
    try:
        date = email.utils.parsedate_to_datetime(after)
    except (TypeError, ValueError, IndexError):
        return None
    return date.timestamp() - (time.time() if now is None else now)


def retry_delay(retries_taken: int, headers: Optional[Mapping[str, str]] = None, now: Optional[float] = None) -> float:
    """Seconds to wait before retry number ``retries_taken + 1``."""
    suggested = retry_after(headers, now)
    if suggested is not None and 0 <= suggested <= MAX_RETRY_AFTER:
        return suggested
    base = min(INITIAL_RETRY_DELAY * 2.0**retries_taken, MAX_RETRY_DELAY)
    return base * (1 - random.random() * 0.25)


# Indirections so tests can observe the waits without waiting.
def sleep(seconds: float) -> None:
    time.sleep(seconds)


async def async_sleep(seconds: float) -> None:
    await asyncio.sleep(seconds)
