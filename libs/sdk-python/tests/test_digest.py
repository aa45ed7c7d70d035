"""SPEC §8e: action digests — RFC 8785 canonical JSON, the digest the service computes, and the
refusal of a decision about anything but what the agent sent. Expected texts written by hand."""

from __future__ import annotations

import hashlib
from typing import Any

import httpx
import pytest

from interlock import (
    ActionDigestMismatchError,
    AsyncInterlock,
    Interlock,
    action_digest,
    canonical_json,
    verify_decisions,
)
from interlock.digest import REMEMBERED_CREATES, AskedInterrupts

ID = "0b6c2f0e-6a3f-4c55-9f0e-2f8a1d3c4b5a"


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


PAY = sha256('{"args":{"amount":40.5,"to":"Zoë"},"interruptId":"' + ID + '","name":"pay"}')


def test_canonical_json_as_ecmascript_writes_it() -> None:
    assert (
        canonical_json({"b": [1, {"d": True, "c": None}], "a": "é", "f": 0.1})
        == '{"a":"é","b":[1,{"c":null,"d":true}],"f":0.1}'
    )
    # Numbers: JSON.stringify's forms, not Python's repr.
    cases = {
        1e21: "1e+21",
        1e20: "100000000000000000000",
        1e-7: "1e-7",
        0.000001: "0.000001",
        1.5: "1.5",
        -0.0001: "-0.0001",
        2.0: "2",
        123456.789: "123456.789",
        1.5e300: "1.5e+300",
        5e-324: "5e-324",
    }
    for value, text in cases.items():
        assert canonical_json(value) == text, value
    # Keys by UTF-16 code units, not code points: U+1F600 is D83D DE00, before U+E000.
    assert canonical_json({"\ue000": 2, "\U0001f600": 1}) == '{"\U0001f600":1,"\ue000":2}'
    with pytest.raises(ValueError, match="non-finite"):
        canonical_json(float("nan"))


def test_action_digest_is_the_services() -> None:
    assert action_digest(ID, "pay", {"to": "Zoë", "amount": 40.5}) == PAY
    assert action_digest(ID, "ping") == sha256('{"args":{},"interruptId":"' + ID + '","name":"ping"}')


def answered(decision_digest: object, action_digest_value: object = PAY) -> dict[str, object]:
    return {
        "id": ID,
        "title": "Pay",
        "description": None,
        "externalId": None,
        "sessionId": None,
        "status": "answered",
        "assignee": None,
        "escalationLevel": 0,
        "escalationReason": None,
        "escalatedAt": None,
        "metadata": {},
        "createdAt": "2026-11-26T00:00:00.000Z",
        "answeredAt": "2026-11-26T00:00:00.000Z",
        "expiresAt": None,
        "onTimeout": None,
        "closedAt": None,
        "withdrawnReason": None,
        "actionRequests": [
            {
                "name": "pay",
                "args": {"to": "Zoë", "amount": 40.5},
                "description": None,
                "allowedDecisions": ["approve"],
                "actionDigest": action_digest_value,
            }
        ],
        "decisions": [
            {
                "id": "d1",
                "actionName": "pay",
                "decision": "approve",
                "editedArgs": None,
                "editedName": None,
                "message": None,
                "actionDigest": decision_digest,
                "editedActionDigest": None,
                "decidedBy": {"type": "member", "id": "u1", "name": "Ada"},
                "decidedAt": "2026-11-26T00:00:00.000Z",
            }
        ],
    }


def test_verify_decisions_refuses_what_was_not_asked() -> None:
    verify_decisions(answered(PAY), [{"name": "pay", "args": {"amount": 40.5, "to": "Zoë"}}])
    with pytest.raises(ActionDigestMismatchError) as refused:
        verify_decisions(answered(PAY), [{"name": "pay", "args": {"amount": 4050, "to": "Zoë"}}])
    assert refused.value.action_name == "pay"
    assert refused.value.received == PAY
    with pytest.raises(ActionDigestMismatchError):
        verify_decisions(answered("0" * 64), [{"name": "pay", "args": {"amount": 40.5, "to": "Zoë"}}])
    # An older service sends no digests: nothing to check.
    verify_decisions(answered(None, None), [{"name": "pay", "args": {"amount": 1}}])


