"""The benchmarks cannot rot unseen: each imports and parses its options, the `--phases` timers of
bench_html_ingest.py find every step they time (and an ingest reaches each), and the HTML benchmark runs
whole at its smallest size. The timings themselves are the benchmarks' business, not the tests'."""

from __future__ import annotations

import importlib.util
import inspect
import sys

import pytest

from esrpdb.ingest.pipeline import ingest_paths
from tests.helpers import FIXTURES, REPO_ROOT

BENCHMARKS = REPO_ROOT / "benchmarks"


def _load(path, monkeypatch):
    monkeypatch.syspath_prepend(str(BENCHMARKS))  # a benchmark imports its helpers beside it (ingest_phases)
    spec = importlib.util.spec_from_file_location(f"_bench_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("path", sorted(BENCHMARKS.glob("*.py")), ids=lambda p: p.name)
def test_every_benchmark_imports_and_reads_its_options(path, monkeypatch, capsys):
    module = _load(path, monkeypatch)
    if not path.name.startswith("bench_"):
        return  # a helper of the benchmarks (ingest_phases, scale_catalog, archive_folder): importing it is its test
    assert callable(getattr(module, "main", None)), f"{path.name} has no main()"
    monkeypatch.setattr(sys, "argv", [str(path), "--help"])
    with pytest.raises(SystemExit) as stopped:
        module.main(["--help"]) if inspect.signature(module.main).parameters else module.main()
    assert stopped.value.code == 0
    assert "usage:" in capsys.readouterr().out


def test_the_phases_time_steps_that_exist_and_an_ingest_reaches_each(catalog, monkeypatch, capsys):
    phases = _load(BENCHMARKS / "ingest_phases.py", monkeypatch)
    for owner, name, label in phases.STEPS:
        assert callable(getattr(owner, name, None)), f"{label}: {owner.__name__}.{name} no longer exists"
    report = sorted((FIXTURES / "jetstress_html").rglob("*.html"))[0]
    with phases.timed_steps() as spent:
        outcomes = ingest_paths(catalog.engine, [report])
    assert [o.status for o in outcomes] == ["loaded"]
    assert [label for _, _, label in phases.STEPS if not spent[label]] == []
    phases.print_steps(spent, 1, sum(spent.values()))
    assert "where a report's time goes" in capsys.readouterr().out
    for owner, name, _ in phases.STEPS:  # put back as found
        assert not getattr(getattr(owner, name), "__name__", "") == "timed"


@pytest.mark.slow
def test_the_html_benchmark_runs_at_its_smallest(monkeypatch, capsys):
    """bench_html_ingest.py --repeats 1 --phases, whole: its own embedded server, every line printed."""
    bench = _load(BENCHMARKS / "bench_html_ingest.py", monkeypatch)
    bench.main(["--repeats", "1", "--phases"])
    out = capsys.readouterr().out
    assert "ratio ingest / bare lxml" in out and "where a report's time goes" in out


def test_the_timeline_marks_functions_that_exist(monkeypatch):
    """bench_timeline.py wraps functions by name: one renamed would leave its milestone out, unseen."""
    import importlib

    timeline = _load(BENCHMARKS / "bench_timeline.py", monkeypatch)
    for module, function, label in timeline.MARKS:
        if function is not None:
            assert callable(getattr(importlib.import_module(module), function, None)), (module, function, label)

