"""Stored values reach the terminal as text, never as terminal commands."""

from __future__ import annotations

import re

# What a terminal would act on rather than show: C0 controls but tab and newline, DEL, C1 controls
# (a lone 0x9b is CSI on some terminals), and bidirectional overrides that reorder what is shown.
_UNPRINTABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """Text safe to write to a terminal: each control character as its \\uXXXX escape (valid in JSON,
    TOML and CSV too), so a stored value can neither move the cursor nor recolour the screen."""
    return _UNPRINTABLE.sub(lambda m: f"\\u{ord(m[0]):04x}", text)


def echo(text: str, *, err: bool = False) -> None:
    """typer.echo for text that may hold stored values (keys, paths, messages)."""
    import typer

    typer.echo(printable(text), err=err)
