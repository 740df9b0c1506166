"""Issue 49: `site --force` deletes the files the last build wrote and this one does not, as the list it
left in OUT says; a list planted there (a shared folder, an unpacked archive) named the user's own files
and the build deleted them. A listed file is now deleted only when its path is one a build writes and
its bytes are still the ones the build wrote, by a list signed with the user's own key (kept outside OUT)."""

from __future__ import annotations

import hashlib
from pathlib import PurePosixPath

import pytest

from esrpdb.site.build import build_site
from esrpdb.site.out_folder import MANIFEST, write_list, written_before

pytestmark = pytest.mark.db


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_a_planted_file_list_deletes_none_of_the_users_files(catalog, tmp_path):
    out = tmp_path / "site"
    out.mkdir()
    mine = {"notes.txt": b"my notes", "report.docx": b"PK my report", "static/my-theme.css": b"body { color: teal }",
            "solutions/mine.html": b"<p>my own page</p>", "charts/mine.svg": b"<svg/>"}
    for name, data in mine.items():
        (out / name).parent.mkdir(exist_ok=True)
        (out / name).write_bytes(data)
    planted = [*mine, *(f"{_sha(data)}  {name}" for name, data in mine.items()),  # bare paths, and with their hashes
               f"{'0' * 64}  solutions/mine.html"]
    (out / MANIFEST).write_text("\n".join(planted) + "\n")
    build_site(catalog.reader(), out, force=True)
    assert {name: (out / name).read_bytes() for name in mine} == mine
    assert (out / "index.html").is_file()


def test_a_page_the_last_build_wrote_goes_and_an_edited_one_stays(catalog, tmp_path):
    out = tmp_path / "site"
    build_site(catalog.reader(), out)
    listed = written_before(out)
    assert PurePosixPath("index.html") in listed
    (out / "solutions").mkdir(exist_ok=True)
    (out / "solutions" / "gone.html").write_bytes(b"<p>a solution since deleted</p>")
    (out / "solutions" / "edited.html").write_bytes(b"<p>as the build wrote it, then edited</p>")
    write_list(out, {**listed, PurePosixPath("solutions/gone.html"): _sha(b"<p>a solution since deleted</p>"),
                     PurePosixPath("solutions/edited.html"): _sha(b"<p>as the build wrote it</p>")})
    build_site(catalog.reader(), out, force=True)
    assert not (out / "solutions" / "gone.html").exists()
    assert (out / "solutions" / "edited.html").read_bytes() == b"<p>as the build wrote it, then edited</p>"
    lines = (out / MANIFEST).read_text().splitlines()
    assert f"{_sha((out / 'index.html').read_bytes())}  index.html" in lines
