"""Issue 49: one budget a document whatever its format. A text document of 10^6 table rows (34 MB, under the
64 MB cap) was read and drafted in the writer itself with no limit: 2.7 GB and minutes of a core, the rest of
the batch waiting. A large text document is now read in a child with the PDF's limits (ingest/parallel/document_budget.py):
one past them is its file's one-line failure naming the file and the limit, nothing of it is written, the other
files of the batch load and the command exits non-zero. The limits are made small here (the knobs the PDF
budget's tests turn), so a document of 30,000 rows passes them at once.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from typer.testing import CliRunner

from esrpdb.cli.main import app
from esrpdb.ingest.parallel import document_budget, forked
from esrpdb.ingest.pdf import budget
from esrpdb.ingest.pipeline import ingest_paths
from tests.helpers import FIXTURES, child_pids

pytestmark = pytest.mark.db
SEED = FIXTURES / "documents" / "synthetic-contoso-whitepaper.md"
GOOD_REPORT = FIXTURES / "jetstress_html" / "seed001-md1220" / "Performance_2011_5_28_11_38_30.html"


def _long_document(path: Path, rows: int) -> Path:
    """The seed whitepaper with a table of `rows` rows that become claims (the reader's and drafter's work)."""
    lines = [SEED.read_text(encoding="utf-8"), "", "Table 9: Per-server results", "",
             "|  | Contoso StorMax 9000 | Fabrikam FX-200 |", "|---|---|---|"]
    lines += [f"| Total IOPS per watt | {8 + n % 97 / 100:.2f} | {5 + n % 89 / 100:.2f} |" for n in range(rows)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def batch(tmp_path, monkeypatch):
    if not forked.can_fork():
        pytest.skip("the budget's child needs fork")
    monkeypatch.setattr(document_budget, "BOUNDED_FROM_BYTES", 256 * 1024)  # the long document, not the seed
    folder = tmp_path / "batch"
    folder.mkdir()
    _long_document(folder / "a-long.md", 30_000)
    (folder / "b-seed.md").write_bytes(SEED.read_bytes())
    (folder / "c-report.html").write_bytes(GOOD_REPORT.read_bytes())
    assert (folder / "a-long.md").stat().st_size > document_budget.BOUNDED_FROM_BYTES > SEED.stat().st_size
    return folder


def _stored(engine) -> list[str]:
    with engine.connect() as conn:
        files = conn.execute(text("select file_name from source_files order by 1")).scalars().all()
        cells = conn.execute(text("select count(*) from document_cells c join document_tables t on t.id = c.table_id "
                                  "join source_files f on f.id = t.source_file_id where f.file_name = 'a-long.md'"))
        assert cells.scalar() == 0  # nothing of the refused document, half-written or whole
    return files


def _refused(outcomes, folder: Path, limit: str) -> dict[str, str]:
    statuses = {Path(o.path).name: o.status for o in outcomes}
    (long,) = [o for o in outcomes if Path(o.path).name == "a-long.md"]
    assert long.status == "failed" and limit in long.message, long.message
    assert long.message.startswith(str(folder / "a-long.md")) and "\n" not in long.message
    assert child_pids() == []  # the reading child is gone
    return statuses


@pytest.mark.parametrize("limit", ["MAX_READ_SECONDS", "MAX_READ_MEMORY_BYTES"])
def test_a_long_text_document_past_its_budget_is_refused_and_the_batch_loads(batch, catalog, monkeypatch, limit):
    if limit == "MAX_READ_SECONDS":
        monkeypatch.setattr(budget, "MAX_READ_SECONDS", 1.0)
    else:
        monkeypatch.setattr(budget, "MAX_READ_MEMORY_BYTES", 8 * 2**20)
    statuses = _refused(ingest_paths(catalog.engine, [batch]), batch, limit)
    assert statuses == {"a-long.md": "failed", "b-seed.md": "loaded", "c-report.html": "loaded"}
    assert _stored(catalog.engine) == ["b-seed.md", "c-report.html"]


def test_a_long_text_document_within_its_budget_loads_as_read_in_the_writer(batch, catalog, monkeypatch):
    read_here = document_budget.read_within_budget
    children = []
    monkeypatch.setattr(document_budget, "read_within_budget",
                        lambda read, path, module: children.append(path.name) or read_here(read, path, module))
    statuses = {Path(o.path).name: o.status for o in ingest_paths(catalog.engine, [batch])}
    assert statuses == {"a-long.md": "loaded", "b-seed.md": "loaded", "c-report.html": "loaded"}
    assert children == ["a-long.md"]  # the long one in a child of its own, the others in the writer
    with catalog.engine.connect() as conn:
        claims = conn.execute(text("select count(*) from claims c join source_files f on f.id = c.source_file_id "
                                   "where f.file_name = 'a-long.md'")).scalar()
    assert claims and claims >= 60_000


def test_the_command_exits_non_zero_with_the_files_line(batch, fresh_database_url, monkeypatch):
    monkeypatch.setattr(budget, "MAX_READ_SECONDS", 1.0)
    done = CliRunner().invoke(app, ["--database-url", fresh_database_url, "ingest", str(batch), "--format", "json"])
    assert done.exit_code == 1, done.output
    assert "a-long.md" in done.output and "MAX_READ_SECONDS" in done.output and "Traceback" not in done.output
    engine = create_engine(fresh_database_url)
    try:
        assert _stored(engine) == ["b-seed.md", "c-report.html"]
    finally:
        engine.dispose()