def test_wait_for_answer_refuses_a_decision_about_other_arguments() -> None:
    transport = httpx.MockTransport(lambda request: httpx.Response(200, json=answered(PAY)))
    client = Interlock(
        api_key="ilk_test", base_url="http://interlock.test", http_client=httpx.Client(transport=transport)
    )
    with pytest.raises(ActionDigestMismatchError):
        client.interrupts.wait_for_answer(ID, action_requests=[{"name": "pay", "args": {"amount": 1, "to": "Mallory"}}])
    result = client.interrupts.wait_for_answer(
        ID, action_requests=[{"name": "pay", "args": {"to": "Zoë", "amount": 40.5}}]
    )
    assert result.status == "answered"


# An interrupt this client opened: it remembers what it asked (SPEC §8e), so a plain wait checks.
PAY_ACTION: dict[str, Any] = {"name": "pay", "args": {"to": "Zoë", "amount": 40.5}}


def stripped(interrupt: dict[str, Any]) -> dict[str, Any]:
    """The interrupt as a proxy that drops the digest fields would pass it on."""
    return {
        **interrupt,
        "actionRequests": [{k: v for k, v in a.items() if k != "actionDigest"} for a in interrupt["actionRequests"]],
        "decisions": [
            {k: v for k, v in d.items() if k not in ("actionDigest", "editedActionDigest")}
            for d in interrupt["decisions"]
        ],
    }


def opened(digests: bool) -> dict[str, Any]:
    interrupt = {**answered(PAY), "status": "open", "answeredAt": None, "decisions": []}
    return interrupt if digests else stripped(interrupt)


def answering(created: dict[str, Any], answer: dict[str, Any]) -> Interlock:
    def handle(request: httpx.Request) -> httpx.Response:
        return httpx.Response(201, json=created) if request.method == "POST" else httpx.Response(200, json=answer)

    transport = httpx.MockTransport(handle)
    return Interlock(
        api_key="ilk_test", base_url="http://interlock.test", http_client=httpx.Client(transport=transport)
    )


def async_answering(created: dict[str, Any], answer: dict[str, Any]) -> AsyncInterlock:
    async def handle(request: httpx.Request) -> httpx.Response:
        return httpx.Response(201, json=created) if request.method == "POST" else httpx.Response(200, json=answer)

    transport = httpx.MockTransport(handle)
    return AsyncInterlock(
        api_key="ilk_test", base_url="http://interlock.test", http_client=httpx.AsyncClient(transport=transport)
    )


def test_a_plain_wait_on_an_interrupt_this_client_opened_refuses_other_arguments() -> None:
    other = action_digest(ID, "pay", {"to": "Mallory", "amount": 4050})
    client = answering(opened(True), answered(other, other))
    created = client.interrupts.create(title="Pay", action_requests=[PAY_ACTION])
    with pytest.raises(ActionDigestMismatchError) as refused:
        client.interrupts.wait_for_answer(created.id)
    assert (refused.value.expected, refused.value.received) == (PAY, other)
    ok = answering(opened(True), answered(PAY))
    ok.interrupts.create(title="Pay", action_requests=[PAY_ACTION])
    assert ok.interrupts.wait_for_answer(ID).status == "answered"


def test_an_answer_stripped_of_the_digests_sent_at_create_is_refused() -> None:
    client = answering(opened(True), stripped(answered(PAY)))
    client.interrupts.create(title="Pay", action_requests=[PAY_ACTION])
    with pytest.raises(ActionDigestMismatchError) as refused:
        client.interrupts.wait_for_answer(ID)
    assert (refused.value.action_name, refused.value.expected, refused.value.received) == ("pay", PAY, None)
    # Even when the caller passes the actions itself.
    with pytest.raises(ActionDigestMismatchError):
        client.interrupts.wait_for_answer(ID, action_requests=[PAY_ACTION])
    # One digest stripped of two (the decision's) is refused as well.
    half = {**answered(PAY), "decisions": stripped(answered(PAY))["decisions"]}
    partly = answering(opened(True), half)
    partly.interrupts.create(title="Pay", action_requests=[PAY_ACTION])
    with pytest.raises(ActionDigestMismatchError):
        partly.interrupts.wait_for_answer(ID)


