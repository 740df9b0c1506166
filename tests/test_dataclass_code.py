"""dataclass_code.py: dataclasses' methods run from cached code are the ones Python compiles, and the
cache is read only when trusted. Each case runs in its own interpreter: `install` changes the
dataclasses module of the process it runs in."""

from __future__ import annotations

import marshal
import os
import subprocess
import sys
from pathlib import Path

import pytest

# Classes of every kind the generated methods differ by: defaults and factories, frozen, slots, order,
# keyword-only fields, an InitVar with __post_init__, a return annotation on __init__.
CLASSES = """
import dataclasses, inspect
from dataclasses import InitVar, dataclass, field

@dataclass
class Plain:
    a: int
    b: str = "x"
    c: list = field(default_factory=list)

@dataclass(frozen=True, slots=True, order=True)
class Frozen:
    a: int
    b: float = 1.5

@dataclass(kw_only=True, eq=False)
class Keywords:
    a: int
    seed: InitVar[int] = 3
    doubled: int = 0
    def __post_init__(self, seed):
        self.doubled = 2 * seed

def described(cls):
    methods = {name: getattr(cls, name) for name in ("__init__", "__repr__", "__eq__", "__lt__", "__setattr__",
                                                     "__hash__") if isinstance(getattr(cls, name, None), type(described))}
    return [(cls.__name__, name, str(inspect.signature(fn)), fn.__code__.co_code, fn.__code__.co_consts[:1],
             fn.__defaults__, fn.__kwdefaults__ is not None, sorted(map(str, fn.__annotations__.items())))
            for name, fn in sorted(methods.items())]

behaviour = [repr(Plain(1)), Plain(1) == Plain(1, "x"), Frozen(1) < Frozen(2), hash(Frozen(1)) == hash(Frozen(1)),
             Keywords(a=1).doubled, repr(Keywords(a=2, seed=5))]
try:
    Frozen(1).a = 2
except dataclasses.FrozenInstanceError:
    behaviour.append("frozen")
print(repr([described(c) for c in (Plain, Frozen, Keywords)] + [behaviour]))
"""

INSTALLED = "from esrpdb import dataclass_code\ndataclass_code.install()\n"


def _run(code: str, cache: os.PathLike) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ESRPDB_")}
    env["XDG_CACHE_HOME"] = str(cache)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env).stdout


def _cache_file(cache: Path) -> Path:
    (path,) = cache.rglob("dataclass-code-*.marshal")
    return path


def test_classes_from_the_cache_are_the_classes_python_makes(tmp_path):
    plain = _run(CLASSES, tmp_path / "none")
    compiled = _run(INSTALLED + CLASSES, tmp_path)  # first run: compiled, then kept at exit
    codes = marshal.loads(_cache_file(tmp_path).read_bytes())
    assert any("def __init__" in text for text in codes) and all(isinstance(c, type(compile("", "", "exec")))
                                                                 for c in codes.values())
    cached = _run(INSTALLED + "from esrpdb import dataclass_code as d\n" + CLASSES
                  + "print(len(d._codes), len(d._compiled_here))", tmp_path)  # second run: from the cache alone
    assert plain.strip() == compiled.strip() == cached.splitlines()[0].strip()
    held, compiled_again = map(int, cached.splitlines()[1].split())
    assert held >= len(codes) and compiled_again == 0


def _poisoned(tmp_path, mode: int) -> str:
    """A cache whose every text runs code that defines nothing: read, the class would have no __repr__."""
    _run(INSTALLED + CLASSES, tmp_path)
    path = _cache_file(tmp_path)
    codes = marshal.loads(path.read_bytes())
    path.write_bytes(marshal.dumps({text: compile("pass", "<string>", "exec") for text in codes}))
    path.chmod(mode)
    return _run(INSTALLED + "from esrpdb import dataclass_code as d\nimport dataclasses\n"  # a class: the cache is read
                "@dataclasses.dataclass\nclass Read:\n    a: int\nprint(len(d._codes) - len(d._compiled_here))", tmp_path).strip()


def test_a_cache_someone_else_may_write_is_not_read(tmp_path):
    if not hasattr(os, "getuid"):
        pytest.skip("POSIX owners and modes")
    assert _poisoned(tmp_path / "private", 0o600) != "0"  # the same file, private: read (the test can fail)
    assert _poisoned(tmp_path / "shared", 0o666) == "0"


def test_a_command_that_makes_no_class_reads_no_cache(tmp_path):
    _run(INSTALLED + CLASSES, tmp_path)
    assert _run(INSTALLED + "from esrpdb import dataclass_code as d\nprint(len(d._codes))", tmp_path).strip() == "0"


@pytest.mark.parametrize("content", [b"", b"\x00garbage", marshal.dumps(["not", "a", "dict"]),
                                     marshal.dumps({"text": "not code"})])
def test_a_torn_or_foreign_cache_is_compiled_again_and_replaced(tmp_path, content):
    _run(INSTALLED + CLASSES, tmp_path)
    path = _cache_file(tmp_path)
    path.write_bytes(content)
    plain = _run(CLASSES, tmp_path / "none")
    assert _run(INSTALLED + CLASSES, tmp_path).strip() == plain.strip()
    assert isinstance(marshal.loads(path.read_bytes()), dict)


def test_a_forked_reader_keeps_what_it_compiled(tmp_path):
    """A reading child ends with os._exit (no exit handler): it saves once its result is sent."""
    code = INSTALLED + (
        "from esrpdb.ingest.parallel import forked\n"
        "def make():\n"
        "    import dataclasses\n"
        "    @dataclasses.dataclass\n"
        "    class MadeInTheChild:\n"
        "        only_in_the_child_ms: float = 0.0\n"
        "    return repr(MadeInTheChild())\n"
        "child = forked.start(make)\n"
        "assert forked.finished(child, 30)\n"
        "print(forked.result(child))\n"
        "import os; os._exit(0)\n")  # the parent saves nothing itself
    assert _run(code, tmp_path).strip().endswith("MadeInTheChild(only_in_the_child_ms=0.0)")
    assert any("only_in_the_child_ms" in text for text in marshal.loads(_cache_file(tmp_path).read_bytes()))
