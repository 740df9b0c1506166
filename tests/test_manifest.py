"""Solution manifests: the catalogue's manifests parse and point at real files and printed figures;
bad input fails with the file name and the key path. Pure: no database."""

from __future__ import annotations

import re
import statistics
from decimal import Decimal
from pathlib import Path

import pytest

from esrpdb.ingest.errors import ParseError
from esrpdb.ingest.formats import manifest
from esrpdb.ingest.formats.manifest import ManifestError
from esrpdb.ingest.formats.manifest.records import METRICS, SolutionManifest, TableRef

REPO = Path(__file__).resolve().parents[1]
CATALOG = REPO / "fixtures" / "catalog"
MANIFESTS = sorted(CATALOG.glob("*.toml"))
DOCS_PAGE = REPO / "docs" / "manifests.md"
GIB = 2**30


def load(path: Path) -> SolutionManifest:
    return manifest.parse(path.name, path.read_bytes())


def all_manifests() -> dict[str, SolutionManifest]:
    return {m.key: m for m in map(load, MANIFESTS)}


def document_lines(base: Path, relative: str) -> list[str]:
    return (base / relative).read_text(encoding="utf-8").split("\n")


def printed(value: str) -> re.Pattern[str]:
    """The value as a token: "29" must not match inside "129" or "2.29"."""
    return re.compile(r"(?<![\d.,])" + re.escape(value) + r"(?![\d])")


def squash(text: str) -> str:
    return " ".join(text.split())


# --- the catalogue -----------------------------------------------------------------------------


def test_catalogue_is_not_empty():
    assert MANIFESTS, f"no manifest found under {CATALOG}"
    assert len(MANIFESTS) >= 9


@pytest.mark.parametrize("path", MANIFESTS, ids=lambda p: p.stem)
def test_manifest_parses_and_is_named_for_its_key(path: Path):
    assert manifest.identify(path.name, path.read_bytes()[:8192])
    parsed = load(path)
    assert parsed.key == path.stem
    assert parsed.disks and parsed.runs and parsed.claims


@pytest.mark.parametrize("path", MANIFESTS, ids=lambda p: p.stem)
def test_every_referenced_path_exists(path: Path):
    for where, relative in load(path).referenced_paths():
        assert (path.parent / relative).is_file(), f"{path.name}: {where} = {relative!r} does not exist"


@pytest.mark.parametrize("path", MANIFESTS, ids=lambda p: p.stem)
def test_every_run_trial_exists(path: Path):
    parsed = load(path)
    trials = {trial.key for trial in parsed.trials}
    for run in parsed.runs:
        assert run.trial is None or run.trial in trials, f"{path.name}: {run.label}: trial {run.trial!r}"


def test_comparison_claims_name_catalogue_solutions():
    manifests = all_manifests()
    assert len(manifests) == len(MANIFESTS), "two manifests share a key"
    for key, parsed in manifests.items():
        for index, claim in enumerate(parsed.claims):
            if claim.subject != "comparison":
                continue
            where = f"{key}: claims[{index}]"
            assert claim.versus in manifests, f"{where}: versus {claim.versus!r} is not a manifest key"
            if claim.versus_run is not None:
                assert manifests[claim.versus].run(claim.versus_run), f"{where}: versus_run {claim.versus_run!r}"


@pytest.mark.parametrize("path", MANIFESTS, ids=lambda p: p.stem)
def test_claims_are_printed_where_they_say(path: Path):
    """Each value appears on its line, exactly as written; each quote is the document's own text."""
    for index, claim in enumerate(load(path).claims):
        lines = document_lines(path.parent, claim.document)
        where = f"{path.name}: claims[{index}] ({claim.metric} = {claim.value!r})"
        assert claim.line is not None and 1 <= claim.line <= len(lines), f"{where}: line {claim.line}"
        assert printed(claim.value).search(lines[claim.line - 1]), f"{where}: not on line {claim.line}"
        if claim.quote:
            assert squash(claim.quote) in squash(lines[claim.line - 1]), f"{where}: quote not on line {claim.line}"


