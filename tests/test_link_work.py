"""link.py skips a link statement whose driving rows do not exist: a batch of documents alone runs none
of the six (they were ~30 ms of every ingest), and a batch with evidence still links it."""

from __future__ import annotations

import shutil

import pytest
from sqlalchemy import event, text

from esrpdb.ingest.pipeline import ingest_paths
from tests.helpers import DELL_HTML, write_log_from_report

pytestmark = pytest.mark.db


def _statements(engine) -> list[str]:
    seen: list[str] = []
    event.listen(engine, "before_cursor_execute", lambda conn, cursor, sql, *rest: seen.append(" ".join(sql.split())))
    return seen


def test_a_batch_without_evidence_runs_no_link_statement(catalog):
    seen = _statements(catalog.engine)
    outcomes = ingest_paths(catalog.engine, [DELL_HTML])
    assert [o.status for o in outcomes] == ["loaded"]
    assert any(s.startswith("SELECT EXISTS (SELECT 1 FROM test_configs") for s in seen)
    assert not [s for s in seen if s.startswith(("UPDATE test_configs", "UPDATE test_logs", "UPDATE perf_files",
                                                   "UPDATE perf_counters", "UPDATE power_files",
                                                   "INSERT INTO run_power"))]


def test_evidence_in_a_later_batch_is_still_linked(catalog, tmp_path):
    assert [o.status for o in ingest_paths(catalog.engine, [DELL_HTML])] == ["loaded"]
    folder = tmp_path / "dell"
    folder.mkdir()
    shutil.copy(DELL_HTML, folder / DELL_HTML.name)
    write_log_from_report(DELL_HTML, folder / "Performance_2008_9_18_12_48_31.log")
    seen = _statements(catalog.engine)
    outcomes = ingest_paths(catalog.engine, [folder])
    assert {o.status for o in outcomes} <= {"loaded", "skipped"}, [o.message for o in outcomes]
    assert any(s.startswith("UPDATE test_logs") for s in seen)
    with catalog.engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM test_logs WHERE run_id IS NOT NULL")).scalar() == 1
