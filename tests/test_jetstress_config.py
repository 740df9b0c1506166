"""JetstressConfig.xml parser: the two real samples, odd durations, and hostile or broken input."""

from __future__ import annotations

from pathlib import Path

import pytest

from esrpdb.ingest.errors import ParseError
from esrpdb.ingest.formats import config as jetstress_config, perfmon as perfmon_csv, power as power_log

REPO = Path(__file__).parents[1]
SAMPLES = REPO / "fixtures" / "config"
HM = SAMPLES / "JetstressConfig-HM.xml"
INVALID = SAMPLES / "JetstressConfig-template-invalid.xml"


@pytest.fixture(scope="module")
def hm_bytes() -> bytes:
    # The real samples are committed under fixtures/config; if missing the test fails, never skips.
    assert HM.is_file(), f"real sample missing: {HM}"
    return HM.read_bytes()


def _parse_error(name: str, data: bytes) -> str:
    with pytest.raises(ParseError) as caught:
        jetstress_config.parse(name, data)
    text = str(caught.value)
    assert text.startswith(name), text
    return text


# --- the real samples ----------------------------------------------------------------------


def test_hm_sample_matches_what_its_readme_says(hm_bytes):
    readme = (REPO / "fixtures" / "README.md").read_text()
    assert "Performance, 4 databases, 300 mailboxes, 1 IOPS/mailbox, 100 MB quota, 3 copies, 15 minutes" in readme

    config = jetstress_config.parse(HM.name, hm_bytes)

    design, profile = config.test_design, config.profile
    assert design.test_type == "Performance"
    assert len(profile.ese_instances) == 4
    assert profile.mailbox_count == 300
    assert profile.iops_per_mailbox == 1.0
    assert profile.mailbox_quota_mb == 100.0
    assert profile.database_copy_count == 3
    assert design.duration_s == 900.0 and design.duration_iso == "P0Y0M0DT0H15M0S"
    assert [(t.name, t.test_run_types) for t in design.thresholds] == [("Strict", ()), ("Lenient", ("Stress",))]


def test_hm_sample_keeps_every_element(hm_bytes):
    config = jetstress_config.parse(HM.name, hm_bytes)
    design, profile, params = config.test_design, config.profile, config.jet_system_params

    assert (config.jetstress_version, config.ese_version) == ("15.0.995.0", "15.0.847.30")
    assert config.extra == ()  # every element of the real file has a field
    assert design.description is None  # <Description />
    assert (design.multi_host_break, design.binary_perf_log, design.verify_checksum) == (False, True, True)
    assert design.run_database_maintenance_performance is True
    assert design.run_database_maintenance_soft_recovery is False
    assert (design.suppress_tuning, design.use_ese_counters, design.backup_to_disk) == (False, True, False)
    assert design.preload_jet_cache_fraction == 0.9
    assert (design.log_files_to_replay, design.log_files_to_checksum) == (500, 500)
    assert (design.log_interval_ms, design.log_interval2_ms) == (15000, 5000)
    mix = design.operation_mix
    assert (mix.lock_ops, mix.insert_percent, mix.delete_percent, mix.replace_percent, mix.lazy_commit_percent) == (
        True,
        40.0,
        20.0,
        5.0,
        70.0,
    )
    assert mix.read_percent == 35.0  # docs §3: 100 - 40 - 20 - 5
    assert (design.retrieve_lv_on_read, design.retrieve_lv_on_scan) == (False, False)
    assert (design.preread_on_read, design.preread_on_scan, design.update_lv) == (False, True, True)
    assert design.scan_percent == 0.0
    assert design.restore_backup_path is None and design.output_path == "."
    assert (design.maximum_checksum_buffers, design.maximum_checksum_threads) == (20971520, 400)
    assert (design.maximum_latency_errors, design.sluggish_sessions) == (6, 1)
    assert (design.batch_records, design.batch_updates, design.bulky1_percent) == (1, 16, 100.0)
    strict, lenient = design.thresholds
    assert (strict.db_read_avg_ms, strict.db_read_max_ms, strict.log_write_avg_ms, strict.log_write_max_ms) == (
        20.0,
        100.0,
        10.0,
        100.0,
    )
    assert (lenient.db_read_avg_ms, lenient.db_read_max_ms, lenient.log_write_avg_ms, lenient.log_write_max_ms) == (
        20.0,
        200.0,
        10.0,
        200.0,
    )
    assert strict.line == 39 and lenient.line == 45

    assert profile.thread_count == 4
    assert (profile.trans_per_sec, profile.throughput_percent, profile.capacity_percent) == (0.0, 100.0, 100.0)
    assert (profile.database_source, profile.database_sizing) == ("Open", "Profile")
    assert profile.iops_margin_fraction == 0.05
    assert (profile.long_pad_length, profile.short_pad_length) == (2000, 200)
    assert profile.database_space_reserved_percent == 25.0
    assert profile.target_iops == 300.0
    for number, instance in enumerate(profile.ese_instances, start=1):
        assert instance.iops_bias == 1.0
        assert instance.database_paths == (f"E:\\db{number}\\db",)
        assert instance.log_path == f"E:\\db{number}\\log"
        assert instance.database_backup_path is None

    assert (params.database_page_size_bytes, params.circular_log, params.log_file_size_kib) == (32768, 1, 1024)
    assert (params.max_ver_pages, params.dbm_throttling) == (8192, 100)