# --- table-backed runs resolve against the documents ----------------------------------------------


def find_table(lines: list[str], title: str) -> list[tuple[int, list[str]]]:
    """The tab-separated rows nearest a caption (printed under a table) or heading (printed above)."""
    caption = next(i for i, text in enumerate(lines) if re.sub(r"^[#*\s]+", "", text).lower().startswith(title.lower()))

    def block(start: int, step: int) -> list[tuple[int, list[str]]]:
        index, rows, gap = start + step, [], 0
        while 0 <= index < len(lines) and gap <= 2:
            text = lines[index]
            if "\t" in text:
                rows.append((index + 1, [cell.strip() for cell in text.split("\t")]))
                gap = 0
            elif text.strip() and rows or text.strip() and not rows and gap >= 2:
                break
            else:
                gap += 0 if rows else 1
            index += step
        return sorted(rows)

    return block(caption, -1) or block(caption, +1)


def table_values(base: Path, ref: TableRef) -> dict[str, Decimal]:
    """Each row field of the reference, resolved to a number (several labels are added up)."""
    rows = find_table(document_lines(base, ref.document), ref.title)
    assert rows, f"no table near {ref.title!r}"
    values = {}
    for field, labels in ref.rows().items():
        total = Decimal(0)
        for label in labels:
            number, cells = next((n, cells) for n, cells in rows if cells[0] == label)
            header = [cells for n, cells in rows if n < number and ref.column in cells][-1]
            total += Decimal(cells[header.index(ref.column)].replace(",", ""))
        values[field] = total
    return values


@pytest.mark.parametrize("path", MANIFESTS, ids=lambda p: p.stem)
def test_table_runs_resolve(path: Path):
    for run in load(path).runs:
        for ref in (run.table, run.figures):
            if ref is not None:
                values = table_values(path.parent, ref)
                assert values and all(value > 0 for value in values.values()), f"{path.name}: {run.label}: {values}"


def test_seed_002_throughput_comparison_follows_from_the_manifests():
    """"172 percent higher throughput": the median runs' MB/s come from the table, as no report holds them."""
    throughput = {}
    for key, median in (("savvio-15k-24-hdd", "Run 2"), ("intel-x25e-3-ssd", "Run 1")):
        run = load(CATALOG / f"{key}.toml").run(median)
        assert run.report is not None and run.figures is not None
        throughput[key] = table_values(CATALOG, run.figures)["throughput_mb_per_s"]
    assert throughput == {"savvio-15k-24-hdd": Decimal("37.089"), "intel-x25e-3-ssd": Decimal("100.78")}
    assert f"{(throughput['intel-x25e-3-ssd'] / throughput['savvio-15k-24-hdd'] - 1) * 100:.0f}" == "172"


def test_seed_003_golden_figures_follow_from_the_manifests():
    """Median run, total IOPS per active disk, MB and IOPS per dollar, as seed 003 prints them."""
    expected = {"dell-eql-2x-ps4000xv": ("202", "71.69", "0.071"), "hp-lefthand-p4500": ("93", "25.49", "0.034"),
                "fc-san-2009": ("157", "42.43", "0.031")}
    for key, (per_disk, mb_per_dollar, iops_per_dollar) in expected.items():
        parsed = load(CATALOG / f"{key}.toml")
        totals = {run.label: table_values(CATALOG, run.table)["total_iops"] for run in parsed.runs}
        median = statistics.median(totals.values())
        assert [label for label, total in totals.items() if total == median] == ["Run 2"]
        assert f"{median / parsed.disk_count('active'):.0f}" == per_disk
        price = parsed.price.amount
        assert f"{Decimal(parsed.capacity.usable_bytes) / 2**20 / price:.2f}" == mb_per_dollar
        assert f"{median / price:.3f}" == iops_per_dollar


