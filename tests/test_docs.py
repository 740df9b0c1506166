"""The README and the CLI agree: every command is documented and has help text."""

from __future__ import annotations

import re

from typer.main import get_command

from esrpdb.cli.main import app
from esrpdb.queries import canned
from tests.conftest import REPO_ROOT

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


def test_every_canned_query_is_in_the_readme_and_titled():
    for query in canned.all_queries().values():
        assert f"`{query.name}`" in README, query.name
        assert query.title and query.description, query.name


def test_readme_gives_exactly_two_quick_start_commands():
    quick_start = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```bash\n(.*?)```", quick_start, re.S)
    assert [b.strip() for b in blocks] == ["pip install -e '.[dev]' && esrpdb demo", "pytest"]
