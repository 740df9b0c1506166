"""Reading processes forked once and given one file after another, not one process a file.

A process forked for each PDF of a folder paid for its fork every time: the page tables of a parent
of ~90 MB, the pages its first touches copied, its exit (measured on 40 PDFs of 15-40 pages: 0.5 s of
system time in the children, 0.1 s in the parent, a tenth of the batch's reading wall time against
the same PDFs read by one process). A worker is forked once, reads each file it is sent within the
budget of that file (`each`: its clock), sends back the result, and waits for the next.

A worker that stops mid-file (its file's time or memory limit, a crash in PDFium) gives that file no
result and is not used again; the next file goes to a worker forked anew. A worker leaves by itself
after MAX_FILES files, or once its data has grown MAX_GROWTH_BYTES past what it started with, so one
worker's leftovers never eat into the memory limit of the files it reads later. It leaves too when
the parent goes (its request pipe closes).
"""

from __future__ import annotations

import contextlib
import gc
import os
import signal
from multiprocessing.connection import Connection, Pipe
from typing import Any, Callable, ContextManager

from ... import kept_code
from .forked import ForkFailed, die_with_parent

MAX_FILES = 64  # files one worker reads before it leaves (a fork per 64 files costs nothing measurable)
MAX_GROWTH_BYTES = 64 * 2**20  # data grown past this (caches, fragments of PDFium's heap): the worker leaves

Work = Callable[[Any], Any]
Clock = Callable[[], ContextManager[None]]


def _no_clock() -> ContextManager[None]:
    return contextlib.nullcontext()


class Worker:
    """One forked reading process: `send` a file, then `result` once `reading` (its result pipe) is readable."""

    def __init__(self, work: Work, setup: Callable[[], None] | None = None, each: Clock = _no_clock) -> None:
        """`setup` runs once in the worker (its limits), `each()` around every file (that file's clock)."""
        requests_out, requests_in = Pipe(duplex=False)
        results_out, results_in = Pipe(duplex=False)
        parent = os.getpid()
        self.pid = os.fork()
        if self.pid == 0:  # pragma: no cover - runs in the worker
            try:
                die_with_parent(parent)
                requests_in.close()
                results_out.close()
                _serve(work, setup, each, requests_out, results_in)
            finally:
                os._exit(0)
        requests_out.close()
        results_in.close()
        self._requests, self._results = requests_in, results_out
        self.busy = False
        self.usable = True  # False once it has stopped, is leaving, or was stopped
        self._status: int | None = None  # its wait status, once reaped

    @property
    def reading(self) -> int:
        """The result pipe's descriptor: readable when the result is there or the worker has stopped."""
        return self._results.fileno()

    def send(self, item: Any) -> None:
        try:
            self._requests.send(item)
        except OSError:  # it has stopped: the result will say so
            pass
        self.busy = True

    def finished(self) -> bool:
        try:
            return self._results.poll(0)
        except OSError:
            return True

    def result(self) -> Any:
        """The work's return value; ForkFailed with the reason when it raised or the worker stopped."""
        self.busy = False
        try:
            (status, value), leaving = self._results.recv()
        except (EOFError, OSError, ValueError) as error:  # ValueError: a message cut short
            ending = self._ending()  # before stop(), which forgets the pid
            self.stop()
            raise ForkFailed(f"the reading process stopped ({ending or error})") from None
        if leaving:
            self.stop()
        if status != "ok":
            raise ForkFailed(value)
        return value

    def stop(self) -> None:
        """End the worker (a reading nobody wants, a worker leaving or stopped) and reap it."""
        if self.pid <= 0:
            return
        self.usable = self.busy = False
        self._requests.close()
        self._results.close()
        pid, self.pid = self.pid, 0
        if self._status is None:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            try:
                os.waitpid(pid, 0)  # this worker alone, by its own pid
            except ChildProcessError:
                pass

    def _ending(self) -> str | None:
        """How the stopped worker ended (its signal's name), reaping it; None when it has not ended.

        The worker's pipe is closed once the worker is gone, but also once a helper it forked is: wait a
        moment for the worker itself, so its signal (SIGALRM: its PDF's time limit) is the one told."""
        import time

        if self.pid <= 0:
            return None
        deadline = time.monotonic() + 1.0
        while self._status is None:
            try:
                done, code = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:
                return None
            if done:
                self._status = code
            elif time.monotonic() > deadline:
                return None
            else:
                time.sleep(0.01)
        if os.WIFSIGNALED(self._status):
            try:
                return signal.Signals(os.WTERMSIG(self._status)).name
            except ValueError:
                return f"signal {os.WTERMSIG(self._status)}"
        return None


def _serve(work: Work, setup: Callable[[], None] | None, each: Clock, requests: Connection,
           results: Connection) -> None:  # pragma: no cover - runs in the worker
    # The parent's objects are never collected here: the collections do not walk (and copy) their pages. What
    # the worker makes is collected once each file's result is sent, not while the file is read: a reading
    # leaves a few hundred objects in cycles (a 19-page PDF: ~600 of 15,000), and the collections made during
    # it were ~4 ms of that PDF's 0.3 s, on the path `esrpdb ingest FILE` waits on. (The parent's start-up
    # holds its own collector off, cli/main.py; here it stays off.)
    gc.freeze()
    gc.disable()
    if setup is not None:
        setup()
    start = data_bytes()
    for done in range(1, MAX_FILES + 1):
        try:
            item = requests.recv()
        except (EOFError, OSError):  # the parent has gone, or closed the pipe
            return
        try:
            with each():
                outcome: tuple[str, Any] = ("ok", work(item))
        except BaseException as error:  # noqa: BLE001 - reported to the parent, which decides
            outcome = ("error", f"{type(error).__name__}: {error}")
        now = data_bytes()
        leaving = done == MAX_FILES or (start is not None and now is not None and now - start > MAX_GROWTH_BYTES)
        results.send((outcome, leaving))
        kept_code.save()  # the result sent first: what this worker compiled new, for the next command
        if leaving:
            return
        gc.collect(0)  # all the file's reading made is in the youngest generation: the collector is off


def data_bytes() -> int | None:
    """The process's data segment (VmData); None where /proc is missing."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmData:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    return None
