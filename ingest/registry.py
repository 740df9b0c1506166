"""Which parser reads a file: each format package answers `identify(name, head)`; exactly one may."""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, Callable, Iterable, Sequence

from .errors import AmbiguousFormat, UnknownFormat

if TYPE_CHECKING:
    from .formats.contract import LateIdentified, StreamedFormat, WholeFileFormat

HEAD_BYTES = 8192


def format_modules() -> Sequence[ModuleType]:
    """The one list of formats: every package under `formats/`, in a fixed order.

    Imported here, not at the top, so a missing or broken format fails loudly at the list. Each is
    named below as the protocol it satisfies (ingest/formats/contract.py), so mypy checks every format's face.
    """
    from .formats import config, document, jetstress_html, log, manifest, perfmon, power
    from .formats.perfmon import blg as perfmon_blg

    whole: tuple[WholeFileFormat, ...] = (jetstress_html, config, log, power, document, manifest)
    streamed: tuple[StreamedFormat, ...] = (perfmon, perfmon_blg)
    late: tuple[LateIdentified, ...] = (document,)
    del whole, streamed, late  # the check is mypy's; the list below keeps the order detect() names them in
    return (jetstress_html, config, log, perfmon, perfmon_blg, power, document, manifest)


def detect(name: str, head: bytes, modules: Sequence[ModuleType] | None = None,
           rest: Callable[[], Iterable[bytes]] | None = None) -> ModuleType:
    """The one format that claims the file from its head; else, given `rest` (the file's bytes from the
    start, in chunks), the one whose `identify_rest` claims it from the whole file (documents whose
    reports start late)."""
    modules = modules if modules is not None else format_modules()
    claims = [m for m in modules if m.identify(name, head)]
    if not claims and rest is not None:
        claims = [m for m in modules if hasattr(m, "identify_rest") and m.identify_rest(name, head, rest())]
    if not claims:
        known = ", ".join(m.FORMAT for m in modules)
        raise UnknownFormat(name, f"not a recognised format (known: {known})")
    if len(claims) > 1:
        raise AmbiguousFormat(name, f"claimed by several parsers: {', '.join(m.FORMAT for m in claims)}")
    return claims[0]
