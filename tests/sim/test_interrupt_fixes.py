"""Ctrl-C / SIGTERM that land while Numba compiles (a first run, an empty kernel cache): the interrupt can arrive in
a ctypes callback of llvmlite's object cache, which swallows it and prints 'Exception ignored on calling ctypes
callback function ... KeyboardInterrupt'; Numba then fails writing its cache ('RuntimeError: no compiled object
yet'). Seen by a first-time user as a traceback and exit 1 instead of one line and exit 130 / 143."""
from __future__ import annotations

import ctypes
from pathlib import Path
import os
import signal
import sys

import pytest

from sim.cli import main as cli, common as cli_common
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


def test_an_interrupt_swallowed_by_a_ctypes_callback_prints_no_ignored_exception(signals_restored, unraisable):
    """The interrupt is remembered and reported in the command's one stop line; the swallowed exception itself is
    not printed (no 'Exception ignored ...' and its traceback on stderr)."""
    runner.stop_on_sigterm()

    @ctypes.CFUNCTYPE(None)
    def callback():                            # like llvmlite's _raw_object_cache_notify, called from C
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(10000):                 # the handler runs here, inside the callback
            pass

    callback()
    assert unraisable == []
    assert runner.pending() is not None


def test_other_unraisable_exceptions_are_still_printed(signals_restored, unraisable):
    runner.stop_on_sigterm()

    @ctypes.CFUNCTYPE(None)
    def callback():
        raise ValueError("a real bug")

    callback()
    assert [str(e) for e in unraisable] == ["a real bug"]


@pytest.mark.parametrize("stop, code, words", [(KeyboardInterrupt, cli_common.EXIT_INTERRUPTED, "interrupted (Ctrl-C)"),
                                               (runner.Terminated, cli_common.EXIT_TERMINATED, "terminated (SIGTERM)")])
def test_an_error_after_a_swallowed_interrupt_is_reported_as_the_interrupt(signals_restored, monkeypatch, capfd,
                                                                          stop, code, words):
    """`sim run` interrupted during the first compile: Numba's cache write fails after the interrupt was swallowed;
    the command says it was interrupted (one line, exit 130 / 143), no traceback."""
    def compile_interrupted(*a, **k):
        runner._PENDING.append(stop)           # what the signal handler did before the callback swallowed it
        raise RuntimeError("no compiled object yet for <Library 'push_tile'>")

    monkeypatch.setattr(cli, "load_scenario", compile_interrupted)
    monkeypatch.setattr(sys, "argv", ["sim", "run", "whatever.toml"])
    with pytest.raises(SystemExit) as e:
        cli.main()
    err = capfd.readouterr().err
    assert e.value.code == code, err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith(words), err
    assert runner.pending() is None


def test_an_error_without_an_interrupt_is_not_hidden(signals_restored, monkeypatch):
    def bug(*a, **k):
        raise RuntimeError("a real bug")

    monkeypatch.setattr(cli, "load_scenario", bug)
    monkeypatch.setattr(sys, "argv", ["sim", "run", "whatever.toml"])
    with pytest.raises(RuntimeError, match="a real bug"):
        cli.main()


# --- a chunk played where nobody watches progress (sim check) ----------------------------------------------------------

def test_a_chunk_without_progress_stops_soon_on_ctrl_c(moor_sc, monkeypatch):
    """`sim check` plays without a progress callback: its 60,000-game chunk of Turnwall on one thread used to be one
    kernel call, and Ctrl-C waited for it (45 s). Now the main thread only waits for blocks of about BLOCK_S seconds
    played on the thread pool: a Ctrl-C (here `_thread.interrupt_main`, as the terminal's SIGINT) raises at once and
    the blocks already running end soon, on one thread as on two."""
    import _thread
    import threading
    import time
    sc = moor_sc(4, ("random",))
    runner.play_chunk(sc, 0, 64)                             # compiled before the clock starts
    monkeypatch.setattr(runner, "available_threads", lambda: 2)
    for threads in (1, 2):
        timer = threading.Timer(0.3, _thread.interrupt_main)
        t0 = time.perf_counter()
        timer.start()
        try:
            with pytest.raises(KeyboardInterrupt):
                runner.play_chunk(sc, 0, 5_000_000, ctx=RunContext(threads=threads))   # a minute or more
            took = time.perf_counter() - t0
        finally:
            timer.cancel()
        assert took < 0.3 + 10 * runner.BLOCK_S + 1.0, (threads, took)


# --- sim run / sweep --workers N: Ctrl-C goes to the worker processes too ---------------------------------------------

