"""Synthetic fixtures are reproducible: their generators rebuild the committed files byte for byte."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.helpers import FIXTURES


@pytest.mark.parametrize("script", ["jetstress_html/build_fixtures.py", "generate_perfmon_power.py"])
def test_generator_reproduces_the_committed_files(script):
    done = subprocess.run([sys.executable, str(FIXTURES / script), "--check"], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