def test_seed_000_dell_golden():
    parsed = load(CATALOG / "dell-eql-2x-ps5000xv.toml")
    assert parsed.disk_count("all") == 32 == parsed.disk_count("active")
    assert parsed.capacity.usable_bytes == 2089 * GIB
    assert {run.label: run.source_kind for run in parsed.runs} == {"Run 1": "table", "Run 2": "report", "Run 3": "table"}


def test_seed_003_dell_golden():
    parsed = load(CATALOG / "dell-eql-2x-ps4000xv.toml")
    assert parsed.price.amount == Decimal("80098") and parsed.price.currency == "USD"
    assert parsed.capacity.usable == 5608 and parsed.capacity.unit == "GB" and parsed.capacity.base == "binary"
    assert parsed.capacity.usable_bytes == 5608 * GIB == 6_021_544_148_992
    assert parsed.disk_count("all") == 32 and parsed.disk_count("active") == 28
    assert parsed.disks[0].raw_capacity_bytes == 450 * 10**9


def test_docs_example_parses():
    blocks = re.findall(r"```toml\n(.*?)```", DOCS_PAGE.read_text(encoding="utf-8"), re.S)
    parsed = manifest.parse("example.toml", blocks[0].encode())
    assert [run.source_kind for run in parsed.runs] == ["report", "document", "table"]
    assert {claim.subject for claim in parsed.claims} == {"solution", "run", "comparison"}


def test_catalogue_readme_lists_every_manifest():
    readme = (CATALOG / "README.md").read_text(encoding="utf-8")
    assert [path.stem for path in MANIFESTS if f"`{path.stem}`" not in readme] == []


def test_every_metric_is_documented():
    page = DOCS_PAGE.read_text(encoding="utf-8")
    assert [name for name in METRICS if f"`{name}`" not in page] == []


# --- identify -----------------------------------------------------------------------------------


def test_identify():
    assert manifest.identify("x.toml", b"schema = 1\n\n[solution]\nkey = 'x'\n")
    assert manifest.identify("X.TOML", b"[ solution ]  # identity\n")
    assert not manifest.identify("x.toml", b"[tool.black]\nline-length = 100\n")
    assert not manifest.identify("x.txt", b"[solution]\n")
    assert not manifest.identify("x.toml", b"# [solution]\n")


# --- bad input ----------------------------------------------------------------------------------

VALID = """\
schema = 1

[solution]
key = "test-solution"
vendor = "Vendor"
model = "Model"

[capacity]
usable = 1.5
unit = "TB"
base = "decimal"

[[disks]]
count = 4
media = "HDD"
rpm = 15000
capacity = 146
capacity_unit = "GB"
capacity_base = "decimal"
role = "active"

[price]
amount = 1234.50
currency = "EUR"
type = "street"

[power]
active_w = 100
boundary = "system"

[[trials]]
key = "median-trial"

[[runs]]
label = "Run 1"
trial = "median-trial"
report = "reports/Performance_1.html"
figures = { document = "doc.txt", title = "Figure 1", column = "A", active_power_w = "Active power" }

[[runs]]
label = "Run 2"
trial = "median-trial"
table = { document = "doc.txt", title = "Figure 1", column = "A", total_iops = ["r1", "r2"], db_read_latency = "lat", latency_unit = "ms" }

[[claims]]
metric = "achieved_iops_per_disk"
value = "1,208.40"
unit = "IOPS/disk"
subject = "run"
run = "Run 1"
disk_basis = "active"
document = "doc.txt"
location = "Figure 1"
line = 3
"""


def problems(text: str, name: str = "bad.toml") -> tuple[str, ...]:
    with pytest.raises(ManifestError) as caught:
        manifest.parse(name, text.encode())
    assert str(caught.value).startswith(f"{name} › solution manifest: ")
    return caught.value.problems


