"""Human-review requests (`/api/interrupts`): what the sync and async classes share."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Optional

import httpx

from .._errors import BadRequestError
from .._options import Headers, Timeout
from ..digest import AskedInterrupts, check_digests, expected_digests
from ..types import (
    AssigneeFilter,
    AssignToParam,
    Interrupt,
    InterruptStatus,
    ListOrder,
    OnTimeout,
    OpenedByFilter,
    Priority,
)
from ._base import ClientT, ListingResource, ListT, read_options
from ._wire import ActionRequestInput, Id, Timestamp, assign_to_wire, compact, to_wire, wire_id

if TYPE_CHECKING:
    from .._pagination import AsyncPaginator, SyncPage

    #: The page types of ``interrupts.list``: unasync turns the async name into the sync one.
    AsyncInterruptPages = AsyncPaginator[Interrupt]
    InterruptPages = SyncPage[Interrupt]


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


def _held_in_full(wait: int, held: float) -> bool:
    """Whether a read the service held ``held`` seconds ran its whole wait. A hold of 20 s or more may
    end early, no sooner than half of it, when many other waits would end with it on that instance
    (SPEC §8e: agents whose waits began together are spread): that is a full wait too, and the next
    read is sent at once."""
    earliest = wait / 2 if wait >= 20 else float(wait)
    return held >= earliest


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


#: The largest integer an IEEE double (the service's JSON number) holds exactly, and its neighbours.
_SAFE_INTEGER = 2**53 - 1


def _refuse_inexact_numbers(value: Any, where: str) -> None:
    """An action's arguments are bound to the decision by their digest (SPEC §8e), which the service
    computes from the numbers as it reads them: IEEE doubles. An integer beyond ±(2**53 - 1) would
    reach the reviewer rounded and the digests would differ, so it is refused before anything is sent."""
    if isinstance(value, bool):
        return
    if isinstance(value, int) and abs(value) > _SAFE_INTEGER:
        raise ValueError(
            f"{where} is {value}, beyond ±(2**53 - 1): the service reads JSON numbers as IEEE doubles "
            "and would round it; send it as a string"
        )
    if isinstance(value, Mapping):
        for key, item in value.items():
            _refuse_inexact_numbers(item, f"{where}.{key}")
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            _refuse_inexact_numbers(item, f"{where}[{index}]")


def _create_body(
    title: str,
    action_requests: Sequence[ActionRequestInput],
    description: Optional[str],
    external_id: Optional[str],
    session_id: Optional[Id],
    metadata: Optional[Mapping[str, Any]],
    timeout_seconds: Optional[int] = None,
    on_timeout: Optional[OnTimeout] = None,
    resume_url: Optional[str] = None,
    priority: Optional[Priority] = None,
    assign_to: Optional[AssignToParam] = None,
    labels: Optional[Sequence[str]] = None,
) -> Mapping[str, Any]:
    wire_actions = [to_wire(action) for action in action_requests]
    for action in wire_actions:
        _refuse_inexact_numbers(action.get("args"), f"args of action {action.get('name')}")
    return compact(
        {
            "title": title,
            "actionRequests": wire_actions,
            "description": description,
            "externalId": external_id,
            "sessionId": wire_id(session_id),
            "metadata": dict(metadata) if metadata is not None else None,
            "timeoutSeconds": timeout_seconds,
            "onTimeout": on_timeout,
            "resumeUrl": resume_url,
            "priority": priority,
            "assignTo": assign_to_wire(assign_to),
            "labels": list(labels) if labels is not None else None,
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
    priority: Optional[Sequence[Priority]] = None,
    label: Optional[str] = None,
) -> Mapping[str, object]:
    return compact(
        {
            "priority": ",".join(priority) if priority is not None else None,
            "label": label,
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

    def __init__(self, client: ClientT) -> None:
        super().__init__(client)
        #: What this client asked in the interrupts it opened (the last 10,000; SPEC §8e).
        self._asked = AskedInterrupts()

    def _check_answer(self, interrupt: Interrupt, interrupt_id: Id, action_requests: Optional[Sequence[Any]]) -> None:
        """SPEC §8e: the answer must be about the actions asked — ``action_requests``, or what this client's
        create sent — else ``ActionDigestMismatchError``; when that create's answer carried digests, an answer
        without them is refused too (stripped on the way, not an older service). Keyed by the id asked for: an
        answer about another interrupt hashes to other digests."""
        key = str(interrupt_id)
        opened = self._asked.get(key)
        expected = expected_digests(key, action_requests) if action_requests is not None else None
        if expected is None and opened is not None:
            expected = dict(opened.expected)
        if expected is not None:
            check_digests(interrupt, expected, opened is not None and opened.digested)

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
        priority: Optional[Sequence[Priority]] = None,
        label: Optional[str] = None,
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
        (inclusive) and ``to`` (exclusive) on ``created_at``, ``priority`` (any of them, e.g. ``["high", "urgent"]``)
        and ``label`` (the agent's labels or the classifier's).
        """
        options = read_options(timeout, max_retries, extra_headers, extra_query, extra_body)
        params = _list_params(
            status, external_id, opened_by, assignee, escalated, q, from_, to, order, limit, cursor, priority, label
        )
        return self._get_list("/api/interrupts", params, _interrupts, options)
