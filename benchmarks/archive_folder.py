"""An analyst's folder of PDFs: the seeds and the synthetic documents printed as a word processor lays
them out, in one and two columns, hundreds of distinct copies of 15-40 pages each.

Each copy differs from every other in what it prints (a reference line of its own and one figure of
its prose changed), so the content fingerprint (ingest/formats/document/fingerprint.py) sees distinct
documents and ingest reads and writes each one whole, as an archive of different submissions. The
page count is set by the print scale and paper (Letter or A4, one-inch margins, as word processors
default), chosen per copy so the folder spans 15-40 pages. All copies print in one Chromium session
(Chrome DevTools' Page.printToPDF, with the running header and footer of `chromium --print-to-pdf`);
the folder is cached under ~/.cache/esrpdb-bench/ by a hash of its inputs, so a second run reuses it.
"""

from __future__ import annotations

import base64
import hashlib
import math
import re
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # tests.pdf_renderings: the layout the tests read

SOURCES = [*sorted((ROOT / "fixtures" / "documents").glob("0*.txt")),
           *sorted((ROOT / "fixtures" / "synthetic_documents").glob("*.txt"))]
MIN_PAGES, MAX_PAGES = 15, 40
CACHE = Path.home() / ".cache" / "esrpdb-bench"
LAYOUT_VERSION = "1"  # bump when the way copies are made changes (the cache key holds it)
PAPERS_IN = {"letter": (8.5, 11.0), "a4": (8.27, 11.69)}
MARGIN_IN = 1.0
MIN_SCALE, MAX_SCALE = 0.6, 2.0  # Chromium's own bounds are 0.1-2
SPACING, MAX_SPACING = 1.15, 2.5  # line spacing: a word processor's default, and the most a short one gets

# a prose figure of four to six digits that is no year, time, version or part of a decimal
_FIGURE = re.compile(r"(?<![\w.,:/\\-])(\d{4,6})(?![\w.,:/\\-]?\d)")


@dataclass(frozen=True)
class Copy:
    source: Path
    n: int  # the copy's number, unique in the folder
    two_columns: bool
    paper: str
    target_pages: int

    @property
    def name(self) -> str:
        return f"{self.n:04d}-{self.source.stem}-{'2col' if self.two_columns else '1col'}.pdf"


def variant_text(text: str, n: int) -> str:
    """The document with a reference line of its own after the title and one prose figure changed. Pure."""
    lines = text.split("\n")
    prose = [(i, m) for i, line in enumerate(lines) if "\t" not in line
             for m in _FIGURE.finditer(line) if not 1900 <= int(m[1]) <= 2099]
    if prose:
        i, match = prose[n % len(prose)]
        changed = str(int(match[1]) + 1 + n % 7).rjust(len(match[1]), "0")
        lines[i] = lines[i][:match.start(1)] + changed + lines[i][match.end(1):]
    title = next((i for i, line in enumerate(lines) if line.strip()), 0)
    lines.insert(title + 1, f"\nArchive copy {n}, reference {41_000 + n}.\n")
    return "\n".join(lines)


