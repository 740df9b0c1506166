"""`esrpdb draft DOCUMENT [-o PATH]`: solution manifest drafts read from a document, for a person to confirm.

Nothing touches the database. The drafts are written whole or not at all (each to a temporary
file renamed into place), and a document too large is refused before it is read.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Optional

import typer

from .errors import fail, friendly_errors
from .safe_text import echo


def _write_all(files: list[tuple[Path, str]]) -> None:
    """Every file or none: all are written to temporary files first, then renamed."""
    staged: list[tuple[str, Path]] = []
    try:
        for target, text in files:
            handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                stream.write(text)
            staged.append((temporary, target))
        for temporary, target in staged:
            os.replace(temporary, target)
    finally:
        for temporary, _ in staged:
            if os.path.exists(temporary):
                os.unlink(temporary)


def draft(
    ctx: typer.Context,
    path: Path = typer.Argument(..., help="An ESRP submission or whitepaper (.txt, .md or .pdf)."),
    output: Optional[Path] = typer.Option(None, "-o", "--output",
                                          help="A .toml file (one solution) or a folder (one <key>.toml per solution)."),
) -> None:
    """Draft the solution manifests a document describes; every value cites its line."""
    from ..ingest import bounded_read
    from ..ingest.draft import draft_manifests
    from ..ingest.errors import ParseError
    from ..ingest.formats import document as document_format

    with friendly_errors(ctx, ParseError, OSError):
        info = bounded_read.regular_file(path)
        bounded_read.check_size(path, info.st_size, document_format)
        data = bounded_read.read_bounded(path, document_format)
        folder = output if output is not None and (output.is_dir() or output.suffix != ".toml") else (
            output.parent if output is not None else Path.cwd())
        document = Path(os.path.relpath(path.resolve(), folder.resolve())).as_posix()
        drafts = draft_manifests(str(path), data, document)
        if output is None:
            for key, text in drafts:
                echo(f"# ---- {key}.toml ----\n{text}")
            return
        if output.suffix == ".toml" and not output.is_dir():
            if len(drafts) > 1:
                fail(f"{path}: the document tests {len(drafts)} solutions ({', '.join(k for k, _ in drafts)}); "
                     "give a folder to -o")
            files = [(output, drafts[0][1])]
        else:
            output.mkdir(parents=True, exist_ok=True)
            files = [(output / f"{key}.toml", text) for key, text in drafts]
        _write_all(files)
        for target, _ in files:
            echo(f"wrote {target}")


def register(app: typer.Typer) -> None:
    app.command("draft")(draft)
