"""`computed_once`: a property worked out on first use and kept in the instance, as
`functools.cached_property` does, without the lock Python 3.11's takes on every first use (a line's
text is asked of tens of thousands of lines a document, a tenth of its reading went to that lock)."""

from __future__ import annotations

from typing import Any, Callable, Generic, TypeVar

_Value = TypeVar("_Value")


class computed_once(Generic[_Value]):  # noqa: N801 - a decorator, named like the one it stands for
    """A non-data descriptor: once the value is in the instance's __dict__ it is found there first."""

    def __init__(self, function: Callable[[Any], _Value]) -> None:
        self.function = function
        self.name = function.__name__
        self.__doc__ = function.__doc__

    def __get__(self, instance: Any, owner: type | None = None) -> _Value:
        value = self.function(instance)
        instance.__dict__[self.name] = value  # frozen dataclasses too: their __setattr__ is not asked
        return value
