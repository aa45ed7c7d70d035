"""The Python SDK against a live service on real Postgres (tools/scripts/with-service.mjs): what it sends
and parses is checked against the service itself, never against a mock. The same cases as the
TypeScript SDK's libs/sdk-ts/test/sdk.e2e-spec.ts."""

from __future__ import annotations

import asyncio
import json
import os
import re
import time
from typing import Any, Callable
from uuid import UUID

import httpx
import pytest

from interlock import (
    ActionDigestMismatchError,
    APIError,
    AsyncInterlock,
    AuditEntry,
    AuthenticationError,
    BadRequestError,
    Interlock,
    InterlockError,
    Interrupt,
    NotFoundError,
    PaymentRequiredError,
    PermissionDeniedError,
    PlanRequiredError,
    Session,
    action_digest,
    to_langgraph_resume,
)

from .conftest import Live, run_tag

pytestmark = pytest.mark.integration
UUID_RE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


# Interrupts


def test_creates_gets_and_lists_interrupts(client: Interlock) -> None:
    external_id = run_tag("run-")
    created = client.interrupts.create(
        title="Deploy api 1.4.2?",
        action_requests=[
            {
                "name": "deploy",
                "args": {"service": "api", "version": "1.4.2"},
                "allowed_decisions": ["approve", "reject"],
            }
        ],
        external_id=external_id,
        metadata={"ticket": 7},
    )
    assert isinstance(created, Interrupt)
    assert (created.title, created.status, created.external_id) == ("Deploy api 1.4.2?", "open", external_id)
    assert (created.session_id, created.assignee, created.answered_at, created.decisions) == (None, None, None, [])
    assert created.metadata == {"ticket": 7}
    action = created.action_requests[0]
    assert (action.name, action.args, action.description) == ("deploy", {"service": "api", "version": "1.4.2"}, None)
    assert action.allowed_decisions == ["approve", "reject"]
    assert client.interrupts.get(created.id) == created

    second = client.interrupts.create(
        title="And the worker?", action_requests=[{"name": "deploy"}], external_id=external_id
    )
    assert second.action_requests[0].allowed_decisions == ["approve", "edit", "reject", "respond"]
    assert second.action_requests[0].args == {}

    first = client.interrupts.list(external_id=external_id, limit=1)
    assert [i.id for i in first.data] == [second.id]
    assert first.has_next_page()
    assert [i.id for i in client.interrupts.list(external_id=external_id, limit=1)] == [second.id, created.id]
    assert list(client.interrupts.list(external_id=external_id, status="answered")) == []


def test_routes_an_interrupt_as_it_opens_priority_assignee_labels(client: Interlock) -> None:
    email = os.environ["INTERLOCK_TEST_MEMBER_EMAIL"]
    created = client.interrupts.create(
        title="Refund order 881?",
        action_requests=[{"name": "refund"}],
        priority="urgent",
        assign_to={"email": email.upper()},
        labels=["billing", "eu", "billing"],
    )
    assert created.priority == "urgent"
    assert created.assignee is not None
    assert (created.assignee.type, created.assignee.id) == ("member", os.environ["INTERLOCK_TEST_MEMBER_ID"])
    assert (created.labels, created.classifier_labels) == (["billing", "eu"], [])
    to_team = client.interrupts.create(
        title="Refund order 882?", action_requests=[{"name": "refund"}], assign_to={"team_name": "Reviewers"}
    )
    assert to_team.priority == "normal"
    assert to_team.assignee is not None
    assert (to_team.assignee.type, to_team.assignee.name) == ("team", "Reviewers")
    listed = client.interrupts.list(priority=["urgent", "high"], label="billing", limit=100)
    assert created.id in [i.id for i in listed.data]
    assert to_team.id not in [i.id for i in listed.data]
    with pytest.raises(BadRequestError) as info:
        client.interrupts.create(
            title="Refund order 883?",
            action_requests=[{"name": "refund"}],
            assign_to={"team_name": "No such team here"},
        )
    assert info.value.message == "assignTo: no such team in this organisation"


