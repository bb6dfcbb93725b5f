"""Ctrl-C and SIGTERM: one line and the exit code (130, 143) wherever the command is, no traceback, nothing
half-written; a reader that leaves early ends the command quietly."""

from __future__ import annotations

import ctypes
import io
import os
import signal
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sim.cli import common as cli_common
from sim.cli import main as cli_main
from sim.cli import shared as cli_shared
from sim.cli.main import EXIT_INTERRUPTED, app
from sim.play import runner
from sim.play.context import RunContext


@pytest.fixture
def signals_restored(monkeypatch):
    """stop_on_sigterm installs process-wide handlers: put the test process's back afterwards."""
    old_int, old_term = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    runner.clear_stop()
    cli_common._STOP_SAID.clear()
    yield
    runner.clear_stop()
    cli_common._STOP_SAID.clear()
    signal.signal(signal.SIGINT, old_int)
    signal.signal(signal.SIGTERM, old_term)


@pytest.fixture
def unraisable(monkeypatch):
    """What reaches sys.unraisablehook (Python prints it on stderr as 'Exception ignored ...')."""
    seen = []
    monkeypatch.setattr(sys, "unraisablehook", lambda args: seen.append(args.exc_value))
    return seen


class _InterruptImport:
    """A meta path finder that raises KeyboardInterrupt when ``name`` is imported (Ctrl-C while it loads)."""

    def __init__(self, name, stop=KeyboardInterrupt):
        self.name, self.stop = name, stop

    def find_spec(self, name, path=None, target=None):
        if name == self.name:
            raise self.stop()
        return None


def _entry_exit_code() -> int:
    """`sim.cli.entry.main()`'s exit code, with the SIGTERM handler it installs put back afterwards."""
    from sim.cli import entry

    old_term = signal.getsignal(signal.SIGTERM)
    try:
        with pytest.raises(SystemExit) as e:
            entry.main()
    finally:
        signal.signal(signal.SIGTERM, old_term)
    return e.value.code


REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data"
BASE = DATA / "moor-2p-small.toml"
cli = CliRunner()


def test_an_interrupt_swallowed_by_a_ctypes_callback_prints_no_ignored_exception(signals_restored, unraisable):
    """The interrupt is remembered and reported in the command's one stop line; the swallowed exception itself is
    not printed (no 'Exception ignored ...' and its traceback on stderr)."""
    runner.stop_on_sigterm()

    @ctypes.CFUNCTYPE(None)
    def callback():  # like llvmlite's _raw_object_cache_notify, called from C
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(10000):  # the handler runs here, inside the callback
            pass

    callback()
    assert unraisable == []
    assert runner.pending() is not None


@pytest.mark.kernel
def test_a_swallowed_interrupt_stops_the_next_games_until_it_is_reported(moor_sc, signals_restored):
    """Ctrl-C while Numba compiles can land in a ctypes callback that swallows the KeyboardInterrupt (seen in CI:
    'Exception ignored on calling ctypes callback function'); the signal is remembered and the next games refuse to
    start until the command has reported it (`clear_stop`)."""
    runner.stop_on_sigterm()
    try:  # what the ctypes callback does with it
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(1000):
            pass
    except KeyboardInterrupt:
        pass
    sc = moor_sc(2, ("random", "weighted"))
    with pytest.raises(KeyboardInterrupt):
        runner.play_chunk(sc, 0, 8)
    runner.clear_stop()
    assert runner.play_chunk(sc, 0, 8).status.shape == (8,)  # reported: the next command plays


def test_other_unraisable_exceptions_are_still_printed(signals_restored, unraisable):
    runner.stop_on_sigterm()

    @ctypes.CFUNCTYPE(None)
    def callback():
        raise ValueError("a real bug")

    callback()
    assert [str(e) for e in unraisable] == ["a real bug"]