def test_valid_base_parses():
    parsed = manifest.parse("ok.toml", VALID.encode())
    assert parsed.capacity.usable_bytes == 1_500_000_000_000
    assert parsed.disks[0].raw_capacity_bytes == 146_000_000_000
    assert parsed.price.amount == Decimal("1234.5")
    assert parsed.power.active_w == 100.0 and parsed.power.idle_w is None
    assert parsed.runs[1].table.total_iops == ("r1", "r2") and parsed.runs[1].table.latency_unit == "ms"
    assert parsed.runs[0].figures.rows() == {"active_power_w": ("Active power",)}
    claim = parsed.claims[0]
    assert claim.number == Decimal("1208.40") and claim.decimals == 2


def test_a_table_run_over_the_hosts_columns_parses():
    """`columns`: one test's hosts, a column each, whose figures the run adds up (a document printing no report)."""
    parsed = manifest.parse("ok.toml", edit('column = "A", total_iops', 'columns = ["Host 1", "Host 2"], total_iops')
                            .encode())
    table = parsed.runs[1].table
    assert (table.column, table.columns, table.headings()) == ("", ("Host 1", "Host 2"), ("Host 1", "Host 2"))
    assert parsed.runs[0].figures.headings() == ("A",)


def edit(old: str, new: str) -> str:
    assert old in VALID
    return VALID.replace(old, new, 1)


