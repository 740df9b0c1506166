"""`esrpdb site` and `esrpdb plot` on the seed catalogue: content, self-containment, links, bad input.

The browser checks (sorting, filtering, console errors, phone width) are in test_site_browser.py.
"""

from __future__ import annotations

import re

import pytest
from sqlalchemy import text
from typer.testing import CliRunner

from esrpdb.cli.main import app
from esrpdb.queries import compare as compare_lib
from esrpdb.site import charts as charts_lib
from esrpdb.site.build import SiteExists, build_site
from esrpdb.site.data import CHART_METRICS, load_catalogue
from tests.site_helpers import asset_refs, built_site, link_target, seed_keys, soup, with_names

runner = CliRunner()
REMOTE = re.compile(r"^\s*(https?:)?//", re.I)


@pytest.fixture(scope="module")
def site(tmp_path_factory, seed_catalog_url):
    return built_site(tmp_path_factory, seed_catalog_url)


def test_index_lists_every_solution_with_a_page(site, seed_catalog):
    names = {s["key"]: s["name"] for s in load_catalogue(seed_catalog.reader()).solutions}
    index = soup(site / "index.html")
    rows = index.select("#solutions tbody tr")
    assert sorted(r["data-key"] for r in rows) == seed_keys()
    for key in seed_keys():
        assert (site / "solutions" / f"{key}.html").is_file()
        assert index.select_one(f'#solutions a[href="solutions/{key}.html"]').get_text() == names[key]
    assert names["dell-powervault-md1220"] == "Dell PowerVault MD1220 with PERC H800"  # vendor and model


def test_dell_equallogic_page_shows_the_per_disk_iops_of_the_view(site, seed_catalog):
    with seed_catalog.reader().connect() as conn:
        value = conn.execute(text(
            "SELECT achieved_iops_per_disk FROM per_disk_iops WHERE solution = 'dell-eql-2x-ps5000xv' "
            "AND disk_basis = 'all' AND is_median_run")).scalar_one()
    page = soup(site / "solutions" / "dell-eql-2x-ps5000xv.html")
    shown = page.select_one("#achieved-iops-per-disk").get_text(strip=True)
    assert shown == f"{value:.1f}" == "208.4"
    row = soup(site / "index.html").select_one('#solutions tr[data-key="dell-eql-2x-ps5000xv"]')
    assert "208.4" in row.get_text()


def test_charts_on_the_index_and_every_solution_page_one_bar_per_solution(site, seed_catalog):
    cat = load_catalogue(seed_catalog.reader())
    pages = [site / "index.html"] + [site / "solutions" / f"{k}.html" for k in seed_keys()]
    for path in pages:
        page = soup(path)
        for metric, (column, _) in CHART_METRICS.items():
            figure = page.select_one(f"#chart-bar-{metric}")
            assert figure is not None and figure.find("svg") is not None, (path.name, metric)
            bars = figure.select('g.mark-rect path[aria-roledescription="bar"]')
            have = sorted(s["key"] for s in cat.solutions if s.get(column) is not None)
            assert sorted(b["aria-label"] for b in bars) == have, (path.name, metric)
            caption = figure.figcaption.get_text()
            assert "median run" in caption and f"{len(have)} of {len(have)} solutions" in caption
    solution = soup(site / "solutions" / "intel-x25e-3-ssd.html")
    runs = solution.select('#chart-runs g.mark-rect path[aria-roledescription="bar"]')
    assert len(runs) == 3  # Run 1..3 of its one trial
    assert solution.select_one("#chart-scatter-latency svg") is not None
    assert (site / "charts" / "bar-achieved_iops_per_disk.svg").is_file()


def test_axis_titles_name_basis_and_unit(site):
    index = (site / "index.html").read_text(encoding="utf-8")
    for title in ("achieved IOPS per disk (median run; basis: all disks)", "total IOPS per USD of list price",
                  "usable MB (2^20 bytes) per USD of list price", "total IOPS per active watt",
                  "power boundary: enclosure_and_drives"):
        assert title in index