def plan(count: int) -> list[Copy]:
    """`count` copies, round-robin over sources and column layouts; pages aimed across 15-40."""
    kinds = [(source, two) for source in SOURCES for two in (False, True)]
    span = MAX_PAGES - 2 - (MIN_PAGES + 2)
    return [Copy(kinds[n % len(kinds)][0], n, kinds[n % len(kinds)][1], ("letter", "a4")[n // len(kinds) % 2],
                 MIN_PAGES + 2 + (n * 7919) % (span + 1)) for n in range(count)]


def cache_folder(count: int) -> Path:
    """Where the folder of `count` copies is kept: a hash of every input that shapes the PDFs."""
    digest = hashlib.sha256(LAYOUT_VERSION.encode())
    for path in [*SOURCES, ROOT / "tests" / "pdf_renderings.py", Path(__file__)]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return CACHE / f"archive-{digest.hexdigest()[:16]}-{count}"


def page_count(pdf: Path) -> int:
    import pypdfium2

    document = pypdfium2.PdfDocument(str(pdf))
    try:
        return len(document)
    finally:
        document.close()


class _Printer:
    """One headless Chromium for every print (starting one per PDF costs more than the print)."""

    def __init__(self) -> None:
        self._open()

    def _open(self) -> None:
        from tests.site_helpers import open_chromium

        self.driver, self.profile = open_chromium(javascript=False)
        self.work = Path(tempfile.mkdtemp(prefix="esrpdb-archive-html-"))

    def print(self, page: str, pdf: Path, *, paper: str, scale: float, spacing: float) -> int:
        source = self.work / "page.html"
        html = page.replace("</head>", f"<style>p, td, th {{ line-height: {spacing:.2f}; }}</style></head>", 1)
        source.write_text(html, encoding="utf-8")
        self.driver.get(source.as_uri())
        width, height = PAPERS_IN[paper]
        options = {"displayHeaderFooter": True, "paperWidth": width, "paperHeight": height, "scale": scale,
                   **{f"margin{side}": MARGIN_IN for side in ("Top", "Bottom", "Left", "Right")}}
        try:
            printed = self.driver.execute_cdp_cmd("Page.printToPDF", options)
        except Exception:  # noqa: BLE001 - Chromium's "Printing failed" comes and goes: a new browser
            self.close()
            self._open()
            source = self.work / "page.html"
            source.write_text(html, encoding="utf-8")
            self.driver.get(source.as_uri())
            printed = self.driver.execute_cdp_cmd("Page.printToPDF", options)
        pdf.write_bytes(base64.b64decode(printed["data"]))
        return page_count(pdf)

    def close(self) -> None:
        self.driver.quit()
        shutil.rmtree(self.profile, ignore_errors=True)
        shutil.rmtree(self.work, ignore_errors=True)


def _scale_for(target: int, pages_at_one: float) -> float:
    return min(MAX_SCALE, max(MIN_SCALE, math.sqrt(target / pages_at_one)))  # pages grow with the area


def _printed(pdf: Path) -> bool:
    try:
        return MIN_PAGES <= page_count(pdf) <= MAX_PAGES
    except Exception:  # noqa: BLE001 - missing, or cut short by an interrupted build: printed again
        return False


def build(count: int, *, log=print, verbose: bool = False) -> Path:
    """The folder of `count` PDFs, printed now or reused from the cache."""
    folder = cache_folder(count)
    if (folder / ".complete").exists():
        return folder
    from tests.pdf_renderings import seed_html

    folder.mkdir(parents=True, exist_ok=True)  # an interrupted build keeps the copies it printed
    printer = _Printer()
    pages_at_one: dict[tuple[Path, bool, str], float] = {}
    try:
        for copy in plan(count):
            page = seed_html(variant_text(copy.source.read_text(encoding="utf-8"), copy.n),
                             title=f"{copy.source.stem} ({copy.n})", two_columns=copy.two_columns)
            if _printed(folder / copy.name):
                continue
            kind = (copy.source, copy.two_columns, copy.paper)
            if kind not in pages_at_one:
                pages_at_one[kind] = printer.print(page, folder / copy.name, paper=copy.paper, scale=1.0,
                                                   spacing=SPACING)
            scale, spacing = _scale_for(copy.target_pages, pages_at_one[kind]), SPACING
            for _ in range(6):  # tables and breaks make pages grow unevenly with the scale: aim again
                pages = printer.print(page, folder / copy.name, paper=copy.paper, scale=scale, spacing=spacing)
                if MIN_PAGES <= pages <= MAX_PAGES:
                    break
                wanted = scale * math.sqrt(copy.target_pages / pages)
                if wanted > MAX_SCALE:  # a short document at the largest type: double-spaced, as drafts print
                    spacing = min(MAX_SPACING, spacing * wanted / MAX_SCALE)
                scale = min(MAX_SCALE, max(MIN_SCALE, wanted))
            else:
                raise RuntimeError(f"{copy.name}: {pages} pages, outside {MIN_PAGES}-{MAX_PAGES}")
            if verbose:
                log(f"  {copy.name}: {pages} pages (scale {scale:.2f}, spacing {spacing:.2f})")
            if copy.n % 50 == 49:
                log(f"printed {copy.n + 1}/{count}")
    finally:
        printer.close()
    (folder / ".complete").write_text("")
    return folder