BAD = [
    (edit("amount = 1234.50", "amount = 1e-31"), "price.amount: 1E-31 cannot be stored as a price"),
    (edit("amount = 1234.50", 'amount = "1234.555"'), "price.amount: 1234.555 cannot be stored as a price"),
    (edit('vendor = "Vendor"', 'vendr = "Vendor"'),
     'solution.vendr: unknown key; allowed: connectivity, key, label, model, notes, raid_level, vendor'),
    (VALID + "\n[extra]\nx = 1\n", "extra: unknown key; allowed:"),
    (edit("schema = 1", "schema = 2"), "schema: 2 is not a known manifest schema"),
    (edit("schema = 1\n", ""), "schema: required"),
    (edit('key = "test-solution"', 'key = "Test Solution"'), 'solution.key: "Test Solution" must match'),
    (edit('model = "Model"\n', ""), "solution.model: required"),
    (edit('base = "decimal"', 'base = "metric"'), 'capacity.base: "metric" is not one of binary, decimal'),
    (edit('base = "decimal"\n', ""), 'capacity.base: required with unit = "TB"'),
    (edit('unit = "TB"', 'unit = "TiB"'), 'capacity.unit: "TiB" is not one of B, KB, MB, GB, TB'),
    (edit("usable = 1.5", "usable = -1"), "capacity.usable: -1 must be greater than 0"),
    (edit('media = "HDD"', 'media = "Flash"'), 'disks[0].media: "Flash" is not one of HDD, SSD'),
    (edit('media = "HDD"', 'media = "SSD"'), "disks[0].rpm: an SSD has no rpm; leave it out"),
    (edit('role = "active"', 'role = "spare"'), 'disks[0].role: "spare" is not one of active, hot_spare, system'),
    (edit("count = 4", "count = 0"), "disks[0].count: 0 is out of range; must be at least 1"),
    (edit("count = 4", 'count = "4"'), 'disks[0].count: expected an integer, got a string "4"'),
    (edit('capacity_base = "decimal"\n', ""), 'disks[0].capacity_base: required with capacity_unit = "GB"'),
    (re.sub(r"\[\[disks\]\].*?role = \"active\"\n", "", VALID, flags=re.S), "disks: at least one [[disks]] group is required"),
    (edit('currency = "EUR"', 'currency = "usd"'), 'price.currency: "usd" is not an ISO 4217 code (three capital letters)'),
    (edit("amount = 1234.50", 'amount = "$1,234.50"'), 'price.amount: "$1,234.50" is not a decimal number'),
    (edit('type = "street"', 'type = "msrp"'), 'price.type: "msrp" is not one of list, reseller, street, quote'),
    (edit('boundary = "system"', 'boundary = "wall"'), 'power.boundary: "wall" is not one of enclosure_and_drives'),
    (edit("active_w = 100\n", ""), "power: give idle_w, active_w or both"),
    (edit('trial = "median-trial"\nreport', 'trial = "t9"\nreport'),
     'runs[0].trial: "t9" is not a [[trials]] key; known: median-trial'),
    (edit('report = "reports/Performance_1.html"\n', ""), "runs[0]: give exactly one of report, document, table"),
    (edit('report = "reports/Performance_1.html"', 'report = "a.html"\ndocument = "d.txt"'),
     "runs[0]: give exactly one of report, document, table (found report, document)"),
    (edit('report = "reports/Performance_1.html"', 'report = "/abs/Performance_1.html"'),
     'runs[0].report: "/abs/Performance_1.html" is absolute; write the path relative to this manifest'),
    (edit('report = "reports/Performance_1.html"', 'report = "reports\\\\Performance_1.html"'),
     "runs[0].report: \"reports\\\\Performance_1.html\": use forward slashes in paths"),
    (edit('report = "reports/Performance_1.html"', 'report = "reports/Performance_1.pdf"'),
     'runs[0].report: "reports/Performance_1.pdf" does not end in .html or .htm'),
    (edit('label = "Run 2"', 'label = "Run 1"'), 'runs[1].label: "Run 1" is already used by runs[0]'),
    (edit('report = "reports/Performance_1.html"', 'report = "a.html"\nmatch = { report_index = 0 }'),
     "runs[0].match: only with document = …"),
    (edit('report = "reports/Performance_1.html"', 'document = "d.txt"\nmatch = { }'),
     "runs[0].match: give at least one of machine_name, report_index, report_type, test_start"),
    (edit('report = "reports/Performance_1.html"', 'document = "d.txt"\nmatch = { report_type = "Perf" }'),
     'runs[0].match.report_type: "Perf" is not one of Performance, Stress'),
    (edit(', latency_unit = "ms"', ""), "runs[1].table.latency_unit: required with a latency row"),
    (edit('latency_unit = "ms" }', 'latency_unit = "ms" }\nfigures = { document = "d.txt", title = "T", column = "C", '
          'throughput_mb_per_s = "MB/s" }'),
     "runs[1].figures: only with report or document; a table run reads every figure from its [runs.table]"),
    (edit('active_power_w = "Active power"', 'total_iops = "IOPS"'),
     "runs[0].figures.total_iops: the run's report gives this; record the table's value as a claim on the run"),
    (edit(', column = "A", active_power_w', ", active_power_w"), "runs[0].figures.column: required"),
    (edit('title = "Figure 1", column = "A", total_iops', 'title = "Figure 1", column = "A", columns = ["H1", "H2"], '
          'total_iops'), "runs[1].table.columns: give `column` (one run's column) or `columns`"),
    (edit('title = "Figure 1", column = "A", total_iops', 'title = "Figure 1", columns = ["H1"], total_iops'),
     "runs[1].table.columns: expected an array of two or more column headings, as printed"),
    (edit('title = "Figure 1", column = "A", total_iops', 'title = "Figure 1", columns = ["H1", "H1"], total_iops'),
     "runs[1].table.columns: a column is named twice"),
    (edit('title = "Figure 1", column = "A", active_power_w', 'title = "Figure 1", columns = ["H1", "H2"], '
          'active_power_w'), "runs[0].figures.columns: unknown key"),
    (edit('total_iops = ["r1", "r2"], db_read_latency = "lat", latency_unit = "ms"', 'colour = "x"'),
     "runs[1].table: name at least one row:"),
    (edit('total_iops = ["r1", "r2"]', "total_iops = []"),
     "runs[1].table.total_iops: expected a row label as printed, or a non-empty array of row labels"),
    (edit('metric = "achieved_iops_per_disk"', 'metric = "iops_per_spindle"'),
     'claims[0].metric: "iops_per_spindle" is not a known metric; known: achieved_iops,'),
    (edit('metric = "achieved_iops_per_disk"', 'metric = "percent_faster:achieved_iops_per_disk"'),
     'claims[0].metric: "percent_faster:achieved_iops_per_disk": the prefix must be percent_more:<metric>'),
    (edit('value = "1,208.40"', "value = 1208.4"),
     'claims[0].value: give the value as a string exactly as printed (e.g. "12.5"), got a float 1208.4'),
    (edit('value = "1,208.40"', 'value = "1208 IOPS"'), 'claims[0].value: "1208 IOPS" is not a number as printed'),
    (edit('unit = "IOPS/disk"', 'unit = "IOPS"'),
     'claims[0].unit: "IOPS" is not a unit of achieved_iops_per_disk; allowed: IOPS/disk'),
    (edit('unit = "IOPS/disk"\n', ""), "claims[0].unit: required for achieved_iops_per_disk: IOPS/disk"),
    (edit('disk_basis = "active"\n', ""),
     "claims[0].disk_basis: required for a per-disk figure (achieved_iops_per_disk): all or active"),
    (edit('disk_basis = "active"', 'disk_basis = "spindles"'), 'claims[0].disk_basis: "spindles" is not one of all, active'),
    (edit('subject = "run"', 'subject = "array"'), 'claims[0].subject: "array" is not one of solution, run, comparison'),
    (edit('run = "Run 1"\n', ""), 'claims[0].run: required when subject = "run"'),
    (edit('run = "Run 1"', 'run = "Run 9"'), 'claims[0].run: "Run 9" is not a [[runs]] label of this manifest; known: Run 1, Run 2'),
    (edit('subject = "run"\nrun = "Run 1"', 'subject = "solution"\nrun = "Run 1"'),
     'claims[0].run: only with subject = "run" or "comparison"'),
    (edit('subject = "run"\nrun = "Run 1"', 'subject = "solution"\nhost = "MBX1"'),
     "claims[0].host: only with run: the machine of one host report of that run's test"),
    (edit('subject = "run"', 'subject = "comparison"'),
     "claims[0].metric: a comparison claim needs percent_more:<metric> or percent_less:<metric>"),
    (edit('metric = "achieved_iops_per_disk"\nvalue = "1,208.40"\nunit = "IOPS/disk"\nsubject = "run"',
          'metric = "percent_more:achieved_iops_per_disk"\nvalue = "86"\nunit = "%"\nsubject = "comparison"'),
     'claims[0].versus: required when subject = "comparison"'),
    (edit('metric = "achieved_iops_per_disk"\nvalue = "1,208.40"\nunit = "IOPS/disk"\nsubject = "run"',
          'metric = "percent_more:achieved_iops_per_disk"\nvalue = "86"\nunit = "%"\nsubject = "comparison"\n'
          'versus = "test-solution"'),
     "claims[0].versus: compares the solution with itself; give versus_run or versus_metric"),
    (edit('metric = "achieved_iops_per_disk"\nvalue = "1,208.40"\nunit = "IOPS/disk"\nsubject = "run"',
          'metric = "percent_more:achieved_iops_per_disk"\nvalue = "86"\nunit = "%"\nsubject = "run"'),
     'claims[0].subject: percent_more:achieved_iops_per_disk compares two sides; use subject = "comparison"'),
    (edit('run = "Run 1"', 'run = "Run 1"\nversus = "other"'), 'claims[0].versus: only with subject = "comparison"'),
    (edit('metric = "achieved_iops_per_disk"\nvalue = "1,208.40"\nunit = "IOPS/disk"',
          'metric = "median_run"\nvalue = "Run 7"'), 'claims[0].value: "Run 7" is not a [[runs]] label; known: Run 1, Run 2'),
    (edit('metric = "achieved_iops_per_disk"\nvalue = "1,208.40"\nunit = "IOPS/disk"\nsubject = "run"\nrun = "Run 1"\n'
          'disk_basis = "active"', 'metric = "median_run"\nvalue = "Run 2"\nunit = "run"\nsubject = "solution"'),
     "claims[0].unit: median_run takes no unit; leave it out"),
    (edit("line = 3", 'line = 3\nqualifier = "roughly"'),
     'claims[0].qualifier: "roughly" is not one of approximately, nearly, up_to, over, under'),
    (edit('location = "Figure 1"\n', ""), "claims[0].location: required"),
    (edit("line = 3", "line = 0"), "claims[0].line: 0 is out of range; must be at least 1"),
    (edit('document = "doc.txt"\nlocation', 'location'), "claims[0].document: required"),
    (VALID.replace("[[runs]]", "[runs]", 1).replace("[[runs]]\n", "[runs.x]\n", 1), "runs: expected an array of tables"),
]


