"""The synthetic three-hosts whitepaper and its manifest pieces, shared by the host-test modules.

The document prints six Jetstress 2013 reports (three hosts at baseline, the same three during a drive
rebuild); HEAD + TESTS is a manifest grouping each three into one test (see fixtures/README.md).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from esrpdb.ingest.pipeline import ingest_paths
from tests.helpers import FIXTURES, sql_rows

DOCUMENT = FIXTURES / "host_tests" / "synthetic-three-hosts.txt"

HEAD = """schema = 1

[solution]
key = "huawei-5300-v3"
vendor = "Huawei"
model = "OceanStor 5300 V3"

[[disks]]
count = 72
media = "HDD"
role = "active"

[[disks]]
count = 3
media = "HDD"
role = "hot_spare"
"""
TESTS = """
[[runs]]
label = "Baseline"
document = "synthetic-three-hosts.txt"
hosts = [0, 1, 2]
description = "All drives healthy"

[[runs]]
label = "Drive failure"
document = "synthetic-three-hosts.txt"
hosts = [3, 4, 5]
scenario = "Drive failure"
"""
CLAIM = """
[[claims]]
metric = "total_iops"
value = "1,887"
unit = "IOPS"
subject = "run"
run = "Baseline"
document = "synthetic-three-hosts.txt"
location = "Jetstress reports"
"""


def load(engine, folder: Path, toml: str, document: str | None = None, name: str = "huawei.toml"):
    """Write the manifest (and the document beside it) into `folder` and ingest the manifest."""
    target = folder / DOCUMENT.name
    if document is None:
        shutil.copy(DOCUMENT, target)
    else:
        target.write_text(document, encoding="utf-8")
    (folder / name).write_text(toml, encoding="utf-8")
    (outcome,) = ingest_paths(engine, [folder / name])
    return outcome


def one(engine, sql: str, **params):
    """The one row a query returns, or its one value when it has one column."""
    (row,) = sql_rows(engine, sql, **params)
    return row if len(row) > 1 else row[0]
