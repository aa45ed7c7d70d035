"""Typed human input (``ask``): a question whose answer is a pydantic model instance.

The agent passes a model; people answer in a form the dashboard renders from its JSON Schema, the
service validates the answer against that schema, and ``ask`` returns it as the model.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Optional, TypeVar

from pydantic import BaseModel

from ._client import AsyncInterlock, Interlock
from .gate import DeclinedError
from .resources.interrupts import DEFAULT_POLL_INTERVAL, DEFAULT_WAIT_TIMEOUT
from .types import Interrupt

__all__ = ["AnswerDeclinedError", "ask", "ask_async", "response_schema_of"]

M = TypeVar("M", bound=BaseModel)


class AnswerDeclinedError(DeclinedError):
    """An ``ask`` nobody answered with a value: declined (with the person's message), expired or withdrawn."""


def response_schema_of(model: type[BaseModel]) -> dict[str, Any]:
    """The JSON Schema the service stores for ``model``: what people fill in (fields with a default
    are not required). A model of str, int, float, bool, ``Literal[...]`` and lists of those fits the
    subset the service accepts; ``Field(description=...)`` and titles become the form's labels."""
    return model.model_json_schema(mode="validation")


def _create(
    title: str,
    model: type[BaseModel],
    name: str,
    description: Optional[str],
    args: Optional[Mapping[str, Any]],
    allow_decline: bool,
    external_id: Optional[str],
    session_id: Optional[str],
    metadata: Optional[Mapping[str, Any]],
    idempotency_key: Optional[str],
) -> dict[str, Any]:
    create: dict[str, Any] = {
        "title": title,
        "action_requests": [
            {
                "name": name,
                "args": dict(args or {}),
                "allowed_decisions": ["respond", "reject"] if allow_decline else ["respond"],
                "response_schema": response_schema_of(model),
            }
        ],
    }
    for key, value in (
        ("description", description),
        ("external_id", external_id),
        ("session_id", session_id),
        ("metadata", metadata),
        ("idempotency_key", idempotency_key),
    ):
        if value is not None:
            create[key] = value
    return create


def _answer(answered: Interrupt, title: str, name: str, model: type[M]) -> M:
    decision = next((d for d in answered.decisions if d.action_name == name), None)
    if decision is not None and decision.decision == "respond" and decision.response is not None:
        return model.model_validate(decision.response)
    if decision is None:
        raise AnswerDeclinedError(
            f'Nobody answered "{title}": the request was {answered.status}.', interrupt=answered, decision=None
        )
    why = f": {decision.message}" if decision.message else "."
    raise AnswerDeclinedError(
        f'"{title}" was declined by {decision.decided_by.name}{why}', interrupt=answered, decision=decision
    )


def ask(
    client: Interlock,
    title: str,
    model: type[M],
    *,
    description: Optional[str] = None,
    name: str = "answer",
    args: Optional[Mapping[str, Any]] = None,
    allow_decline: bool = True,
    external_id: Optional[str] = None,
    session_id: Optional[str] = None,
    metadata: Optional[Mapping[str, Any]] = None,
    idempotency_key: Optional[str] = None,
    wait_timeout: Optional[float] = DEFAULT_WAIT_TIMEOUT,
    poll_interval: float = DEFAULT_POLL_INTERVAL,
) -> M:
    """Asks people for an answer shaped by ``model`` and returns it as a ``model`` instance::

        class Rollout(BaseModel):
            region: Literal["eu-west-1", "us-east-1"]
            replicas: int = Field(3, ge=1, le=20)

        plan = interlock.ask(client, "Plan the rollout", Rollout)

    Opens an interrupt with one action (``answer``) whose ``responseSchema`` is the model's JSON
    Schema, waits, and validates the ``response`` the service checked. Raises
    ``AnswerDeclinedError`` when a person declines (with their message) or the request ends
    unanswered.
    """
    create = _create(
        title, model, name, description, args, allow_decline, external_id, session_id, metadata, idempotency_key
    )
    opened = client.interrupts.create(**create)
    # The answer must be about this question as sent (its action digest).
    answered = client.interrupts.wait_for_answer(
        opened.id, timeout=wait_timeout, poll_interval=poll_interval, action_requests=create["action_requests"]
    )
    return _answer(answered, title, name, model)


async def ask_async(
    client: AsyncInterlock,
    title: str,
    model: type[M],
    *,
    description: Optional[str] = None,
    name: str = "answer",
    args: Optional[Mapping[str, Any]] = None,
    allow_decline: bool = True,
    external_id: Optional[str] = None,
    session_id: Optional[str] = None,
    metadata: Optional[Mapping[str, Any]] = None,
    idempotency_key: Optional[str] = None,
    wait_timeout: Optional[float] = DEFAULT_WAIT_TIMEOUT,
    poll_interval: float = DEFAULT_POLL_INTERVAL,
) -> M:
    """``ask`` on an ``AsyncInterlock``."""
    create = _create(
        title, model, name, description, args, allow_decline, external_id, session_id, metadata, idempotency_key
    )
    opened = await client.interrupts.create(**create)
    # The answer must be about this question as sent (its action digest).
    answered = await client.interrupts.wait_for_answer(
        opened.id, timeout=wait_timeout, poll_interval=poll_interval, action_requests=create["action_requests"]
    )
    return _answer(answered, title, name, model)
