"""The Jetstress test log: events, continuation lines, run-on paragraphs and thresholds."""

from __future__ import annotations

from datetime import datetime

from esrpdb.ingest.jetstress.log_events import extract_thresholds, parse_test_log, parse_test_log_lines
from esrpdb.ingest.jetstress.records import LogEvent, Thresholds

LOG_2010 = """\
5/28/2011 11:38:14 AM -- Jetstress testing begins ...
5/28/2011 11:38:30 AM -- Database read latency thresholds: (average: 20 msec/read, maximum: 100 msec/read).
5/28/2011 11:38:30 AM -- Log write latency thresholds: (average: 10 msec/write, maximum: 100 msec/write).
5/28/2011 1:40:37 PM --

C:\\Jetstress\\results\\Performance_2011_5_28_11_38_30.blg has 486 samples.
5/28/2011 1:40:39 PM -- Instance2836.1 has 16.7 for I/O Database Reads Average Latency.
"""


def test_one_event_per_timestamp_with_line_numbers():
    events, _ = parse_test_log(LOG_2010, first_line=10)
    assert events == [
        LogEvent(datetime(2011, 5, 28, 11, 38, 14), "Jetstress testing begins ...", 10),
        LogEvent(
            datetime(2011, 5, 28, 11, 38, 30),
            "Database read latency thresholds: (average: 20 msec/read, maximum: 100 msec/read).",
            11,
        ),
        LogEvent(
            datetime(2011, 5, 28, 11, 38, 30),
            "Log write latency thresholds: (average: 10 msec/write, maximum: 100 msec/write).",
            12,
        ),
        LogEvent(
            datetime(2011, 5, 28, 13, 40, 37),
            "C:\\Jetstress\\results\\Performance_2011_5_28_11_38_30.blg has 486 samples.",
            13,
        ),
        LogEvent(
            datetime(2011, 5, 28, 13, 40, 39), "Instance2836.1 has 16.7 for I/O Database Reads Average Latency.", 16
        ),
    ]


def test_thresholds_in_msec():
    _, thresholds = parse_test_log(LOG_2010)
    assert thresholds == Thresholds(
        unit="ms", db_read_avg=20.0, db_read_max=100.0, log_write_avg=10.0, log_write_max=100.0
    )


RUN_ON_2007 = (
    "9/18/2008 12:48:17 PM -- Dispatching transactions begins. "
    "9/18/2008 12:48:31 PM -- Database read latency thresholds: (average: 0.02 seconds/read, maximum: 0.05 seconds/read). "
    "9/18/2008 12:48:31 PM -- Log write latency thresholds: (average: 0.01 seconds/write, maximum: 0.05 seconds/write). "
    "9/18/2008 2:54:57 PM -- JetInterop batch transaction stats: 61,104, 60,876, and 60,912.\n"
    "9/18/2008 4:35:40 PM Creating test report.\n"
    "9/18/2008 4:35:53 PM Volume c:\\db1 has 0.0186 for Avg. Disk sec/Read."
)


def test_run_on_paragraph_splits_at_each_timestamp_and_2007_lines_without_dashes():
    events, thresholds = parse_test_log(RUN_ON_2007, first_line=100, split_inside_lines=True)  # PDF text
    assert [(e.logged_at.strftime("%H:%M:%S"), e.message, e.line) for e in events] == [
        ("12:48:17", "Dispatching transactions begins.", 100),
        (
            "12:48:31",
            "Database read latency thresholds: (average: 0.02 seconds/read, maximum: 0.05 seconds/read).",
            100,
        ),
        ("12:48:31", "Log write latency thresholds: (average: 0.01 seconds/write, maximum: 0.05 seconds/write).", 100),
        ("14:54:57", "JetInterop batch transaction stats: 61,104, 60,876, and 60,912.", 100),
        ("16:35:40", "Creating test report.", 101),
        ("16:35:53", "Volume c:\\db1 has 0.0186 for Avg. Disk sec/Read.", 102),
    ]
    assert thresholds == Thresholds(
        unit="s", db_read_avg=0.02, db_read_max=0.05, log_write_avg=0.01, log_write_max=0.05
    )


