"""The recipes docs/architecture.md counts are true: each count is its list's length, every existing canned
view (and a stored format) is where its recipe says, and nothing else keeps a hand list of all the views
or all the formats (which would be one more file to touch). The page also names every module group
(package) and every module of ingest/'s top level, and the canned views' order is derived from their files."""

from __future__ import annotations

import ast
import re

import pytest

from esrpdb.ingest import registry
from esrpdb.migrations import derived_stores
from esrpdb.queries import canned
from esrpdb.schema import comments
from tests.helpers import REPO_ROOT

PAGE = (REPO_ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
_RECIPE = re.compile(r"^### (A new [a-z ]+): (\d+) files\b.*?\n\n(.*?)(?:\n\n(?!\d+\.)|\Z)", re.M | re.S)
_STEP = re.compile(r"^\d+\. `([^`]+)`", re.M)
SKIPPED = ("fixtures", "migrations", ".git", "build")  # migrations: frozen copies, written once


def _recipes() -> dict[str, list[str]]:
    found = {}
    for title, count, body in _RECIPE.findall(PAGE):
        steps = _STEP.findall(body)
        assert len(steps) >= int(count), f"{title}: says {count} files, lists {len(steps)}"
        found[title] = steps
    return found


def _glob(pattern: str, **names: str) -> list:
    for key, value in names.items():
        pattern = pattern.replace(f"<{key}>", value)
    pattern = re.sub(r"<\w+>", "*", pattern.replace("00NN", "00??")).rstrip("/")
    return sorted(REPO_ROOT.glob(pattern))


def test_each_recipe_counts_its_list():
    recipes = _recipes()
    assert set(recipes) == {"A new canned query", "A new stored format", "A new derived store"}
    for title, count, _ in _RECIPE.findall(PAGE):
        if "when" not in PAGE.split(f"### {title}: {count} files", 1)[1].split("\n", 1)[0]:
            assert len(recipes[title]) == int(count), title
    stored = PAGE.split("### A new stored format: ", 1)[1].split("\n", 1)[0]
    assert stored == f"9 files ({len(recipes['A new stored format'])} when its files attach to runs)"


@pytest.mark.parametrize("view", canned.view_order())
def test_every_canned_view_is_where_the_recipe_says(view):
    steps = _recipes()["A new canned query"]
    for step in steps:
        matches = _glob(step, name=view)
        if "<name>" in step or "<what>" not in step and step.endswith(".py"):
            assert matches, f"{view}: no {step}"
    frozen = {path.parent.name for path in _glob("migrations/views_00NN/<name>.sql", name=view)}
    assert all((REPO_ROOT / "migrations" / folder / "README.md").is_file() for folder in frozen)
    revisions = " ".join(p.read_text(encoding="utf-8") for p in _glob("migrations/versions/00NN_<what>.py"))
    assert any(folder in revisions for folder in frozen), f"{view}: no revision runs its frozen copy"
    assert comments.relation_comment(view), f"{view}: no words (VIEWS, or its file's header)"


def test_a_stored_format_is_where_the_recipe_says():
    """power_log, a stored format whose files attach to runs, touches every file of the recipe."""
    words = {"ingest/formats/<name>/__init__.py": "power_log", "fixtures/<name>/": None}
    for step in _recipes()["A new stored format"]:
        matches = _glob(step, name="power")
        assert matches, step
        word = words.get(step, "power")
        if word and not step.endswith("/"):
            assert any(word in m.read_text(encoding="utf-8").lower() for m in matches if m.is_file()), step


@pytest.mark.parametrize("store", [s.table for s in derived_stores.STORES])
def test_every_derived_store_is_where_the_recipe_says(store):
    """Its declaration, its rebuild live and frozen, its tables' models and words, and the revision that
    runs the frozen generated functions (0030 for the five stores it found)."""
    from esrpdb.schema import Base

    declared = next(s for s in derived_stores.STORES if s.table == store)
    steps = _recipes()["A new derived store"]
    assert len(steps) == 7
    rebuild = re.compile(rf"^CREATE (OR REPLACE )?FUNCTION {declared.rebuild.function}\(", re.M)
    live = [p.name for p in _glob("queries/<file>.sql") if rebuild.search(p.read_text(encoding="utf-8"))]
    frozen = [p.name for p in _glob("migrations/<file>_00NN.sql") if rebuild.search(p.read_text(encoding="utf-8"))]
    assert len(live) == 1 and frozen, (live, frozen)
    tables = [store, f"{store}_stale"] if declared.rebuild.when == "commit" else [store]
    assert all(t in Base.metadata.tables and t in comments.TABLES for t in tables)
    generated = _glob("migrations/derived_stores_00NN.sql")
    revisions = " ".join(p.read_text(encoding="utf-8") for p in _glob("migrations/versions/00NN_<what>.py"))
    assert generated and all(p.name in revisions for p in generated if p.name != "derived_stores_0029.sql")


def _hand_lists(names: set[str], least: int) -> list[str]:
    found = []
    for path in sorted(REPO_ROOT.rglob("*.py")):
        relative = path.relative_to(REPO_ROOT)
        if relative.parts[0] in SKIPPED or relative.name == "test_recipes.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.Tuple, ast.List, ast.Set, ast.Dict)):
                items = node.keys if isinstance(node, ast.Dict) else node.elts
                named = {i.value for i in items if isinstance(i, ast.Constant) and i.value in names}
                if len(named) >= least:
                    found.append(f"{relative}:{node.lineno}")
    return found


def test_no_hand_list_of_every_canned_view_beyond_the_recipe():
    views = set(canned.view_order())
    names = views | {view.replace("_", "-") for view in views}
    listed = {place.split(":")[0] for place in _hand_lists(names, len(views) - 2)}
    assert listed == {"schema/comments.py"}  # VIEWS: revision 0020's words, closed (a newer view: its file's)
    assert set(comments.VIEWS) <= set(views)


def test_no_hand_list_of_every_format_beyond_the_registry():
    formats = {module.FORMAT for module in registry.format_modules()}
    assert _hand_lists(formats, len(formats) - 2) == []


def test_the_view_order_is_derived_from_what_each_view_reads(tmp_path):
    titled = "-- title: {0}\n-- description: d\nCREATE OR REPLACE VIEW {0} AS {1};\n"
    (tmp_path / "b_first.sql").write_text(titled.format("b_first", "SELECT * FROM c_base"))
    (tmp_path / "a_last.sql").write_text(titled.format("a_last", "SELECT * FROM b_first -- not zz_figures"))
    (tmp_path / "c_base.sql").write_text(titled.format("c_base", "SELECT 1"))
    (tmp_path / "zz_figures.sql").write_text("-- stored figures: no title\nCREATE FUNCTION f() ...;\n")
    assert canned.view_order(tmp_path) == ("c_base", "b_first", "a_last")
    (tmp_path / "c_base.sql").write_text(titled.format("c_base", "SELECT * FROM a_last"))
    with pytest.raises(ValueError, match="read each other"):
        canned.view_order(tmp_path)


def test_the_live_views_come_after_the_views_they_read():
    order = canned.view_order()
    assert order.index("iops_per_dollar") < order.index("dollars_per_kiops")
    assert order.index("log_replay") < order.index("esrp_tests") and order.index("backup_throughput") < order.index("esrp_tests")
    assert set(order) == {p.stem for p in (REPO_ROOT / "queries").glob("*.sql")} - {
        "run_figures", "run_value_figures", "solution_designs", "mailbox_class_rank_rows", "mailbox_class_ranks_of"}


def test_the_page_names_every_module_group_and_every_top_level_ingest_module():
    tree = PAGE.split("## The packages", 1)[1].split("```")[1]
    packages = sorted(p.parent.relative_to(REPO_ROOT) for p in REPO_ROOT.rglob("__init__.py")
                      if p.parent != REPO_ROOT and p.relative_to(REPO_ROOT).parts[0] not in ("tests", "fixtures", "build")
                      and not p.relative_to(REPO_ROOT).parts[0].startswith("."))  # never CI's .ci-venv
    missing = [str(p) for p in packages if f"{p.name}/" not in tree]
    missing += [f"ingest/{p.name}" for p in sorted((REPO_ROOT / "ingest").glob("*.py"))
                if p.name != "__init__.py" and p.name not in tree]
    assert missing == []
