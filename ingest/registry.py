"""Which parser reads a file: each format module answers `identify(name, head)`; exactly one may."""

from __future__ import annotations

from types import ModuleType
from typing import Sequence

from .errors import AmbiguousFormat, UnknownFormat

HEAD_BYTES = 8192


def format_modules() -> Sequence[ModuleType]:
    """Every format module, in a fixed order (imported here so a missing one fails loudly)."""
    from .formats import (
        config as jetstress_config,
    )
    from .formats import (
        document as document_text,
    )
    from .formats import (
        jetstress_html,
        manifest,
    )
    from .formats import (
        log as jetstress_log,
    )
    from .formats import (
        perfmon as perfmon_csv,
    )
    from .formats import (
        power as power_log,
    )

    return (jetstress_html, jetstress_config, jetstress_log, perfmon_csv, power_log, document_text, manifest)


def detect(name: str, head: bytes, modules: Sequence[ModuleType] | None = None) -> ModuleType:
    modules = modules if modules is not None else format_modules()
    claims = [m for m in modules if m.identify(name, head)]
    if not claims:
        known = ", ".join(m.FORMAT for m in modules)
        raise UnknownFormat(name, f"not a recognised format (known: {known})")
    if len(claims) > 1:
        raise AmbiguousFormat(name, f"claimed by several parsers: {', '.join(m.FORMAT for m in claims)}")
    return claims[0]
