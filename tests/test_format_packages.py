"""Issue 46: detecting a file loads no format's reader. Each format package holds its face (FORMAT,
MAX_BYTES, identify, a thin parse or open_perfmon) and gives its reader's other names through
ingest/formats/reader_names.py; probing the face, importing a submodule or detecting a file of every
kind loads no reader.py, lxml or PDF engine, and a reader's name still comes through the package."""

from __future__ import annotations

import subprocess
import sys

from tests.helpers import FIXTURES

PROBE = """
import sys
from pathlib import Path
from esrpdb.ingest import registry
modules = registry.format_modules()
for module in modules:
    for name in ("open_perfmon", "identify_rest", "parse", "FORMAT", "MAX_BYTES"):
        getattr(module, name, None)
for path in sys.argv[1:]:
    data = Path(path).read_bytes()
    registry.detect(Path(path).name, data[:registry.HEAD_BYTES], modules, rest=lambda: [data])
print(sorted(m for m in sys.modules if m.endswith(".reader") or m.startswith(("lxml", "pypdfium2", "tomllib"))
             or m.endswith((".pdf.layout", ".blg.layout"))))
from esrpdb.ingest.formats.jetstress_html import tables  # a submodule, imported as itself
from esrpdb.ingest.formats.perfmon import blg
print(sorted(m for m in sys.modules if m.endswith(".reader")))
"""


def test_detecting_every_kind_of_file_loads_no_reader():
    samples = [next((FIXTURES / folder).rglob(pattern)) for folder, pattern in (
        ("jetstress_html", "*.html"), ("documents", "*.txt"), ("config", "*.xml"), ("perfmon", "*.csv"),
        ("power", "*.csv"))]
    out = subprocess.run([sys.executable, "-c", PROBE, *map(str, samples)], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines() == ["[]", "[]"], out.stdout


def test_a_readers_name_still_comes_through_its_package():
    from esrpdb.ingest.formats import manifest, perfmon

    assert manifest.ManifestError.__module__.endswith("manifest.reader")
    assert perfmon.parse_counter_path(r"\\HOST\LogicalDisk(C:)\Disk Reads/sec").counter == "Disk Reads/sec"


def test_reading_a_document_loads_no_html_engine():
    """The document reader builds its sections' records (jetstress_html/grid.py) without lxml's DOM."""
    out = subprocess.run([sys.executable, "-c", "import sys, esrpdb.ingest.formats.document.reader\n"
                          "print(sorted(m for m in sys.modules if m.startswith('lxml') or m.endswith('.dom')))"],
                         capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"