def test_lists_by_every_filter_keys_may_use_opened_by_me_giving_this_keys(client: Interlock, live: Live) -> None:
    external_id = run_tag("filters-")
    other_id, other_key = live.create_key(run_tag("py-other-"))
    try:
        with Interlock(api_key=other_key, base_url=live.base_url) as other:
            opened: list[tuple[str, str, str]] = []
            for by, title in [
                ("main", "Deploy api"),
                ("other", "Deploy worker"),
                ("main", "Refund order 12"),
                ("other", "Déployer la prod"),
            ]:
                c = client if by == "main" else other
                created = c.interrupts.create(title=title, action_requests=[{"name": "a"}], external_id=external_id)
                opened.append((created.id, by, title))
            live.decide(opened[2][0], "a")
            newest = list(reversed(opened))

            def ids(items: Any) -> list[str]:
                return [i.id for i in items]

            assert ids(other.interrupts.list(external_id=external_id, opened_by="me", limit=1)) == [
                o[0] for o in newest if o[1] == "other"
            ]
            assert ids(client.interrupts.list(external_id=external_id, opened_by="me", status="open")) == [opened[0][0]]
            assert ids(client.interrupts.list(external_id=external_id, order="oldest", limit=3)) == [
                o[0] for o in opened
            ]
            assert ids(client.interrupts.list(external_id=external_id, q="DEPLO")) == [
                o[0] for o in newest if re.match(r"(?i)d[eé]plo", o[2])
            ]
            assert ids(
                client.interrupts.list(
                    external_id=external_id, assignee="unassigned", escalated=False, status="answered"
                )
            ) == [opened[2][0]]
            first = client.interrupts.get(opened[0][0])
            assert ids(client.interrupts.list(external_id=external_id, from_=first.created_at)) == [
                o[0] for o in newest
            ]
            # me and my_teams name a signed-in member: nothing is assigned to a key.
            assert ids(client.interrupts.list(assignee="me")) == []
    finally:
        live.revoke_key(other_id)


def test_replays_a_create_sent_again_with_the_same_idempotency_key(client: Interlock) -> None:
    key = run_tag("refund-1234-")
    once = client.interrupts.create(
        title="Refund order 1234?", action_requests=[{"name": "refund"}], idempotency_key=key
    )
    again = client.interrupts.create(
        title="Refund order 1234?", action_requests=[{"name": "refund"}], idempotency_key=key
    )
    assert again.id == once.id


def test_wait_for_answer_returns_when_a_member_decides(client: Interlock, live: Live) -> None:
    created = client.interrupts.create(
        title="Ship release 7?",
        action_requests=[{"name": "deploy"}, {"name": "notify", "args": {"channel": "#releases"}}],
    )
    deciding = live.decide_later(created.id, "deploy", "notify", delay=0.5)
    started = time.monotonic()
    answered = client.interrupts.wait_for_answer(created.id, poll_interval=0.1, timeout=30)
    deciding.join()
    assert time.monotonic() - started >= 0.4
    assert answered.status == "answered"
    assert answered.answered_at is not None
    assert [(d.action_name, d.decision) for d in answered.decisions] == [("deploy", "approve"), ("notify", "approve")]
    assert answered.decisions[0].decided_by.name == "SDK pro owner"
    assert answered.decisions[0].decided_by.type == "member"
    # Made without the bridge: one HITL request over its actions, checked against what was asked.
    asked = {"action_requests": [{"name": "deploy"}, {"name": "notify", "args": {"channel": "#releases"}}]}
    assert to_langgraph_resume(answered, asked) == {"decisions": [{"type": "approve"}, {"type": "approve"}]}


