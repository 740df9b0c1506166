"""PDH binary log reader: the real CounterSamples.blg against its Export-Counter CSV twin, bad input, ingest."""

from __future__ import annotations

import csv
import io
import json
import shutil
import struct
from decimal import Decimal
from pathlib import Path

import pytest
from sqlalchemy import text
from typer.testing import CliRunner

from esrpdb.cli.main import app
from esrpdb.ingest import registry
from esrpdb.ingest.errors import ParseError
from esrpdb.ingest.formats import perfmon as perfmon_csv
from esrpdb.ingest.formats.perfmon import blg as perfmon_blg
from esrpdb.ingest.formats.perfmon.blg import cook as blg_cook
from tests.helpers import FIXTURES

REAL = FIXTURES / "perfmon" / "real"
BLG = REAL / "CounterSamples.blg"
CSV = REAL / "CounterSamples.csv"
SSD_HTML = FIXTURES / "jetstress_html" / "seed002-x25e-ssd" / "Performance_2008_10_5_21_32_32.html"
runner = CliRunner()

# byte offsets in CounterSamples.blg (see docs/blg-format.md)
DATA_BUFFER = 0x10000
FIRST_DEFINITION = 0x10098  # network interface(*)\bytes total/sec
FIRST_SAMPLE = 0x10438
FIRST_SAMPLE_RECORD = 0x10480


def read_blg(data: bytes, name: str = "CounterSamples.blg", **options):
    with perfmon_blg.open_perfmon(name, io.BytesIO(data), **options) as reader:
        return reader, list(reader)


def read_csv():
    with CSV.open("rb") as stream, perfmon_csv.open_perfmon(CSV.name, stream) as reader:
        return reader, list(reader)


@pytest.fixture(scope="module")
def both():
    with BLG.open("rb") as stream, perfmon_blg.open_perfmon(BLG.name, stream) as reader:
        blg = (reader, list(reader))
    return blg, read_csv()


# --- the twin: every value of the CSV from the .blg ----------------------------------------


def test_registry_sends_blg_to_the_binary_reader_and_text_to_the_csv_reader():
    assert registry.detect(BLG.name, BLG.read_bytes()[: registry.HEAD_BYTES]) is perfmon_blg
    for twin in (CSV, REAL / "CounterSamples.tsv"):
        assert registry.detect(twin.name, twin.read_bytes()[: registry.HEAD_BYTES]) is perfmon_csv
    renamed = CSV.read_bytes()[: registry.HEAD_BYTES]
    assert registry.detect("renamed.blg", renamed) is perfmon_csv  # a text export named .blg stays text


def test_columns_are_the_csv_columns(both):
    (blg, _), (csv_reader, _) = both
    assert blg.columns == csv_reader.columns
    assert len(blg.columns) == 10
    assert str(blg.columns[0]) == r"\\charlieparker\network interface(intel[r] ethernet connection i218-lm)\bytes total/sec"
    assert blg.columns[9].counter == "current disk queue length"


def test_every_csv_value_is_reproduced_within_its_printed_precision(both):
    (_, rows), (_, csv_rows) = both
    with CSV.open(encoding="utf-8", newline="") as handle:
        printed = list(csv.reader(handle))[1:]
    assert len(rows) == len(printed) == 25
    checked = blanks = 0
    for (stamp, values), (csv_stamp, _), cells in zip(rows, csv_rows, printed):
        assert stamp == csv_stamp  # local time + the recorded bias, to the millisecond
        assert len(values) == len(cells) - 1 == 10
        for value, cell in zip(values, cells[1:]):
            if cell == " ":
                assert value is None
                blanks += 1
                continue
            exact = Decimal(cell)
            half_unit = Decimal(1).scaleb(exact.as_tuple().exponent) / 2
            assert abs(Decimal(value) - exact) <= half_unit, (stamp, cell, value)
            checked += 1
    assert (checked, blanks) == (242, 8)