def test_unlike_tests_are_marked(site, seed_catalog):
    cat = load_catalogue(seed_catalog.reader())
    groups = {s["key"]: s["group"] for s in cat.solutions}
    assert groups["dell-eql-2x-ps5000xv"] != groups["dell-powervault-md1220"]  # Jetstress 2007 vs 2010
    caption = soup(site / "index.html").select_one("#chart-bar-achieved_iops_per_disk figcaption").get_text()
    assert "unlike tests, coloured apart" in caption


def test_no_remote_asset_and_every_link_resolves(site):
    pages = sorted(site.rglob("*.html"))
    assert len(pages) >= 1 + len(seed_keys()) + 1
    for path in pages:
        page = soup(path)
        for ref in asset_refs(page):
            assert not REMOTE.match(ref), (path.name, ref)
        for anchor in page.find_all("a", href=True):
            assert not REMOTE.match(anchor["href"]), (path.name, anchor["href"])
            target = link_target(path, anchor["href"])
            assert target is None or target.is_file(), (path.name, anchor["href"])
        for ref in asset_refs(page):
            assert link_target(path, ref).is_file(), (path.name, ref)
    for css in site.rglob("*.css"):
        assert "url(" not in css.read_text(encoding="utf-8")


def test_solution_page_has_runs_latencies_sources_and_findings(site, seed_catalog):
    from esrpdb.audit import audit

    page = soup(site / "solutions" / "dell-eql-2x-ps5000xv.html")
    runs = page.select("#runs tbody tr")
    assert len(runs) == 3 and len(page.select("#runs tr.median")) == 1
    assert "Run 2" in page.select_one("#runs tr.median").get_text()
    assert page.select("#latencies tbody tr")
    assert "Maxtor" in page.select_one("#disks").get_text()
    findings = audit(seed_catalog.reader(), solution="dell-eql-2x-ps5000xv").findings
    rows = page.select("#findings tbody tr")
    assert len(rows) == len(findings)
    quoted = [f for f in findings if f.quote]
    assert quoted
    text_of_page = page.select_one("#findings").get_text(" ")
    for finding in quoted:
        assert finding.quote in text_of_page
        assert finding.file in text_of_page and finding.sha256 in text_of_page
    price = soup(site / "solutions" / "dell-eql-2x-ps4000xv.html").select_one("#sources").get_text(" ")
    assert "80,098.00 USD" in price


def test_static_compare_pages_carry_the_compare_sentences(site, seed_catalog):
    """A pair a document compares: every row `esrpdb compare` prints where either side has the figure
    (every metric, both disk bases, the range across the runs), with names for keys, and its notes."""
    page = soup(site / "compare" / "dell-eql-2x-ps5000xv--hp-eva4400.html")
    sentences = [td.get_text() for td in page.select("#comparison td.sentence")]
    report = compare_lib.compare(seed_catalog.reader(), "dell-eql-2x-ps5000xv", "hp-eva4400", tuple(compare_lib.METRICS))
    names = {s["key"]: s["name"] for s in load_catalogue(seed_catalog.reader()).solutions}
    expected = [with_names(row.sentence, names) for row in report.rows if (row.value_a, row.value_b) != (None, None)]
    assert sentences == expected
    assert ("Dell EqualLogic PS5000XV (2 arrays) delivered 86% more achieved IOPS per disk (active disks) than "
            "HP StorageWorks 4400 Enterprise Virtual Array (two disk shelves) (83–92% across the runs)") in sentences
    neither = page.select_one("#neither").get_text()
    assert all(compare_lib.metric_words(r.metric, r.disk_basis) in neither for r in report.rows
               if (r.value_a, r.value_b) == (None, None))
    assert "dell-eql-2x-ps5000xv" not in page.select_one("main").get_text()  # names, the key only in links
    notes = [li.get_text() for li in page.select("#unlike li")]
    assert report.unlike and notes == [with_names(note, names) for note in report.unlike]  # 4.7 h against 3.4 h
    listed = soup(site / "compare.html").select("#claimed-pairs a")
    assert any(a["href"] == "compare/dell-eql-2x-ps5000xv--hp-eva4400.html" for a in listed)


