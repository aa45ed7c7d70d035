"""SPEC §8e: action digests — RFC 8785 canonical JSON, the digest the service computes, and the
refusal of a decision about anything but what the agent sent. Expected texts written by hand."""

from __future__ import annotations

import hashlib

import httpx
import pytest

from interlock import ActionDigestMismatchError, Interlock, action_digest, canonical_json, verify_decisions

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
