"""webhooks.unwrap against deliveries the live service signed and sent to a receiver on loopback
(tools/scripts/with-service.mjs), cross-checked with the reference implementation (PyPI)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from standardwebhooks import Webhook as Reference

from interlock import Interlock, WebhookEvent, Webhooks, WebhookVerificationError
from interlock.types import InterruptAnsweredEvent, InterruptCreatedEvent, InterruptDecidedEvent

from .conftest import Live

pytestmark = pytest.mark.integration

Delivery = tuple[dict[str, str], bytes]


class _Receiver(BaseHTTPRequestHandler):
    deliveries: list[Delivery]

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("content-length", "0")))
        self.deliveries.append(({k.lower(): v for k, v in self.headers.items()}, body))
        self.send_response(204)
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        return


@pytest.fixture
def receiver() -> Iterator[tuple[str, list[Delivery]]]:
    deliveries: list[Delivery] = []
    handler = type("Receiver", (_Receiver,), {"deliveries": deliveries})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/interlock", deliveries
    server.shutdown()
    server.server_close()


def test_deciding_the_last_action_delivers_decided_then_answered(
    live: Live, client: Interlock, receiver: tuple[str, list[Delivery]]
) -> None:
    url, deliveries = receiver
    created = live.raw(
        "POST",
        "/api/webhooks",
        cookie=live.member_cookie,
        json={"url": url, "eventTypes": ["interrupt.created", "interrupt.decided", "interrupt.answered"]},
    )
    assert created.status_code == 201, created.text
    webhook = created.json()
    try:
        interrupt = client.interrupts.create(
            title="Ship the Python webhooks?", action_requests=[{"name": "ship"}, {"name": "announce"}]
        )
        live.decide(interrupt.id, "ship", "approve")
        live.decide(interrupt.id, "announce", "respond", message="On Friday.")

        webhooks = Webhooks(webhook["secret"])

        def mine() -> list[tuple[Delivery, WebhookEvent]]:
            found: list[tuple[Delivery, WebhookEvent]] = []
            for headers, body in list(deliveries):
                event = webhooks.unwrap(body, headers)
                if getattr(event.data, "id", None) == interrupt.id:
                    found.append(((headers, body), event))
            return found

        for _ in range(300):
            if len(mine()) >= 4:
                break
            time.sleep(0.1)
        received = mine()
        assert [type(event) for _, event in received] == [
            InterruptCreatedEvent,
            InterruptDecidedEvent,
            InterruptDecidedEvent,
            InterruptAnsweredEvent,
        ]
        answered = received[3][1]
        assert isinstance(answered, InterruptAnsweredEvent)
        assert answered.data == client.interrupts.get(interrupt.id)
        assert [d.decision for d in answered.data.decisions] == ["approve", "respond"]
        for (headers, body), event in received:
            assert headers["webhook-id"] == getattr(event, "id", None)
            # The reference implementation agrees.
            assert Reference(webhook["secret"]).verify(body, headers)["type"] == getattr(event, "type", None)

        (headers, body), _ = received[0]
        with pytest.raises(WebhookVerificationError) as tampered:
            webhooks.unwrap(body.replace(b"Ship", b"Sink"), headers)
        assert str(tampered.value) == "No webhook-signature matches the payload."
    finally:
        live.raw("DELETE", f"/api/webhooks/{webhook['id']}", cookie=live.member_cookie)