def test_wrapped_threshold_line_is_one_event():
    text = (
        "10/5/2008 9:32:32 PM -- Database read latency thresholds: (average: 0.02 seconds/read,\n"
        "maximum: 0.05 seconds/read).\n"
        "10/5/2008 9:32:33 PM -- Operation mix: Sessions 17, Inserts 40%, Deletes 30%, Replaces\n"
        "5%, Reads 25%, Lazy Commits 55%."
    )
    events, thresholds = parse_test_log(text)
    assert [e.message for e in events] == [
        "Database read latency thresholds: (average: 0.02 seconds/read, maximum: 0.05 seconds/read).",
        "Operation mix: Sessions 17, Inserts 40%, Deletes 30%, Replaces 5%, Reads 25%, Lazy Commits 55%.",
    ]
    assert thresholds == Thresholds(unit="s", db_read_avg=0.02, db_read_max=0.05)


def test_text_before_the_first_timestamp_is_an_undated_event():
    events, thresholds = parse_test_log("Test Log\n9/18/2008 10:13:13 AM -- Jetstress testing begins.")
    assert events == [
        LogEvent(None, "Test Log", 1),
        LogEvent(datetime(2008, 9, 18, 10, 13, 13), "Jetstress testing begins.", 2),
    ]
    assert thresholds is None


def test_timestamp_glued_to_a_heading_still_starts_an_event():
    events, _ = parse_test_log("Test Log10/5/2008 9:14:21 PM -- Jetstress testing begins ...", split_inside_lines=True)
    assert events == [
        LogEvent(None, "Test Log", 1),
        LogEvent(datetime(2008, 10, 5, 21, 14, 21), "Jetstress testing begins ...", 1),
    ]


def test_impossible_date_is_message_text():
    events, _ = parse_test_log("1/2/2011 1:00:00 AM -- replayed 13/45/2008 1:00:00 AM style text")
    assert events == [LogEvent(datetime(2011, 1, 2, 1, 0), "replayed 13/45/2008 1:00:00 AM style text", 1)]


def test_blank_text_gives_nothing():
    assert parse_test_log("") == ([], None)
    assert parse_test_log("\n  \n") == ([], None)


def test_lines_with_their_own_numbers():
    events, _ = parse_test_log_lines([(7, "6/1/2011 2:20:15 PM --"), (9, "C:\\x.blg has 5764 samples.")])
    assert events == [LogEvent(datetime(2011, 6, 1, 14, 20, 15), "C:\\x.blg has 5764 samples.", 7)]


def test_first_announcement_wins_and_mismatched_units_are_scaled():
    thresholds = extract_thresholds(
        [
            "Database read latency thresholds: (average: 20 msec/read, maximum: 200 msec/read).",
            "Log write latency thresholds: (average: 0.01 seconds/write, maximum: 0.1 seconds/write).",
            "Database read latency thresholds: (average: 99 msec/read, maximum: 999 msec/read).",
        ]
    )
    assert thresholds == Thresholds(
        unit="ms", db_read_avg=20.0, db_read_max=200.0, log_write_avg=10.0, log_write_max=100.0
    )


def test_no_thresholds():
    assert extract_thresholds(["Jetstress testing begins ..."]) is None


def test_garbled_threshold_numbers_are_no_announcement():
    garbled = "Database read latency thresholds: (average: 2.0.0 msec/read, maximum: 100 msec/read)."
    assert extract_thresholds([garbled]) is None


def test_a_log_line_whose_message_holds_dates_is_one_event():
    """In a *.log file each event has its own line: a date inside a message starts nothing."""
    text = ("5/28/2011 11:38:30 AM -- Preparing for testing ...\r\n"
            "5/28/2011 11:38:41 AM -- Database backup from 5/27/2011 10:00:00 PM restored; "
            "next check 5/29/2011 1:00:00 AM.\r\n"
            "5/28/2011 11:39:02 AM -- Attaching databases ...\r\n")
    events, _ = parse_test_log(text)
    assert [e.message for e in events] == [
        "Preparing for testing ...",
        "Database backup from 5/27/2011 10:00:00 PM restored; next check 5/29/2011 1:00:00 AM.",
        "Attaching databases ...",
    ]
