"""Agent runs streamed into the Live View: ``/api/sessions``.

``AsyncSessions`` is written in ``_async/sessions.py``; ``Sessions`` is generated from it
(``_sync/sessions.py``, by unasync); what both share is in ``_sessions_base.py``.
"""

from ._async.sessions import AsyncSessions
from ._sync.sessions import Sessions

__all__ = ["AsyncSessions", "Sessions"]
