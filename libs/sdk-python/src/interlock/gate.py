"""The gate: any function, run only once a person approved the call (``require_approval``)."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Awaitable, Mapping, Sequence
from typing import Any, Callable, Optional, TypeVar, Union, cast, get_type_hints, overload

from pydantic import TypeAdapter
from pydantic_core import to_jsonable_python

from ._client import AsyncInterlock, Interlock
from ._errors import InterlockError
from .resources.interrupts import DEFAULT_POLL_INTERVAL, DEFAULT_WAIT_TIMEOUT
from .types import Decision, Interrupt

__all__ = ["ApprovalRejectedError", "require_approval"]

F = TypeVar("F", bound=Callable[..., Any])
_DEFAULT_DECISIONS: tuple[str, ...] = ("approve", "edit", "reject")


class DeclinedError(InterlockError):
    """A request people declined (with their message), or that ended without an answer (withdrawn,
    expired): the base of ``ApprovalRejectedError`` and ``AnswerDeclinedError``."""

    def __init__(self, message: str, *, interrupt: Interrupt, decision: Optional[Decision]) -> None:
        super().__init__(message)
        #: The interrupt as it ended.
        self.interrupt = interrupt
        #: The decision; None when the interrupt was withdrawn or expired without one.
        self.decision = decision

    @property
    def reviewer_message(self) -> Optional[str]:
        """The person's message, when they gave one."""
        return self.decision.message if self.decision is not None else None


class ApprovalRejectedError(DeclinedError):
    """A gated call that people did not approve: rejected (with their message), or withdrawn."""


