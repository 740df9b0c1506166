"""The compiled code a command keeps for the next one: dataclasses' methods and regular expressions.

One place to install both caches (a command's own process, cli/main.py) and to save both (at exit, and
in a forked reader once its result is sent: it ends with os._exit, running no exit handler).
"""

from __future__ import annotations

from . import dataclass_code, pattern_code


def install() -> None:
    dataclass_code.install()
    pattern_code.install()


def save() -> None:
    dataclass_code.save()
    pattern_code.save()
