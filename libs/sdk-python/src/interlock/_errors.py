"""Typed errors. An ``APIError`` carries the service's SPEC §4 error body as it came: ``message`` is
exactly the server's ``message`` and ``code`` its stable code, so callers can switch on either."""

from __future__ import annotations

import json
from typing import Any, Optional

import httpx

__all__ = [
    "APIConnectionError",
    "APIConnectionTimeoutError",
    "APIError",
    "AuthenticationError",
    "BadRequestError",
    "ConflictError",
    "InterlockError",
    "InternalServerError",
    "NotFoundError",
    "PaymentRequiredError",
    "PermissionDeniedError",
    "PlanRequiredError",
    "RateLimitError",
    "UnprocessableEntityError",
    "WaitTimeoutError",
]


class InterlockError(Exception):
    """Every error the SDK raises derives from this one."""


class APIError(InterlockError):
    """An error answered by the service, or a failure to reach it (then ``status`` is None)."""

    message: str
    #: The HTTP status; None when no response arrived.
    status: Optional[int]
    #: The stable SPEC §4 code (``INVALID_API_KEY``, ``PLAN_REQUIRED``…).
    code: Optional[str]
    #: The service's request id: quote it when reporting a problem.
    request_id: Optional[str]
    #: The parsed error body, or its text when it was not JSON.
    body: object
    headers: Optional[httpx.Headers]
    response: Optional[httpx.Response]
    request: Optional[httpx.Request]

    def __init__(
        self,
        message: str,
        *,
        status: Optional[int] = None,
        body: object = None,
        response: Optional[httpx.Response] = None,
        request: Optional[httpx.Request] = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.body = body
        self.response = response
        self.request = request if request is not None else (response.request if response is not None else None)
        self.headers = response.headers if response is not None else None
        fields: dict[str, Any] = body if isinstance(body, dict) else {}
        code = fields.get("code")
        self.code = code if isinstance(code, str) else None
        request_id = fields.get("requestId")
        if not isinstance(request_id, str):
            request_id = self.headers.get("x-request-id") if self.headers is not None else None
        self.request_id = request_id

    @property
    def status_code(self) -> Optional[int]:
        """The HTTP status (an alias of ``status``)."""
        return self.status

    def __str__(self) -> str:
        return self.message


class BadRequestError(APIError):
    """400: a malformed body, cursor, timestamp or filter (``VALIDATION_FAILED``)."""


class AuthenticationError(APIError):
    """401: missing, invalid or expired API key."""


class PaymentRequiredError(APIError):
    """402: an allowance is spent, or the plan does not include the feature."""


class PlanRequiredError(PaymentRequiredError):
    """402 ``PLAN_REQUIRED``: the audit log API needs the Pro plan."""


class PermissionDeniedError(APIError):
    """403: e.g. a key on a human-only endpoint (``HUMANS_ONLY``)."""


class NotFoundError(APIError):
    """404: unknown id, or one of another organisation."""


class ConflictError(APIError):
    """409."""


class UnprocessableEntityError(APIError):
    """422."""


class RateLimitError(APIError):
    """429."""


class InternalServerError(APIError):
    """5xx."""


class APIConnectionError(APIError):
    """The service could not be reached, or the connection broke before a response."""

    def __init__(self, *, message: str = "Connection error.", request: Optional[httpx.Request] = None) -> None:
        super().__init__(message, request=request)


class APIConnectionTimeoutError(APIConnectionError):
    """No response within the request's timeout."""

    def __init__(self, *, message: str = "Request timed out.", request: Optional[httpx.Request] = None) -> None:
        super().__init__(message=message, request=request)


class WaitTimeoutError(InterlockError):
    """``interrupts.wait_for_answer`` gave up before the interrupt was answered."""

    def __init__(self, interrupt_id: str, timeout: float) -> None:
        super().__init__(f"Interrupt {interrupt_id} was not answered within {timeout:g} s.")
        self.interrupt_id = interrupt_id
        self.timeout = timeout


_BY_STATUS: dict[int, type[APIError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    402: PaymentRequiredError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    422: UnprocessableEntityError,
    429: RateLimitError,
}


def make_api_error(response: httpx.Response) -> APIError:
    """The typed error for an error response (which must have been read)."""
    status = response.status_code
    body = _parse_body(response)
    fields: dict[str, Any] = body if isinstance(body, dict) else {}
    message = fields.get("message")
    if not isinstance(message, str):
        text = response.text.strip()
        message = f"{status} {text[:500]}" if text else f"{status} status code (no body)"
    if status == 404:
        message += _doubled_api_hint(response)
    cls: type[APIError]
    if status == 402 and fields.get("code") == "PLAN_REQUIRED":
        cls = PlanRequiredError
    elif status >= 500:
        cls = InternalServerError
    else:
        cls = _BY_STATUS.get(status, APIError)
    return cls(message, status=status, body=body, response=response)


def _parse_body(response: httpx.Response) -> object:
    if not response.content:
        return None
    try:
        parsed: object = json.loads(response.content)
    except ValueError:
        return response.text
    return parsed


def _doubled_api_hint(response: httpx.Response) -> str:
    """For a 404 of a path under ``/api/api/``: the base URL ended in ``/api``; say so, and the fix."""
    try:
        url = response.request.url
    except RuntimeError:  # a response made without a request (tests)
        return ""
    path = url.path
    at = path.find("/api/api/")
    if at < 0:
        return ""
    base = f"{url.scheme}://{url.netloc.decode('ascii')}{path[: at + 4]}"
    origin = base[: -len("/api")]
    return (
        f" ({response.request.method} {url.copy_with(query=None)}: the base URL {base} ends in /api,"
        f" but the SDK adds /api itself; set base_url (or INTERLOCK_BASE_URL) to {origin or '/'})"
    )


def connection_error_message(request: httpx.Request, cause: BaseException) -> str:
    """What ``APIConnectionError`` says: the URL tried, the cause, and what to check."""
    url = request.url.copy_with(query=None)
    origin = f"{url.scheme}://{url.netloc.decode('ascii')}"
    reason = str(cause).strip() or type(cause).__name__
    return (
        f"Connection error: could not reach {url} ({type(cause).__name__}: {reason}). Check that Interlock "
        f"is running at {origin}, or set base_url (or INTERLOCK_BASE_URL) to where it runs."
    )
