"""The one error every parser raises: it says which file, where, and what is wrong."""

from __future__ import annotations


class ParseError(Exception):
    """A file could not be read as its format.

    Rendered as ``Stress_x.html: Transactional I/O Performance › line 42: column "I/O Log
    Writes/sec" not found; found: …`` so a user can open the file at the right place.
    """

    def __init__(self, file: str, message: str, *, section: str | None = None, line: int | None = None):
        self.file = file
        self.section = section
        self.line = line
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        where = [self.file]
        if self.section:
            where.append(self.section)
        if self.line is not None:
            where.append(f"line {self.line}")
        return f"{' › '.join(where)}: {self.message}"


class UnknownFormat(ParseError):
    """No parser claims the file."""


class AmbiguousFormat(ParseError):
    """More than one parser claims the file: a registry bug, not a user error."""


def caused_by_interrupt(error: BaseException) -> bool:
    """True when an interrupt (Ctrl-C, SIGTERM made one) is in the error's chain: one that landed
    mid-query comes back as the rollback's error ("another command is already in progress")."""
    seen: BaseException | None = error
    for _ in range(50):
        if seen is None:
            return False
        if isinstance(seen, KeyboardInterrupt):
            return True
        seen = seen.__context__ or seen.__cause__
    return False