@pytest.mark.parametrize("text, expected", BAD, ids=[expected.split(":")[0] + f"-{i}" for i, (_, expected) in enumerate(BAD)])
def test_validation_rule(text: str, expected: str):
    found = problems(text)
    assert any(problem.startswith(expected) or expected in problem for problem in found), found


def test_all_problems_are_reported_at_once():
    text = edit('vendor = "Vendor"', 'vendr = "Vendor"')
    text = text.replace('media = "HDD"', 'media = "Flash"').replace('currency = "EUR"', 'currency = "usd"')
    found = problems(text, "many.toml")
    assert [p.split(":")[0] for p in found] == ["solution.vendr", "disks[0].media", "price.currency"]


def raises(data: bytes, name: str = "input.toml") -> ParseError:
    with pytest.raises(ParseError) as caught:
        manifest.parse(name, data)
    assert str(caught.value).startswith(name)
    return caught.value


@pytest.mark.parametrize("data", [b"", b"  \n\t\n", "\ufeff".encode()])
def test_empty_file(data: bytes):
    assert "file is empty" in raises(data, "empty.toml").message


def test_toml_syntax_error_gives_line_and_column():
    error = raises(b'schema = 1\n\n[solution\nkey = "x"\n', "syntax.toml")
    assert error.line == 3
    assert "TOML syntax error" in error.message and "(at line 3, column 10)" in error.message
    assert "line 3" in str(error)


