"""The README and the CLI agree: every command is documented and has help text."""

from __future__ import annotations

import re

from typer.main import get_command

from esrpdb.cli.main import app
from esrpdb.queries import canned
from tests.helpers import REPO_ROOT

README = (REPO_ROOT / "README.md").read_text(encoding="utf-8")


def _commands():
    root = get_command(app)
    for name, command in root.commands.items():
        yield name, command
        for sub_name, sub in getattr(command, "commands", {}).items():
            yield f"{name} {sub_name}", sub


def test_every_command_has_help():
    missing = [name for name, command in _commands() if not (command.help or "").strip()]
    assert missing == []


def test_every_command_is_in_the_readme():
    missing = [name for name, _ in _commands() if f"esrpdb {name.split()[0]}" not in README and f"`{name.split()[0]}" not in README]
    assert missing == []


def test_every_canned_query_is_titled_and_every_one_the_readme_names_exists():
    """`query --list` lists the views from their files (queries/canned.py), so a new canned query needs
    no line in the README; what the README's list of queries names must be a view."""
    queries = canned.all_queries()
    for query in queries.values():
        assert query.title and query.description, query.name
    listed = README.split("Queries (the main ones", 1)[1].split("\n- ", 1)[0]
    named = set(re.findall(r"`([a-z]+(?:-[a-z]+)+)`", listed))
    assert len(named) >= 15 and named - set(queries) == set()


def test_readme_gives_exactly_two_quick_start_commands():
    quick_start = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```bash\n(.*?)```", quick_start, re.S)
    assert [b.strip() for b in blocks] == ["pip install -e '.[dev]' && esrpdb demo", "pytest"]


def _readme_examples() -> list[str]:
    """Every `esrpdb …` line of the README's bash blocks after the Quick start, comments dropped."""
    body = README.split("## Using it", 1)[1]
    lines = []
    for block in re.findall(r"```bash\n(.*?)```", body, re.S):
        for line in block.splitlines():
            if line.startswith(("esrpdb ", "psql ")):
                lines.append(line)
    return lines


def test_every_readme_example_runs_as_written(fresh_database_url, tmp_path, monkeypatch):
    import os
    import shlex

    from typer.testing import CliRunner

    work = tmp_path / "work"  # what the examples write (site, charts) lands here, not in the repository
    work.mkdir()
    (work / "fixtures").symlink_to(REPO_ROOT / "fixtures")
    monkeypatch.chdir(work)
    monkeypatch.setenv("ESRPDB_HOME", str(tmp_path / "home"))  # `db status` looks here; nothing starts
    examples = _readme_examples()
    assert len(examples) >= 15
    runner = CliRunner()
    for line in examples:
        if line.startswith("psql "):  # a real psql, in a shell, with the URL esrpdb prints (issue 47)
            _run_in_a_shell(line, fresh_database_url)
            continue
        words = shlex.split(line, comments=True)[1:]
        if words[:1] == ["demo"]:
            continue  # the Quick start's job; run by CI on the embedded server
        global_options = [] if words[:1] == ["--version"] else ["--database-url", fresh_database_url]
        result = runner.invoke(app, [*global_options, *words])
        assert result.exit_code == 0, (line, result.output)
    assert not (tmp_path / "home").exists() or os.listdir(tmp_path / "home") == []


def _run_in_a_shell(line: str, database_url: str) -> None:
    import os
    import subprocess
    import sys
    from pathlib import Path

    env = {k: v for k, v in os.environ.items() if k not in ("ESRPDB_READER_URL", "ESRPDB_CATALOGUE")}
    env |= {"ESRPDB_DATABASE_URL": database_url, "PATH": f"{Path(sys.executable).parent}:{env.get('PATH', '')}"}
    done = subprocess.run(["bash", "-c", line], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip(), (line, done.stderr)


def test_help_lists_every_command_once_in_its_group():
    from typer.testing import CliRunner

    from esrpdb.cli.help_groups import GROUPS

    shown = CliRunner().invoke(app, ["-h"]).output
    headings = [f"{title}:" for title in GROUPS]
    assert [line for line in shown.splitlines() if line in headings] == headings
    listed = [line.split()[0] for line in shown.split(headings[0], 1)[1].splitlines() if line.startswith("  ")]
    assert sorted(listed) == sorted(get_command(app).commands) and "Other:" not in shown
    for title, names in GROUPS.items():
        section = shown.split(f"{title}:", 1)[1].split("\n\n", 1)[0]
        assert [line.split()[0] for line in section.strip().splitlines()] == list(names)


def test_help_shows_plain_metavars():
    from typer.testing import CliRunner

    runner = CliRunner()
    assert "compare [OPTIONS] A B" in runner.invoke(app, ["compare", "-h"]).output
    assert "ingest [OPTIONS] PATHS…" in runner.invoke(app, ["ingest", "-h"]).output
    query = runner.invoke(app, ["query", "-h"]).output
    assert "[NAME]" in query and "--param COLUMN=VALUE" in query and "--format table|csv|json" in query
    for name, command in _commands():
        shown = runner.invoke(app, [*name.split(), "-h"]).output
        assert not re.search(r"<(str|int|float|path)>|\{[a-z_]+\}| TEXT ", shown), (name, shown)
