"""require_approval with a scripted transport: what it opens, and what runs for each answer."""

from __future__ import annotations

import datetime as dt
from typing import Any

import httpx
import pytest

from interlock import (
    ActionDigestMismatchError,
    ApprovalRejectedError,
    AsyncInterlock,
    Interlock,
    InterlockError,
    require_approval,
)

from .conftest import json_response, recorder
from .factories import action_request, answered, decision, digested, interrupt


def sync_client(*responses: httpx.Response) -> tuple[Interlock, Any]:
    rec = recorder(*responses)
    http = httpx.Client(transport=rec.transport())
    return Interlock(api_key="ilk_test", base_url="http://interlock.test", http_client=http, max_retries=0), rec


def test_opens_one_action_with_the_bound_arguments_and_runs_it_once_approved() -> None:
    opened = interrupt("refund")
    client, rec = sync_client(json_response(201, opened), json_response(200, answered(opened, decision("refund"))))

    @require_approval(client=client, title=lambda order_id, amount=0: f"Refund {amount} on {order_id}?")
    def refund(order_id: str, amount: int = 10) -> str:
        return f"{order_id}:{amount}"

    assert refund("A-1") == "A-1:10"
    assert rec.body(0) == {
        "title": "Refund 0 on A-1?",
        "actionRequests": [
            {
                "name": "refund",
                "args": {"order_id": "A-1", "amount": 10},
                "allowedDecisions": ["approve", "edit", "reject"],
            }
        ],
    }
    assert refund.__name__ == "refund"


def test_an_answer_about_other_arguments_than_the_call_is_refused_and_nothing_runs() -> None:
    ran: list[str] = []

    def answer_about(args: dict[str, Any]) -> dict[str, Any]:
        opened = interrupt(actionRequests=[action_request("refund", args=args)])
        return digested(answered(opened, decision("refund")))

    other = answer_about({"order_id": "A-1", "amount": 9000})
    client, _ = sync_client(json_response(201, interrupt("refund")), json_response(200, other))

    @require_approval(client=client)
    def refund(order_id: str, amount: int = 10) -> None:
        ran.append(order_id)

    with pytest.raises(ActionDigestMismatchError, match="action refund of interrupt"):
        refund("A-1")
    assert ran == []
    same = answer_about({"order_id": "A-1", "amount": 10})
    client, _ = sync_client(json_response(201, interrupt("refund")), json_response(200, same))
    require_approval(client=client)(refund.__wrapped__)("A-1")  # type: ignore[attr-defined]
    assert ran == ["A-1"]


def test_an_edit_runs_with_the_edited_values_validated_to_the_annotations() -> None:
    opened = interrupt("remind")
    edit = decision("remind", "edit", edited_args={"on": "2026-12-01", "times": "3"})
    client, _ = sync_client(json_response(201, opened), json_response(200, answered(opened, edit)))
    seen: list[tuple[dt.date, int]] = []

    @require_approval(client=client)
    def remind(on: dt.date, times: int = 1) -> None:
        seen.append((on, times))

    remind(dt.date(2026, 11, 30))
    assert seen == [(dt.date(2026, 12, 1), 3)]


def test_a_rejection_raises_with_the_message_and_does_not_run() -> None:
    opened = interrupt("drop")
    reject = decision("drop", "reject", message="Not on a Friday.")
    client, _ = sync_client(json_response(201, opened), json_response(200, answered(opened, reject)))
    ran: list[str] = []

    @require_approval(client=client)
    def drop(table: str) -> None:
        ran.append(table)

    with pytest.raises(ApprovalRejectedError) as info:
        drop("users")
    assert str(info.value) == "drop was rejected by Ada: Not on a Friday."
    assert info.value.reviewer_message == "Not on a Friday."
    assert ran == []


def test_a_withdrawn_request_raises_without_a_decision() -> None:
    opened = interrupt("drop")
    client, _ = sync_client(json_response(201, opened), json_response(200, opened | {"status": "withdrawn"}))

    @require_approval(client=client)
    def drop(table: str) -> None:
        raise AssertionError("must not run")

    with pytest.raises(ApprovalRejectedError, match=r"^drop was not approved: the request was withdrawn\.$") as info:
        drop("users")
    assert info.value.decision is None


@pytest.mark.anyio
async def test_async_functions_are_gated_with_the_async_client() -> None:
    opened = interrupt("fetch_report")
    rec = recorder(json_response(201, opened), json_response(200, answered(opened, decision("fetch_report"))))
    client = AsyncInterlock(
        api_key="ilk_test", base_url="http://interlock.test", http_client=httpx.AsyncClient(transport=rec.transport())
    )

    @require_approval(client=client, name="fetch_report")
    async def fetch(year: int) -> str:
        return f"report {year}"

    assert await fetch(2026) == "report 2026"
    assert rec.body(0)["actionRequests"][0]["args"] == {"year": 2026}


def test_refuses_respond_no_decision_and_a_mismatched_client() -> None:
    with pytest.raises(InterlockError, match="cannot allow respond"):
        require_approval(allowed_decisions=["approve", "respond"])(lambda: None)
    with pytest.raises(InterlockError, match="at least one allowed decision"):
        require_approval(allowed_decisions=[])(lambda: None)

    async def coroutine() -> None: ...

    with pytest.raises(InterlockError, match="AsyncInterlock"):
        require_approval(client=Interlock(api_key="ilk_test"))(coroutine)
