from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from pathlib import Path

import httpx
import pytest

from interlock import Interlock, InterlockError, __version__
from interlock.types import ActionRequest

from .conftest import Recorder, json_response, recorder
from .factories import INTERRUPT_ID, ORGANISATION_ID, SESSION_ID, interrupt, session, whoami

KEY = "ilk_testkey"
INTERRUPT = interrupt("send_email")
SESSION = session()


def make(rec: Recorder, *, timeout: float | None = None, default_headers: dict[str, str] | None = None) -> Interlock:
    return Interlock(
        api_key=KEY,
        base_url="http://interlock.test/",
        timeout=timeout,
        default_headers=default_headers,
        http_client=httpx.Client(transport=rec.transport()),
    )


def test_reads_the_key_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INTERLOCK_API_KEY", "ilk_fromenv")
    monkeypatch.setenv("INTERLOCK_BASE_URL", "http://elsewhere.test/")
    client = Interlock()
    assert client.api_key == "ilk_fromenv"
    assert client.base_url == "http://elsewhere.test"
    client.close()


def test_refuses_to_start_without_a_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("INTERLOCK_API_KEY", raising=False)
    with pytest.raises(InterlockError, match="INTERLOCK_API_KEY"):
        Interlock()
    with pytest.raises(InterlockError, match="INTERLOCK_API_KEY"):
        Interlock(api_key="")


def test_rejects_nonsensical_settings() -> None:
    with pytest.raises(InterlockError, match="max_retries"):
        Interlock(api_key=KEY, max_retries=-1)
    with pytest.raises(InterlockError, match="timeout"):
        Interlock(api_key=KEY, timeout=0)


def test_sends_the_key_in_x_api_key_only_with_sdk_headers() -> None:
    rec = recorder(json_response(200, whoami()))
    who = make(rec).whoami()
    assert who.plan == "pro"
    assert who.api_key.name == "ci"
    assert str(who.organisation_id) == ORGANISATION_ID
    request = rec.requests[0]
    assert str(request.url) == "http://interlock.test/api/whoami"
    assert request.method == "GET"
    assert request.headers["x-api-key"] == KEY
    assert "authorization" not in request.headers
    assert request.headers["user-agent"].startswith("interlock-sdk-python/")
    assert request.headers["x-interlock-sdk"].startswith("python/")
    assert "content-type" not in request.headers
    assert "idempotency-key" not in request.headers


def test_json_bodies_and_a_body_less_post() -> None:
    rec = recorder(json_response(201, SESSION), json_response(200, SESSION))
    client = make(rec)
    session = client.sessions.start(name="run", metadata={"team": "a"})
    assert str(session.id) == SESSION_ID
    client.sessions.end(session.id)
    assert rec.requests[0].headers["content-type"] == "application/json"
    assert rec.body(0) == {"name": "run", "metadata": {"team": "a"}}
    assert rec.requests[1].url.path == f"/api/sessions/{SESSION_ID}/end"
    assert rec.requests[1].content == b""
    assert "content-type" not in rec.requests[1].headers


def test_bodies_are_camel_case_and_leave_out_unset_fields() -> None:
    rec = recorder(json_response(201, INTERRUPT), json_response(201, {"appended": 2}))
    client = make(rec)
    client.interrupts.create(
        title="t",
        action_requests=[
            {"name": "a", "args": {"snake_key": 1}, "allowed_decisions": ["approve", "reject"]},
            ActionRequest(name="b", description="second"),
        ],
        external_id="run-1",
    )
    assert rec.body(0) == {
        "title": "t",
        "actionRequests": [
            {"name": "a", "args": {"snake_key": 1}, "allowedDecisions": ["approve", "reject"]},
            {"name": "b", "description": "second"},
        ],
        "externalId": "run-1",
    }
    result = client.sessions.append(SESSION_ID, [{"role": "agent", "content": "hi"}, {"role": "tool", "content": "42"}])
    assert result.appended == 2
    assert rec.body(1) == {"messages": [{"role": "agent", "content": "hi"}, {"role": "tool", "content": "42"}]}


