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
    except typer.Exit:  # already said in one line (fail): never caught again as "Error: Exit"
        raise
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


@contextlib.contextmanager
def interruptible(summary) -> Iterator[None]:
    """Ctrl-C (SIGINT) or SIGTERM: print `summary()` (what was committed, what was not) and exit 130.

    SIGTERM is turned into the same interrupt, so a `kill` reports as Ctrl-C does; the work in
    hand is one transaction, which the interrupt rolls back.
    """
    import signal

    def terminate(signum, frame):  # noqa: ANN001 - signal handler signature
        raise KeyboardInterrupt

    from ..ingest.errors import caused_by_interrupt

    previous = signal.signal(signal.SIGTERM, terminate)
    try:
        yield
    except (Exception, KeyboardInterrupt) as error:
        if not caused_by_interrupt(error):  # an interrupt that came back as the rollback's error is one too
            raise
        echo(summary(), err=True)
        raise typer.Exit(130) from None
    finally:
        signal.signal(signal.SIGTERM, previous)
