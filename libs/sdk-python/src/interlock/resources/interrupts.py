"""Human-review requests: ``/api/interrupts``.

``AsyncInterrupts`` is written in ``_async/interrupts.py``; ``Interrupts`` is generated from it
(``_sync/interrupts.py``, by unasync); what both share is in ``_interrupts_base.py``.
"""

from ._async.interrupts import AsyncInterrupts
from ._interrupts_base import DEFAULT_POLL_INTERVAL, DEFAULT_WAIT_TIMEOUT, MAX_WAIT_SECONDS
from ._sync.interrupts import Interrupts

__all__ = ["DEFAULT_POLL_INTERVAL", "DEFAULT_WAIT_TIMEOUT", "MAX_WAIT_SECONDS", "AsyncInterrupts", "Interrupts"]
