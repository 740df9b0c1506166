"""pattern_code.py: a pattern made from cached code is the Pattern Python's compiler makes (equal flags
and code: `Pattern.__eq__` compares them), for every pattern the rules use on a real document, and the
cache is read only when trusted. Each case runs in its own interpreter: `install` changes the `re`
module of the process it runs in."""

from __future__ import annotations

import marshal
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import DOCUMENTS as SEED_TEXT

# Every pattern compiled while a fixture document is parsed and drafted (the rules' own), plus patterns
# of every kind the code differs by: named groups, flags inline and passed, bytes, lookarounds, a
# conditional, Unicode classes. Printed: each pattern's (pattern, flags, groups, groupindex, code as
# the Pattern's own equality sees it, and what it finds in a probe text).
COLLECT = """
import re, sys
from re import _compiler
seen = []
_inner = _compiler.compile
def watching(pattern, flags=0):
    made = _inner(pattern, flags)
    seen.append((pattern, flags, made))
    return made
_compiler.compile = watching
from pathlib import Path
import esrpdb.ingest.formats.document as document
from esrpdb.ingest.draft import draft_document
path = sorted(Path(sys.argv[1]).glob("*.txt"))[0]
draft_document(document.parse(str(path), path.read_bytes()))
for extra, flags in [(r"(?P<disk>\\d+)\\s*(?:GB|TB)\\b", 0), (r"(?i)^ms\\b(?=\\s)", re.M), (rb"\\x00+(?!\\x01)", 0),
                     (r"(a)?(?(1)b|c)", 0), (r"[^\\W\\d_]+", re.U), (r"x # comment", re.X)]:
    re.compile(extra, flags)
probe_text = "Achieved IOPS 1,234.5 ms\\tRead latency 4 GB; abc"
out = []
for pattern, flags, made in seen:
    probe = probe_text.encode() if isinstance(pattern, bytes) else probe_text
    out.append((pattern, flags, made.flags, made.groups, sorted(made.groupindex.items()),
                [m.span() for m in made.finditer(probe)]))
print(len(seen))
print(repr(out))
print(repr([made for _, _, made in seen]))
"""

INSTALLED = "from esrpdb import pattern_code\npattern_code.install()\n"


def _run(code: str, cache: os.PathLike, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ESRPDB_")}
    env["XDG_CACHE_HOME"] = str(cache)
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, check=True,
                          env=env).stdout


def _cache_file(cache: Path) -> Path:
    (path,) = cache.rglob("pattern-code-*.marshal")
    return path


EQUAL_TO_PLAIN = """
import pickle, re, sys
from esrpdb import pattern_code
plain = {}
for (pattern, flags) in pattern_code._kept.entries:
    re.purge()
    made = re.compile(pattern, flags)
    plain[(pattern, flags)] = made
pattern_code.install()
different = [key for key, made in plain.items()
             if (re.purge() or re.compile(key[0], key[1])) != made]
print(len(plain), len(different))
"""


def test_patterns_from_the_cache_are_the_patterns_python_compiles(tmp_path):
    plain = _run(COLLECT, tmp_path / "none", str(SEED_TEXT))
    compiled = _run(INSTALLED + COLLECT, tmp_path, str(SEED_TEXT))  # first run: compiled, then kept at exit
    entries = marshal.loads(_cache_file(tmp_path).read_bytes())
    assert len(entries) >= 300  # the rules' patterns are there
    cached = _run(INSTALLED + "from esrpdb import pattern_code as p\n" + COLLECT
                  + "print(len(p._kept.entries), len(p._kept.added))", tmp_path, str(SEED_TEXT))
    assert plain.splitlines()[:2] == compiled.splitlines()[:2] == cached.splitlines()[:2]
    held, compiled_again = map(int, cached.splitlines()[3].split())
    assert held >= len(entries) and compiled_again == 0
    # Each cached entry, made by the engine, equals the Pattern Python's own compiler makes (flags and code).
    loaded_plain = _run("from esrpdb import pattern_code\npattern_code._kept.load()\n" + EQUAL_TO_PLAIN, tmp_path)
    total, different = map(int, loaded_plain.split())
    assert total == len(entries) and different == 0


def _poisoned(tmp_path, mode: int) -> str:
    """A cache whose every entry's code matches nothing (a pattern that fails at once): read, `\\d+` no longer finds "7"."""
    _run(INSTALLED + r"import re; re.compile(r'\d+')", tmp_path)
    path = _cache_file(tmp_path)
    entries = marshal.loads(path.read_bytes())
    import re

    never = list(map(int, re._compiler._code(re._parser.parse("(?!)"), 0)))  # type: ignore[attr-defined]
    path.write_bytes(marshal.dumps({key: (parts[0], never, *parts[2:]) for key, parts in entries.items()}))
    path.chmod(mode)
    return _run(INSTALLED + r"import re; print(re.findall(r'\d+', 'a 7'))", tmp_path).strip()


def test_a_cache_someone_else_may_write_is_not_read(tmp_path):
    if not hasattr(os, "getuid"):
        pytest.skip("POSIX owners and modes")
    assert _poisoned(tmp_path / "private", 0o600) == "[]"  # the same file, private: read (the test can fail)
    assert _poisoned(tmp_path / "shared", 0o666) == "['7']"


@pytest.mark.parametrize("content", [b"", b"\x00garbage", marshal.dumps(["not", "a", "dict"]),
                                     marshal.dumps({("a", 0): "not parts"}),
                                     marshal.dumps({("a", 0): (0, [1, 2, 3], 0, {}, ())})])  # code the engine refuses
def test_a_torn_or_foreign_cache_is_compiled_again_and_replaced(tmp_path, content):
    _run(INSTALLED + "import re; re.compile('a')", tmp_path)
    path = _cache_file(tmp_path)
    path.write_bytes(content)
    assert _run(INSTALLED + "import re; print(re.findall('a', 'banana'))", tmp_path).strip() == "['a', 'a', 'a']"
    assert isinstance(marshal.loads(path.read_bytes()), dict)


def test_unusual_patterns_go_to_pythons_own_compiler(tmp_path):
    """DEBUG prints the code as Python's compiler does; a str subclass (which marshal cannot write) is
    compiled as it always is; nothing of either is kept, and what else the command compiled is saved."""
    out = _run(INSTALLED + "import re; re.compile('ab', re.DEBUG)\nclass Text(str): pass\n"
               "print(re.findall(Text('a+'), 'caab'))\nre.compile('kept_beside_them')\n"
               "from esrpdb import pattern_code as p\nprint(sorted(k[0] for k in p._kept.added))", tmp_path)
    assert "LITERAL 97" in out and out.splitlines()[-2:] == ["['aa']", "['kept_beside_them']"]
    assert ("kept_beside_them", 0) in marshal.loads(_cache_file(tmp_path).read_bytes())


def test_a_forked_reader_keeps_what_it_compiled(tmp_path):
    """A reading child ends with os._exit (no exit handler): it saves once its result is sent."""
    code = INSTALLED + (
        "from esrpdb.ingest.parallel import forked\n"
        "def make():\n"
        "    import re\n"
        "    return re.findall(r'only_in_the_child_(\\d+)', 'only_in_the_child_46')\n"
        "child = forked.start(make)\n"
        "assert forked.finished(child, 30)\n"
        "print(forked.result(child))\n"
        "import os; os._exit(0)\n")  # the parent saves nothing itself
    assert _run(code, tmp_path).strip() == "['46']"
    assert any(isinstance(key[0], str) and "only_in_the_child_" in key[0] for key in marshal.loads(_cache_file(tmp_path).read_bytes()))
