"""Issue 34, item 7 (the parts outside SQL): a file that grows while it is ingested, links out of an
ingested folder, a folder 1,000 levels deep, right-to-left overrides on the site, `site --force` and
the user's own files, a deeply nested config given to `parse`, a price written "1_000", and the run
identity keys of backup and recovery reports across a downgrade below revision 0009.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path, PurePosixPath

import pytest
from sqlalchemy import create_engine, text
from typer.testing import CliRunner

from esrpdb.cli.main import app
from esrpdb.db import migrate
from esrpdb.ingest import pipeline, walk
from esrpdb.ingest.formats import manifest
from esrpdb.ingest.formats.manifest import ManifestError
from esrpdb.site.build import build_site, environment
from esrpdb.site.out_folder import write_list, written_before
from tests.helpers import FIXTURES, MINIMAL_SOLUTION_TOML

REPORTS = FIXTURES / "jetstress_html" / "seed001-md1220"
GOOD_REPORT = REPORTS / "Performance_2011_5_28_11_38_30.html"
OTHER_REPORT = FIXTURES / "jetstress_html" / "seed002-x25e-ssd"
runner = CliRunner()


def _stored(engine) -> list[str]:
    with engine.connect() as conn:
        return conn.execute(text("select file_name from source_files order by file_name")).scalars().all()


@pytest.mark.db
def test_a_file_that_grows_while_it_is_ingested_is_refused_and_loads_once_later(tmp_path, catalog, monkeypatch):
    report = tmp_path / GOOD_REPORT.name
    shutil.copyfile(GOOD_REPORT, report)
    reading = pipeline.bounded_read.read_bounded

    def growing(path, module):
        data = reading(path, module)
        with open(path, "ab") as more:  # the writer of the file is still at it
            more.write(b"<!-- more -->\n")
        return data

    monkeypatch.setattr(pipeline.bounded_read, "read_bounded", growing)
    (first,) = pipeline.ingest_paths(catalog.engine, [report])
    assert first.status == "failed" and "changed while it was being read" in first.message
    assert "\n" not in first.message
    assert _stored(catalog.engine) == []
    monkeypatch.undo()
    (second,) = pipeline.ingest_paths(catalog.engine, [report])
    (third,) = pipeline.ingest_paths(catalog.engine, [report])
    assert (second.status, third.status) == ("loaded", "skipped")
    assert _stored(catalog.engine) == [GOOD_REPORT.name]


@pytest.mark.db
def test_a_link_out_of_an_ingested_folder_is_said_and_not_followed(tmp_path, catalog):
    folder = tmp_path / "results"
    folder.mkdir()
    shutil.copyfile(GOOD_REPORT, folder / GOOD_REPORT.name)
    outside = next(OTHER_REPORT.glob("Performance_*.html"))
    (folder / "elsewhere.html").symlink_to(outside)
    (folder / "inside.html").symlink_to(folder / GOOD_REPORT.name)  # a link within the folder: read as before
    outcomes = {Path(o.path).name: o for o in pipeline.ingest_paths(catalog.engine, [folder])}
    link = outcomes["elsewhere.html"]
    assert link.status == "skipped" and "outside the folder" in link.message and str(outside) in link.message
    assert outcomes[GOOD_REPORT.name].status == "loaded"
    assert _stored(catalog.engine) == [GOOD_REPORT.name]


def _remove_deep(top: Path) -> None:
    """Bottom up, one folder at a time: shutil.rmtree (and so pytest's own clean-up of old temporary
    folders, in every later session) recurses past Python's limit on a folder 1,000 levels deep."""
    folders, stack = [], [str(top)]
    while stack:
        folder = stack.pop()
        folders.append(folder)
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
                else:
                    os.unlink(entry.path)
    for folder in reversed(folders):
        os.rmdir(folder)


@pytest.fixture
def deep_folder(tmp_path):
    top = tmp_path / "deep"
    _deep(top, 1000)
    yield top
    _remove_deep(top)


def _deep(top: Path, levels: int) -> Path:
    folder = top
    folder.mkdir()
    for _ in range(levels):  # one level at a time: pathlib's mkdir(parents=True) recurses
        folder = folder / "d"
        folder.mkdir()
    (folder / "report.html").write_bytes(GOOD_REPORT.read_bytes())
    return folder


def test_a_folder_a_thousand_levels_deep_is_one_line_without_recursion(deep_folder):
    found = list(walk.found_files([deep_folder]))
    (refused,) = [f for f in found if f.refused]
    assert refused.status == "failed" and "MAX_FOLDER_DEPTH" in refused.refused and "\n" not in refused.refused
    assert len(refused.path.parts) - len(deep_folder.parts) == walk.MAX_FOLDER_DEPTH + 1
    assert [f for f in found if not f.refused] == []


