"""Help as a person reads it: commands grouped in the order they are used, plain metavars
(`esrpdb compare A B`, `--solution KEY`, `--format table|csv|json`), not typer's `{a}` and `<str>`."""

from __future__ import annotations

from typing import Any

from typer.core import TyperArgument, TyperCommand, TyperGroup  # typer carries its own click

GROUPS: dict[str, tuple[str, ...]] = {
    "Ingest and catalogue": ("demo", "init", "ingest", "draft", "parse", "assign", "delete"),
    "Queries": ("solutions", "runs", "query", "compare", "audit", "sql", "schema"),
    "Site and charts": ("site", "plot"),
    "Server": ("db",),
}

# Option values by what they name; any other option is named by its type (N, NUMBER, PATH, TEXT).
OPTION_METAVARS = {"solution": "KEY", "param": "COLUMN=VALUE", "metric": "METRIC", "verdict": "VERDICT"}


def _option_metavar(param: Any) -> str:
    if param.name in OPTION_METAVARS:
        return OPTION_METAVARS[param.name]
    choices = getattr(param.type, "choices", None)
    if choices:
        return "|".join(str(getattr(c, "value", c)) for c in choices)
    kind = param.type.name.split()[0]  # "integer range" is an integer too
    return {"integer": "N", "int": "N", "float": "NUMBER", "path": "PATH"}.get(kind, "TEXT")


class PlainCommand(TyperCommand):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for param in self.params:
            if not isinstance(param, TyperArgument) and param.metavar is None and not getattr(param, "is_flag", False):
                param.metavar = _option_metavar(param)

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.params:
            if isinstance(param, TyperArgument):
                name = (param.metavar or param.name or "").upper() + ("…" if param.nargs == -1 else "")
                pieces.append(name if param.required else f"[{name}]")
        return pieces


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


def plain_help(app: Any) -> None:
    """Every command of `app` (and of its sub-apps) gets plain metavars; call once commands are registered."""
    for info in app.registered_commands:
        if info.cls in (None, TyperCommand):
            info.cls = PlainCommand
    for group in app.registered_groups:
        plain_help(group.typer_instance)