def test_rows_are_bit_for_bit_the_csv_rows(both):
    (_, rows), (_, csv_rows) = both
    assert rows == csv_rows  # same UTC timestamps, same doubles, same blanks


def test_header_gives_the_recorded_time_zone(both):
    (blg, rows), _ = both
    header = blg.header
    assert header.bias_minutes == 480 and not header.assumed_utc
    assert (header.standard_zone, header.daylight_zone) == ("@tzres.dll,-212", "@tzres.dll,-211")
    assert header.time_zone_name == header.standard_zone  # 26 November: standard time
    assert header.counters_defined == 6 and header.buffer_size == 65536
    assert header.log_file_name.endswith("CounterSamples.blg")
    assert rows[0][0].isoformat() == "2016-11-26T21:46:30.874000+00:00"
    assert blg.warnings == []


def test_each_confirmed_counter_type_has_its_winperf_name():
    names = {blg_cook.COUNTER_TYPES[t] for t in blg_cook.COOKS}
    assert names == {"PERF_COUNTER_COUNTER", "PERF_COUNTER_BULK_COUNT", "PERF_100NSEC_TIMER_INV",
                     "PERF_PRECISION_100NS_TIMER", "PERF_RAW_FRACTION", "PERF_COUNTER_RAWCOUNT"}
    assert blg_cook.type_name(0x30020400) == "PERF_AVERAGE_TIMER (0x30020400)"
    assert blg_cook.type_name(0x40020500) == "PERF_AVERAGE_BULK (0x40020500)"
    assert blg_cook.type_name(0x20510500) == "PERF_100NSEC_TIMER (0x20510500)"


def test_daylight_rules_of_the_recorded_zone(both):
    from datetime import datetime

    zone = both[0][0]._log.time_zone
    assert zone.bias_at(datetime(2016, 7, 1, 12)) == (420, "@tzres.dll,-211")  # second Sunday of March ..
    assert zone.bias_at(datetime(2016, 3, 13, 1, 59)) == (480, "@tzres.dll,-212")
    assert zone.bias_at(datetime(2016, 3, 13, 2, 0)) == (420, "@tzres.dll,-211")
    assert zone.bias_at(datetime(2016, 11, 6, 2, 0)) == (480, "@tzres.dll,-212")  # .. first Sunday of November


def test_a_log_stopped_before_its_first_sample_has_no_rows():
    only_definitions = patched(DATA_BUFFER + 0x30, struct.pack("<I", FIRST_SAMPLE - DATA_BUFFER))
    reader, rows = read_blg(only_definitions)
    assert rows == [] and reader.header.bias_minutes == 480
    assert [c.counter for c in reader.columns][0] == "% processor time"  # a wildcard has no instances yet


# --- bad input: one clear error naming the file and the byte offset -------------------------


def error_of(data: bytes, **options) -> str:
    with pytest.raises(ParseError) as caught:
        read_blg(data, **options)
    message = str(caught.value)
    assert message.startswith("CounterSamples.blg: byte offset "), message
    return message


def patched(offset: int, replacement: bytes) -> bytes:
    data = bytearray(BLG.read_bytes())
    data[offset : offset + len(replacement)] = replacement
    return bytes(data)


def test_empty_file():
    assert "byte offset 0 (0x0): empty file" in error_of(b"")


@pytest.mark.parametrize("cut", [1, 0x48, 0x200, 0x1000, 0x8000, 0x10000, 0x10050, 0x10500, 0x15000, 0x1FFFF])
def test_truncated_files_name_where_they_end(cut):
    message = error_of(BLG.read_bytes()[:cut])
    assert f"byte offset {cut} (0x{cut:x})" in message
    assert "truncated" in message or "too short" in message


def test_corrupted_magic():
    message = error_of(patched(0x4A, b"\x00"))
    assert "byte offset 0 (0x0): not a PDH binary log" in message


def test_damaged_buffer_size():
    data = bytearray(patched(0, struct.pack("<I", 16)))
    data[0x68:0x6C] = struct.pack("<I", 16)  # the logfile header's copy agrees, so only the range check can refuse
    assert "byte offset 0 (0x0): buffer size 16 is outside" in error_of(bytes(data))


