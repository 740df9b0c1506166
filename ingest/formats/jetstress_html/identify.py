"""Whether a file is a Jetstress HTML report, from its first few KiB: what detection needs, and all the
package itself loads (the reader, lxml and the DOM code wait for `parse`)."""

from __future__ import annotations

from ...decoding import wide_encoding
from ...jetstress.vocabulary import report_type_from_filename

SNIFF_BYTES = 8192


def identify(name: str, head: bytes) -> bool:
    """True for a Jetstress HTML report, judged from the first few KiB (the name only helps)."""
    text = _sniff_text(head[:SNIFF_BYTES]).casefold()
    if not any(tag in text for tag in ("<html", "<!doctype html", "<fieldset", "<table")):
        return False
    structural = "<fieldset" in text or "grid_row_header" in text
    titled = "test result report" in text
    named = report_type_from_filename(name) is not None
    if "jetstress" in text:
        return structural or (titled and named)
    return structural and titled and named


def _sniff_text(head: bytes) -> str:
    encoding = wide_encoding(head) or "latin-1"
    return head.decode(encoding, errors="ignore")
