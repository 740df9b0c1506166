"""The pair the compare page opens on is chosen by a rule (site/compare_view.default_pair), on
figures made up here (no database): like tests only, both with the headline figure, the most
figures in common, a pair a document compares first; renaming every solution changes nothing."""

from __future__ import annotations

from esrpdb.queries.compare_figures import SolutionFigures
from esrpdb.site.compare_view import HEADLINE, default_pair
from esrpdb.site.data import Catalogue

ALIKE = {"jetstress_release": "2010", "report_type": "Performance", "iops_per_mailbox": 0.5, "duration_h": 2.0}
FIGURES = [HEADLINE, ("total_iops", None), ("achieved_iops", None), ("log_iops", None), ("mb_per_dollar", None),
           ("perf_per_watt", None), ("iops_per_dollar", None)]


def _solution(key: str, figures: int, mailbox_class: str = "small", **test) -> tuple[dict, SolutionFigures]:
    values = {figure: 10.0 + i for i, figure in enumerate(FIGURES[:figures])}
    return ({"key": key, "name": f"System {key}", "page": key, "mailbox_class": mailbox_class},
            SolutionFigures(key, run_id=1, values=values, test={**ALIKE, **test}))


def _catalogue(*solutions, claimed=()) -> tuple[Catalogue, dict[str, SolutionFigures]]:
    rows = sorted((row for row, _ in solutions), key=lambda r: r["key"])
    return Catalogue(solutions=rows, claimed_pairs=list(claimed)), {f.key: f for _, f in solutions}


def test_only_like_tests_and_the_most_figures_in_common():
    cat, figures = _catalogue(
        _solution("a", 7), _solution("b", 7, jetstress_release="2007"),  # most figures, unlike releases
        _solution("c", 7, duration_h=24.0),  # a Stress-length run: compare notes the duration
        _solution("d", 7, mailbox_class="large"),  # another mailbox class
        _solution("e", 7, scenario="a drive failed"),
        _solution("f", 5), _solution("g", 4), _solution("h", 7, jetstress_release=None))
    assert default_pair(cat, figures) == ("a", "f")  # "a" with the most figures in common among its likes


def test_the_headline_figure_is_required_and_unknown_tests_never_match():
    cat, figures = _catalogue(_solution("a", 7), _solution("b", 7), _solution("c", 7), _solution("d", 7))
    figures["a"].values.pop(HEADLINE)
    figures["b"].test["report_type"] = None
    assert default_pair(cat, figures) == ("c", "d")
    figures["c"].test["jetstress_release"] = "2013"
    assert default_pair(cat, figures) is None  # nothing alike: the page says so and shows the menu's first two


def test_a_pair_a_document_compares_wins_a_tie_in_its_own_direction():
    solutions = [_solution(k, 6) for k in "abcd"]
    cat, figures = _catalogue(*solutions)
    assert default_pair(cat, figures) == ("a", "b")  # the menu's order, for want of anything better
    cat, figures = _catalogue(*solutions, claimed=[("d", "c")])
    assert default_pair(cat, figures) == ("d", "c")


def test_renaming_every_solution_changes_nothing_but_the_names():
    shapes = [("a", 7, {}), ("b", 7, {"jetstress_release": "2007"}), ("c", 5, {}), ("d", 6, {"duration_h": 9.0})]
    cat, figures = _catalogue(*(_solution(k, n, **t) for k, n, t in shapes))
    renamed = {"a": "zz-array", "b": "aa-array", "c": "mm-array", "d": "bb-array"}
    cat2, figures2 = _catalogue(*(_solution(renamed[k], n, **t) for k, n, t in shapes))
    first, second = default_pair(cat, figures)
    assert default_pair(cat2, figures2) in {(renamed[first], renamed[second]), (renamed[second], renamed[first])}
