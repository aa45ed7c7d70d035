"""The CrewAI bridge against the real crewai (pinned in requirements-crewai.txt; these tests run in its own
venv) and the live service: a flow's @human_feedback opens an interrupt, a member decides over HTTP (the
session cookie) and the flow goes on along the outcome they chose, with their feedback — in the run, or
resumed after the process that paused it has exited. No LLM is called: the bridge routes the chosen outcome
itself."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from crewai.flow.async_feedback import HumanFeedbackPending, PendingFeedbackContext
from crewai.flow.persistence import SQLiteFlowPersistence

from interlock import ActionDigestMismatchError, Interlock, InterlockError
from interlock.crewai import (
    CREWAI_METADATA_KEY,
    FeedbackNotGivenError,
    InterlockFeedback,
    feedback_of,
    feedback_params,
    resume_flow,
    resume_flow_async,
)

from ..integration.conftest import Live, run_tag
from .flows import POST, post_flow, summary_flow

SDK_DIR = Path(__file__).resolve().parents[2]
OUTCOME_SCHEMA = {
    "type": "object",
    "properties": {
        "outcome": {
            "type": "string",
            "enum": ["publish", "revise", "drop"],
            "title": "Outcome",
            "description": "Where the flow goes next.",
            "default": "revise",
        },
        "feedback": {
            "type": "string",
            "title": "Feedback",
            "description": "What the flow's next steps read as your feedback (optional).",
        },
    },
    "required": ["outcome"],
    "additionalProperties": False,
}


def context(**overrides: Any) -> PendingFeedbackContext:
    fields: dict[str, Any] = {
        "flow_id": "f-1",
        "flow_class": "app.PostFlow",
        "method_name": "draft",
        "method_output": dict(POST),
        "message": "Publish the launch post?",
        "emit": ["publish", "revise", "drop"],
        "default_outcome": "revise",
    }
    return PendingFeedbackContext(**{**fields, **overrides})


def answered(
    decisions: list[dict[str, Any]], emit: Any = ("publish", "revise", "drop"), status: str = "answered"
) -> dict[str, Any]:
    """An interrupt as the service returns it (wire names), opened by the bridge for step ``draft``."""
    bridge = {
        "v": 1,
        "flowId": "f-1",
        "flowClass": "app.PostFlow",
        "method": "draft",
        "emit": list(emit) if emit else None,
    }
    return {"status": status, "metadata": {CREWAI_METADATA_KEY: bridge}, "decisions": decisions}


def test_a_router_asks_for_one_of_its_outcomes() -> None:
    params = feedback_params(context(), external_id="post-1")
    assert params == {
        "title": "Publish the launch post?",
        "external_id": "post-1",
        "action_requests": [
            {
                "name": "draft",
                "args": {"output": POST},
                "allowed_decisions": ["respond"],
                "response_schema": OUTCOME_SCHEMA,
            }
        ],
        "metadata": {
            CREWAI_METADATA_KEY: {
                "v": 1,
                "flowId": "f-1",
                "flowClass": "app.PostFlow",
                "method": "draft",
                "emit": ["publish", "revise", "drop"],
            }
        },
    }


def test_a_step_without_outcomes_asks_for_approval_or_feedback() -> None:
    params = feedback_params(context(emit=None, default_outcome=None, message="  Is this\n right? "), title=None)
    assert params["title"] == "Is this right?"
    assert params["action_requests"] == [
        {"name": "draft", "args": {"output": POST}, "allowed_decisions": ["approve", "respond"]}
    ]
    assert params["metadata"][CREWAI_METADATA_KEY]["emit"] is None


def test_the_decision_becomes_an_outcome_and_feedback() -> None:
    respond = {"actionName": "draft", "decision": "respond", "message": None}
    assert feedback_of(answered([{**respond, "response": {"outcome": "drop", "feedback": "Not now."}}])) == (
        "drop",
        "Not now.",
    )
    # The message stands in for feedback the form left empty; no words at all is an empty text.
    assert feedback_of(answered([{**respond, "message": "Later.", "response": {"outcome": "revise"}}])) == (
        "revise",
        "Later.",
    )
    assert feedback_of(answered([{**respond, "response": {"outcome": "publish"}}])) == ("publish", "")
    assert feedback_of(answered([{"actionName": "draft", "decision": "approve"}], emit=None)) == (None, "")
    assert feedback_of(answered([{**respond, "message": "Shorter."}], emit=None)) == (None, "Shorter.")


def test_what_cannot_become_feedback_says_why() -> None:
    with pytest.raises(FeedbackNotGivenError, match=r"^Nobody gave feedback on draft: the request was withdrawn"):
        feedback_of(answered([], status="withdrawn"))
    with pytest.raises(InterlockError, match=r"names none of the outcomes"):
        feedback_of(answered([{"actionName": "draft", "decision": "approve"}]))
    with pytest.raises(InterlockError, match=r"not opened by the CrewAI bridge"):
        feedback_of({"status": "answered", "metadata": {}, "decisions": []})
    with pytest.raises(InterlockError, match=r"still open"):
        feedback_of(answered([], status="open"))


PAUSE = textwrap.dedent(
    """
    import json, sys
    from crewai.flow.persistence import SQLiteFlowPersistence
    from interlock import Interlock
    from interlock.crewai import InterlockFeedback
    from tests.crewai.flows import post_flow

    db, external_id = sys.argv[1:]
    flow = post_flow(InterlockFeedback(Interlock(), external_id=external_id))(persistence=SQLiteFlowPersistence(db))
    paused = flow.kickoff()
    found = {"type": type(paused).__name__, **paused.callback_info, "flowId": paused.context.flow_id}
    print("PAUSED " + json.dumps(found))
    """
)


def pause_in_another_process(live: Live, db: Path, external_id: str) -> dict[str, Any]:
    """Kicks the post flow off in a process of its own, which pauses (the flow saved in ``db``) and exits."""
    env = {
        **os.environ,
        "INTERLOCK_API_KEY": live.api_key,
        "INTERLOCK_BASE_URL": live.base_url,
        "PYTHONPATH": os.pathsep.join([str(SDK_DIR / "src"), str(SDK_DIR)]),
    }
    child = subprocess.run(
        [sys.executable, "-c", PAUSE, str(db), external_id],
        cwd=SDK_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert child.returncode == 0, child.stdout + child.stderr
    (line,) = [x for x in child.stdout.splitlines() if x.startswith("PAUSED ")]
    return dict(json.loads(line.removeprefix("PAUSED ")))


@pytest.mark.integration
def test_a_paused_flow_resumes_in_another_process_along_the_chosen_outcome(
    live: Live, client: Interlock, tmp_path: Path
) -> None:
    db = tmp_path / "flows.db"
    external_id = run_tag("crewai-")
    paused = pause_in_another_process(live, db, external_id)
    assert paused["type"] == "HumanFeedbackPending"

    opened = live.raw("GET", f"/api/interrupts/{paused['interruptId']}", api_key=live.api_key).json()
    assert (opened["title"], opened["status"], opened["externalId"]) == (
        "Publish the launch post?",
        "open",
        external_id,
    )
    (action,) = opened["actionRequests"]
    assert (action["name"], action["args"], action["allowedDecisions"]) == ("draft", {"output": POST}, ["respond"])
    assert action["responseSchema"] == OUTCOME_SCHEMA
    assert opened["metadata"][CREWAI_METADATA_KEY]["flowId"] == paused["flowId"]

    live.decide(paused["interruptId"], "draft", "respond", response={"outcome": "drop", "feedback": "Not this week."})
    decided = client.interrupts.get(paused["interruptId"])
    flow = post_flow(InterlockFeedback(client))
    # A decision whose digest is not the one of the output the flow paused with is refused, and
    # the flow stays paused.
    wire = live.raw("GET", f"/api/interrupts/{paused['interruptId']}", api_key=live.api_key).json()
    forged = wire | {"decisions": [d | {"actionDigest": "f" * 64} for d in wire["decisions"]]}
    with pytest.raises(ActionDigestMismatchError, match="action draft of interrupt"):
        resume_flow(flow, forged, SQLiteFlowPersistence(str(db)))
    assert resume_flow(flow, decided, SQLiteFlowPersistence(str(db))) == "dropped (Not this week.)"
    # Resumed once: the pause is gone from the flow's store.
    with pytest.raises(ValueError, match="No pending feedback"):
        resume_flow(flow, decided, SQLiteFlowPersistence(str(db)))


@pytest.mark.integration
def test_an_outcome_chosen_without_words_is_taken_not_the_default(live: Live, client: Interlock) -> None:
    external_id = run_tag("crewai-wait-")
    flow = post_flow(InterlockFeedback(client, wait=True, external_id=external_id, poll_interval=0.1))
    join = live.decide_when_open(external_id, lambda action: ("respond", {"response": {"outcome": "publish"}}))
    result = flow().kickoff()
    (opened,) = join()
    assert opened["title"] == "Publish the launch post?"
    # CrewAI would route an empty reply to the default outcome (revise): the person chose publish.
    assert result == "published (publish)"


@pytest.mark.integration
def test_a_step_without_outcomes_gets_the_written_feedback_or_an_approval(live: Live, client: Interlock) -> None:
    cases: list[tuple[str, dict[str, Any], str]] = [
        ("respond", {"message": "Say Q3 2026."}, "feedback: 'Say Q3 2026.', output: 'Sales rose 4% in Q3.'"),
        ("approve", {}, "feedback: '', output: 'Sales rose 4% in Q3.'"),
    ]
    for decision, extras, expected in cases:
        external_id = run_tag("crewai-summary-")
        flow = summary_flow(InterlockFeedback(client, wait=True, external_id=external_id, poll_interval=0.1))

        def choose(action: dict[str, Any], d: str = decision, e: dict[str, Any] = extras) -> tuple[str, dict[str, Any]]:
            return d, e

        join = live.decide_when_open(external_id, choose)
        result = flow().kickoff()
        (opened,) = join()
        assert opened["actionRequests"][0]["allowedDecisions"] == ["approve", "respond"]
        assert result == expected


@pytest.mark.integration
@pytest.mark.anyio
async def test_a_withdrawn_request_leaves_the_flow_paused(live: Live, client: Interlock, tmp_path: Path) -> None:
    db = SQLiteFlowPersistence(str(tmp_path / "flows.db"))
    flow = post_flow(InterlockFeedback(client, external_id=run_tag("crewai-withdrawn-")))
    paused = await flow(persistence=db).kickoff_async()
    assert isinstance(paused, HumanFeedbackPending)
    interrupt_id = paused.callback_info["interruptId"]
    client.interrupts.cancel(interrupt_id, reason="The launch moved.")
    withdrawn = client.interrupts.get(interrupt_id)
    with pytest.raises(FeedbackNotGivenError, match=r"^Nobody gave feedback on draft: the request was withdrawn"):
        await resume_flow_async(flow, withdrawn, db)
    # Still paused: an answer from elsewhere could resume it.
    assert db.load_pending_feedback(paused.context.flow_id) is not None
