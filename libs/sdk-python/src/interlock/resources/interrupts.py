"""Human-review requests: ``/api/interrupts``."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Optional

import httpx

from .. import _retry
from .._errors import BadRequestError, WaitTimeoutError
from .._options import Headers, RequestOptions, Timeout
from ..digest import verify_decisions
from ..langgraph import interrupts_from_langgraph, langgraph_review_id, to_langgraph_resume
from ..types import AssigneeFilter, Interrupt, InterruptStatus, ListOrder, OnTimeout, OpenedByFilter
from ._base import ClientT, ListingResource, ListT, read_options
from ._wire import ActionRequestInput, Id, Timestamp, compact, path_id, to_wire, wire_id

if TYPE_CHECKING:
    # Named by the sync and async classes' base (string type arguments, which ruff does not read).
    from .._client import AsyncInterlock, Interlock  # noqa: F401
    from .._pagination import AsyncPaginator, SyncPage  # noqa: F401

__all__ = ["DEFAULT_POLL_INTERVAL", "DEFAULT_WAIT_TIMEOUT", "MAX_WAIT_SECONDS", "AsyncInterrupts", "Interrupts"]

#: Seconds ``wait_for_answer`` waits in all by default.
DEFAULT_WAIT_TIMEOUT = 600.0
#: Seconds between two reads when the service did not hold the request (an older service, or one restarting).
DEFAULT_POLL_INTERVAL = 2.0
#: The longest wait the service holds one request for (``waitSeconds``, SPEC §8e).
MAX_WAIT_SECONDS = 60


def _wait_seconds(deadline: Optional[float], service_waits: bool) -> int:
    """How long to ask the service to hold the next read: up to 60 s, within the caller's deadline."""
    if not service_waits:
        return 0
    if deadline is None:
        return MAX_WAIT_SECONDS
    return max(0, min(MAX_WAIT_SECONDS, int(deadline - time.monotonic())))


def _held_timeout(timeout: Timeout, wait: int) -> Timeout:
    """The read's timeout with the service's wait added: a held request is not a stalled one."""
    if isinstance(timeout, httpx.Timeout):
        read = None if timeout.read is None else timeout.read + wait
        return httpx.Timeout(connect=timeout.connect, read=read, write=timeout.write, pool=timeout.pool)
    return float(timeout) + wait


def _refuses_waiting(error: BadRequestError) -> bool:
    """A 400 about ``waitSeconds``: the service predates waiting, and the SDK polls it instead."""
    return "waitSeconds" in error.message


def _wait_query(extra_query: Optional[Mapping[str, object]], wait: int) -> Optional[Mapping[str, object]]:
    return {**(extra_query or {}), "waitSeconds": wait} if wait > 0 else extra_query


def _create_body(
    title: str,
    action_requests: Sequence[ActionRequestInput],
    description: Optional[str],
    external_id: Optional[str],
    session_id: Optional[Id],
    metadata: Optional[Mapping[str, Any]],
    timeout_seconds: Optional[int] = None,
    on_timeout: Optional[OnTimeout] = None,
) -> Mapping[str, Any]:
    return compact(
        {
            "title": title,
            "actionRequests": [to_wire(action) for action in action_requests],
            "description": description,
            "externalId": external_id,
            "sessionId": wire_id(session_id),
            "metadata": dict(metadata) if metadata is not None else None,
            "timeoutSeconds": timeout_seconds,
            "onTimeout": on_timeout,
        }
    )


def _list_params(
    status: Optional[InterruptStatus],
    external_id: Optional[str],
    opened_by: Optional[OpenedByFilter],
    assignee: Optional[AssigneeFilter],
    escalated: Optional[bool],
    q: Optional[str],
    from_: Optional[Timestamp],
    to: Optional[Timestamp],
    order: Optional[ListOrder],
    limit: Optional[int],
    cursor: Optional[str],
) -> Mapping[str, object]:
    return compact(
        {
            "status": status,
            "externalId": external_id,
            "openedBy": opened_by,
            "assignee": assignee,
            "escalated": escalated,
            "q": q,
            "from": from_,
            "to": to,
            "order": order,
            "limit": limit,
            "cursor": cursor,
        }
    )


def _interrupts(body: Any) -> list[Interrupt]:
    return [Interrupt.model_validate(item) for item in body.get("interrupts", [])]