def test_flipped_counter_type_is_reported_by_name_not_guessed():
    message = error_of(patched(FIRST_DEFINITION + 0xC, struct.pack("<I", 0x30020400)))
    assert f"byte offset {FIRST_DEFINITION} (0x{FIRST_DEFINITION:x}): unsupported counter type" in message
    assert r"PERF_AVERAGE_TIMER (0x30020400) for \\charlieparker\network interface(*)\bytes total/sec" in message


def test_unknown_counter_type_is_reported_by_number():
    message = error_of(patched(FIRST_DEFINITION + 0xC, struct.pack("<I", 0x12345678)))
    assert "unknown counter type 0x12345678" in message


def test_corrupted_sample_record():
    message = error_of(patched(FIRST_SAMPLE_RECORD, b"XX"))
    assert f"byte offset {FIRST_SAMPLE_RECORD} (0x{FIRST_SAMPLE_RECORD:x}): expected a sample record" in message


def test_corrupted_event_provider():
    message = error_of(patched(FIRST_SAMPLE + 0x18, b"\x00" * 4))
    assert f"byte offset {FIRST_SAMPLE + 0x18}" in message and "not PDH" in message


def test_event_size_past_the_buffer():
    message = error_of(patched(FIRST_SAMPLE, struct.pack("<H", 0xFFF8)))
    assert f"byte offset {FIRST_SAMPLE} (0x{FIRST_SAMPLE:x}): event size 65528 does not fit" in message


def test_a_later_corrupted_sample_fails_while_streaming():
    later = FIRST_SAMPLE + 10 * 0x330 + 0x48
    data = patched(later, b"ZZ")
    with perfmon_blg.open_perfmon("CounterSamples.blg", io.BytesIO(data)) as reader:
        with pytest.raises(ParseError, match=f"byte offset {later} "):
            list(reader)
        assert reader.rows_read == 10


def test_random_damage_is_read_or_refused_with_an_offset_never_a_crash():
    import random

    original, chance = BLG.read_bytes(), random.Random(16)
    refused = 0
    for trial in range(400):
        data = bytearray(original)
        low, high = ((0, 0x210), (DATA_BUFFER, 0x153E8))[trial % 2]  # the header, or the events
        for _ in range(1 + trial % 3):
            data[chance.randrange(low, high)] = chance.randrange(256)
        if trial % 7 == 0:
            data = data[: chance.randrange(len(data))]
        try:
            read_blg(bytes(data), name="damaged.blg")
        except ParseError as error:
            assert str(error).startswith("damaged.blg: byte offset "), error
            refused += 1
    assert refused > 100  # the format has no checksum: damage to a raw value reads as another value


def test_file_too_large_is_refused_from_its_size_before_reading():
    class Unreadable(io.BytesIO):
        def read(self, *args):
            raise AssertionError("read before the size check")

    with pytest.raises(ParseError, match=r"byte offset 1000 \(0x3e8\): file is 131,072 bytes, over the 1,000-byte"):
        perfmon_blg.open_perfmon("CounterSamples.blg", Unreadable(BLG.read_bytes()), max_bytes=1000)


def test_memory_stays_one_buffer():
    import tracemalloc

    tracemalloc.start()
    with BLG.open("rb") as stream, perfmon_blg.open_perfmon(BLG.name, stream) as reader:
        for _ in reader:
            pass
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 4 * 65536


# --- CLI: parse and ingest ------------------------------------------------------------------


def test_parse_normalised_gives_the_25_by_10_samples_of_the_csv():
    shown = json.loads(runner.invoke(app, ["parse", str(BLG), "--normalised"]).stdout)
    twin = json.loads(runner.invoke(app, ["parse", str(CSV), "--normalised"]).stdout)
    assert shown["format"] == "perfmon_blg"
    record = shown["record"]
    assert len(record["columns"]) == 10 and len(record["rows"]) == 25
    assert record["rows"][0][1] == [None] * 6 + [86.93735103284412, None, None, 0.0]  # blanks as blanks
    assert (record["columns"], record["rows"]) == (twin["record"]["columns"], twin["record"]["rows"])


