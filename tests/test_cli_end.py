"""cli/startup.ended: a command ends without the interpreter's teardown, and nothing of its end is lost:
the exit status, every byte of its output, the exit handlers; a thread still running is waited for,
as the interpreter waits. Each case is the entry point in its own interpreter (`os._exit` ends it)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from esrpdb.cli import startup


def _entry(code: str, *argv: str, tmp_path) -> subprocess.CompletedProcess:
    """`code`, then the `esrpdb` console script's function with `argv`, in a new interpreter."""
    script = f"{code}\nimport sys\nsys.argv = ['esrpdb', *{list(argv)!r}]\nfrom esrpdb.cli import console\nconsole.entry()\n"
    env = {k: v for k, v in os.environ.items() if not k.startswith("ESRPDB_")}
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120)


def test_the_exit_status_is_the_commands(tmp_path):
    assert _entry("", "--version", tmp_path=tmp_path).returncode == 0
    wrong = _entry("", "no-such-command", tmp_path=tmp_path)
    assert wrong.returncode == 2 and "No such command" in wrong.stderr


def test_every_byte_written_is_flushed(tmp_path):
    """A megabyte written before the command (as a long listing is) reaches the pipe whole."""
    done = _entry("import sys; sys.stdout.write('x' * 1_000_000)", "--version", tmp_path=tmp_path)
    assert done.returncode == 0 and done.stdout.startswith("x" * 1_000_000) and "esrpdb" in done.stdout[-40:]


def test_the_exit_handlers_run(tmp_path):
    marker = tmp_path / "handler-ran"
    done = _entry(f"import atexit; atexit.register(lambda: open({str(marker)!r}, 'w').write('ran'))", "--version",
                  tmp_path=tmp_path)
    assert done.returncode == 0 and marker.read_text() == "ran"


def test_a_running_thread_is_waited_for(tmp_path):
    marker = tmp_path / "thread-done"
    done = _entry("import threading, time\n"
                  f"threading.Thread(target=lambda: (time.sleep(0.3), open({str(marker)!r}, 'w').write('done'))).start()",
                  "--version", tmp_path=tmp_path)
    assert done.returncode == 0 and marker.read_text() == "done"


@pytest.mark.parametrize("code", ["a message", 2.5])
def test_a_status_that_is_no_number_ends_the_usual_way(code):
    """SystemExit("text") prints the text and exits 1: the interpreter's own handling, so it is left to it."""
    with pytest.raises(SystemExit) as raised:
        startup.ended(code)
    assert raised.value.code == code


def test_run_returns_to_its_caller():
    """`run` (which the tests call in-process) ends with SystemExit; only `entry` ends the process."""
    done = subprocess.run(
        [sys.executable, "-c", "import sys\nsys.argv = ['esrpdb', '--version']\nfrom esrpdb.cli import main\n"
         "try:\n    main.run()\nexcept SystemExit as done:\n    print('returned', done.code)\n"],
        capture_output=True, text=True, timeout=120)
    assert done.stdout.splitlines()[-1] == "returned 0"

