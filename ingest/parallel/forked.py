"""Work done in a forked process, its result read back through a pipe.

PDFium is single-threaded and reading a PDF is CPU work; the machine has more than one core. A
forked child shares the parent's memory (the PDF's bytes, the imported code) without copying
it, computes one pure function, pickles the result into a pipe, and leaves with `os._exit`, so
it never runs the finalizers of the parent's objects (its open database connections above all).
"""

from __future__ import annotations

import gc
import os
import pickle
import signal
from dataclasses import dataclass
from typing import Any, Callable, Protocol, Sequence

from ... import kept_code


class ForkFailed(RuntimeError):
    """The child could not give a result: what it raised, or that it stopped."""


def die_with_parent(parent_pid: int) -> None:  # pragma: no cover - runs in a child
    """The kernel kills this process when its parent ends (Linux's PR_SET_PDEATHSIG): a reading process,
    or a helper it forked, never goes on alone after `kill -9` of the ingest (4 processes stayed CPU-bound
    for 182 s), nor holds a pipe its stopped parent's reader waits on. Elsewhere, a no-op."""
    import ctypes
    import sys

    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent_pid:  # the parent ended before the call: nothing would signal us
        os._exit(1)


def available() -> bool:
    return can_fork() and (os.cpu_count() or 1) > 1


def can_fork() -> bool:
    return hasattr(os, "fork")


@dataclass
class Forked:
    pid: int
    reading: int
    done: bool = False
    own_group: bool = False  # the child leads a process group: stopping it stops what it started too


def start(function: Callable[..., Any], *args: Any, lower_priority: bool = False,
          setup: Callable[[], None] | None = None, own_group: bool = False) -> Forked:
    """`lower_priority`: the child runs at the lowest CPU priority (nice 19), on what others leave idle.
    `setup` runs in the child first (its resource limits); `own_group`: the child and any process it
    forks form a group of their own, which `abandon` stops whole."""
    reading, writing = os.pipe()
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child's coverage is not collected
        try:
            die_with_parent(parent)
            gc.freeze()  # the parent's objects are never collected here: the child's collections do not walk
            # (and so copy) the pages they sit on; what the child makes is collected as usual, even while
            gc.enable()  # the parent's start-up holds its own collector off (cli/main.py)
            os.close(reading)
            if own_group:
                os.setpgid(0, 0)
            if lower_priority:
                _lowest_priority()
            try:
                if setup is not None:
                    setup()
                outcome: tuple[str, Any] = ("ok", function(*args))
            except BaseException as error:  # noqa: BLE001 - reported to the parent, which decides
                outcome = ("error", f"{type(error).__name__}: {error}")
            with os.fdopen(writing, "wb") as out:
                pickle.dump(outcome, out, protocol=pickle.HIGHEST_PROTOCOL)
            kept_code.save()  # the result sent first: what this child compiled new, for the next command
        finally:
            os._exit(0)
    os.close(writing)
    if own_group:  # from here too, so the group exists before start returns
        try:
            os.setpgid(pid, pid)
        except OSError:
            pass  # the child has set it, or has already left
    if lower_priority:  # set from here too, so it holds once start returns (the child's own call may come later)
        try:
            os.setpriority(os.PRIO_PROCESS, pid, 19)
        except OSError:
            pass
    return Forked(pid, reading, own_group=own_group)


def _lowest_priority() -> None:  # pragma: no cover - runs in the child
    try:
        os.nice(19)  # before it forks a helper of its own (pdf/layout.py), which inherits it; the kernel stops at 19
    except OSError:
        pass  # a system that refuses it: the child runs at its parent's priority, only slower to finish


def finished(forked: Forked, wait_s: float = 0.0) -> bool:
    """Whether the child has its result (it writes only once it has computed it) or has stopped,
    waiting up to `wait_s` for it."""
    import select

    poller = select.poll()  # not select(): a batch may hold descriptors past FD_SETSIZE
    poller.register(forked.reading, select.POLLIN | select.POLLHUP)
    return bool(poller.poll(max(0, int(wait_s * 1000))))


class Waitable(Protocol):
    @property
    def reading(self) -> int: ...  # readable once the result is there or the process has stopped


def wait_any(children: Sequence[Waitable], wait_s: float = 1.0) -> None:
    """Wait until one of the children has its result or has stopped (at most `wait_s`)."""
    import select

    poller = select.poll()
    for child in children:
        poller.register(child.reading, select.POLLIN | select.POLLHUP)
    poller.poll(max(0, int(wait_s * 1000)))


def result(forked: Forked) -> Any:
    """The child's return value; ForkFailed with its reason when it raised or stopped."""
    forked.done = True
    with os.fdopen(forked.reading, "rb") as source:
        try:
            status, value = pickle.load(source)
        except (EOFError, pickle.UnpicklingError):
            status, value = "error", "the child process stopped"
    code = _reaped(forked.pid)
    if status != "ok" and code is not None and os.WIFSIGNALED(code):
        value = f"{value} ({_signal_name(os.WTERMSIG(code))})"
    if status != "ok":
        raise ForkFailed(value)
    return value


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def abandon(forked: Forked) -> None:
    """Stop a child whose result is no longer wanted, and reap it."""
    if forked.done:
        return
    forked.done = True
    try:
        if forked.own_group:
            os.killpg(forked.pid, signal.SIGKILL)
        else:
            os.kill(forked.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    os.close(forked.reading)
    _reaped(forked.pid)


def _reaped(pid: int) -> int | None:
    """Wait for this one child by its own pid (never 0 or -1, which would reap another's); its status,
    or None when something else reaped it already."""
    if pid <= 0:
        return None
    try:
        return os.waitpid(pid, 0)[1]
    except ChildProcessError:
        return None