def _run_folder(tmp_path: Path) -> Path:
    """A Jetstress result folder on charlieparker whose test window covers the recording."""
    folder = tmp_path / "charlieparker-run"
    folder.mkdir()
    html = SSD_HTML.read_text(encoding="utf-8")
    html = html.replace("<td>SERVER</td>", "<td>CHARLIEPARKER</td>", 1)
    html = html.replace("10/5/2008 9:14:21 PM", "11/26/2016 1:40:00 PM").replace("10/5/2008 11:32:49 PM",
                                                                                  "11/26/2016 2:00:00 PM")
    (folder / "Performance_2016_11_26_13_40_0.html").write_text(html, encoding="utf-8")
    shutil.copy(BLG, folder / "Performance_2016_11_26_13_40_0.blg")
    return folder


def test_ingest_loads_the_samples_the_csv_loads_and_links_them_to_the_run(fresh_database_url, catalog, tmp_path):
    folder = _run_folder(tmp_path)
    result = runner.invoke(app, ["--database-url", fresh_database_url, "ingest", str(folder), "--format", "json"])
    assert result.exit_code == 0, result.output
    outcomes = {o["format"]: o for o in json.loads(result.stdout)}
    assert outcomes["perfmon_blg"]["status"] == "loaded", outcomes
    twin = runner.invoke(app, ["--database-url", fresh_database_url, "ingest", str(CSV), "--format", "json"])
    assert twin.exit_code == 0, twin.output
    query = text(
        "select c.counter_path, s.sampled_at, s.value from perf_samples s "
        "join perf_counters c on c.id = s.counter_id join source_files f on f.id = s.source_file_id "
        "where f.format = :format order by c.column_index, s.sampled_at")
    with catalog.engine.connect() as conn:
        blg_samples = conn.execute(query, {"format": "perfmon_blg"}).all()
        csv_samples = conn.execute(query, {"format": "perfmon_csv"}).all()
        (run_id,) = conn.execute(text("select id from runs")).one()
        files = conn.execute(text(
            "select f.format, p.run_id, p.row_count, p.bias_minutes, p.machine from perf_files p "
            "join source_files f on f.id = p.source_file_id order by f.format")).all()
        counters = conn.execute(text(
            "select count(*), count(distinct run_id), min(run_id) from perf_counters c "
            "join source_files f on f.id = c.source_file_id where f.format = 'perfmon_blg'")).one()
    assert len(blg_samples) == 250 and sum(s.value is None for s in blg_samples) == 8  # blanks load as NULL
    assert blg_samples == csv_samples
    blg_file = next(f for f in files if f.format == "perfmon_blg")
    assert (blg_file.run_id, blg_file.row_count, blg_file.bias_minutes, blg_file.machine) == (
        run_id, 25, 480, "charlieparker")
    assert tuple(counters) == (10, 1, run_id)


def test_ingest_of_an_unsupported_counter_type_fails_by_name_and_writes_nothing(fresh_database_url, catalog, tmp_path):
    bad = tmp_path / "Performance_bad.blg"
    bad.write_bytes(patched(FIRST_DEFINITION + 0xC, struct.pack("<I", 0x30020400)))
    result = runner.invoke(app, ["--database-url", fresh_database_url, "ingest", str(bad), "--format", "json"])
    (outcome,) = json.loads(result.stdout)
    assert (outcome["status"], outcome["format"]) == ("failed", "perfmon_blg")
    assert "PERF_AVERAGE_TIMER (0x30020400)" in outcome["message"] and "byte offset 65688" in outcome["message"]
    with catalog.engine.connect() as conn:
        assert conn.execute(text("select count(*) from source_files")).scalar_one() == 0
        assert conn.execute(text("select count(*) from perf_samples")).scalar_one() == 0
