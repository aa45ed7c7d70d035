"""webhooks.verify / unwrap against signatures made by the reference implementation of Standard
Webhooks (``standardwebhooks`` from PyPI, pinned in requirements-dev.txt) and by hand."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import time
from datetime import datetime, timezone
from typing import Any, Optional

import httpx
import pytest
from standardwebhooks import Webhook as Reference

from interlock import (
    AsyncInterlock,
    Interlock,
    InterlockError,
    UnknownWebhookEvent,
    Webhooks,
    WebhookVerificationError,
    resume_signing_secret,
)
from interlock.types import (
    InterruptAnsweredEvent,
    InterruptApprovalAddedEvent,
    SessionEndedEvent,
    WebhookTestEvent,
)

from .factories import interrupt, session

SECRET = "whsec_" + base64.b64encode(os.urandom(32)).decode()
EVENT: dict[str, Any] = {
    "id": "6f2c1e8a-3b4d-4c5e-9f60-718293a4b5c6",
    "type": "interrupt.answered",
    "createdAt": "2026-11-21T10:00:00.123Z",
    "organisationId": "0b6f6f3e-2a43-4a39-9a0e-5b1c1d0e0f10",
    "data": {**interrupt("refund"), "title": "Refund — 40 €", "status": "answered"},
}
BODY = json.dumps(EVENT, ensure_ascii=False)
webhooks = Webhooks(SECRET)


def signed(
    payload: str = BODY, key: str = SECRET, at: Optional[float] = None, msg_id: str = EVENT["id"]
) -> dict[str, str]:
    """Headers as the reference library signs them, at ``at`` (default now)."""
    moment = datetime.fromtimestamp(int(at if at is not None else time.time()), tz=timezone.utc)
    return {
        "webhook-id": msg_id,
        "webhook-timestamp": str(int(moment.timestamp())),
        "webhook-signature": Reference(key).sign(msg_id, moment, payload),
    }


def other_secret() -> str:
    return "whsec_" + base64.b64encode(os.urandom(32)).decode()


def test_accepts_the_reference_signature_and_the_published_vector() -> None:
    webhooks.verify(BODY, signed())
    vector = {
        "webhook-id": "msg_p5jXN8AQM9LWM0D4loKWxJek",
        "webhook-timestamp": "1614265330",
        "webhook-signature": "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
    }
    Webhooks().verify('{"test": 2432232314}', vector, "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", now=1614265330)


def test_takes_bytes_and_any_header_mapping() -> None:
    headers = signed()
    webhooks.verify(BODY.encode(), headers)
    webhooks.verify(BODY, httpx.Headers(headers))
    webhooks.verify(
        BODY,
        {
            "Webhook-Id": headers["webhook-id"],
            "WEBHOOK-TIMESTAMP": [headers["webhook-timestamp"]],
            "webhook-signature": headers["webhook-signature"],
        },
    )
    webhooks.verify(BODY, headers, SECRET[len("whsec_") :])


def test_any_one_matching_signature_after_a_rotation() -> None:
    old = other_secret()
    at = time.time()
    both = {
        **signed(at=at),
        "webhook-signature": f"{signed(at=at)['webhook-signature']} {signed(key=old, at=at)['webhook-signature']}",
    }
    webhooks.verify(BODY, both)
    webhooks.verify(BODY, both, old)
    webhooks.verify(BODY, {**both, "webhook-signature": f"v2,abc {both['webhook-signature']}"})


@pytest.mark.parametrize("name", ["webhook-id", "webhook-timestamp", "webhook-signature"])
def test_missing_headers(name: str) -> None:
    headers = signed()
    del headers[name]
    with pytest.raises(WebhookVerificationError) as caught:
        webhooks.verify(BODY, headers)
    assert (caught.value.code, str(caught.value)) == ("missing_header", f"Missing required header: {name}.")
    assert isinstance(caught.value, InterlockError)


def test_refuses_changed_bodies_other_secrets_and_forged_signatures() -> None:
    headers = signed()
    cases = [
        (BODY.replace("Refund", "Refunx"), headers, SECRET),
        (BODY + " ", headers, SECRET),
        (BODY, headers, other_secret()),
        (BODY, {**headers, "webhook-id": "another"}, SECRET),
        (BODY, {**headers, "webhook-signature": "v1,not base64!"}, SECRET),
        (BODY, {**headers, "webhook-signature": headers["webhook-signature"].replace("v1,", "v2,")}, SECRET),
        (BODY, {**headers, "webhook-signature": headers["webhook-signature"][3:]}, SECRET),
        (BODY, {**headers, "webhook-signature": "v1," + base64.b64encode(bytes(32)).decode()}, SECRET),
    ]
    for payload, hs, key in cases:
        with pytest.raises(WebhookVerificationError) as caught:
            webhooks.verify(payload, hs, key)
        assert (caught.value.code, caught.value.message) == (
            "invalid_signature",
            "No webhook-signature matches the payload.",
        )


def test_five_minutes_either_way() -> None:
    now = time.time()
    webhooks.verify(BODY, signed(at=now - 299))
    webhooks.verify(BODY, signed(at=now + 299))
    with pytest.raises(WebhookVerificationError) as old:
        webhooks.verify(BODY, signed(at=now - 301))
    assert (old.value.code, str(old.value)) == (
        "timestamp_too_old",
        "Webhook timestamp is too old (more than 300 seconds before now).",
    )
    with pytest.raises(WebhookVerificationError) as early:
        webhooks.verify(BODY, signed(at=now + 301))
    assert (early.value.code, str(early.value)) == (
        "timestamp_too_new",
        "Webhook timestamp is too new (more than 300 seconds after now).",
    )
    webhooks.verify(BODY, signed(at=now - 3000), tolerance=3600)
    with pytest.raises(
        WebhookVerificationError, match=r"^Webhook timestamp is too old \(more than 10 seconds before now\)\.$"
    ):
        webhooks.verify(BODY, signed(at=now - 20), tolerance=10)
    moved = {**signed(at=now - 400), "webhook-timestamp": str(int(now))}
    with pytest.raises(WebhookVerificationError) as caught:
        webhooks.verify(BODY, moved)
    assert caught.value.code == "invalid_signature"
    for bad in ["soon", "1.5", "-1"]:
        with pytest.raises(WebhookVerificationError) as invalid:
            webhooks.verify(BODY, {**signed(), "webhook-timestamp": bad})
        assert (invalid.value.code, str(invalid.value)) == (
            "invalid_timestamp",
            "Invalid webhook-timestamp header: expected Unix seconds.",
        )


def test_a_missing_or_malformed_secret_is_a_programming_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("INTERLOCK_WEBHOOK_SECRET", raising=False)
    with pytest.raises(InterlockError) as missing:
        Webhooks().verify(BODY, signed())
    assert not isinstance(missing.value, WebhookVerificationError)
    assert str(missing.value) == (
        "No webhook secret: pass one or set INTERLOCK_WEBHOOK_SECRET (the whsec_… shown when the webhook was created)."
    )
    with pytest.raises(InterlockError, match=r"^Invalid webhook secret: expected whsec_ followed by base64\.$"):
        Webhooks().verify(BODY, signed(), "whsec_!!!")
    monkeypatch.setenv("INTERLOCK_WEBHOOK_SECRET", SECRET)
    Webhooks().verify(BODY, signed())


def test_agrees_with_a_plain_hmac() -> None:
    at = int(time.time())
    mac = hmac.new(base64.b64decode(SECRET[6:]), f"{EVENT['id']}.{at}.{BODY}".encode(), hashlib.sha256).digest()
    webhooks.verify(
        BODY,
        {
            "webhook-id": EVENT["id"],
            "webhook-timestamp": str(at),
            "webhook-signature": "v1," + base64.b64encode(mac).decode(),
        },
    )


def test_unwrap_returns_the_typed_event() -> None:
    event = webhooks.unwrap(BODY, signed())
    assert isinstance(event, InterruptAnsweredEvent)
    assert event.id == EVENT["id"]
    assert event.data.title == "Refund — 40 €"
    assert event.organisation_id == EVENT["organisationId"]
    ended = {**EVENT, "type": "session.ended", "data": {**session(), "status": "disconnected"}}
    body = json.dumps(ended)
    parsed = webhooks.unwrap(body, signed(body))
    assert isinstance(parsed, SessionEndedEvent)
    assert parsed.data.status == "disconnected"
    approval = {
        **EVENT,
        "type": "interrupt.approval_added",
        "data": {**interrupt("refund"), "status": "open"},
    }
    body = json.dumps(approval)
    added = webhooks.unwrap(body, signed(body))
    assert isinstance(added, InterruptApprovalAddedEvent)
    assert added.data.status == "open"
    ping = {**EVENT, "type": "webhook.test", "data": {"webhookId": "w", "message": "hi"}}
    body = json.dumps(ping)
    assert isinstance(webhooks.unwrap(body, signed(body)), WebhookTestEvent)
    future = {**EVENT, "type": "interrupt.archived", "data": {"id": "x"}}
    body = json.dumps(future)
    unknown = webhooks.unwrap(body, signed(body))
    assert isinstance(unknown, UnknownWebhookEvent)
    assert (unknown.type, unknown.data) == ("interrupt.archived", {"id": "x"})


def test_unwrap_refuses_bad_signatures_before_parsing_and_signed_non_events() -> None:
    with pytest.raises(WebhookVerificationError) as bad:
        webhooks.unwrap(BODY, signed(key=other_secret()))
    assert bad.value.code == "invalid_signature"
    for payload in ["not json", "[1,2]", '{"id":"x"}', "null"]:
        with pytest.raises(WebhookVerificationError) as caught:
            webhooks.unwrap(payload, signed(payload))
        assert (caught.value.code, str(caught.value)) == (
            "invalid_payload",
            "Webhook payload is not an Interlock event.",
        )


def test_on_both_clients_with_their_webhook_secret() -> None:
    client = Interlock(api_key="ilk_test", base_url="http://interlock.test", webhook_secret=SECRET)
    assert isinstance(client.webhooks.unwrap(BODY, signed()), InterruptAnsweredEvent)
    assert isinstance(client.with_options(timeout=5).webhooks.unwrap(BODY, signed()), InterruptAnsweredEvent)
    client.close()
    async_client = AsyncInterlock(api_key="ilk_test", base_url="http://interlock.test", webhook_secret=SECRET)
    assert isinstance(async_client.webhooks.unwrap(BODY, signed()), InterruptAnsweredEvent)


def test_resume_signing_secret_is_the_documented_derivation() -> None:
    key = "il_live_4f2a9c0e1b7d4e3f8a6b5c4d3e2f1a0b"
    expected = hmac.new(key.encode(), b"interlock resumeUrl signing secret v1", hashlib.sha256).digest()
    assert resume_signing_secret(key) == "whsec_" + base64.b64encode(expected).decode()
    assert resume_signing_secret(key + "x") != resume_signing_secret(key)


def test_a_resume_post_verifies_under_the_key_secret_only() -> None:
    mine = resume_signing_secret("il_live_mine")
    theirs = resume_signing_secret("il_live_theirs")
    body = json.dumps(
        {
            "id": "e1",
            "type": "interrupt.answered",
            "createdAt": "2026-11-27T00:00:00Z",
            "organisationId": "o1",
            "data": {"id": "i1"},
        }
    )
    at = datetime.now(timezone.utc)
    headers = {
        "webhook-id": "e1",
        "webhook-timestamp": str(int(at.timestamp())),
        "webhook-signature": Reference(mine).sign("e1", at, body),
    }
    Webhooks(secret=mine).verify(body, headers)
    with pytest.raises(WebhookVerificationError):
        Webhooks(secret=theirs).verify(body, headers)


def test_resume_signing_secret_needs_a_key() -> None:
    with pytest.raises(InterlockError):
        resume_signing_secret("")
