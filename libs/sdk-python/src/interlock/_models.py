"""The base of every generated model (``datamodel-codegen --base-class``, tools/scripts/codegen.mjs)."""

from __future__ import annotations

from typing import Optional

from pydantic import BaseModel, PrivateAttr

__all__ = ["InterlockModel"]


class InterlockModel(BaseModel):
    """A pydantic model of the API, plus the request id of the response it was read from.

    ``_request_id`` is the service's ``x-request-id`` (quote it when reporting a problem); it is a
    private attribute, so it is in neither ``model_dump()`` nor equality.
    """

    _request_id: Optional[str] = PrivateAttr(default=None)

    def __eq__(self, other: object) -> bool:
        """Equal when of the same model with the same fields (the request id is not data)."""
        if not isinstance(other, BaseModel):
            return NotImplemented
        return (
            type(self) is type(other)
            and self.__dict__ == other.__dict__
            and self.__pydantic_extra__ == other.__pydantic_extra__
        )

    __hash__ = None  # type: ignore[assignment]