@pytest.mark.anyio
async def test_async_wait_for_answer_returns_when_a_member_decides(async_client: AsyncInterlock, live: Live) -> None:
    async with async_client as client:
        created = await client.interrupts.create(title="Ship release 8?", action_requests=[{"name": "deploy"}])
        deciding = live.decide_later(created.id, "deploy", delay=0.3)
        answered = await client.interrupts.wait_for_answer(created.id, poll_interval=0.1, timeout=30)
        await asyncio.to_thread(deciding.join)
    assert answered.status == "answered"
    assert [(d.action_name, d.decision) for d in answered.decisions] == [("deploy", "approve")]


class _Intermediary(httpx.BaseTransport):
    """Between the agent and the service: reads of one interrupt pass through ``change``."""

    def __init__(self, change: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
        self._inner = httpx.HTTPTransport()
        self._change = change

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self._inner.handle_request(request)
        if request.method != "GET" or not re.fullmatch(r"/api/interrupts/[^/]+", request.url.path):
            return response
        response.read()
        body = self._change(json.loads(response.content))
        return httpx.Response(response.status_code, headers={"content-type": "application/json"}, json=body)

    def close(self) -> None:
        self._inner.close()


def _stripped(body: dict[str, Any]) -> dict[str, Any]:
    return {
        **body,
        "actionRequests": [{k: v for k, v in a.items() if k != "actionDigest"} for a in body["actionRequests"]],
        "decisions": [
            {k: v for k, v in d.items() if k not in ("actionDigest", "editedActionDigest")} for d in body["decisions"]
        ],
    }


def _other_arguments(body: dict[str, Any]) -> dict[str, Any]:
    """The record made to say the refund is 4000, with digests recomputed to match."""
    args = {"order": "1234", "amount": 4000}
    digest = action_digest(body["id"], "refund", args)
    return {
        **body,
        "actionRequests": [{**a, "args": args, "actionDigest": digest} for a in body["actionRequests"]],
        "decisions": [{**d, "actionDigest": digest} for d in body["decisions"]],
    }


@pytest.mark.parametrize("change", [_stripped, _other_arguments], ids=["stripped", "other-arguments"])
def test_wait_for_answer_on_an_interrupt_this_client_opened_refuses_what_was_not_asked(
    live: Live, change: Callable[[dict[str, Any]], dict[str, Any]]
) -> None:
    refund: dict[str, Any] = {"name": "refund", "args": {"order": "1234", "amount": 40}}
    with Interlock(
        api_key=live.api_key, base_url=live.base_url, http_client=httpx.Client(transport=_Intermediary(change))
    ) as agent:
        created = agent.interrupts.create(
            title="Refund order 1234?", action_requests=[refund], external_id=run_tag("digest-")
        )
        assert created.action_requests[0].action_digest == action_digest(str(created.id), "refund", refund["args"])
        live.decide(created.id, "refund")
        with pytest.raises(ActionDigestMismatchError) as refused:
            agent.interrupts.wait_for_answer(created.id, poll_interval=0.1, timeout=30)
        assert refused.value.action_name == "refund"
    # The same answer, unchanged, is about what was asked.
    with Interlock(
        api_key=live.api_key, base_url=live.base_url, http_client=httpx.Client(transport=_Intermediary(lambda b: b))
    ) as own:
        mine = own.interrupts.create(title="Refund order 1234?", action_requests=[refund])
        live.decide(mine.id, "refund")
        assert own.interrupts.wait_for_answer(mine.id, poll_interval=0.1, timeout=30).status == "answered"


# Sessions


def test_starts_appends_to_and_ends_a_session(client: Interlock) -> None:
    external_id = run_tag("build-")
    session = client.sessions.start(name="nightly-build", external_id=external_id, metadata={"branch": "main"})
    assert UUID_RE.match(str(session.id))
    assert (session.name, session.external_id, session.status) == ("nightly-build", external_id, "active")
    assert (session.message_count, session.ended_at, session.metadata) == (0, None, {"branch": "main"})
    appended = client.sessions.append(
        session.id, [{"role": "agent", "content": "Building…"}, {"role": "tool", "content": "exit 0"}]
    )
    assert appended.appended == 2
    ended = client.sessions.end(session.id)
    assert (ended.id, ended.status, ended.message_count) == (session.id, "ended", 2)
    assert ended.ended_at is not None


def test_lists_sessions_newest_first_by_status_and_retrieves_one(client: Interlock, live: Live) -> None:
    external_id = run_tag("list-")
    started = [client.sessions.start(name=name, external_id=external_id) for name in ("first", "second", "third")]
    ended = client.sessions.end(started[1].id)
    every = list(client.sessions.list(external_id=external_id, limit=1))
    assert [s.name for s in every] == ["third", "second", "first"]
    assert every[1] == ended
    assert [s.id for s in client.sessions.list(external_id=external_id, status="ended")] == [ended.id]
    assert [s.name for s in client.sessions.list(external_id=external_id, status="active")] == ["third", "first"]
    page = client.sessions.list(external_id=external_id, limit=2)
    assert (len(page.data), page.has_next_page()) == (2, True)
    one = client.sessions.retrieve(ended.id)
    assert one == ended
    assert one == Session.model_validate(live.raw("GET", f"/api/sessions/{ended.id}", api_key=live.api_key).json())
    with pytest.raises(NotFoundError) as info:
        client.sessions.retrieve("00000000-0000-4000-8000-000000000000")
    assert info.value.message == "Not found."


@pytest.mark.anyio
async def test_async_sessions_list_and_retrieve(async_client: AsyncInterlock) -> None:
    external_id = run_tag("alist-")
    async with async_client as client:
        created = await client.sessions.start(name="async", external_id=external_id)
        listed = [s.id async for s in client.sessions.list(external_id=external_id)]
        assert listed == [created.id]
        assert (await client.sessions.retrieve(created.id)).name == "async"


# Audit log


@pytest.mark.anyio
async def test_walks_500_entries_with_auto_pagination_exactly_as_a_raw_cursor_walk(
    async_client: AsyncInterlock, client: Interlock, live: Live
) -> None:
    tag = run_tag("walk")
    async with async_client as writer:
        for start in range(0, 500, 10):
            await asyncio.gather(
                *(
                    writer.interrupts.create(title=f"{tag} {n}", action_requests=[{"name": "noop"}])
                    for n in range(start, start + 10)
                )
            )

    via_sdk: list[AuditEntry] = list(client.audit_log.list(q=tag, limit=50))

    via_raw: list[dict[str, Any]] = []
    cursor = None
    pages = 0
    while True:
        params: dict[str, Any] = {"q": tag, "limit": 50}
        if cursor is not None:
            params["cursor"] = cursor
        response = live.raw("GET", "/api/audit-log", api_key=live.api_key, params=params)
        assert response.status_code == 200, response.text
        body = response.json()
        via_raw.extend(body["entries"])
        pages += 1
        cursor = body["nextCursor"]
        if cursor is None:
            break

    assert pages == 10
    assert len(via_sdk) == 500
    # The SDK's entries are exactly what the service sent: the same values, no field lost.
    assert via_sdk == [AuditEntry.model_validate(entry) for entry in via_raw]
    assert [set(e.model_dump(by_alias=True, exclude_unset=True)) for e in via_sdk] == [set(r) for r in via_raw]
    assert [e.created_at.isoformat(timespec="milliseconds").replace("+00:00", "Z") for e in via_sdk] == [
        r["createdAt"] for r in via_raw
    ]
    assert len({e.id for e in via_sdk}) == 500
    assert all(e.action == "interrupt.created" and (e.target_name or "").startswith(tag) for e in via_sdk)
    created = [e.created_at for e in via_sdk]
    assert created == sorted(created, reverse=True)

    # The async paginator walks the same entries.
    async with AsyncInterlock(api_key=live.api_key, base_url=live.base_url) as reader:
        assert [e.id async for e in reader.audit_log.list(q=tag, limit=50)] == [e.id for e in via_sdk]


# Typed errors


def failure(call: Any, *args: Any, **kwargs: Any) -> APIError:
    # A list call fetches its first page at once, so the call itself raises.
    with pytest.raises(APIError) as info:
        call(*args, **kwargs)
    return info.value


def expect_error(error: APIError, status: int, code: str, message: str) -> None:
    assert (error.status, error.code, error.message, str(error)) == (status, code, message, message)
    assert error.request_id is not None
    assert UUID_RE.match(error.request_id)
    assert error.headers is not None
    assert error.request_id == error.headers["x-request-id"]


def test_401_missing_api_key(client: Interlock, live: Live) -> None:
    # A client never sends an empty key: it refuses to start without one.
    with pytest.raises(InterlockError, match="INTERLOCK_API_KEY"):
        Interlock(api_key="", base_url=live.base_url)
    # Removing the header for one call is the only way to send none.
    error = failure(client.whoami, extra_headers={"x-api-key": None})
    assert isinstance(error, AuthenticationError)
    expect_error(error, 401, "MISSING_API_KEY", "Missing x-api-key header.")
    assert live.raw("GET", "/api/whoami").json()["message"] == error.message


def test_401_invalid_api_key(live: Live) -> None:
    bogus = "ilk_" + "Q" * 64
    with Interlock(api_key=bogus, base_url=live.base_url) as client:
        error = failure(client.whoami)
    assert isinstance(error, AuthenticationError)
    expect_error(error, 401, "INVALID_API_KEY", "Invalid API key.")
    assert live.raw("GET", "/api/whoami", api_key=bogus).json()["message"] == error.message


def test_401_api_key_expired(live: Live) -> None:
    with Interlock(api_key=live.expired_api_key, base_url=live.base_url) as client:
        error = failure(client.whoami)
    assert isinstance(error, AuthenticationError)
    expect_error(error, 401, "API_KEY_EXPIRED", "API Key has expired")


def test_402_plan_required_on_a_free_organisations_audit_log(live: Live) -> None:
    with Interlock(api_key=live.free_api_key, base_url=live.base_url) as free:
        assert free.whoami().plan == "free"
        error = failure(free.audit_log.list)
    assert isinstance(error, PlanRequiredError)
    assert isinstance(error, PaymentRequiredError)
    expect_error(error, 402, "PLAN_REQUIRED", "The audit log API requires the Pro plan.")


def test_403_humans_only_on_a_human_route(client: Interlock) -> None:
    error = failure(client.post, "/api/api-keys", body={"name": "from-a-key", "expiry": "never"})
    assert isinstance(error, PermissionDeniedError)
    expect_error(error, 403, "HUMANS_ONLY", "This endpoint is reserved for humans.")


def test_400_validation_failed_names_the_parameter(client: Interlock, live: Live) -> None:
    error = failure(client.interrupts.list, limit=500)
    assert isinstance(error, BadRequestError)
    served = live.raw("GET", "/api/interrupts", api_key=live.api_key, params={"limit": 500}).json()
    expect_error(error, 400, "VALIDATION_FAILED", served["message"])
    assert "limit" in error.message

    unknown = failure(
        client.post, "/api/interrupts", body={"title": "t", "actionRequests": [{"name": "a"}], "colour": "red"}
    )
    assert isinstance(unknown, BadRequestError)
    assert unknown.code == "VALIDATION_FAILED"
    assert "colour" in unknown.message


def test_404_not_found_for_an_unknown_interrupt(client: Interlock) -> None:
    error = failure(client.interrupts.get, UUID("00000000-0000-4000-8000-000000000000"))
    assert isinstance(error, NotFoundError)
    expect_error(error, 404, "NOT_FOUND", "Not found.")