def test_invalid_template_is_one_error_listing_every_problem():
    assert INVALID.is_file(), f"real sample missing: {INVALID}"
    text = _parse_error(INVALID.name, INVALID.read_bytes())

    assert "6 problems" in text
    assert (
        "TestDesignInfo/Type (line 6): 'asfdsa' is not a test type; "
        "allowed: Performance, Stress, DatabaseBackup, SoftRecovery" in text
    )
    assert "ExchangeProfile/ThreadCount (line 54): empty while TestDesignInfo/SuppressTuning is true" in text
    assert "ExchangeProfile/MailboxCount (line 60): empty" in text
    assert "ExchangeProfile/MailboxQuota (line 61): empty" in text
    assert "ExchangeProfile/MailboxIops (line 62): empty" in text
    assert "ExchangeProfile/EseInstances (line 53): missing from <ExchangeProfile>" in text


def test_empty_thread_count_means_auto_tune_when_tuning_is_allowed(hm_bytes):
    data = hm_bytes.replace(b"<ThreadCount>4</ThreadCount>", b"<ThreadCount></ThreadCount>")
    assert jetstress_config.parse("auto.xml", data).profile.thread_count is None


@pytest.mark.parametrize(
    ("iso", "seconds"),
    [
        ("P0Y0M0DT0H15M0S", 900),
        ("P0Y0M0DT2H0M0S", 7200),
        # JetEdit writes these for "5400s" and "1500m" (docs §3). By the xs:duration standard they
        # mean 1 h + 90 min and 1 d + 25 h: the standard value is what Jetstress runs, so we keep it.
        ("P0Y0M0DT1H90M0S", 3600 + 90 * 60),
        ("P0Y0M1DT25H0M0S", 86400 + 25 * 3600),
        ("P0Y0M1DT0H0M0S", 86400),
        ("PT0.5S", 0.5),
    ],
)
def test_durations_are_read_with_a_real_xs_duration_parser(hm_bytes, iso, seconds):
    data = hm_bytes.replace(b"P0Y0M0DT0H15M0S", iso.encode())
    design = jetstress_config.parse("d.xml", data).test_design
    assert (design.duration_iso, design.duration_s) == (iso, seconds)


@pytest.mark.parametrize(
    ("iso", "reason"),
    [("P0Y1M0DT0H0M0S", "years or months"), ("2 hours", "not an xs:duration"), ("-PT5M", "negative")],
)
def test_bad_durations_are_named(hm_bytes, iso, reason):
    text = _parse_error("d.xml", hm_bytes.replace(b"P0Y0M0DT0H15M0S", iso.encode()))
    assert "TestDesignInfo/Duration (line 9)" in text and reason in text


def test_bad_values_are_named_with_their_element_and_line(hm_bytes):
    data = (
        hm_bytes.replace(b"<MailboxCount>300</MailboxCount>", b"<MailboxCount>three hundred</MailboxCount>")
        .replace(b"<VerifyChecksum>true</VerifyChecksum>", b"<VerifyChecksum>yes</VerifyChecksum>")
        .replace(b"<Type>Performance</Type>", b"<Type>Performance</Type><Type>Stress</Type>")
    )
    text = _parse_error("bad.xml", data)
    assert "ExchangeProfile/MailboxCount (line 59): 'three hundred' is not a whole number" in text
    assert "TestDesignInfo/VerifyChecksum (line 11): 'yes' is not a boolean; allowed: true, false" in text
    assert "TestDesignInfo/Type (line 6): appears 2 times" in text


def test_unknown_elements_and_attributes_are_kept_in_extra(hm_bytes):
    data = hm_bytes.replace(b"<UpdateLV>true</UpdateLV>", b"<UpdateLV>true</UpdateLV><NewSwitch>yes</NewSwitch>")
    data = data.replace(b'<EseInstance IopsBias="1">', b'<EseInstance IopsBias="1" Weight="2">', 1)
    data = data.replace(b"</JetSystemParams>", b'</JetSystemParams><Custom a="1"><Inner>x</Inner></Custom>')
    extra = jetstress_config.parse("extra.xml", data).extra
    assert ("TestDesignInfo/NewSwitch", "yes") in extra
    assert ("ExchangeProfile/EseInstances/EseInstance[1]/@Weight", "2") in extra
    assert ("configuration/Custom", "") in extra
    assert ("configuration/Custom/@a", "1") in extra
    assert ("configuration/Custom/Inner", "x") in extra


