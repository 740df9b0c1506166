"""Map library errors to one-line `Error: …` messages with exit code 1 (unless --debug)."""

from __future__ import annotations

import contextlib
from typing import Iterator

import typer

from .safe_text import echo


def fail(message: str, code: int = 1) -> None:
    """Print `Error: message` on stderr and leave with `code`."""
    echo(f"Error: {message}", err=True)
    raise typer.Exit(code)


@contextlib.contextmanager
def friendly_errors(ctx: typer.Context, *expected: type[BaseException]) -> Iterator[None]:
    try:
        yield
    except expected as error:
        if ctx.obj is not None and getattr(ctx.obj, "debug", False):
            raise
        fail(_message(error))


def _message(error: BaseException) -> str:
    """The first line, except for a parse error that lists every problem it found (all are shown)."""
    from ..ingest.errors import ParseError

    text = str(error).strip()
    if not text:
        return type(error).__name__
    return text if isinstance(error, ParseError) else text.splitlines()[0]
