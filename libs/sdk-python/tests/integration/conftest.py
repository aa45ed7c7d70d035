"""The live service tools/scripts/with-service.mjs prepared (selected with ``-m integration``): keys of a
Pro and a Free organisation, an expired key, and the Pro owner's session cookie. Plus raw HTTP
helpers, so that tests compare the SDK with what the service itself answers."""

from __future__ import annotations

import os
import secrets
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Callable, Optional

import httpx
import pytest

from interlock import AsyncInterlock, Interlock


@dataclass(frozen=True)
class Live:
    base_url: str
    api_key: str
    free_api_key: str
    expired_api_key: str
    member_cookie: str

    def raw(
        self,
        method: str,
        path: str,
        *,
        api_key: Optional[str] = None,
        cookie: Optional[str] = None,
        params: Optional[dict[str, Any]] = None,
        json: Any = None,
    ) -> httpx.Response:
        """One request without the SDK."""
        headers = {"accept": "application/json"}
        if api_key is not None:
            headers["x-api-key"] = api_key
        if cookie is not None:
            headers["cookie"] = cookie
        return httpx.request(method, self.base_url + path, headers=headers, params=params, json=json, timeout=30)

    def decide(self, interrupt_id: object, action_name: str, decision: str = "approve", **extras: Any) -> None:
        """A member decides one action (a human route: the session cookie, no key); ``extras`` are
        ``editedArgs``, ``editedName`` or ``message``."""
        response = self.raw(
            "POST",
            f"/api/interrupts/{interrupt_id}/decisions",
            cookie=self.member_cookie,
            json={"actionName": action_name, "decision": decision, **extras},
        )
        assert response.status_code in (200, 201), response.text

    def create_key(self, name: str) -> tuple[str, str]:
        """A new API key of the Pro organisation, created by its owner (a human route: the cookie):
        ``(id, key)``. Revoke it with ``revoke_key``."""
        response = self.raw("POST", "/api/api-keys", cookie=self.member_cookie, json={"name": name, "expiry": "never"})
        assert response.status_code == 201, response.text
        body = response.json()
        return str(body["id"]), str(body["key"])

    def revoke_key(self, key_id: str) -> None:
        response = self.raw("DELETE", f"/api/api-keys/{key_id}", cookie=self.member_cookie)
        assert response.status_code == 204, response.text

    def decide_when_open(
        self,
        external_id: str,
        choose: Callable[[dict[str, Any]], tuple[str, dict[str, Any]]],
        count: int = 1,
    ) -> Callable[[], list[dict[str, Any]]]:
        """Plays the human from another thread: waits until ``count`` interrupts with this externalId
        are open, then decides each action as ``choose(action)`` says (a decision and its extras).
        Returns a function that joins the thread and gives the interrupts it decided."""
        decided: list[dict[str, Any]] = []
        failure: list[BaseException] = []

        def run() -> None:
            try:
                for _ in range(600):
                    params = {"status": "open", "externalId": external_id}
                    found = self.raw("GET", "/api/interrupts", api_key=self.api_key, params=params).json()
                    if len(found["interrupts"]) >= count:
                        for interrupt in found["interrupts"]:
                            for action in interrupt["actionRequests"]:
                                decision, extras = choose(action)
                                self.decide(interrupt["id"], action["name"], decision, **extras)
                            decided.append(interrupt)
                        return
                    time.sleep(0.1)
                raise AssertionError(f"fewer than {count} open interrupts with externalId {external_id} appeared")
            except BaseException as error:
                failure.append(error)

        thread = threading.Thread(target=run, daemon=True)
        thread.start()

        def join() -> list[dict[str, Any]]:
            thread.join(timeout=120)
            if failure:
                raise failure[0]
            return decided

        return join

    def decide_later(self, interrupt_id: object, *actions: str, delay: float = 0.5) -> threading.Thread:
        """Decides the actions from another thread after ``delay`` seconds (join the thread afterwards)."""

        def run() -> None:
            time.sleep(delay)
            for action in actions:
                self.decide(interrupt_id, action)

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        return thread


def _required(name: str) -> str:
    value = os.environ.get(name, "")
    if not value:
        pytest.fail(f"{name} is not set: run the integration tests through tools/scripts/with-service.mjs")
    return value


@pytest.fixture(scope="session")
def live() -> Live:
    return Live(
        base_url=_required("INTERLOCK_BASE_URL"),
        api_key=_required("INTERLOCK_API_KEY"),
        free_api_key=_required("INTERLOCK_FREE_API_KEY"),
        expired_api_key=_required("INTERLOCK_EXPIRED_API_KEY"),
        member_cookie=_required("INTERLOCK_TEST_MEMBER_COOKIE"),
    )


@pytest.fixture
def client(live: Live) -> Iterator[Interlock]:
    with Interlock(api_key=live.api_key, base_url=live.base_url) as c:
        yield c


@pytest.fixture
def async_client(live: Live) -> AsyncInterlock:
    return AsyncInterlock(api_key=live.api_key, base_url=live.base_url)


def run_tag(prefix: str) -> str:
    """A tag unique to this run, to find what a test wrote."""
    return prefix + secrets.token_hex(4)
