"""Interlock: human review for software agents. ``from interlock import Interlock``."""

from ._client import DEFAULT_BASE_URL, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT, AsyncInterlock, Interlock
from ._errors import (
    APIConnectionError,
    APIConnectionTimeoutError,
    APIError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    InterlockError,
    InternalServerError,
    NotFoundError,
    PaymentRequiredError,
    PermissionDeniedError,
    PlanRequiredError,
    RateLimitError,
    UnprocessableEntityError,
    WaitTimeoutError,
)
from ._options import RequestOptions, Timeout
from ._pagination import AsyncPage, AsyncPaginator, SyncPage
from ._version import __version__
from .langgraph import LANGGRAPH_METADATA_KEY, interrupt_from_langgraph, to_langgraph_resume
from .types import (
    ActionRequest,
    ActionRequestRecord,
    AuditEntry,
    AuditLogEntry,
    Decision,
    Interrupt,
    Session,
    Whoami,
)

__all__ = [
    "DEFAULT_BASE_URL",
    "DEFAULT_MAX_RETRIES",
    "DEFAULT_TIMEOUT",
    "LANGGRAPH_METADATA_KEY",
    "APIConnectionError",
    "APIConnectionTimeoutError",
    "APIError",
    "ActionRequest",
    "ActionRequestRecord",
    "AsyncInterlock",
    "AsyncPage",
    "AsyncPaginator",
    "AuditEntry",
    "AuditLogEntry",
    "AuthenticationError",
    "BadRequestError",
    "ConflictError",
    "Decision",
    "Interlock",
    "InterlockError",
    "InternalServerError",
    "Interrupt",
    "NotFoundError",
    "PaymentRequiredError",
    "PermissionDeniedError",
    "PlanRequiredError",
    "RateLimitError",
    "RequestOptions",
    "Session",
    "SyncPage",
    "Timeout",
    "UnprocessableEntityError",
    "WaitTimeoutError",
    "Whoami",
    "__version__",
    "interrupt_from_langgraph",
    "to_langgraph_resume",
]
