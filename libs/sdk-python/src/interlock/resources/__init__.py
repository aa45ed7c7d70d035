"""The API's resources, one module each, in a sync and an async flavour."""

from .audit_log import AsyncAuditLog, AuditLog
from .interrupts import AsyncInterrupts, Interrupts
from .sessions import AsyncSessions, Sessions

__all__ = ["AsyncAuditLog", "AsyncInterrupts", "AsyncSessions", "AuditLog", "Interrupts", "Sessions"]
