"""``AsyncInterrupts``: the source of the generated sync twin ``resources/_sync/interrupts.py``.

Edit this file, then run ``node tools/scripts/python-sdk.mjs unasync`` to regenerate the sync twin.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Optional

from ... import _retry
from ..._errors import BadRequestError, WaitTimeoutError
from ..._options import Headers, RequestOptions, Timeout
from ...langgraph import interrupts_from_langgraph, langgraph_review_id, to_langgraph_resume
from ...types import AssignToParam, Interrupt, OnTimeout, Priority
from .._base import read_options
from .._interrupts_base import (
    DEFAULT_POLL_INTERVAL,
    DEFAULT_WAIT_TIMEOUT,
    _create_body,
    _held_in_full,
    _held_timeout,
    _Interrupts,
    _refuses_waiting,
    _wait_query,
    _wait_seconds,
)
from .._wire import ActionRequestInput, Id, compact, path_id

if TYPE_CHECKING:
    from ..._client import AsyncInterlock  # noqa: F401
    from .._interrupts_base import AsyncInterruptPages  # noqa: F401

__all__ = ["AsyncInterrupts"]


class AsyncInterrupts(_Interrupts["AsyncInterlock", "AsyncInterruptPages"]):
    async def create(
        self,
        *,
        title: str,
        action_requests: Sequence[ActionRequestInput],
        description: Optional[str] = None,
        external_id: Optional[str] = None,
        session_id: Optional[Id] = None,
        metadata: Optional[Mapping[str, Any]] = None,
        timeout_seconds: Optional[int] = None,
        on_timeout: Optional[OnTimeout] = None,
        resume_url: Optional[str] = None,
        priority: Optional[Priority] = None,
        assign_to: Optional[AssignToParam] = None,
        labels: Optional[Sequence[str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Mapping[str, object]] = None,
        extra_body: Optional[Mapping[str, Any]] = None,
    ) -> Interrupt:
        """Opens an interrupt in the organisation's inbox. ``timeout_seconds`` sets a deadline, at which the
        service applies ``on_timeout`` (``"reject"`` by default, ``"approve"`` where the organisation allows it,
        or ``"escalate"``) as actor system. ``resume_url``: when the interrupt is answered, expires or is
        withdrawn, the service POSTs the result there once, signed under ``resume_signing_secret(api_key)``.
        Routing: ``priority`` (``"low"``, ``"normal"`` by default, ``"high"``, ``"urgent"``), ``assign_to`` (exactly
        one of ``member_id``, ``email``, ``team_id``, ``team_name``; an unknown one raises ``BadRequestError``) and
        up to 10 ``labels`` (1 to 50 ASCII letters, digits and ``_ . : / + -`` each). The client remembers what it
        asked (the actions' digests, and whether the service sent digests), so ``wait_for_answer`` checks the answer."""
        body = _create_body(
            title,
            action_requests,
            description,
            external_id,
            session_id,
            metadata,
            timeout_seconds,
            on_timeout,
            resume_url,
            priority,
            assign_to,
            labels,
        )
        options = RequestOptions(timeout, max_retries, idempotency_key, extra_headers, extra_query, extra_body)
        created = await self._client.request_model(Interrupt, "POST", "/api/interrupts", body=body, options=options)
        self._asked.remember(created, body["actionRequests"])
        return created

    async def cancel(
        self,
        interrupt_id: Id,
        *,
        reason: Optional[str] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Mapping[str, object]] = None,
        extra_body: Optional[Mapping[str, Any]] = None,
    ) -> Interrupt:
        """Withdraws an open interrupt the agent no longer needs (after a ``WaitTimeoutError``, say): its
        undecided actions can no longer be decided and its status becomes ``withdrawn``. Raises
        ``ConflictError`` when it is no longer open."""
        options = RequestOptions(timeout, max_retries, None, extra_headers, extra_query, extra_body)
        return await self._client.request_model(
            Interrupt,
            "POST",
            f"/api/interrupts/{path_id(interrupt_id)}/cancel",
            body=compact({"reason": reason}),
            options=options,
        )

    async def get(
        self,
        interrupt_id: Id,
        *,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Mapping[str, object]] = None,
        extra_body: Optional[Mapping[str, Any]] = None,
    ) -> Interrupt:
        """One interrupt, with its decisions."""
        options = read_options(timeout, max_retries, extra_headers, extra_query, extra_body)
        return await self._client.request_model(
            Interrupt, "GET", f"/api/interrupts/{path_id(interrupt_id)}", options=options
        )

    async def wait_for_answer(
        self,
        interrupt_id: Id,
        *,
        timeout: Optional[float] = DEFAULT_WAIT_TIMEOUT,
        poll_interval: float = DEFAULT_POLL_INTERVAL,
        request_timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Mapping[str, object]] = None,
        extra_body: Optional[Mapping[str, Any]] = None,
        action_requests: Optional[Sequence[Any]] = None,
    ) -> Interrupt:
        """Waits until the interrupt is no longer ``open`` — every action decided (``answered``), its
        deadline passed (``expired``) or withdrawn (``withdrawn``) — and returns it.

        Each read is held by the service until the interrupt changes or up to 60 s pass
        (``waitSeconds``), so a decision reaches the agent at once and waiting costs one request a
        minute; against an older service it polls every ``poll_interval`` seconds. Raises
        ``WaitTimeoutError`` when ``timeout`` seconds pass first (None waits for ever).

        The answer must be about the actions asked (SPEC §8e), else ``ActionDigestMismatchError``: those in
        ``action_requests`` (as the agent sent them to ``create``), or, for an interrupt this client opened
        (one of its last 10,000 creates), those that create sent. When that create's answer carried digests,
        an answer without them is refused too. Without either, nothing is checked.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            wait = _wait_seconds(deadline, self._service_waits)
            sent_at = time.monotonic()
            try:
                interrupt = await self.get(
                    interrupt_id,
                    timeout=_held_timeout(
                        request_timeout if request_timeout is not None else self._client.timeout, wait
                    ),
                    max_retries=max_retries,
                    extra_headers=extra_headers,
                    extra_query=_wait_query(extra_query, wait),
                )
            except BadRequestError as error:
                if wait > 0 and _refuses_waiting(error):
                    self._service_waits = False
                    continue
                raise
            if interrupt.status != "open":
                self._check_answer(interrupt, interrupt_id, action_requests)
                return interrupt
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                raise WaitTimeoutError(str(interrupt_id), timeout or 0.0)
            # Held for its whole wait: ask again at once. Answered early while still open (a service
            # restarting, or one that does not hold requests): pause first.
            if wait > 0 and _held_in_full(wait, time.monotonic() - sent_at):
                continue
            await _retry.async_sleep(poll_interval if remaining is None else min(poll_interval, remaining))

    async def review_langgraph(
        self,
        source: Any,
        *,
        title: Optional[str] = None,
        description: Optional[str] = None,
        external_id: Optional[str] = None,
        session_id: Optional[str] = None,
        metadata: Optional[Mapping[str, Any]] = None,
        timeout: Optional[float] = DEFAULT_WAIT_TIMEOUT,
        poll_interval: float = DEFAULT_POLL_INTERVAL,
    ) -> Any:
        """The whole LangGraph round trip: opens the interrupt(s) for the graph's review request
        (``source``: a run's result, ``result.interrupts``, one ``Interrupt`` or a bare value; split
        when it has more than 20 actions), waits until members have answered every one, and returns
        the value to resume the graph with: ``graph.invoke(Command(resume=resume), config, version="v2")``.

        The creates carry an Idempotency-Key made from the LangGraph interrupt ids, so an agent that
        restarts and reviews the same interrupts again within 24 hours finds its interrupts.
        """
        parts = interrupts_from_langgraph(
            source,
            title=title,
            description=description,
            external_id=external_id,
            session_id=session_id,
            metadata=metadata,
        )
        created = []
        for i, part in enumerate(parts):
            review = langgraph_review_id(part)
            key = None if review is None else f"langgraph-{review}-{i + 1}-of-{len(parts)}"
            created.append(await self.create(**part, idempotency_key=key))
        # Each answer must be about the actions as sent (their digests): ActionDigestMismatchError otherwise.
        answered = [
            await self.wait_for_answer(
                c.id, timeout=timeout, poll_interval=poll_interval, action_requests=part["action_requests"]
            )
            for c, part in zip(created, parts)
        ]
        return to_langgraph_resume(answered, source)