def test_one_run_per_solution_even_with_several_median_runs(seed_catalog):
    """dell-powervault-md1220's runs stand outside any trial, so each is a median run; the site shows its first."""
    cat = load_catalogue(seed_catalog.reader())
    md1220 = cat.solution("dell-powervault-md1220")
    assert md1220["median_run_label"] == "Performance (2 h)"
    assert md1220["achieved_iops_per_disk"] == pytest.approx(md1220["achieved_iops"] / md1220["disk_count_all"])


def test_empty_catalogue_gives_a_site_that_says_so(catalog, tmp_path):
    report = build_site(catalog.reader(), tmp_path / "out")
    assert report.solutions == 0
    index = soup(tmp_path / "out" / "index.html")
    assert "catalogue is empty" in index.select_one("#empty").get_text()
    assert (tmp_path / "out" / "compare.html").is_file()
    assert not (tmp_path / "out" / "solutions").exists()


def test_non_empty_out_is_refused_unless_forced(catalog, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    with pytest.raises(SiteExists, match="--force"):
        build_site(catalog.reader(), out)
    build_site(catalog.reader(), out, force=True)
    assert (out / "index.html").is_file() and (out / "notes.txt").read_text() == "mine"


def test_cli_site_and_its_refusal(seed_catalog_url, tmp_path):
    out = tmp_path / "out"
    result = runner.invoke(app, ["--database-url", seed_catalog_url, "site", str(out)])
    assert result.exit_code == 0, result.output
    assert f"for {len(seed_keys())} solutions" in result.output
    again = runner.invoke(app, ["--database-url", seed_catalog_url, "site", str(out)])
    assert again.exit_code == 1 and "not empty" in again.output and "--force" in again.output
    forced = runner.invoke(app, ["--database-url", seed_catalog_url, "site", str(out), "--force"])
    assert forced.exit_code == 0, forced.output


def test_plot_writes_the_site_chart_as_svg_and_png(seed_catalog_url, seed_catalog, tmp_path):
    svg = tmp_path / "per-disk.svg"
    result = runner.invoke(app, ["--database-url", seed_catalog_url, "plot", "achieved_iops_per_disk", "-o", str(svg)])
    assert result.exit_code == 0, result.output
    cat = load_catalogue(seed_catalog.reader())
    expected = charts_lib.render_svg(charts_lib.bar_chart("achieved_iops_per_disk", cat.solutions).spec)
    assert svg.read_text(encoding="utf-8") == expected
    png = tmp_path / "latency.png"
    result = runner.invoke(app, ["--database-url", seed_catalog_url, "plot", "latency", "--output", str(png)])
    assert result.exit_code == 0, result.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    bad = runner.invoke(app, ["--database-url", seed_catalog_url, "plot", "nope", "-o", str(svg)])
    assert bad.exit_code == 1 and "unknown chart" in bad.output
    bad = runner.invoke(app, ["--database-url", seed_catalog_url, "plot", "log_playbak", "-o", str(svg)])
    assert bad.exit_code == 1 and "log_playback" in bad.output and len(bad.output.strip().splitlines()) == 1
    bad = runner.invoke(app, ["--database-url", seed_catalog_url, "plot", "perf_per_watt", "-o", str(tmp_path / "x.gif")])
    assert bad.exit_code == 1 and ".svg or .png" in bad.output


def test_large_catalogue_mode_ships_specs_and_the_vendored_bundle(tmp_path_factory, seed_catalog_url):
    site = built_site(tmp_path_factory, seed_catalog_url, static_chart_limit=0)
    page = soup(site / "solutions" / "hp-eva4400.html")
    assert page.select_one("#chart-runs script.chart-spec") is not None
    assert page.select_one('#chart-bar-achieved_iops_per_disk img[src="../charts/bar-achieved_iops_per_disk.svg"]')
    assert (site / "static" / "vega-bundle.js").stat().st_size > 0
    assert soup(site / "index.html").select_one("#chart-bar-perf_per_watt svg") is not None


def test_pages_rendered_by_forked_workers_equal_pages_rendered_in_order(seed_catalog, tmp_path, monkeypatch):
    from markupsafe import Markup

    from esrpdb.site import build, pages

    cat = load_catalogue(seed_catalog.reader())  # one read: the audit's float sums may differ in the last bit
    outs = {}
    for name, parallel_from in (("in-order", 10**9), ("forked", 1)):
        monkeypatch.setattr(pages, "PARALLEL_FROM", parallel_from)
        monkeypatch.setattr(pages, "_workers", lambda: 2)
        outs[name] = tmp_path / name
        outs[name].mkdir()
        pages.render_all(pages.Job(outs[name], build.environment(), cat, Markup(""), build.rank_notes(cat), True))
    written = sorted(p.name for p in (outs["in-order"] / "solutions").iterdir())
    assert written == sorted(f"{k}.html" for k in seed_keys())
    for name in written:
        assert (outs["forked"] / "solutions" / name).read_text() == (outs["in-order"] / "solutions" / name).read_text()


def test_awkward_keys_get_safe_distinct_file_names_and_escaped_css():
    from esrpdb.site.data import page_name
    from esrpdb.site.formatting import css_string

    assert page_name("hp-eva4400") == "hp-eva4400"
    names = {page_name(k) for k in ("a/b c", "a b/c", "../etc", "über array", "a/b c ")}
    assert len(names) == 5 and all(re.fullmatch(r"[A-Za-z0-9._-]+", n) and not n.startswith(".") for n in names)
    escaped = css_string('x"]</style><script>')
    assert '"' not in escaped and "<" not in escaped and "]" not in escaped


def test_the_cli_options_name_the_charts_the_site_draws():
    """site/options.py keeps the names import-free for `--help`; they must stay the site's own."""
    from esrpdb.site import options
    from esrpdb.site.data import CHART_METRICS

    assert options.BAR_METRICS == tuple(CHART_METRICS)


def test_plot_draws_the_esrp_charts_and_says_how_many_solutions_have_the_figure(seed_catalog_url, tmp_path):
    """One solution of the seed has soft-recovery and backup reports: one mark, one bar, said in words."""
    for chart, mark in (("log_playback", 'aria-roledescription="point"'), ("backup_throughput", 'aria-roledescription="bar"')):
        svg = tmp_path / f"{chart}.svg"
        result = runner.invoke(app, ["--database-url", seed_catalog_url, "plot", chart, "-o", str(svg)])
        assert result.exit_code == 0, result.output
        assert "Only 1 of the 10 solutions in the catalogue has" in " ".join(result.output.split())
        drawn = svg.read_text(encoding="utf-8")
        assert drawn.count(mark) == 1 and 'aria-label="dell-powervault-md1220"' in drawn
        assert "xlink:href" not in drawn  # links to solution pages only on the site
    png = tmp_path / "log.png"
    result = runner.invoke(app, ["--database-url", seed_catalog_url, "plot", "log_playback", "-o", str(png)])
    assert result.exit_code == 0 and png.read_bytes()[:4] == b"\x89PNG"


def test_esrp_figures_and_mailbox_classes_on_the_index_rows(seed_catalog):
    cat = load_catalogue(seed_catalog.reader())
    md1220 = cat.solution("dell-powervault-md1220")
    assert md1220["backup_mb_per_s_per_database"] == pytest.approx(60.05, abs=0.005)
    assert md1220["backup_mb_per_s_per_server"] == pytest.approx(480.41, abs=0.005)
    assert md1220["logs_per_s_per_server"] > 0 and md1220["median_read_latency_ms"] == pytest.approx(16.05, abs=0.01)
    counts = sorted(s["mailbox_count"] for s in cat.solutions if s["mailbox_count"] is not None)
    assert counts == [200, 200, 4000, 5000, 5100, 6000, 6000, 6000]
    assert {s["mailbox_class"] for s in cat.solutions if s["mailbox_count"] == 5000} == {"1,001–5,000 mailboxes"}
