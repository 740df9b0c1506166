"""Which parser reads a file: each format package answers `identify(name, head)`; exactly one may."""

from __future__ import annotations

from types import ModuleType
from typing import Sequence

from .errors import AmbiguousFormat, UnknownFormat

HEAD_BYTES = 8192


def format_modules() -> Sequence[ModuleType]:
    """The one list of formats: every package under `formats/`, in a fixed order.

    Imported here, not at the top, so a missing or broken format fails loudly at the list.
    """
    from .formats import config, document, jetstress_html, log, manifest, perfmon, power
    from .formats.perfmon import blg as perfmon_blg

    return (jetstress_html, config, log, perfmon, perfmon_blg, power, document, manifest)


def detect(name: str, head: bytes, modules: Sequence[ModuleType] | None = None) -> ModuleType:
    modules = modules if modules is not None else format_modules()
    claims = [m for m in modules if m.identify(name, head)]
    if not claims:
        known = ", ".join(m.FORMAT for m in modules)
        raise UnknownFormat(name, f"not a recognised format (known: {known})")
    if len(claims) > 1:
        raise AmbiguousFormat(name, f"claimed by several parsers: {', '.join(m.FORMAT for m in claims)}")
    return claims[0]