def test_binary_file():
    error = raises(b"schema = 1\n\x00\x01\x02\xff", "binary.toml")
    assert "binary data (NUL byte at offset 11)" in error.message and error.line == 2


def test_wrong_encoding():
    error = raises(VALID.replace('"Vendor"', '"Société Générale"').encode("latin-1"), "latin1.toml")
    assert "not UTF-8 text: byte 0xe9" in error.message and error.line == 5


def test_huge_line():
    error = raises(VALID.replace('model = "Model"', f'model = "{"M" * 20_000}"').encode(), "huge.toml")
    assert error.line == 6 and "20,010 characters long" in error.message


def test_huge_file():
    error = raises(VALID.encode() + b"# padding\n" * 200_000, "big.toml")
    assert "bytes; a manifest over 1,048,576 bytes is refused" in error.message


def test_utf8_bom_is_accepted():
    assert manifest.parse("bom.toml", "\ufeff".encode() + VALID.encode()).key == "test-solution"


def test_a_real_manifest_with_one_error_names_file_and_key():
    path = CATALOG / "hp-eva4400.toml"
    text = path.read_text(encoding="utf-8").replace('media = "HDD"', 'media = "Flash"', 1)
    with pytest.raises(ManifestError) as caught:
        manifest.parse(path.name, text.encode())
    assert str(caught.value) == 'hp-eva4400.toml › solution manifest: disks[0].media: "Flash" is not one of HDD, SSD'
