"""`esrpdb --help` lists the commands in groups, in the order a person uses them."""

from __future__ import annotations

from typing import Any

from typer.core import TyperGroup  # typer carries its own click: its Context and HelpFormatter

GROUPS: dict[str, tuple[str, ...]] = {
    "Ingest and catalogue": ("demo", "init", "ingest", "draft", "parse", "assign", "delete"),
    "Queries": ("solutions", "runs", "query", "compare", "audit", "sql"),
    "Site and charts": ("site", "plot"),
    "Server": ("db",),
}


class GroupedCommands(TyperGroup):
    def list_commands(self, ctx: Any) -> list[str]:
        ordered = [name for names in GROUPS.values() for name in names if name in self.commands]
        return ordered + [name for name in self.commands if name not in ordered]

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        longest = max((len(name) for name in self.commands), default=0)
        width = formatter.width - 6 - longest
        grouped = {name for names in GROUPS.values() for name in names}
        sections = list(GROUPS.items()) + [("Other", tuple(n for n in self.commands if n not in grouped))]
        for title, names in sections:
            rows = [(name.ljust(longest), self.commands[name].get_short_help_str(width)) for name in names
                    if name in self.commands and not self.commands[name].hidden]
            if rows:
                with formatter.section(title):
                    formatter.write_dl(rows)
