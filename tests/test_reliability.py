"""Reliability: hostile files mixed with good ones, concurrent ingests, a killed ingest.

Every case compares the catalogue's row counts with a clean load of the good files alone:
a hostile file must fail as its own row and leave nothing, and the good ones must load.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest

from tests.helpers import FIXTURES, row_counts, scratch_database

HTML = FIXTURES / "jetstress_html"
GOOD = [
    HTML / "seed000-dell-equallogic" / "Performance_2008_9_18_12_48_31.html",
    HTML / "seed001-md1220" / "Performance_2011_5_31_14_17_59.html",
    FIXTURES / "perfmon" / "typeperf-sample.csv",
    FIXTURES / "power" / "seed002-x25e-ssd.csv",
    FIXTURES / "documents" / "002_2e1b37b2175e5892.txt",
]
REPORT_HEAD = GOOD[0].read_bytes()[:4096]


def _cli(url: str, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "ESRPDB_READER_URL"}
    return subprocess.run([sys.executable, "-m", "esrpdb.cli.main", "--database-url", url, *args],
                          env=env, capture_output=True, text=True, timeout=timeout)


@pytest.fixture
def clean_counts(pg_server, template_url) -> dict[str, int]:
    with scratch_database(pg_server, "clean", "esrpdb_template") as url:
        done = _cli(url, "ingest", *map(str, GOOD))
        assert done.returncode == 0, done.stdout + done.stderr
        return row_counts(url)


def _hostile_files(folder: Path) -> dict[str, Path]:
    """One file per way a file can be wrong; each named as the format it pretends to be."""
    files: dict[str, Path] = {}

    def write(name: str, data: bytes) -> Path:
        path = folder / name
        path.write_bytes(data)
        files[name] = path
        return path

    write("empty.html", b"")
    write("truncated.html", GOOD[0].read_bytes()[: len(GOOD[0].read_bytes()) // 2])
    write("binary.html", bytes(range(256)) * 64)
    report_text = GOOD[0].read_text(encoding="utf-8")
    write("Performance_utf16_cut.html", report_text[: len(report_text) // 3].encode("utf-16"))
    write("latin1-document.txt", "Microsoft Exchange Jetstress r\xe9sum\xe9 - no report here\n".encode("latin-1") * 50)
    write("bomb.xml", b'<?xml version="1.0"?><!DOCTYPE b [<!ENTITY a "aaaaaaaaaa">'
                      b'<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><configuration>&b;</configuration>')
    write("JetstressConfig.xml", b'<?xml version="1.0"?><!DOCTYPE c [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
                                 b"<configuration><TestDesignInfo>&x;</TestDesignInfo></configuration>")
    long_line = write("one-line.log", b"")
    with long_line.open("wb") as stream:  # 100 MB on one line, written in blocks
        stream.write(b"5/28/2011 11:38:30 AM -- ")
        block = b"x" * (1 << 20)
        for _ in range(100):
            stream.write(block)
    write("ragged.csv", b'"(PDH-CSV 4.0) (UTC)(0)","\\\\host\\Processor(_Total)\\% Processor Time"\n'
                        b'"01/01/2020 00:00:00.000","1","2"\n')
    write("nan.csv", b'"(PDH-CSV 4.0) (UTC)(0)","\\\\host\\Processor(_Total)\\% Processor Time"\n'
                     b'"01/01/2020 00:00:00.000","nan"\n')
    write("negative-power.csv", b"timestamp,watts\n2008-10-21T16:05:25,-5\n")
    write("inf-power.csv", b"timestamp,watts\n2008-10-21T16:05:25,inf\n")
    write("corrupt.pdf", b"%PDF-1.4\n1 0 obj << /Type /Catalog >>\nthis is not a pdf body\n%%EOF")
    catalog = folder / "catalog"
    catalog.mkdir()
    manifest = (FIXTURES / "catalog" / "dell-powervault-md1220.toml").read_text(encoding="utf-8")
    first_report = manifest.split('report = "', 1)[1].split('"', 1)[0]
    (catalog / "traversal.toml").write_text(manifest.replace(first_report, "../../../../../../etc/passwd"))
    files["traversal.toml"] = catalog / "traversal.toml"
    (catalog / "nul-path.toml").write_text(manifest.replace(first_report, "report\\u0000.html"))
    files["nul-path.toml"] = catalog / "nul-path.toml"
    # 10 KB nested 1,500 deep: past Python's recursion limit in any recursive reader
    write("XmlConfig_deep.xml", b'<?xml version="1.0"?><configuration>' + b"<a>" * 1500 + b"</a>" * 1500
          + b"</configuration>")
    write("deep-document.md", b"# Jetstress\n" + b"> " * 1500 + b"Test Result Report\n")
    loop = folder / "loop.html"
    loop.symlink_to(loop)
    files["loop.html"] = loop
    fifo = folder / "fifo.html"
    os.mkfifo(fifo)
    files["fifo.html"] = fifo
    files["device"] = Path("/dev/zero")
    return files


def test_hostile_files_fail_one_row_each_and_good_files_load_as_alone(fresh_database_url, clean_counts, tmp_path):
    hostile = _hostile_files(tmp_path)
    batch = [str(p) for p in GOOD[:2]] + [str(p) for p in hostile.values()] + [str(p) for p in GOOD[2:]]
    done = _cli(fresh_database_url, "ingest", *batch, "--format", "json")
    assert done.returncode == 1, done.stderr
    rows = json.loads(done.stdout)
    by_file = {row["file"]: row for row in rows}
    for name, path in hostile.items():
        row = by_file[str(path)]
        assert row["status"] == "failed", (name, row)
        assert "\n" not in row["message"] and str(path) in row["message"], (name, row["message"])
    assert [by_file[str(p)]["status"] for p in GOOD] == ["loaded"] * len(GOOD)
    assert row_counts(fresh_database_url) == clean_counts


def test_one_gib_files_are_refused_or_streamed_in_bounded_memory(fresh_database_url, tmp_path):
    """A 1 GiB file of each format: refused from stat before reading, or streamed; peak RSS < 300 MB."""
    heads = {
        "Performance_big.html": REPORT_HEAD,
        "JetstressConfig.xml": b'<?xml version="1.0"?><configuration><TestDesignInfo>',
        "Jetstress_big.log": b"5/28/2011 11:38:30 AM -- Jetstress test started\r\n",
        "power-big.csv": b"timestamp,watts\n2008-10-21T16:05:25,100\n",
        "document-big.txt": GOOD[4].read_bytes()[:65536],
        "manifest-big.toml": b'[solution]\nkey = "big"\n',
        "perfmon-big.csv": b'"(PDH-CSV 4.0) (UTC)(0)","\\\\host\\Processor(_Total)\\% Processor Time"\n',
    }
    paths = []
    for name, head in heads.items():
        path = tmp_path / name
        with path.open("wb") as stream:
            stream.write(head)
            stream.truncate(1 << 30)  # sparse: no disk used, every byte after the head is NUL
        paths.append(str(path))
    # VmHWM, not ru_maxrss: Linux carries ru_maxrss over from the forking parent (pytest) through exec.
    probe = ("import sys\nfrom esrpdb.cli.main import app\n"
             "try:\n    app()\nexcept SystemExit:\n    pass\n"
             "hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM:')][0].split()[1]\n"
             "print('maxrss_kib', hwm, file=sys.stderr)\n")
    done = subprocess.run([sys.executable, "-c", probe, "--database-url", fresh_database_url, "ingest", *paths,
                           "--format", "json"], capture_output=True, text=True, timeout=300)
    rows = json.loads(done.stdout)
    assert [row["status"] for row in rows] == ["failed"] * len(paths), rows
    peak_kib = int(done.stderr.rsplit("maxrss_kib", 1)[1].split()[0])
    assert peak_kib < 300 * 1024, f"peak RSS {peak_kib / 1024:.0f} MiB"
    refused_from_stat = [Path(row["file"]).name for row in rows if "refused before reading" in row["message"]]
    assert len(refused_from_stat) == len(paths) - 1, [(r["file"], r["message"]) for r in rows]
    assert row_counts(fresh_database_url)["source_files"] == 0


def _copy_catalogue(tmp_path: Path) -> Path:
    root = tmp_path / "cat"
    shutil.copytree(FIXTURES / "catalog", root / "catalog")
    shutil.copytree(FIXTURES / "documents", root / "documents")
    for sub in ("jetstress_html", "perfmon", "power"):
        shutil.copytree(FIXTURES / sub, root / sub, ignore=shutil.ignore_patterns("*.py", "*.json"))
    return root


@pytest.fixture(scope="module")
def catalogue_counts(pg_server, template_url, tmp_path_factory) -> dict[str, int]:
    root = _copy_catalogue(tmp_path_factory.mktemp("clean-catalogue"))
    with scratch_database(pg_server, "cat", "esrpdb_template") as url:
        done = _cli(url, "ingest", str(root / "catalog"))
        assert done.returncode == 0, done.stdout + done.stderr
        return row_counts(url)


def test_two_concurrent_ingests_of_one_folder_load_it_once(fresh_database_url, catalogue_counts, tmp_path):
    root = _copy_catalogue(tmp_path)
    env = {k: v for k, v in os.environ.items() if k != "ESRPDB_READER_URL"}
    command = [sys.executable, "-m", "esrpdb.cli.main", "--database-url", fresh_database_url,
               "ingest", str(root / "catalog")]
    procs = [subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(2)]
    outputs = [p.communicate(timeout=300) for p in procs]
    if any(p.returncode for p in procs):  # a loser may fail on a file the winner holds; a second pass mends
        again = _cli(fresh_database_url, "ingest", str(root / "catalog"))
        assert again.returncode == 0, again.stdout + again.stderr
    assert row_counts(fresh_database_url) == catalogue_counts, outputs


def test_a_killed_ingest_leaves_whole_files_and_a_second_run_completes(fresh_database_url, catalogue_counts, tmp_path):
    root = _copy_catalogue(tmp_path)
    env = {k: v for k, v in os.environ.items() if k != "ESRPDB_READER_URL"}
    proc = subprocess.Popen([sys.executable, "-m", "esrpdb.cli.main", "--database-url", fresh_database_url,
                             "ingest", str(root / "catalog")], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and row_counts(fresh_database_url)["source_files"] < 3:
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    partial = row_counts(fresh_database_url)
    assert 0 < partial["source_files"] < catalogue_counts["source_files"]
    with psycopg.connect(fresh_database_url.replace("+psycopg", "")) as conn:  # no orphan run without its file
        assert conn.execute("select count(*) from runs r left join source_files s on s.id = r.source_file_id "
                            "where r.source_file_id is not null and s.id is null").fetchone()[0] == 0
    again = _cli(fresh_database_url, "ingest", str(root / "catalog"))
    assert again.returncode == 0, again.stdout + again.stderr
    assert row_counts(fresh_database_url) == catalogue_counts


KEY_TABLES = ("runs", "solutions", "run_sources", "trials", "disks", "claims", "document_tables", "solution_facts",
              "run_published_values", "source_files")


@pytest.mark.parametrize("trial", range(2))
def test_four_concurrent_overlapping_ingests_give_the_sequential_catalogue(fresh_database_url, catalogue_counts,
                                                                          tmp_path, trial):
    """Issue 24 item 7: manifests and the documents they name, four processes at once, in every order."""
    root = _copy_catalogue(tmp_path)
    env = {k: v for k, v in os.environ.items() if k != "ESRPDB_READER_URL"}
    base = [sys.executable, "-m", "esrpdb.cli.main", "--database-url", fresh_database_url, "ingest"]
    batches = [[root / "catalog"], [root / "documents"], [root / "documents", root / "catalog"],
               [root / "catalog", root / "documents"]]
    procs = [subprocess.Popen([*base, *map(str, batch)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for batch in batches]
    outputs = [p.communicate(timeout=300) for p in procs]
    again = _cli(fresh_database_url, "ingest", str(root / "catalog"), str(root / "documents"))  # mends a loser
    assert again.returncode == 0, again.stdout + again.stderr
    counts = row_counts(fresh_database_url)
    expected = dict(catalogue_counts)
    with _scratch_database_like(fresh_database_url) as sequential:
        assert _cli(sequential, "ingest", str(root / "catalog"), str(root / "documents")).returncode == 0
        expected = row_counts(sequential)
    assert {t: counts[t] for t in KEY_TABLES} == {t: expected[t] for t in KEY_TABLES}, outputs


@contextlib.contextmanager
def _scratch_database_like(url: str):
    from tests.helpers import TEMPLATE

    admin = url.replace("+psycopg", "").replace("esrpdb_owner@", "postgres@")
    name = f"seq{os.getpid()}_{time.monotonic_ns()}"
    with psycopg.connect(admin, autocommit=True) as conn:
        from esrpdb.db import roles

        roles.create_database(conn, name, template=TEMPLATE)
    try:
        yield url.replace(url.rsplit("/", 1)[1].split("?")[0], name)
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
