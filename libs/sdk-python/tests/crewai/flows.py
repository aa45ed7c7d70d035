"""The flows the CrewAI bridge's tests run: made by functions, so that each test gives its own provider and
a later process can make the same flow class again to resume it."""

from __future__ import annotations

from typing import Any

from crewai.flow.flow import Flow, FlowState, listen, start
from crewai.flow.human_feedback import human_feedback

from interlock.crewai import InterlockFeedback

POST = {"title": "Launch", "body": "We ship today."}


def _feedback(flow: Flow[Any]) -> str:
    result = flow.last_human_feedback
    assert result is not None
    return result.feedback


def post_flow(provider: InterlockFeedback) -> type[Flow[Any]]:
    """A router: a person picks publish, revise or drop (revise is the default outcome)."""

    class PostFlow(Flow[FlowState]):
        @start()
        @human_feedback(
            message="Publish the launch post?",
            emit=["publish", "revise", "drop"],
            default_outcome="revise",
            provider=provider,
        )
        def draft(self) -> dict[str, str]:
            return dict(POST)

        @listen("publish")
        def on_publish(self) -> str:
            return f"published ({_feedback(self)})"

        @listen("revise")
        def on_revise(self) -> str:
            return f"revised ({_feedback(self)})"

        @listen("drop")
        def on_drop(self) -> str:
            return f"dropped ({_feedback(self)})"

    return PostFlow


def summary_flow(provider: InterlockFeedback) -> type[Flow[Any]]:
    """No outcomes: the person approves the summary as it is or writes feedback."""

    class SummaryFlow(Flow[FlowState]):
        @start()
        @human_feedback(message="Is this summary right?", provider=provider)
        def summarise(self) -> str:
            return "Sales rose 4% in Q3."

        @listen(summarise)
        def finish(self, result: Any) -> str:
            return f"feedback: {result.feedback!r}, output: {result.output!r}"

    return SummaryFlow
