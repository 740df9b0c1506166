"""Issue 49: a file swapped for another of the same size (and the same modification time: `touch -r`)
between the moment ingest hashes it and the moment it reads it, or a link in an ingested folder pointed
elsewhere while the batch runs, loaded the other file's content under the first file's SHA-256 and name.
What is read is now hashed and must be what was hashed, the file opened must be the file stat'ed (device
and inode), and a file found in a folder must still be the one the walk found."""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import pytest
from sqlalchemy import text

from esrpdb.ingest import pipeline
from tests.helpers import FIXTURES

pytestmark = pytest.mark.db
REPORT = FIXTURES / "jetstress_html" / "seed001-md1220" / "Performance_2011_5_28_11_38_30.html"
OUTSIDE = FIXTURES / "jetstress_html" / "seed002-x25e-ssd"


def _stored(engine) -> list[tuple[str, str]]:
    with engine.connect() as conn:
        return [tuple(r) for r in conn.execute(text("select file_name, sha256 from source_files order by 1"))]


def _same_size_twin() -> bytes:
    """The report with one figure changed, byte for byte as long."""
    data = REPORT.read_bytes()
    twin = data.replace(b">1573.982<", b">9573.982<", 1)
    assert twin != data and len(twin) == len(data)
    return twin


def _swap_by_rename(path: Path, twin: bytes) -> None:
    info = path.stat()
    other = path.with_name("other.tmp")
    other.write_bytes(twin)
    os.utime(other, ns=(info.st_atime_ns, info.st_mtime_ns))
    os.replace(other, path)


def _swap_in_place(path: Path, twin: bytes) -> None:
    info = path.stat()
    path.write_bytes(twin)
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))


@pytest.mark.parametrize("swap", [_swap_by_rename, _swap_in_place], ids=["renamed-over", "rewritten-in-place"])
def test_a_same_size_file_swapped_before_it_is_read_is_refused(tmp_path, catalog, monkeypatch, swap):
    report = tmp_path / REPORT.name
    shutil.copyfile(REPORT, report)
    twin = _same_size_twin()
    reading = pipeline.bounded_read.read_bounded

    def swapped_first(path, module):
        swap(path, twin)  # between the hash and the read: same size, same modification time
        return reading(path, module)

    monkeypatch.setattr(pipeline.bounded_read, "read_bounded", swapped_first)
    (outcome,) = pipeline.ingest_paths(catalog.engine, [report])
    assert outcome.status == "failed" and "changed while it was being read" in outcome.message, outcome
    assert _stored(catalog.engine) == []
    monkeypatch.undo()
    (again,) = pipeline.ingest_paths(catalog.engine, [report])  # the file as it is now loads, under its own hash
    assert again.status == "loaded" and _stored(catalog.engine) == [(REPORT.name, pipeline.sha256_of(report))]


def test_a_link_pointed_out_of_the_folder_during_the_batch_is_not_read(tmp_path, catalog):
    folder = tmp_path / "results"
    folder.mkdir()
    shutil.copyfile(REPORT, folder / "a.html")
    shutil.copyfile(next(OUTSIDE.glob("Performance_*.html")), folder / ".kept.html")  # hidden: read through the link
    (folder / "z.html").symlink_to(folder / ".kept.html")
    secret = tmp_path / "elsewhere" / "secret.html"
    secret.parent.mkdir()
    shutil.copyfile(REPORT.with_name("Performance_2011_5_31_14_17_59.html"), secret)

    def repoint(outcome):
        if outcome.path.endswith("a.html"):  # the walk has listed the folder; the link's turn is next
            (folder / "z.html").unlink()
            (folder / "z.html").symlink_to(secret)

    outcomes = {Path(o.path).name: o for o in pipeline.ingest_paths(catalog.engine, [folder], on_outcome=repoint)}
    assert outcomes["a.html"].status == "loaded"
    assert outcomes["z.html"].status == "failed" and "\n" not in outcomes["z.html"].message
    assert "z.html" in outcomes["z.html"].message
    assert [name for name, _ in _stored(catalog.engine)] == ["a.html"]
    assert pipeline.sha256_of(secret) not in [sha for _, sha in _stored(catalog.engine)]


# --- a perfmon export, streamed into COPY inside the transaction -------------------------------------------------
PERFMON = {"csv": FIXTURES / "perfmon" / "seed000-hp-eva4400.csv",
           "blg": FIXTURES / "perfmon" / "real" / "CounterSamples.blg"}


def _perfmon_twin(data: bytes, kind: str) -> bytes:
    """The export with one byte changed, as long: a CSV's last sample digit, a BLG's last byte (read, no figure)."""
    at = len(data) - 1 if kind == "blg" else max(i for i in range(len(data)) if data[i:i + 1].isdigit())
    twin = data[:at] + bytes([data[at] ^ 1]) + data[at + 1:]
    assert twin != data and len(twin) == len(data)
    return twin


@pytest.mark.parametrize("blind_to_ctime", [False, True], ids=["ctime-seen", "ctime-unseen"])
@pytest.mark.parametrize("kind", ["csv", "blg"])
def test_a_perfmon_export_rewritten_while_it_streams_is_refused(tmp_path, catalog, monkeypatch, kind, blind_to_ctime):
    """Rewritten in place, same size, its time set back, after the hash and while its rows stream: the bytes
    streamed are hashed (ingest/load/hashed_stream.py) and are not the bytes the file was to be stored under. With the
    change time unseen (a file system that does not keep it), the hash alone refuses it."""
    export = tmp_path / PERFMON[kind].name
    shutil.copyfile(PERFMON[kind], export)
    twin = _perfmon_twin(export.read_bytes(), kind)
    module = pipeline.registry.detect(export.name, export.read_bytes()[:4096])
    opening = module.open_perfmon

    def swapped_while_streaming(name, stream, **options):
        _swap_in_place(export, twin)  # the file is open: what streams from here is the twin's
        return opening(name, stream, **options)

    monkeypatch.setattr(module, "open_perfmon", swapped_while_streaming)
    if blind_to_ctime:
        monkeypatch.setattr(pipeline, "_changed", lambda path, identity: False)
    (outcome,) = pipeline.ingest_paths(catalog.engine, [export])
    assert outcome.status == "failed" and "changed while it was being read" in outcome.message, outcome
    assert outcome.message.startswith(str(export)) and "\n" not in outcome.message
    assert _stored(catalog.engine) == []
    with catalog.engine.connect() as conn:
        assert conn.execute(text("select count(*) from perf_samples")).scalar() == 0
    monkeypatch.undo()
    (again,) = pipeline.ingest_paths(catalog.engine, [export])  # the twin as it is now loads, under its own hash
    assert again.status == "loaded", again.message
    assert _stored(catalog.engine) == [(export.name, pipeline.sha256_of(export))]


@pytest.mark.parametrize("kind", ["csv", "blg"])
def test_a_perfmon_export_streams_under_the_hash_of_its_bytes(tmp_path, catalog, kind):
    export = tmp_path / PERFMON[kind].name
    shutil.copyfile(PERFMON[kind], export)
    (outcome,) = pipeline.ingest_paths(catalog.engine, [export])
    assert outcome.status == "loaded", outcome.message
    assert _stored(catalog.engine) == [(export.name, hashlib.sha256(PERFMON[kind].read_bytes()).hexdigest())]