def test_local_cluster_workers_ignore_ctrl_c_so_only_sim_reports_it():
    """A terminal's Ctrl-C reaches the whole process group; each LocalCluster worker used to print a
    KeyboardInterrupt traceback (asyncio runner, distributed.nanny) around sim's one line. Workers of
    `--workers N` now ignore SIGINT; sim stops and closes the cluster."""
    pytest.importorskip("distributed")
    from sim.play import distributed
    with distributed.executor(workers=1) as ex:
        ignored = ex.client.run(lambda: signal.getsignal(signal.SIGINT) == signal.SIG_IGN)
    assert list(ignored.values()) == [True]


# --- make run's line per scenario ------------------------------------------------------------------------------------

def test_make_run_line_says_turn_cap_and_errors_apart():
    """Turnwall's default scenarios: '(4,990 finished, 10 stopped at the turn cap or in error)' left a designer
    guessing which; the summary counts them apart, and so does the line."""
    assert cli.unfinished({"played": 5000, "finished": 4990, "truncated": 10, "errors": 0}) == \
        " (4,990 finished, 10 stopped at the turn cap, max_turns)"
    assert cli.unfinished({"played": 5000, "finished": 4987, "truncated": 10, "errors": 3}) == \
        " (4,987 finished, 10 stopped at the turn cap, max_turns, 3 ended in an error)"
    assert cli.unfinished({"played": 5000, "finished": 5000, "truncated": 0, "errors": 0}) == ""


def test_last_progress_line_says_start_up_apart_from_games_per_second():
    """make run: 'moor-2p: 200,000 games in 12.3 s, 16,303 games/s' next to 'moor-3p: ... 50,871 games/s' read as
    moor-2p being three times slower; its first step held the compile. The line gives games/s once started and the
    start-up apart; a run without a slow start keeps the plain line."""
    import io
    from sim.play import progress as PG
    now, buf = [0.0], io.StringIO()
    with PG.Lines(200000, "moor-2p", buf, clock=lambda: now[0]) as lines:
        now[0] = 8.4
        lines.advance(256)                      # compile + first games
        for _ in range(4):
            now[0] += 1
            lines.advance(49936)                # 49,936 games/s once compiled
    assert buf.getvalue().splitlines()[-1] == ("moor-2p: 200,000 games in 12.4 s, 49,936 games/s after 8.4 s starting "
                                               "up (loading or compiling the kernels)")
    now, buf = [0.0], io.StringIO()
    with PG.Lines(1000, "moor-3p", buf, clock=lambda: now[0]) as lines:
        for _ in range(10):
            now[0] += 0.5
            lines.advance(100)
    assert buf.getvalue().splitlines()[-1] == "moor-3p: 1,000 games in 5.0 s, 200 games/s"


# --- Ctrl-C in the first few tenths of a second (importing the CLI) -----------------------------------------------------

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


@pytest.mark.parametrize("term", [False, True])
def test_ctrl_c_while_the_cli_is_imported_is_one_line_not_a_traceback(monkeypatch, capfd, term):
    from sim.cli import entry
    monkeypatch.delitem(sys.modules, "sim.cli.main")
    monkeypatch.delattr("sim.cli.main", raising=False)
    monkeypatch.setattr(sys, "meta_path", [_InterruptImport("sim.cli.main", entry._EarlyTerm if term else
                                                            KeyboardInterrupt)] + sys.meta_path)
    code = _entry_exit_code()
    err = capfd.readouterr().err
    assert code == (143 if term else 130)
    assert err.splitlines() == [f"{'terminated (SIGTERM)' if term else 'interrupted (Ctrl-C)'}: stopped before any "
                                "game was played; nothing written"]


def test_ctrl_c_before_the_cli_installed_its_handlers_is_one_line(monkeypatch, capfd):
    def interrupted_while_importing_numpy():
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "main", interrupted_while_importing_numpy)
    assert _entry_exit_code() == 130
    assert capfd.readouterr().err.startswith("interrupted (Ctrl-C)")


def test_the_sim_command_starts_in_the_entry_module():
    """The console script is sim.cli.entry:main (pyproject.toml), so the handling above covers `sim` itself."""
    import tomllib
    from pathlib import Path
    py = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())
    assert py["project"]["scripts"]["sim"] == "sim.cli.entry:main"


# --- a scenario file's [sweep] table: wrong values are refused, never read as something else -------------------------

MOOR_2P = Path(__file__).resolve().parents[1] / "data" / "moor-2p-small.toml"


def _sweep_file(tmp_path, table: str) -> Path:
    p = tmp_path / "sw.toml"
    p.write_text(MOOR_2P.read_text() + "\n[sweep]\ntrack_len = \"24..25\"\n" + table + "\n")
    return p