@pytest.mark.parametrize(
    "stop, code, words",
    [
        (KeyboardInterrupt, cli_common.EXIT_INTERRUPTED, "interrupted (Ctrl-C)"),
        (runner.Terminated, cli_common.EXIT_TERMINATED, "terminated (SIGTERM)"),
    ],
)
def test_an_error_after_a_swallowed_interrupt_is_reported_as_the_interrupt(
    signals_restored, monkeypatch, capfd, stop, code, words
):
    """`sim run` interrupted during the first compile: Numba's cache write fails after the interrupt was swallowed;
    the command says it was interrupted (one line, exit 130 / 143), no traceback."""

    def compile_interrupted(*a, **k):
        runner._PENDING.append(stop)  # what the signal handler did before the callback swallowed it
        raise RuntimeError("no compiled object yet for <Library 'push_tile'>")

    monkeypatch.setattr(cli_shared, "load_scenario", compile_interrupted)
    monkeypatch.setattr(sys, "argv", ["sim", "run", "whatever.toml"])
    with pytest.raises(SystemExit) as e:
        cli_main.main()
    err = capfd.readouterr().err
    assert e.value.code == code, err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith(words), err
    assert runner.pending() is None


def test_an_error_without_an_interrupt_is_not_hidden(signals_restored, monkeypatch):
    def bug(*a, **k):
        raise RuntimeError("a real bug")

    monkeypatch.setattr(cli_shared, "load_scenario", bug)
    monkeypatch.setattr(sys, "argv", ["sim", "run", "whatever.toml"])
    with pytest.raises(RuntimeError, match="a real bug"):
        cli_main.main()


@pytest.mark.kernel
def test_a_chunk_without_progress_stops_soon_on_ctrl_c(moor_sc, monkeypatch, signals_restored):
    """`sim check` plays without a progress callback: its 60,000-game chunk of Turnwall on one thread used to be one
    kernel call, and Ctrl-C waited for it (45 s). Now the main thread only waits for blocks of about BLOCK_S seconds
    played on the thread pool: a Ctrl-C (here `_thread.interrupt_main`, as the terminal's SIGINT) raises at once and
    the blocks already running end soon, on one thread as on two. With Python's own SIGINT handler, as a terminal's
    `sim` has it (`signals_restored`): pytest started in the background inherits an ignored SIGINT, and then
    `interrupt_main` does nothing (two clean-clone CI runs started with `nohup ... &` failed so)."""
    import _thread
    import threading
    import time

    sc = moor_sc(4, ("random",))
    runner.play_chunk(sc, 0, 64)  # compiled before the clock starts
    monkeypatch.setattr(runner, "available_threads", lambda: 2)
    for threads in (1, 2):
        timer = threading.Timer(0.3, _thread.interrupt_main)
        t0 = time.perf_counter()
        timer.start()
        try:
            with pytest.raises(KeyboardInterrupt):
                runner.play_chunk(sc, 0, 5_000_000, ctx=RunContext(threads=threads))  # a minute or more
            took = time.perf_counter() - t0
        finally:
            timer.cancel()
        assert took < 0.3 + 10 * runner.BLOCK_S + 1.0, (threads, took)


def test_local_cluster_workers_ignore_ctrl_c_so_only_sim_reports_it():
    """A terminal's Ctrl-C reaches the whole process group; each LocalCluster worker used to print a
    KeyboardInterrupt traceback (asyncio runner, distributed.nanny) around sim's one line. Workers of
    `--workers N` now ignore SIGINT; sim stops and closes the cluster."""
    pytest.importorskip("distributed")
    from sim.play import distributed

    with distributed.executor(workers=1) as ex:
        ignored = ex.client.run(lambda: signal.getsignal(signal.SIGINT) == signal.SIG_IGN)
    assert list(ignored.values()) == [True]