@pytest.mark.anyio
async def test_the_async_client_remembers_what_it_asked_too() -> None:
    client = async_answering(opened(True), stripped(answered(PAY)))
    await client.interrupts.create(title="Pay", action_requests=[PAY_ACTION])
    with pytest.raises(ActionDigestMismatchError):
        await client.interrupts.wait_for_answer(ID)
    tampered = action_digest(ID, "pay", {"to": "Mallory", "amount": 40.5})
    other = async_answering(opened(True), answered(tampered, tampered))
    await other.interrupts.create(title="Pay", action_requests=[PAY_ACTION])
    with pytest.raises(ActionDigestMismatchError):
        await other.interrupts.wait_for_answer(ID)
    ok = async_answering(opened(True), answered(PAY))
    await ok.interrupts.create(title="Pay", action_requests=[PAY_ACTION])
    assert (await ok.interrupts.wait_for_answer(ID)).status == "answered"


def test_an_answer_cut_of_its_lists_or_of_an_asked_action_is_refused_where_digests_are_required() -> None:
    whole = answered(PAY)
    first: dict[str, Any] = opened(True)["actionRequests"][0]
    other_action = {**whole, "actionRequests": [{**first, "name": "refund"}], "decisions": []}
    cuts = [
        {k: v for k, v in whole.items() if k != "actionRequests"},
        {k: v for k, v in whole.items() if k != "decisions"},
        other_action,
    ]
    for cut in cuts:
        with pytest.raises(ActionDigestMismatchError) as refused:
            verify_decisions(cut, [PAY_ACTION], required=True)
        assert (refused.value.action_name, refused.value.received) == ("pay", None)
    # Through a client that opened it: the answer names another action only.
    client = answering(opened(True), other_action)
    client.interrupts.create(title="Pay", action_requests=[PAY_ACTION])
    with pytest.raises(ActionDigestMismatchError):
        client.interrupts.wait_for_answer(ID)
    # The whole answer still passes.
    verify_decisions(whole, [PAY_ACTION], required=True)


def test_an_older_service_sending_no_digests_at_create_stays_unchecked() -> None:
    client = answering(opened(False), stripped(answered(PAY)))
    client.interrupts.create(title="Pay", action_requests=[PAY_ACTION])
    assert client.interrupts.wait_for_answer(ID).status == "answered"
    # verify_decisions itself: required refuses what the default lets through.
    verify_decisions(stripped(answered(PAY)), [PAY_ACTION])
    with pytest.raises(ActionDigestMismatchError):
        verify_decisions(stripped(answered(PAY)), [PAY_ACTION], required=True)


def test_the_digests_are_of_the_arguments_as_sent_not_as_changed_later() -> None:
    args: dict[str, Any] = {"to": "Zoë", "amount": 40.5}
    client = answering(opened(True), answered(PAY))
    client.interrupts.create(title="Pay", action_requests=[{"name": "pay", "args": args}])
    args["amount"] = 1
    assert client.interrupts.wait_for_answer(ID).status == "answered"


def test_a_client_remembers_its_last_creates_forgetting_the_oldest_first() -> None:
    assert AskedInterrupts().capacity == REMEMBERED_CREATES == 10_000
    asked = AskedInterrupts(2)
    action = opened(True)["actionRequests"]
    asked.remember({"id": "a", "actionRequests": action}, [PAY_ACTION])
    asked.remember({"id": "b", "actionRequests": action}, [PAY_ACTION])
    asked.remember({"id": "a", "actionRequests": action}, [PAY_ACTION])  # a replayed create is the newest
    asked.remember({"id": "c", "actionRequests": action}, [PAY_ACTION])
    assert asked.get("b") is None
    a = asked.get("a")
    assert a is not None
    assert a.expected["pay"] == action_digest("a", "pay", PAY_ACTION["args"])
    c = asked.get("c")
    assert c is not None
    assert c.digested


def test_an_integer_the_service_would_round_is_refused_before_anything_is_sent() -> None:
    sent: list[httpx.Request] = []

    def handle(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        return httpx.Response(201, json=opened(True))

    client = Interlock(
        api_key="ilk_test",
        base_url="http://interlock.test",
        http_client=httpx.Client(transport=httpx.MockTransport(handle)),
    )
    big = {"name": "pay", "args": {"to": "Zoë", "lines": [{"amount": -(2**53 + 1)}]}}
    with pytest.raises(ValueError, match=r"^args of action pay\.lines\[0\]\.amount is -9007199254740993, beyond"):
        client.interrupts.create(title="Pay", action_requests=[big])
    assert sent == []
    # The largest exact integers, booleans and floats go as they are.
    exact = {"name": "pay", "args": {"amount": 2**53 - 1, "least": -(2**53 - 1), "ok": True, "rate": 1e300}}
    client.interrupts.create(title="Pay", action_requests=[exact])
    assert len(sent) == 1
