"""Typed human input against the live service: ``interlock.ask`` with a pydantic model, a member
answering over HTTP with a ``response`` the service validates, the SDK returning a model instance."""

from __future__ import annotations

from typing import Literal

import pytest
from pydantic import BaseModel, Field

from interlock import AnswerDeclinedError, AsyncInterlock, Interlock, ask, ask_async

from .conftest import Live, run_tag

pytestmark = pytest.mark.integration


class Rollout(BaseModel):
    region: Literal["eu-west-1", "us-east-1"] = Field(description="Where to deploy first")
    replicas: int = Field(3, ge=1, le=20)
    teams: list[Literal["ops", "payments"]] = []


def test_returns_the_members_answer_as_a_model(live: Live, client: Interlock) -> None:
    external_id = run_tag("ask-")
    join = live.decide_when_open(external_id, lambda action: ("respond", {"response": {"region": "us-east-1"}}))
    plan = ask(client, "Plan the rollout", Rollout, external_id=external_id, args={"service": "api"}, poll_interval=0.1)
    (opened,) = join()
    assert isinstance(plan, Rollout)
    assert plan == Rollout(region="us-east-1", replicas=3, teams=[])
    (action,) = opened["actionRequests"]
    assert action["name"] == "answer"
    assert action["allowedDecisions"] == ["respond", "reject"]
    assert action["responseSchema"] == Rollout.model_json_schema()


def test_the_service_refuses_an_answer_outside_the_schema(live: Live, client: Interlock) -> None:
    created = client.interrupts.create(
        title="Plan it",
        action_requests=[
            {"name": "answer", "allowed_decisions": ["respond"], "response_schema": Rollout.model_json_schema()}
        ],
    )
    refused = live.raw(
        "POST",
        f"/api/interrupts/{created.id}/decisions",
        cookie=live.member_cookie,
        json={"actionName": "answer", "decision": "respond", "response": {"region": "us-east-1", "replicas": 99}},
    )
    assert refused.status_code == 400
    assert refused.json()["message"] == "response.replicas must be at most 20"
    assert created.action_requests[0].response_schema == Rollout.model_json_schema()


def test_a_declined_question_raises_with_the_message(live: Live, client: Interlock) -> None:
    external_id = run_tag("ask-declined-")
    join = live.decide_when_open(external_id, lambda action: ("reject", {"message": "Ask ops."}))
    with pytest.raises(AnswerDeclinedError) as info:
        ask(client, "Plan it", Rollout, external_id=external_id, poll_interval=0.1)
    join()
    assert info.value.reviewer_message == "Ask ops."


@pytest.mark.anyio
async def test_ask_async(live: Live) -> None:
    external_id = run_tag("ask-async-")
    client = AsyncInterlock(api_key=live.api_key, base_url=live.base_url)
    join = live.decide_when_open(
        external_id, lambda action: ("respond", {"response": {"region": "eu-west-1", "replicas": 2, "teams": ["ops"]}})
    )
    plan = await ask_async(client, "Plan it", Rollout, external_id=external_id, poll_interval=0.1)
    join()
    assert plan == Rollout(region="eu-west-1", replicas=2, teams=["ops"])
    await client.close()
