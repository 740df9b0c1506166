"""Issue 24, items 2, 3 and 10: a stored value can neither stop the site, nor drive the terminal,
nor run as a spreadsheet formula; a site build never writes half a site or through a link."""

from __future__ import annotations

import hashlib

import pytest
from sqlalchemy import text
from typer.testing import CliRunner

from esrpdb.cli.main import app
from esrpdb.ingest.pipeline import ingest_paths
from esrpdb.site import charts
from esrpdb.site.build import build_site
from tests.helpers import FIXTURES

runner = CliRunner()
HOSTILE = "Run\x0b2\x1b[31m\x9b\u202e"  # vertical tab, an ANSI colour, a C1 CSI, a right-to-left override


@pytest.fixture
def hostile(catalog):
    ingest_paths(catalog.engine, [FIXTURES / "documents" / "000_cfe3f1c33c0344dc.txt"])
    with catalog.engine.begin() as conn:
        conn.execute(text("UPDATE runs SET run_label = :v, machine_name = :v WHERE id = (SELECT min(id) FROM runs)"),
                     {"v": HOSTILE})
        conn.execute(text("UPDATE solutions SET label = :v, vendor = '=HYPERLINK(\"http://x\")' "
                          "WHERE id = (SELECT min(id) FROM solutions)"), {"v": HOSTILE})
    return catalog


def test_control_characters_never_stop_the_site(hostile, tmp_path):
    report = build_site(hostile.reader(), tmp_path / "site")
    assert report.pages > 1 and (tmp_path / "site" / "index.html").stat().st_size > 0
    svg = (tmp_path / "site" / "charts").glob("*.svg")
    assert all("\x1b" not in path.read_text(encoding="utf-8") for path in svg)


def _tree(root):
    return {p.relative_to(root): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(root.rglob("*"))
            if p.is_file()}


def test_a_failed_build_leaves_the_site_that_was_there(hostile, tmp_path, monkeypatch):
    out = tmp_path / "site"
    build_site(hostile.reader(), out)
    before = _tree(out)

    def renderer_aborts(spec):
        raise RuntimeError("the renderer failed")

    monkeypatch.setattr(charts, "render_svg", renderer_aborts)
    with pytest.raises(RuntimeError):
        build_site(hostile.reader(), out, force=True)
    from esrpdb.site.out_folder import MANIFEST

    # the tree as it was, the last build's list of files included; no staging folder left behind
    assert _tree(out) == before and not [p for p in out.iterdir() if p.name.startswith(".") and p.name != MANIFEST]


def test_force_replaces_a_link_in_out_and_never_writes_through_it(hostile, tmp_path):
    out, elsewhere = tmp_path / "site", tmp_path / "elsewhere"
    out.mkdir()
    (out / "index.html").symlink_to(elsewhere / "index.html")  # dangling
    (out / "solutions").symlink_to(elsewhere)
    build_site(hostile.reader(), out, force=True)
    assert not elsewhere.exists()
    assert not (out / "index.html").is_symlink() and (out / "solutions").is_dir()


@pytest.mark.parametrize("command", [["runs"], ["solutions"], ["audit"], ["query", "run-summary"],
                                     ["sql", "select run_label, machine_name from runs"],
                                     ["runs", "--format", "csv"], ["solutions", "--format", "json"]])
def test_terminal_output_escapes_stored_control_characters(hostile, fresh_database_url, command):
    result = runner.invoke(app, ["--database-url", fresh_database_url, *command])
    assert result.exit_code == 0, result.output
    assert not any(c in result.output for c in "\x0b\x1b\x9b\u202e")
    assert "\\u001b" in result.output or "\\\\u001b" in result.output or command == ["audit"]


def test_csv_cells_a_spreadsheet_would_run_are_neutralised(hostile, fresh_database_url, monkeypatch):
    result = runner.invoke(app, ["--database-url", fresh_database_url, "solutions", "--format", "csv"])
    assert "'=HYPERLINK" in result.output and ",=HYPERLINK" not in result.output
    monkeypatch.setenv("ESRPDB_RAW_CSV", "1")
    raw = runner.invoke(app, ["--database-url", fresh_database_url, "solutions", "--format", "csv"])
    assert '"=HYPERLINK(""http://x"")"' in raw.output