@pytest.mark.db
def test_a_deep_folder_on_the_command_line_does_not_abort_the_batch(tmp_path, deep_folder, fresh_database_url):
    shallow = _deep(tmp_path / "shallow", 3)
    done = runner.invoke(app, ["--database-url", fresh_database_url, "ingest", str(deep_folder),
                               str(shallow / "report.html"), "--format", "json"])
    assert done.exit_code == 1, done.output
    assert "RecursionError" not in done.output and "Traceback" not in done.output
    engine = create_engine(fresh_database_url)
    try:
        assert _stored(engine) == ["report.html"]
    finally:
        engine.dispose()


def test_right_to_left_overrides_are_shown_not_obeyed_on_the_site():
    from markupsafe import Markup

    page = environment().from_string("<td>{{ name }}</td><td title=\"{{ name }}\">{{ safe }}</td>").render(
        name="report\u202egpj.exe\u2066x\u2069", safe=Markup("<b>\u202e</b>"))
    assert "\u202e" not in page.split("<b>")[0] and "\u2066" not in page and "\u2069" not in page
    assert "report[U+202E]gpj.exe[U+2066]x[U+2069]" in page
    assert "<b>\u202e</b>" in page  # markup the site made itself passes as it is


@pytest.mark.db
def test_site_force_keeps_the_users_own_files_and_removes_only_what_it_wrote(catalog, tmp_path):
    out = tmp_path / "site"
    build_site(catalog.reader(), out)
    written = written_before(out)
    assert PurePosixPath("index.html") in written and any(path.parts[0] == "static" for path in written)
    (out / "static" / "my-theme.css").write_text("body { color: teal }")
    (out / "solutions").mkdir(exist_ok=True)
    (out / "solutions" / "notes.txt").write_text("my notes")
    (out / "solutions" / "stale.html").write_text("an old page")
    write_list(out, {**written, PurePosixPath("solutions/stale.html"): hashlib.sha256(b"an old page").hexdigest(),
                     PurePosixPath("../outside.txt"): hashlib.sha256(b"not the site's").hexdigest()})
    (tmp_path / "outside.txt").write_text("not the site's")
    build_site(catalog.reader(), out, force=True)
    assert (out / "static" / "my-theme.css").read_text() == "body { color: teal }"
    assert (out / "solutions" / "notes.txt").read_text() == "my notes"
    assert not (out / "solutions" / "stale.html").exists()  # written by the last build, not by this one
    assert (tmp_path / "outside.txt").exists()
    assert (out / "index.html").is_file() and (out / "static" / "site.css").is_file()


def test_parse_of_a_deeply_nested_config_is_one_line(tmp_path):
    depth = 100_000
    config = tmp_path / "JetstressConfig.xml"
    config.write_text('<?xml version="1.0"?><configuration>' + "<a>" * depth + "</a>" * depth + "</configuration>")
    done = runner.invoke(app, ["parse", str(config)])
    assert done.exit_code == 1
    lines = done.output.strip().splitlines()
    assert len(lines) == 1 and "nested too deeply" in lines[0] and "RecursionError" not in lines[0]


MANIFEST_TEXT = MINIMAL_SOLUTION_TOML + """\

[price]
amount = {amount}
currency = "EUR"
type = "street"
"""


@pytest.mark.parametrize("amount", ['"1_000"', '"1_000.50"'])
def test_a_price_with_underscores_is_refused(amount):
    with pytest.raises(ManifestError) as caught:
        manifest.parse("priced.toml", MANIFEST_TEXT.format(amount=amount).encode())
    assert any("price.amount" in problem and "not a decimal number" in problem for problem in caught.value.problems)


def test_a_price_without_underscores_still_reads():
    parsed = manifest.parse("priced.toml", MANIFEST_TEXT.format(amount='"1000.50"').encode())
    assert str(parsed.price.amount) == "1000.50"


@pytest.mark.db
def test_backup_and_recovery_identity_keys_come_back_after_a_downgrade_below_0009(fresh_database_url, tmp_path):
    engine = create_engine(fresh_database_url)
    try:
        outcomes = pipeline.ingest_paths(engine, [REPORTS / "DatabaseBackup_2011_6_3_10_55_33.html",
                                                  REPORTS / "SoftRecovery_2011_6_4_10_48_19.html", GOOD_REPORT])
        assert all(o.status == "loaded" for o in outcomes), [o.message for o in outcomes]

        def keys() -> list[tuple]:
            with engine.connect() as conn:
                return conn.execute(text("select id, identity_key from runs order by id")).all()

        before = keys()
        assert len(before) == 3 and all(key for _, key in before)
        engine.dispose()
        migrate.downgrade(fresh_database_url, "0008")
        migrate.upgrade(fresh_database_url)
        assert keys() == before
        again = pipeline.ingest_paths(engine, [_copy_with_a_comment(REPORTS / "DatabaseBackup_2011_6_3_10_55_33.html", tmp_path)])
        assert again[0].status == "loaded"
        with engine.connect() as conn:
            assert conn.execute(text("select count(*) from runs")).scalar_one() == 3  # the copy is the same run
    finally:
        engine.dispose()


def _copy_with_a_comment(report: Path, folder: Path) -> Path:
    copy = folder / report.name
    copy.write_bytes(report.read_bytes() + b"\n<!-- a later copy -->\n")
    return copy