def test_several_approvers_are_sent_camel_cased_with_the_team() -> None:
    rec = recorder(json_response(201, INTERRUPT))
    make(rec).interrupts.create(
        title="t",
        action_requests=[
            {
                "name": "pay",
                "args": {"team_id": 1},
                "required_approvals": 2,
                "approver_team": {"team_name": "Payments"},
            },
            ActionRequest.model_validate(
                {
                    "name": "refund",
                    "requiredApprovals": 3,
                    "approverTeam": {"teamId": "3f1c2b8e-0000-4000-8000-000000000001"},
                }
            ),
        ],
    )
    assert rec.body(0)["actionRequests"] == [
        {"name": "pay", "args": {"team_id": 1}, "requiredApprovals": 2, "approverTeam": {"teamName": "Payments"}},
        {"name": "refund", "requiredApprovals": 3, "approverTeam": {"teamId": "3f1c2b8e-0000-4000-8000-000000000001"}},
    ]


def test_query_parameters_drop_unset_values_and_write_utc_timestamps() -> None:
    rec = recorder(json_response(200, {"entries": [], "nextCursor": None}))
    paris = timezone(timedelta(hours=1))
    list(
        make(rec).audit_log.list(
            category="interrupt",
            q="ada",
            from_=datetime(2025, 1, 2, 4, 4, 5, 678000, tzinfo=paris),
            to="2025-02-01T00:00:00.000Z",
            actor_id=None,
            limit=200,
        )
    )
    assert dict(rec.requests[0].url.params) == {
        "category": "interrupt",
        "q": "ada",
        "from": "2025-01-02T03:04:05.678Z",
        "to": "2025-02-01T00:00:00.000Z",
        "limit": "200",
    }


def test_per_request_headers_add_override_and_remove() -> None:
    rec = recorder(json_response(200, INTERRUPT))
    make(rec, default_headers={"x-team": "a"}).interrupts.get(
        INTERRUPT_ID, extra_headers={"X-Trace": "t1", "user-agent": None}
    )
    headers = rec.requests[0].headers
    assert headers["x-team"] == "a"
    assert headers["x-trace"] == "t1"
    # httpx adds its own user-agent when the SDK's is removed.
    assert not headers.get("user-agent", "").startswith("interlock-sdk-python/")


def test_escapes_ids_in_paths_and_passes_the_timeout() -> None:
    rec = recorder(json_response(200, INTERRUPT))
    make(rec, timeout=12.5).interrupts.get("a/b?c")
    assert rec.requests[0].url.raw_path == b"/api/interrupts/a%2Fb%3Fc"
    assert rec.requests[0].extensions["timeout"] == httpx.Timeout(12.5).as_dict()


def test_an_injected_client_keeps_its_timeout_and_is_not_closed() -> None:
    rec = recorder(json_response(200, INTERRUPT))
    http = httpx.Client(transport=rec.transport(), timeout=7.0)
    with Interlock(api_key=KEY, http_client=http) as client:
        client.interrupts.get(INTERRUPT_ID)
    assert rec.requests[0].extensions["timeout"] == httpx.Timeout(7.0).as_dict()
    assert not http.is_closed
    http.close()


def test_models_keep_unknown_fields_and_dump_to_the_wire_form() -> None:
    body = {**SESSION, "laterField": 1}
    session = make(rec := recorder(json_response(201, body))).sessions.start(name="run")
    assert rec.requests[0].url.path == "/api/sessions"
    assert session.status == "active"
    assert session.message_count == 0
    assert session.model_extra == {"laterField": 1}
    wire = session.model_dump(mode="json", by_alias=True)
    assert wire["externalId"] is None
    assert wire["laterField"] == 1


def test_the_version_matches_pyproject() -> None:
    pyproject = (Path(__file__).parent.parent / "pyproject.toml").read_text(encoding="utf-8")
    match = re.search(r'^version = "([^"]+)"', pyproject, re.MULTILINE)
    assert match is not None
    assert match.group(1) == __version__


def test_low_level_get_and_post_reach_any_path() -> None:
    rec = recorder(json_response(200, {"ok": True}), json_response(201, {"made": 1}))
    client = make(rec)
    assert client.get("/api/whatever", params={"limit": 5}) == {"ok": True}
    assert client.post("/api/whatever", body={"name": "x"}, idempotency_key="k-1") == {"made": 1}
    assert rec.requests[0].url.query == b"limit=5"
    assert (rec.requests[1].method, rec.body(1)) == ("POST", {"name": "x"})
    assert rec.requests[1].headers["idempotency-key"] == "k-1"