class _Gate:
    """What a decorated function shares between calls: how to show a call and run the answer."""

    def __init__(
        self,
        func: Callable[..., Any],
        *,
        name: Optional[str],
        title: Union[str, Callable[..., str], None],
        description: Union[str, Callable[..., str], None],
        allowed_decisions: Sequence[str],
        external_id: Optional[str],
        session_id: Optional[str],
        metadata: Optional[Mapping[str, Any]],
        wait_timeout: Optional[float],
        poll_interval: float,
        idempotency_key: Optional[Callable[..., str]],
    ) -> None:
        allowed = list(allowed_decisions)
        if not allowed:
            raise InterlockError("require_approval needs at least one allowed decision.")
        if "respond" in allowed:
            raise InterlockError("require_approval cannot allow respond: a gated call either runs or does not.")
        self.func = func
        self.name = name or getattr(func, "__name__", "call")
        self.signature = inspect.signature(func)
        try:
            self.hints = get_type_hints(func)
        except Exception:  # annotations that cannot be resolved: edits are passed as they come
            self.hints = {}
        self.title = title
        self.description = description
        self.allowed = allowed
        self.external_id = external_id
        self.session_id = session_id
        self.metadata = metadata
        self.wait_timeout = wait_timeout
        self.poll_interval = poll_interval
        self.idempotency_key = idempotency_key

    def create_kwargs(
        self, args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> tuple[inspect.BoundArguments, dict[str, Any]]:
        bound = self.signature.bind(*args, **kwargs)
        bound.apply_defaults()
        shown = to_jsonable_python(dict(bound.arguments))
        title = self.title(*args, **kwargs) if callable(self.title) else (self.title or f"Approve {self.name}?")
        description = self.description(*args, **kwargs) if callable(self.description) else self.description
        create: dict[str, Any] = {
            "title": title,
            "action_requests": [{"name": self.name, "args": shown, "allowed_decisions": self.allowed}],
        }
        for key, value in (
            ("description", description),
            ("external_id", self.external_id),
            ("session_id", self.session_id),
            ("metadata", self.metadata),
        ):
            if value is not None:
                create[key] = value
        if self.idempotency_key is not None:
            create["idempotency_key"] = self.idempotency_key(*args, **kwargs)
        return bound, create

    def outcome(self, answered: Interrupt, bound: inspect.BoundArguments) -> inspect.BoundArguments:
        """The arguments to run with (approved or edited), or ApprovalRejectedError."""
        decision = next((d for d in answered.decisions if d.action_name == self.name), None)
        if decision is None:
            raise ApprovalRejectedError(
                f"{self.name} was not approved: the request was {answered.status}.", interrupt=answered, decision=None
            )
        if decision.decision == "approve":
            return bound
        if decision.decision == "edit":
            edited = dict(decision.edited_args or {})
            unknown = [k for k in edited if k not in self.signature.parameters]
            if unknown:
                raise InterlockError(f"The edit of {self.name} names unknown parameters: {', '.join(unknown)}.")
            for key, value in edited.items():
                # Edits arrive as JSON: give each parameter its declared type back (a model, a date…).
                hint = self.hints.get(key)
                bound.arguments[key] = value if hint is None else TypeAdapter(hint).validate_python(value)
            return bound
        if decision.decision == "reject":
            why = f": {decision.message}" if decision.message else "."
            raise ApprovalRejectedError(
                f"{self.name} was rejected by {decision.decided_by.name}{why}", interrupt=answered, decision=decision
            )
        raise ApprovalRejectedError(
            f"{self.name} was not approved: the decision was {decision.decision}.",
            interrupt=answered,
            decision=decision,
        )


@overload
def require_approval(func: F) -> F: ...


@overload
def require_approval(
    func: None = None,
    *,
    client: Union[Interlock, AsyncInterlock, None] = None,
    name: Optional[str] = None,
    title: Union[str, Callable[..., str], None] = None,
    description: Union[str, Callable[..., str], None] = None,
    allowed_decisions: Sequence[str] = _DEFAULT_DECISIONS,
    external_id: Optional[str] = None,
    session_id: Optional[str] = None,
    metadata: Optional[Mapping[str, Any]] = None,
    wait_timeout: Optional[float] = DEFAULT_WAIT_TIMEOUT,
    poll_interval: float = DEFAULT_POLL_INTERVAL,
    idempotency_key: Optional[Callable[..., str]] = None,
) -> Callable[[F], F]: ...


def require_approval(
    func: Optional[F] = None,
    *,
    client: Union[Interlock, AsyncInterlock, None] = None,
    name: Optional[str] = None,
    title: Union[str, Callable[..., str], None] = None,
    description: Union[str, Callable[..., str], None] = None,
    allowed_decisions: Sequence[str] = _DEFAULT_DECISIONS,
    external_id: Optional[str] = None,
    session_id: Optional[str] = None,
    metadata: Optional[Mapping[str, Any]] = None,
    wait_timeout: Optional[float] = DEFAULT_WAIT_TIMEOUT,
    poll_interval: float = DEFAULT_POLL_INTERVAL,
    idempotency_key: Optional[Callable[..., str]] = None,
) -> Union[F, Callable[[F], F]]:
    """Runs the decorated function only once a person approved the call::

        @interlock.require_approval(title=lambda order_id, amount: f"Refund {amount} on {order_id}?")
        def refund(order_id: str, amount: int) -> str: ...

    Each call opens an interrupt with one action — the function's name, its bound arguments as
    ``args`` — waits for the decision, then runs the function with the arguments as approved, or
    as a person edited them (each edited value validated to its parameter's annotation). A
    rejection, a withdrawn request or a deadline that rejected it raises ``ApprovalRejectedError``
    (with the reviewer's message); the function does not run. Works on ``def`` and ``async def``
    functions: the first use ``client`` (default ``Interlock()``), the second an ``AsyncInterlock``
    (default ``AsyncInterlock()``), built at the first call.
    """

    def decorate(target: F) -> F:
        gate = _Gate(
            target,
            name=name,
            title=title,
            description=description,
            allowed_decisions=allowed_decisions,
            external_id=external_id,
            session_id=session_id,
            metadata=metadata,
            wait_timeout=wait_timeout,
            poll_interval=poll_interval,
            idempotency_key=idempotency_key,
        )
        if inspect.iscoroutinefunction(target):
            if isinstance(client, Interlock):
                raise InterlockError("An async function needs an AsyncInterlock client (client=AsyncInterlock()).")
            async_clients: list[AsyncInterlock] = [client] if isinstance(client, AsyncInterlock) else []

            @functools.wraps(target)
            async def run_async(*args: Any, **kwargs: Any) -> Any:
                if not async_clients:
                    async_clients.append(AsyncInterlock())
                interlock = async_clients[0]
                bound, create = gate.create_kwargs(args, kwargs)
                opened = await interlock.interrupts.create(**create)
                # About this call as sent (its digest), else ActionDigestMismatchError: nothing runs.
                answered = await interlock.interrupts.wait_for_answer(
                    opened.id,
                    timeout=wait_timeout,
                    poll_interval=poll_interval,
                    action_requests=create["action_requests"],
                )
                approved = gate.outcome(answered, bound)
                return await cast(Callable[..., Awaitable[Any]], target)(*approved.args, **approved.kwargs)

            return cast(F, run_async)

        if isinstance(client, AsyncInterlock):
            raise InterlockError("A plain function needs an Interlock client (client=Interlock()).")
        clients: list[Interlock] = [client] if isinstance(client, Interlock) else []

        @functools.wraps(target)
        def run(*args: Any, **kwargs: Any) -> Any:
            if not clients:
                clients.append(Interlock())
            interlock = clients[0]
            bound, create = gate.create_kwargs(args, kwargs)
            opened = interlock.interrupts.create(**create)
            answered = interlock.interrupts.wait_for_answer(
                opened.id, timeout=wait_timeout, poll_interval=poll_interval, action_requests=create["action_requests"]
            )
            approved = gate.outcome(answered, bound)
            return target(*approved.args, **approved.kwargs)

        return cast(F, run)

    return decorate(func) if func is not None else decorate
