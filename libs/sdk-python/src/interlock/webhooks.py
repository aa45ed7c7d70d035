"""Verifying the webhooks Interlock sends (Standard Webhooks).

Each delivery carries ``webhook-id``, ``webhook-timestamp`` and ``webhook-signature``: space-separated
``v1,<base64 HMAC-SHA-256 of "id.timestamp.body">`` under the secret's bytes (``whsec_`` + base64).
``verify`` checks the signature (compared in constant time) and that the timestamp is within five
minutes of now; ``unwrap`` does that and returns the typed event. The errors and their messages are
the TypeScript SDK's.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import os
import re
import time
from collections.abc import Mapping
from typing import Any, Literal, Optional, Union

from pydantic import ConfigDict

from ._errors import InterlockError
from ._generated.models import (
    InterruptAnsweredEvent,
    InterruptApprovalAddedEvent,
    InterruptAssignedEvent,
    InterruptCreatedEvent,
    InterruptDecidedEvent,
    InterruptEscalatedEvent,
    InterruptExpiredEvent,
    InterruptReminderEvent,
    InterruptUnassignedEvent,
    InterruptWithdrawnEvent,
    SessionEndedEvent,
    SessionStartedEvent,
    WebhookTestEvent,
)
from ._models import InterlockModel

__all__ = [
    "DEFAULT_WEBHOOK_TOLERANCE_SECONDS",
    "UnknownWebhookEvent",
    "WebhookEvent",
    "WebhookVerificationError",
    "WebhookVerificationErrorCode",
    "Webhooks",
    "resume_signing_secret",
]

#: Seconds a webhook's timestamp may be away from now (either way): 5 minutes.
DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300
_SECRET_PREFIX = "whsec_"
_BASE64 = re.compile(r"^[A-Za-z0-9+/]*={0,2}$")
_TIMESTAMP = re.compile(r"^\d{1,15}$")

#: What a resumeUrl's signing secret is derived from, besides the key.
_RESUME_SECRET_CONTEXT = b"interlock resumeUrl signing secret v1"


def resume_signing_secret(api_key: str) -> str:
    """The secret an interrupt's ``resume_url`` POST is signed with.

    ``whsec_`` + base64 of HMAC-SHA-256, under the API key that opened the interrupt, of a fixed
    text. The agent already holds its key, so no secret is sent or shown anywhere: pass the result
    to ``webhooks.verify`` / ``unwrap``.
    """
    if not api_key:
        raise InterlockError("resume_signing_secret needs the API key.")
    mac = hmac.new(api_key.encode("utf-8"), _RESUME_SECRET_CONTEXT, hashlib.sha256).digest()
    return _SECRET_PREFIX + base64.b64encode(mac).decode("ascii")


WebhookVerificationErrorCode = Literal[
    "missing_header",
    "invalid_timestamp",
    "timestamp_too_old",
    "timestamp_too_new",
    "invalid_signature",
    "invalid_payload",
]


class WebhookVerificationError(InterlockError):
    """A webhook that did not verify: answer it 400 and do not act on it. ``code`` says why."""

    code: WebhookVerificationErrorCode
    message: str

    def __init__(self, code: WebhookVerificationErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class UnknownWebhookEvent(InterlockModel):
    """An event of a type this SDK does not know yet (a newer service): its fields as they came."""

    model_config = ConfigDict(extra="allow")

    id: str
    type: str
    data: Any = None


#: The body of a webhook delivery, ``{id, type, created_at, organisation_id, data}``: one model per
#: ``type`` (``data`` the interrupt, the session or the test ping), generated from the contract.
WebhookEvent = Union[
    InterruptCreatedEvent,
    InterruptDecidedEvent,
    InterruptAnsweredEvent,
    InterruptAssignedEvent,
    InterruptUnassignedEvent,
    InterruptEscalatedEvent,
    InterruptExpiredEvent,
    InterruptWithdrawnEvent,
    InterruptReminderEvent,
    InterruptApprovalAddedEvent,
    SessionStartedEvent,
    SessionEndedEvent,
    WebhookTestEvent,
    UnknownWebhookEvent,
]

_EVENT_MODELS: dict[str, type[InterlockModel]] = {
    "interrupt.created": InterruptCreatedEvent,
    "interrupt.decided": InterruptDecidedEvent,
    "interrupt.answered": InterruptAnsweredEvent,
    "interrupt.assigned": InterruptAssignedEvent,
    "interrupt.unassigned": InterruptUnassignedEvent,
    "interrupt.escalated": InterruptEscalatedEvent,
    "interrupt.expired": InterruptExpiredEvent,
    "interrupt.withdrawn": InterruptWithdrawnEvent,
    "interrupt.reminder": InterruptReminderEvent,
    "interrupt.approval_added": InterruptApprovalAddedEvent,
    "session.started": SessionStartedEvent,
    "session.ended": SessionEndedEvent,
    "webhook.test": WebhookTestEvent,
}


def _header(headers: Mapping[str, Any], name: str) -> Optional[str]:
    value: Any = None
    for key in headers:
        if isinstance(key, str) and key.lower() == name:
            value = headers[key]
            break
    if isinstance(value, (list, tuple)):
        value = " ".join(str(v) for v in value)
    if isinstance(value, bytes):
        value = value.decode("latin-1")
    return value if isinstance(value, str) and value != "" else None


def _decode_base64(text: str) -> Optional[bytes]:
    if not _BASE64.match(text) or len(text) % 4 != 0:
        return None
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        return None


def _secret_bytes(secret: Optional[str]) -> bytes:
    if not secret:
        raise InterlockError(
            "No webhook secret: pass one or set INTERLOCK_WEBHOOK_SECRET "
            "(the whsec_… shown when the webhook was created)."
        )
    decoded = _decode_base64(secret[len(_SECRET_PREFIX) :] if secret.startswith(_SECRET_PREFIX) else secret)
    if not decoded:
        raise InterlockError("Invalid webhook secret: expected whsec_ followed by base64.")
    return decoded


class Webhooks:
    """Verifies webhooks from Interlock. Give the raw body exactly as received (not re-encoded JSON).

    ``Webhooks(secret="whsec_…")`` on its own, or ``client.webhooks`` (the client's ``webhook_secret``).
    ``secret`` defaults to ``INTERLOCK_WEBHOOK_SECRET``.
    """

    def __init__(self, secret: Optional[str] = None) -> None:
        self._secret = (
            secret if secret is not None else (os.environ.get("INTERLOCK_WEBHOOK_SECRET", "").strip() or None)
        )

    def verify(
        self,
        payload: Union[str, bytes],
        headers: Mapping[str, Any],
        secret: Optional[str] = None,
        *,
        tolerance: int = DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
        now: Optional[float] = None,
    ) -> None:
        """Returns when ``payload`` carries a valid signature under ``secret`` (default: this object's)
        made within ``tolerance`` seconds of now; raises ``WebhookVerificationError`` otherwise. Any
        one signature may match (after a rotation Interlock signs with both secrets)."""
        key = _secret_bytes(secret if secret is not None else self._secret)
        msg_id = _header(headers, "webhook-id")
        timestamp = _header(headers, "webhook-timestamp")
        signatures = _header(headers, "webhook-signature")
        for name, value in (
            ("webhook-id", msg_id),
            ("webhook-timestamp", timestamp),
            ("webhook-signature", signatures),
        ):
            if value is None:
                raise WebhookVerificationError("missing_header", f"Missing required header: {name}.")
        if msg_id is None or timestamp is None or signatures is None:  # for the type checker: raised above
            raise AssertionError
        if not _TIMESTAMP.match(timestamp):
            raise WebhookVerificationError(
                "invalid_timestamp", "Invalid webhook-timestamp header: expected Unix seconds."
            )
        current = int(now if now is not None else time.time())
        sent = int(timestamp)
        if current - sent > tolerance:
            raise WebhookVerificationError(
                "timestamp_too_old", f"Webhook timestamp is too old (more than {tolerance} seconds before now)."
            )
        if sent - current > tolerance:
            raise WebhookVerificationError(
                "timestamp_too_new", f"Webhook timestamp is too new (more than {tolerance} seconds after now)."
            )
        body = payload.encode("utf-8") if isinstance(payload, str) else payload
        expected = hmac.new(key, f"{msg_id}.{timestamp}.".encode() + body, hashlib.sha256).digest()
        for candidate in signatures.split(" "):
            version, _, encoded = candidate.partition(",")
            if version != "v1":
                continue
            signature = _decode_base64(encoded)
            # compare_digest takes the same time whatever the bytes.
            if signature is not None and hmac.compare_digest(expected, signature):
                return
        raise WebhookVerificationError("invalid_signature", "No webhook-signature matches the payload.")

    def unwrap(
        self,
        payload: Union[str, bytes],
        headers: Mapping[str, Any],
        secret: Optional[str] = None,
        *,
        tolerance: int = DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
        now: Optional[float] = None,
    ) -> WebhookEvent:
        """Verifies the webhook (as ``verify``), then returns its event, typed by its ``type``."""
        self.verify(payload, headers, secret, tolerance=tolerance, now=now)
        try:
            event = json.loads(payload)
        except ValueError:
            event = None
        if (
            not isinstance(event, dict)
            or not isinstance(event.get("id"), str)
            or not isinstance(event.get("type"), str)
            or "data" not in event
        ):
            raise WebhookVerificationError("invalid_payload", "Webhook payload is not an Interlock event.")
        model = _EVENT_MODELS.get(event["type"], UnknownWebhookEvent)
        return model.model_validate(event)  # type: ignore[return-value]
