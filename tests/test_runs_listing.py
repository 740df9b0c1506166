"""`esrpdb runs` says what each run holds: a run known only from a document's table shows the IOPS that
table prints (the canned `run_iops` view's figures) and where they come from, and a run under an
abnormal condition names it."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from esrpdb.cli.main import app

runner = CliRunner()


def invoke(url: str, *args: str):
    return runner.invoke(app, ["--database-url", url, *args])


def _runs(url: str) -> list[dict]:
    result = invoke(url, "runs", "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_table_runs_show_their_figures_and_source(seed_catalog_url):
    runs = _runs(seed_catalog_url)
    summary = {r["run_id"]: r for r in json.loads(invoke(seed_catalog_url, "sql", "select run_id, achieved_iops, "
                                                         "total_iops from run_iops", "--format", "json").stdout)}
    table_runs = [r for r in runs if r["iops_from"] == "document_table"]
    assert len(table_runs) >= 10  # the seeds print most of their runs in tables only
    for run in runs:
        figures = summary.get(run["run_id"])
        if figures and figures["total_iops"] is not None:
            assert run["total_iops"] == round(figures["total_iops"], 3), run
        if figures and figures["achieved_iops"] is not None:
            assert run["achieved_iops"] == round(figures["achieved_iops"], 3), run
    assert all(r["achieved_iops"] is not None or r["total_iops"] is not None for r in table_runs)


def test_scenario_runs_are_labelled(seed_catalog_url):
    scenarios = {r["scenario"] for r in _runs(seed_catalog_url) if r["scenario"]}
    assert any("degraded" in s.lower() for s in scenarios) and any("rebuild" in s.lower() for s in scenarios), scenarios
