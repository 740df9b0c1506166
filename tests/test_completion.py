"""Issue 47: the shell completes the values a user types most — query names, solution keys, catalogue
names, verdicts, metrics — through the real entry point, as bash asks for them."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from esrpdb.cli.main import app


def _complete(words: str, home=None, **env: str) -> list[str]:
    """What `esrpdb` offers bash for the last word of `words` (click's complete_bash protocol)."""
    environment = {k: v for k, v in os.environ.items()
                   if k not in ("ESRPDB_READER_URL", "ESRPDB_DATABASE_URL", "ESRPDB_CATALOGUE")}
    environment |= {"_ESRPDB_COMPLETE": "complete_bash", "COMP_WORDS": words,
                    "COMP_CWORD": str(len(shlex.split(words)) - (0 if words.endswith(" ") else 1))} | env
    if home is not None:
        environment["ESRPDB_HOME"] = str(home)
    entry = Path(sys.executable).with_name("esrpdb")  # the console script the shell's completion calls
    done = subprocess.run([str(entry)], env=environment,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return done.stdout.split()


def test_query_names_verdicts_and_metrics_complete_without_a_database(tmp_path):
    assert _complete("esrpdb query per", home=tmp_path) == ["per-disk-iops", "perf-per-watt"]
    assert _complete("esrpdb audit --verdict m", home=tmp_path) == ["mismatch", "match"]
    assert "total_iops_per_disk" in _complete("esrpdb compare a b --metric total", home=tmp_path)


def test_solution_keys_complete_from_the_catalogue(seed_catalog_url, tmp_path):
    url = shlex.quote(seed_catalog_url)
    assert _complete(f"esrpdb --database-url {url} compare intel") == ["intel-x25e-3-ssd"]
    assert _complete(f"esrpdb --database-url {url} runs --solution hp") == ["hp-eva4400", "hp-lefthand-p4500"]
    assert _complete(f"esrpdb --database-url {url} audit --solution dell-eql") == ["dell-eql-2x-ps4000xv",
                                                                                     "dell-eql-2x-ps5000xv"]


@pytest.mark.db  # looks at the session's server through ESRPDB_HOME
def test_catalogue_names_complete_and_no_server_is_started(pg_home, pg_server, tmp_path, monkeypatch):
    monkeypatch.setenv("ESRPDB_HOME", str(pg_home))
    for name in ("ESRPDB_DATABASE_URL", "ESRPDB_READER_URL", "ESRPDB_CATALOGUE"):
        monkeypatch.delenv(name, raising=False)
    assert CliRunner().invoke(app, ["--catalogue", "completeme", "init"]).exit_code == 0
    assert _complete("esrpdb --catalogue compl", home=pg_home) == ["completeme"]
    idle = tmp_path / "idle-home"
    assert _complete("esrpdb --catalogue compl", home=idle) == []
    assert _complete("esrpdb compare intel", home=idle) == []
    assert not (idle / "pgdata").exists()  # completing never starts the embedded server