@pytest.mark.parametrize("term", [False, True])
def test_ctrl_c_while_the_cli_is_imported_is_one_line_not_a_traceback(monkeypatch, capfd, term):
    from sim.cli import entry

    monkeypatch.delitem(sys.modules, "sim.cli.main")
    monkeypatch.delattr("sim.cli.main", raising=False)
    monkeypatch.setattr(
        sys,
        "meta_path",
        [_InterruptImport("sim.cli.main", entry._EarlyTerm if term else KeyboardInterrupt)] + sys.meta_path,
    )
    code = _entry_exit_code()
    err = capfd.readouterr().err
    assert code == (143 if term else 130)
    assert err.splitlines() == [
        f"{'terminated (SIGTERM)' if term else 'interrupted (Ctrl-C)'}: stopped before any "
        "game was played; nothing written"
    ]


def test_ctrl_c_before_the_cli_installed_its_handlers_is_one_line(monkeypatch, capfd):
    def interrupted_while_importing_numpy():
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_main, "main", interrupted_while_importing_numpy)
    assert _entry_exit_code() == 130
    assert capfd.readouterr().err.startswith("interrupted (Ctrl-C)")


def test_the_sim_command_starts_in_the_entry_module():
    """The console script is sim.cli.entry:main (pyproject.toml), so the handling above covers `sim` itself."""
    import tomllib
    from pathlib import Path

    py = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())
    assert py["project"]["scripts"]["sim"] == "sim.cli.entry:main"


@pytest.mark.kernel
def test_a_sweep_stopped_by_ctrl_c_says_its_points_are_kept(tmp_path, monkeypatch):
    import sim.api.sweep

    monkeypatch.setattr(cli_common, "_STOP_SAID", [])

    from sim.play.sweep import keys

    mine = keys(sim.api.sweep.build(BASE, ["track_len=24,28"], games=10))[0]

    def stop(*a, **k):
        (tmp_path / "s" / "points").mkdir(parents=True)
        (tmp_path / "s" / "points" / f"{mine}.json").write_text("{}")  # one point finished
        raise KeyboardInterrupt

    monkeypatch.setattr(sim.api.sweep, "run_sweep", stop)
    r = cli.invoke(app, ["sweep", str(BASE), "--set", "track_len=24,28", "--games", "10", "--out", str(tmp_path / "s")])
    assert r.exit_code == EXIT_INTERRUPTED and "Traceback" not in r.output
    line = [ln for ln in r.stderr.splitlines() if ln.startswith("interrupted")]
    assert len(line) == 1 and str(tmp_path / "s" / "points") in line[0] and "same command again" in line[0]
    assert "the 1 point of this sweep finished so far is kept" in line[0]
    assert "a report folder appears only when complete" not in line[0]


@pytest.mark.kernel
def test_a_sweep_stopped_in_an_older_sweeps_folder_counts_only_its_own_points(tmp_path, monkeypatch):
    """Ctrl-C, then the sweep run again into a folder an older sweep (other values) had filled: the stop line
    counted the older sweep's points as this one's finished ones (a fresh user). Only this sweep's points count;
    the older ones are said apart (a stored point is reused only where it is the very point: its key hashes it)."""
    import sim.api.sweep
    from sim.play.sweep import keys

    mine = keys(sim.api.sweep.build(BASE, ["track_len=24,28"], games=10))
    older = keys(sim.api.sweep.build(BASE, ["track_len=30,32,34"], games=10))
    pts = tmp_path / "s" / "points"
    pts.mkdir(parents=True)
    for k in older:
        (pts / f"{k}.json").write_text("{}")
    assert not set(mine) & set(older)
    said = []

    def stop(*a, **k):
        said.append(
            sim.cli.sweep.stopped_words(tmp_path / "s", sim.api.sweep.build(BASE, ["track_len=24,28"], games=10))
        )
        (pts / f"{mine[0]}.json").write_text("{}")
        said.append(
            sim.cli.sweep.stopped_words(tmp_path / "s", sim.api.sweep.build(BASE, ["track_len=24,28"], games=10))
        )
        raise KeyboardInterrupt

    import sim.cli.sweep

    monkeypatch.setattr(cli_common, "_STOP_SAID", [])
    monkeypatch.setattr(sim.api.sweep, "run_sweep", stop)
    r = cli.invoke(app, ["sweep", str(BASE), "--set", "track_len=24,28", "--games", "10", "--out", str(tmp_path / "s")])
    assert r.exit_code == EXIT_INTERRUPTED
    assert said[0] == (
        f"nothing half-written left: no point of this sweep finished (3 points of another sweep in {pts} stay as "
        "they were)"
    )
    assert said[1].startswith(
        f"no new sweep.json written; the 1 point of this sweep finished so far is kept in {pts} (3 points of "
        "another sweep beside them, not counted): the same command again plays only the missing ones"
    )
    line = [ln for ln in r.stderr.splitlines() if ln.startswith("interrupted")]
    assert len(line) == 1 and "the 1 point of this sweep" in line[0] and "3 points of another sweep" in line[0]