@pytest.mark.parametrize("table, message", [
    ("games = 0", "[sweep] games: 0 is out of range; allowed 1..10,000,000,000"),
    ("games = 99999999999999", "[sweep] games: 99999999999999 is out of range; allowed 1..10,000,000,000"),
    ('independent = "false"', '[sweep] independent: expected true or false, got "false"'),
    ('measures = "first_player_advantage"', "[sweep] measures: expected an array of measure names"),
    ("target = 5", "[sweep] target: expected a string MEASURE=VALUE"),
    ('target = "first_player_advantage"', "[sweep] target first_player_advantage: expected MEASURE=VALUE"),
])
def test_a_bad_sweep_table_option_is_one_line_naming_it(tmp_path, table, message):
    """games = 0 played the scenario's 200,000 games per point; independent = "false" was read as true; a measures
    string was split into letters; a bad target from the file was blamed on --target."""
    from typer.testing import CliRunner
    r = CliRunner().invoke(cli.app, ["sweep", str(_sweep_file(tmp_path, table)), "--out", str(tmp_path / "o")])
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert r.exit_code == cli_common.EXIT_BAD_INPUT, r.output
    assert len(lines) == 1 and lines[0].startswith(f"error: {message}"), lines
    assert not (tmp_path / "o").exists()


def test_a_good_sweep_table_still_plays(tmp_path):
    from sim.api.sweep import build
    sw = build(_sweep_file(tmp_path, "games = 30\nindependent = true\nmeasures = [\"length.rounds\"]\n"
                                     "target = \"first_player_advantage=0\""))
    assert (sw.games, sw.independent, len(sw.points)) == (30, True, 2)
    assert sw.measures[0] == "length.rounds" and sw.target[0] == "first_player_advantage"


@pytest.mark.parametrize("sets, message", [
    (["track_len=24,24"], "--set track_len=24,24: value 24 is given twice; give each value once"),
    (["track_len=24..26", "track_len=27"], "--set track_len: given twice; give all its values in one --set"),
])
def test_a_sweep_value_or_axis_given_twice_is_refused(tmp_path, sets, message):
    """`--set track_len=20,20` played the point twice (both labelled 'point 1'); a second `--set track_len=...`
    silently replaced the first."""
    from typer.testing import CliRunner
    args = ["sweep", str(MOOR_2P), "--games", "10", "--out", str(tmp_path / "o")]
    for t in sets:
        args += ["--set", t]
    r = CliRunner().invoke(cli.app, args)
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert r.exit_code == cli_common.EXIT_USAGE, r.output
    assert len(lines) == 1 and lines[0].startswith(f"error: {message}"), lines


# --- sim sweep and a full disk ------------------------------------------------------------------------------------------

def test_a_sweep_onto_a_full_disk_is_refused_before_any_point_is_played(tmp_path, monkeypatch):
    """sim run said 'the disk holding ... is full' before playing; sim sweep played points until
    'error: No space left on device' (no folder named)."""
    import shutil
    from collections import namedtuple
    from typer.testing import CliRunner
    Usage = namedtuple("Usage", "total used free")
    monkeypatch.setattr(shutil, "disk_usage", lambda p: Usage(1 << 30, (1 << 30) - 4096, 4096))
    r = CliRunner().invoke(cli.app, ["sweep", str(MOOR_2P), "--set", "track_len=24,25", "--games", "10",
                                     "--out", str(tmp_path / "s")])
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert r.exit_code == cli_common.EXIT_BAD_INPUT, r.output
    assert lines == [f"error: --out: the disk holding {tmp_path / 's'} is full (4096 bytes free; a sweep needs at "
                     "least 1 MiB)"], lines
    assert not (tmp_path / "s" / "points").exists() or not any((tmp_path / "s" / "points").iterdir())


def test_a_disk_that_fills_up_during_a_sweep_is_one_line_naming_the_folder(tmp_path, monkeypatch):
    import errno
    from typer.testing import CliRunner
    from sim.play import sweep_store as store

    def full(*a, **k):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(store.np, "savez", full)
    r = CliRunner().invoke(cli.app, ["sweep", str(MOOR_2P), "--set", "track_len=24,25", "--games", "10",
                                     "--out", str(tmp_path / "s")])
    lines = [ln for ln in r.stderr.splitlines() if ln.strip() and ln.startswith("error")]
    assert r.exit_code == cli_common.EXIT_BAD_INPUT, r.output
    assert "Traceback" not in r.output
    assert lines and lines[0].startswith(f"error: --out: cannot write in {tmp_path / 's'} (No space left on device)")


@pytest.mark.parametrize("axis", ["name=a,b", "description=x,y"])
def test_a_sweep_over_the_scenario_name_is_refused(tmp_path, axis):
    """`--set name=a,b` played the same games twice, both labelled 'point 1 (name=b)'."""
    from typer.testing import CliRunner
    r = CliRunner().invoke(cli.app, ["sweep", str(MOOR_2P), "--games", "10", "--set", axis,
                                     "--out", str(tmp_path / "o")])
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert r.exit_code == cli_common.EXIT_USAGE, r.output
    assert len(lines) == 1 and lines[0].startswith(f"error: --set {axis}: the scenario's {axis.split('=')[0]} does "
                                                   "not change the games"), lines