def test_several_paths_and_the_optional_backup_path(hm_bytes):
    data = hm_bytes.replace(
        b"<Path>E:\\db1\\db</Path>",
        b"<Path>E:\\db1\\db</Path><Path>F:\\db1b\\db</Path>",
    ).replace(
        b"<LogPath>E:\\db1\\log</LogPath>",
        b"<LogPath>E:\\db1\\log</LogPath><DatabaseBackupPath>G:\\bk1</DatabaseBackupPath>",
    )
    first = jetstress_config.parse("paths.xml", data).profile.ese_instances[0]
    assert first.database_paths == ("E:\\db1\\db", "F:\\db1b\\db")
    assert first.database_backup_path == "G:\\bk1"


def test_an_instance_without_paths_is_named(hm_bytes):
    data = hm_bytes.replace(b"<Path>E:\\db2\\db</Path>", b"<Path />").replace(
        b"<LogPath>E:\\db3\\log</LogPath>", b"<LogPath />"
    )
    text = _parse_error("nopath.xml", data)
    assert "EseInstance[2]/DatabasePaths (line 74): no database path" in text
    assert "EseInstance[3]/LogPath (line 84): empty" in text


# --- identify ----------------------------------------------------------------------------


def test_identify_claims_the_config_and_its_run_copy(hm_bytes):
    assert jetstress_config.identify("JetstressConfig.xml", hm_bytes[:8192])
    assert jetstress_config.identify("XmlConfig_2015_7_17_14_9_16.xml", hm_bytes[:8192])
    utf16 = hm_bytes.decode().replace('<?xml version="1.0"?>', '<?xml version="1.0" encoding="utf-16"?>')
    data = b"\xff\xfe" + utf16.encode("utf-16-le")
    assert jetstress_config.identify("any.xml", data[:8192])
    assert jetstress_config.parse("utf16.xml", data).profile.mailbox_count == 300


def test_identify_refuses_other_formats():
    html = next((REPO / "fixtures" / "jetstress_html").rglob("*.html"), None)
    others = [
        REPO / "fixtures" / "perfmon" / "seed000-dell-equallogic.csv",
        REPO / "fixtures" / "power" / "seed002-savvio-hdd.csv",
        REPO / "fixtures" / "documents" / "000_cfe3f1c33c0344dc.txt",
    ] + ([html] if html else [])
    for path in others:
        assert not jetstress_config.identify(path.name, path.read_bytes()[:8192]), path
    app_config = (
        b'<?xml version="1.0"?>\n<configuration><appSettings><add key="a" value="b"/></appSettings></configuration>'
    )
    assert not jetstress_config.identify("web.config", app_config)


def test_other_parsers_refuse_the_config(hm_bytes):
    assert not perfmon_csv.identify(HM.name, hm_bytes[:8192])
    assert not power_log.identify(HM.name, hm_bytes[:8192])


# --- broken and hostile input ----------------------------------------------------------------


def test_empty_file():
    assert "empty file" in _parse_error("empty.xml", b"  \n")


def test_truncated_file(hm_bytes):
    cut = hm_bytes[: hm_bytes.index(b"<ExchangeProfile>") + 40]
    text = _parse_error("truncated.xml", cut)
    assert "not well-formed XML" in text and "line 53" in text


def test_html_report_is_not_a_config():
    html = next((REPO / "fixtures" / "jetstress_html").rglob("*.html"), None)
    data = html.read_bytes() if html else b"<html><body><p>Performance Test Result Report</p></body></html>"
    text = _parse_error("Performance_2008_9_18_12_48_31.html", data)
    assert "line " in text


def test_well_formed_xml_with_another_root():
    text = _parse_error("other.xml", b'<?xml version="1.0"?>\n<html><body/></html>')
    assert "root element is <html>, expected <configuration>" in text and "line 1" in text


def test_latin1_bytes_in_a_utf8_document(hm_bytes):
    data = hm_bytes.replace(b"<Description />", "<Description>Caf\u00e9 test</Description>".encode("latin-1"))
    text = _parse_error("latin1.xml", data)
    assert "not well-formed XML" in text and "line 8" in text


def test_latin1_bytes_where_utf16_is_declared(hm_bytes):
    data = hm_bytes.replace(b'<?xml version="1.0"?>', b'<?xml version="1.0" encoding="utf-16"?>')
    text = _parse_error(
        "utf16-declared.xml",
        data.decode().replace("<Description />", "<Description>Café</Description>").encode("latin-1"),
    )
    assert "line 1" in text


def test_entity_bomb_is_refused_without_expansion():
    bomb = b"""<?xml version="1.0"?>
<!DOCTYPE configuration [
  <!ENTITY a "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa">
  <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
  <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
  <!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">
]>
<configuration><TestDesignInfo><Description>&d;&d;&d;&d;</Description></TestDesignInfo></configuration>"""
    text = _parse_error("bomb.xml", bomb)
    assert "<!DOCTYPE configuration> (DTDForbidden)" in text and "line 2" in text


def test_external_entity_is_refused_and_not_read():
    xxe = b"""<?xml version="1.0"?>
<!DOCTYPE configuration [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<configuration><TestDesignInfo><Description>&xxe;</Description></TestDesignInfo></configuration>"""
    text = _parse_error("xxe.xml", xxe)
    assert "line 2" in text and "root:" not in text
