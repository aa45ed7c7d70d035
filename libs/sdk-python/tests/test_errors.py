from __future__ import annotations

import httpx
import pytest

from interlock import (
    APIError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    Interlock,
    InterlockError,
    InternalServerError,
    NotFoundError,
    PaymentRequiredError,
    PermissionDeniedError,
    PlanRequiredError,
    RateLimitError,
)

from .conftest import Recorder, error_response, recorder


def make(rec: Recorder) -> Interlock:
    http = httpx.Client(transport=rec.transport())
    return Interlock(api_key="ilk_test", base_url="http://interlock.test", http_client=http, max_retries=0)


CASES: list[tuple[int, str, str, type[APIError]]] = [
    (401, "MISSING_API_KEY", "Missing x-api-key header.", AuthenticationError),
    (401, "INVALID_API_KEY", "Invalid API key.", AuthenticationError),
    (401, "API_KEY_EXPIRED", "API Key has expired", AuthenticationError),
    (402, "PLAN_REQUIRED", "The audit log API requires the Pro plan.", PlanRequiredError),
    (
        402,
        "MESSAGES_ALLOWANCE_EXHAUSTED",
        "This organisation has used its included messages for the month (1000).",
        PaymentRequiredError,
    ),
    (403, "HUMANS_ONLY", "This endpoint is reserved for humans.", PermissionDeniedError),
    (400, "VALIDATION_FAILED", "from must be an ISO 8601 timestamp", BadRequestError),
    (404, "NOT_FOUND", "Not found.", NotFoundError),
    (409, "CONFLICT", "Already decided.", ConflictError),
    (429, "RATE_LIMITED", "Too many requests.", RateLimitError),
    (500, "INTERNAL_ERROR", "Internal server error.", InternalServerError),
    (503, "SERVICE_UNAVAILABLE", "The database is unavailable. Try again shortly.", InternalServerError),
]


@pytest.mark.parametrize(("status", "code", "message", "error_class"), CASES)
def test_each_error_class_by_status_and_code_with_the_exact_message(
    status: int, code: str, message: str, error_class: type[APIError]
) -> None:
    rec = recorder(error_response(status, code, message))
    with pytest.raises(error_class) as info:
        make(rec).audit_log.list()
    error = info.value
    assert isinstance(error, APIError)
    assert isinstance(error, InterlockError)
    assert error.message == message
    assert str(error) == message
    assert error.status == status
    assert error.status_code == status
    assert error.code == code
    assert error.request_id == f"req-{status}-{code}"
    assert error.headers is not None
    assert error.headers["x-request-id"] == f"req-{status}-{code}"
    assert isinstance(error.body, dict)
    assert error.body["statusCode"] == status
    assert type(error) is error_class


def test_plan_required_is_a_payment_required_error_but_not_the_reverse() -> None:
    rec = recorder(error_response(402, "PLAN_REQUIRED", "The audit log API requires the Pro plan."))
    with pytest.raises(PaymentRequiredError):
        make(rec).audit_log.list()
    rec = recorder(
        error_response(402, "AGENT_HOURS_ALLOWANCE_EXHAUSTED", "This organisation has used its included agent hours")
    )
    with pytest.raises(PaymentRequiredError) as info:
        make(rec).sessions.start(name="x")
    assert not isinstance(info.value, PlanRequiredError)


def test_an_error_response_that_is_not_json() -> None:
    rec = recorder(httpx.Response(502, text="upstream exploded"))
    with pytest.raises(InternalServerError) as info:
        make(rec).whoami()
    assert info.value.message == "502 upstream exploded"
    assert info.value.code is None
    assert info.value.request_id is None