@pytest.mark.kernel
def test_a_sweep_stopped_before_any_point_says_nothing_is_kept(tmp_path, monkeypatch):
    """SIGTERM before the first point: the line said 'the points finished so far are kept in .../points', a folder
    that did not exist. It now says what `sim run` says: nothing half-written left."""
    import sim.api.sweep

    monkeypatch.setattr(cli_common, "_STOP_SAID", [])

    def stop(*a, **k):
        raise runner.Terminated

    monkeypatch.setattr(sim.api.sweep, "run_sweep", stop)
    r = cli.invoke(app, ["sweep", str(BASE), "--set", "track_len=24,28", "--games", "10", "--out", str(tmp_path / "s")])
    assert r.exit_code == cli_common.EXIT_TERMINATED and "Traceback" not in r.output
    line = [ln for ln in r.stderr.splitlines() if ln.startswith("terminated")]
    assert len(line) == 1 and "nothing half-written left" in line[0] and "points" not in line[0], line


def test_interrupt_line_does_not_claim_between_chunks(capsys):
    from sim.cli import common as cli_common

    cli_common._STOP_SAID.clear()
    try:
        assert cli_common._stopped(KeyboardInterrupt()) == cli_common.EXIT_INTERRUPTED
    finally:
        cli_common._STOP_SAID.clear()
    err = capsys.readouterr().err
    assert err.startswith("interrupted (Ctrl-C): stopped; nothing half-written left"), err
    assert "between chunks" not in err


@pytest.mark.kernel
def test_an_interrupted_replay_does_not_mention_a_report_folder(monkeypatch):
    """A fresh user: Ctrl-C during `sim replay` said "a report folder appears only when complete"; a replay writes
    no folder, and its line says so (exit 130)."""
    from sim.api import core as api
    from sim.cli.main import app

    def interrupted(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(api, "replay", interrupted)
    cli_common._STOP_SAID.clear()
    try:
        r = CliRunner().invoke(app, ["replay", str(REPO / "scenarios" / "moor" / "4p.toml"), "--game", "0"])
    finally:
        cli_common._STOP_SAID.clear()
    assert r.exit_code == cli_common.EXIT_INTERRUPTED, r.output
    line = [ln for ln in r.stderr.splitlines() if ln.startswith("interrupted")]
    assert line == ["interrupted (Ctrl-C): stopped; nothing written (a replay prints the game, it writes no file)"]


@pytest.mark.kernel
def test_a_closed_output_pipe_ends_quietly_with_exit_0(monkeypatch, capsys):
    import errno
    import sys

    import pytest

    from sim.cli import main as C

    class Closed(io.StringIO):
        def write(self, s):
            raise BrokenPipeError(errno.EPIPE, "Broken pipe")

        def flush(self):
            raise BrokenPipeError(errno.EPIPE, "Broken pipe")

    monkeypatch.setattr(sys, "argv", ["sim", "list"])
    monkeypatch.setattr(sys, "stdout", Closed())
    with pytest.raises(SystemExit) as e:
        C.main()
    assert e.value.code == 0
    assert capsys.readouterr().err == ""