class _Interrupts(ListingResource[ClientT, ListT]):
    #: False once the service refused ``waitSeconds`` (an older service): then waits poll.
    _service_waits = True

    def list(
        self,
        *,
        status: Optional[InterruptStatus] = None,
        external_id: Optional[str] = None,
        opened_by: Optional[OpenedByFilter] = None,
        assignee: Optional[AssigneeFilter] = None,
        escalated: Optional[bool] = None,
        q: Optional[str] = None,
        from_: Optional[Timestamp] = None,
        to: Optional[Timestamp] = None,
        order: Optional[ListOrder] = None,
        limit: Optional[int] = None,
        cursor: Optional[str] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Mapping[str, object]] = None,
        extra_body: Optional[Mapping[str, Any]] = None,
    ) -> ListT:
        """Interrupts, newest first (``order="oldest"`` reverses; ``order="deadline"``: the soonest deadline
        first): the first page, iterating which walks every page (async: ``await`` it for the first page,
        or ``async for`` over every item).

        Filters: ``status``, ``external_id``, ``opened_by="me"`` (the interrupts this key opened),
        ``assignee="unassigned"`` (``me`` and ``my_teams`` name a signed-in member: nothing is assigned to a key),
        ``escalated``, ``q`` (every word a prefix of a title word; case and accents ignored), ``from_``
        (inclusive) and ``to`` (exclusive) on ``created_at``.
        """
        options = read_options(timeout, max_retries, extra_headers, extra_query, extra_body)
        params = _list_params(status, external_id, opened_by, assignee, escalated, q, from_, to, order, limit, cursor)
        return self._get_list("/api/interrupts", params, _interrupts, options)


class Interrupts(_Interrupts["Interlock", "SyncPage[Interrupt]"]):
    def create(
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
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Mapping[str, object]] = None,
        extra_body: Optional[Mapping[str, Any]] = None,
    ) -> Interrupt:
        """Opens an interrupt in the organisation's inbox. ``timeout_seconds`` sets a deadline, at which the
        service applies ``on_timeout`` (``"reject"`` by default, ``"approve"`` where the organisation allows it,
        or ``"escalate"``) as actor system."""
        body = _create_body(
            title, action_requests, description, external_id, session_id, metadata, timeout_seconds, on_timeout
        )
        options = RequestOptions(timeout, max_retries, idempotency_key, extra_headers, extra_query, extra_body)
        return self._client.request_model(Interrupt, "POST", "/api/interrupts", body=body, options=options)

    def cancel(
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
        return self._client.request_model(
            Interrupt,
            "POST",
            f"/api/interrupts/{path_id(interrupt_id)}/cancel",
            body=compact({"reason": reason}),
            options=options,
        )

    def get(
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
        return self._client.request_model(Interrupt, "GET", f"/api/interrupts/{path_id(interrupt_id)}", options=options)

    def wait_for_answer(
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
        ``WaitTimeoutError`` when ``timeout`` seconds pass first (None waits for ever). With
        ``action_requests`` (the actions as the agent sent them to ``create``), the answer's decisions
        must carry their digests (SPEC §8e), else ``ActionDigestMismatchError``.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            wait = _wait_seconds(deadline, self._service_waits)
            sent_at = time.monotonic()
            try:
                interrupt = self.get(
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
                if action_requests is not None:
                    # SPEC §8e: a decision about anything but what this agent sent is refused.
                    verify_decisions(interrupt, action_requests)
                return interrupt
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                raise WaitTimeoutError(str(interrupt_id), timeout or 0.0)
            # Held for its whole wait: ask again at once. Answered early while still open (a service
            # restarting, or one that does not hold requests): pause first.
            if wait > 0 and time.monotonic() - sent_at >= wait:
                continue
            _retry.sleep(poll_interval if remaining is None else min(poll_interval, remaining))

    def review_langgraph(
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
            created.append(self.create(**part, idempotency_key=key))
        answered = [self.wait_for_answer(c.id, timeout=timeout, poll_interval=poll_interval) for c in created]
        return to_langgraph_resume(answered)


class AsyncInterrupts(_Interrupts["AsyncInterlock", "AsyncPaginator[Interrupt]"]):
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
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Mapping[str, object]] = None,
        extra_body: Optional[Mapping[str, Any]] = None,
    ) -> Interrupt:
        """Opens an interrupt in the organisation's inbox. ``timeout_seconds`` sets a deadline, at which the
        service applies ``on_timeout`` (``"reject"`` by default, ``"approve"`` where the organisation allows it,
        or ``"escalate"``) as actor system."""
        body = _create_body(
            title, action_requests, description, external_id, session_id, metadata, timeout_seconds, on_timeout
        )
        options = RequestOptions(timeout, max_retries, idempotency_key, extra_headers, extra_query, extra_body)
        return await self._client.request_model(Interrupt, "POST", "/api/interrupts", body=body, options=options)

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
        ``WaitTimeoutError`` when ``timeout`` seconds pass first (None waits for ever). With
        ``action_requests`` (the actions as the agent sent them to ``create``), the answer's decisions
        must carry their digests (SPEC §8e), else ``ActionDigestMismatchError``.
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
                if action_requests is not None:
                    # SPEC §8e: a decision about anything but what this agent sent is refused.
                    verify_decisions(interrupt, action_requests)
                return interrupt
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                raise WaitTimeoutError(str(interrupt_id), timeout or 0.0)
            # Held for its whole wait: ask again at once. Answered early while still open (a service
            # restarting, or one that does not hold requests): pause first.
            if wait > 0 and time.monotonic() - sent_at >= wait:
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
        answered = [await self.wait_for_answer(c.id, timeout=timeout, poll_interval=poll_interval) for c in created]
        return to_langgraph_resume(answered)
