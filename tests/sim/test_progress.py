"""Progress on stderr: a live bar on a terminal, plain lines otherwise; the games line counts the games only
and writing the report is said apart."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from sim.cli import run as cli_run
from sim.cli.main import app
from sim.model.scenario import load
from sim.play import progress as PG
from sim.play import runner as RN
from sim.play import work
from sim.stats.records import GameCounts

cli = CliRunner()
REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data"
BASE = DATA / "moor-2p-small.toml"


def test_make_run_line_says_turn_cap_and_errors_apart():
    """Turnwall's default scenarios: '(4,990 finished, 10 stopped at the turn cap or in error)' left a designer
    guessing which; the summary counts them apart, and so does the line."""
    assert (
        cli_run.unfinished(GameCounts.of({"played": 5000, "finished": 4990, "truncated": 10, "errors": 0}))
        == " (4,990 finished, 10 stopped at the turn cap, max_turns)"
    )
    assert (
        cli_run.unfinished(GameCounts.of({"played": 5000, "finished": 4987, "truncated": 10, "errors": 3}))
        == " (4,987 finished, 10 stopped at the turn cap, max_turns, 3 ended in an error)"
    )
    assert cli_run.unfinished(GameCounts.of({"played": 5000, "finished": 5000, "truncated": 0, "errors": 0})) == ""


def test_last_progress_line_says_start_up_apart_from_games_per_second():
    """make run: 'moor-2p: 200,000 games in 12.3 s, 16,303 games/s' next to 'moor-3p: ... 50,871 games/s' read as
    moor-2p being three times slower; its first step held the compile. The line gives games/s once started and the
    start-up apart; a run without a slow start keeps the plain line."""
    import io

    from sim.play import progress as PG

    now, buf = [0.0], io.StringIO()
    with PG.Lines(200000, "moor-2p", buf, clock=lambda: now[0]) as lines:
        now[0] = 8.4
        lines.advance(256)  # compile + first games
        for _ in range(4):
            now[0] += 1
            lines.advance(49936)  # 49,936 games/s once compiled
    assert buf.getvalue().splitlines()[-1] == (
        "moor-2p: 200,000 games: 8.4 s starting up (loading or compiling the "
        "kernels), then 4.0 s playing at 49,936 games/s"
    )
    now, buf = [0.0], io.StringIO()
    with PG.Lines(1000, "moor-3p", buf, clock=lambda: now[0]) as lines:
        for _ in range(10):
            now[0] += 0.5
            lines.advance(100)
    assert buf.getvalue().splitlines()[-1] == "moor-3p: 1,000 games in 5.0 s, 200 games/s"


def test_progress_line_during_start_up_gives_no_made_up_time_left():
    """A fresh clone: the first step of 256 games took 30 s of compiling; the line said '8 games/s, about 1 h 23 min
    left'. Now it says it is starting up, and later lines count games/s from the end of the first step."""
    import io

    from sim.play import progress as PG

    now, buf = [0.0], io.StringIO()
    lines = PG.Lines(40000, "th-advanced-2p", buf, every_s=30, clock=lambda: now[0])
    with lines:
        now[0] = 31
        lines.advance(256)  # compile + first games
        for _ in range(6):
            now[0] += 10
            lines.advance(4000)  # 400 games/s once compiled
    out = buf.getvalue().splitlines()
    assert out[0] == (
        "th-advanced-2p: 1% (256 of 40,000 games, 8.3 games/s counting the start-up; time left once more are done)"
    )
    assert out[1] == "th-advanced-2p: 31% (12,256 of 40,000 games, 400 games/s, about 1 min 09 s left)"


def test_progress_after_the_first_games_says_games_per_second_not_starting_up():
    """A search run piped to a log: 16 of 48 games were done, and the line said 'starting up (compiling the kernels
    on a first run), no games/s yet' for another 30 s; slow games said '0 games/s'. The runner tells progress(0) once
    compiled: before it the line says starting up, then 'playing the first games', and from the first block on
    games/s (two digits below 10) and the time left."""
    now, buf = [0.0], io.StringIO()
    with PG.Lines(48, "moor-search-4p", buf, every_s=10, clock=lambda: now[0]) as lines:
        now[0] = 3.0
        lines._status(now[0])  # the heartbeat while the kernels compile
        now[0] = 5.0
        lines.advance(0)  # compiled (runner): the games start
        now[0] = 12.0
        lines._status(now[0])  # the heartbeat while the first block plays
        now[0] = 37.0
        lines.advance(16)  # 16 games in 32 s
        now[0] = 47.0
        lines._status(now[0])  # the heartbeat while the second block plays
    out = buf.getvalue().splitlines()
    assert (
        out[0]
        == "moor-search-4p: 0% (0 of 48 games; starting up (compiling the kernels on a first run), no games/s yet)"
    )
    assert out[1] == "moor-search-4p: 0% (0 of 48 games; playing the first games, no games/s yet)"
    assert out[2] == "moor-search-4p: 33% (16 of 48 games, 0.5 games/s, about 1 min 04 s left)"
    # while the second block plays, the rate stays the one timed to the first block's end and the time left counts
    # down (it once said 0.38 games/s, 1 min 24 s: a time left growing while nothing new was known)
    assert out[3] == "moor-search-4p: 33% (16 of 48 games, 0.5 games/s, about 54 s left)"
    assert out[4] == (
        "moor-search-4p: 16 games: 5.0 s starting up (loading or compiling the kernels), then 42.0 s playing at "
        "0.38 games/s"
    )


@pytest.mark.kernel
def test_the_runner_says_when_the_games_start():
    """progress(0) once the chunk's kernel is compiled, before any block: what the line above needs."""
    told: list[float] = []
    RN.play_chunk(load(BASE), 0, 40, progress=told.append)
    assert told[0] == 0 and sum(told) == 40 and all(k > 0 for k in told[1:])


def test_games_line_counts_the_games_only_and_says_the_report_is_written():
    from sim.play import progress as PG

    now, buf = [0.0], io.StringIO()
    with PG.Lines(200, "galleon-4p", buf, clock=lambda: now[0]) as lines:
        for _ in range(2):
            now[0] += 0.05
            lines.advance(100)
        lines.played()
        now[0] += 4.7  # pages and plots (said as they are written: the next test)
    assert buf.getvalue() == (
        "galleon-4p: 200 games in 0.1 s, 2,000 games/s\ngalleon-4p: writing the report ... 4.7 s\n"
    )


def test_writing_the_report_is_said_while_it_runs_and_ended_when_stopped(monkeypatch):
    import time

    from sim.play import progress as PG

    monkeypatch.setattr(PG, "STEP_SAID_S", 0.01)
    now, buf = [0.0], io.StringIO()
    try:
        with PG.Lines(10, "moor-4p", buf, clock=lambda: now[0]) as lines:
            now[0] += 1
            lines.advance(10)
            lines.played()
            time.sleep(0.5)  # a slow report: the step is said while it runs
            assert buf.getvalue() == "moor-4p: 10 games in 1.0 s, 10 games/s\nmoor-4p: writing the report ..."
            raise KeyboardInterrupt
    except KeyboardInterrupt:
        pass
    assert buf.getvalue().endswith("moor-4p: writing the report ... stopped\n")


def test_a_long_report_adds_its_time_so_far_to_the_step_line(monkeypatch):
    """A minute of writing (an at-skill table, the arc) once showed nothing after "writing the report ..."."""
    import re
    import time

    from sim.play import progress as PG

    monkeypatch.setattr(PG, "STEP_SAID_S", 0.01)
    monkeypatch.setattr(PG, "STEP_TICK_S", 0.05)
    now, buf = [0.0], io.StringIO()
    with PG.Lines(10, "moor-4p", buf, clock=lambda: now[0]) as lines:
        now[0] += 1
        lines.advance(10)
        lines.played()
        for _ in range(3):
            now[0] += 10
            time.sleep(0.2)
    said = buf.getvalue().splitlines()[-1]
    assert re.fullmatch(r"moor-4p: writing the report \.\.\.( \d+ s \.\.\.){2,} 30\.0 s", said), said


def test_a_report_failing_at_once_leaves_no_progress_line():
    from sim.play import progress as PG

    now, buf = [0.0], io.StringIO()
    try:
        with PG.Lines(10, "moor-4p", buf, clock=lambda: now[0]) as lines:
            lines.advance(10)
            lines.played()
            raise OSError("No space left on device")
    except OSError:
        pass
    assert buf.getvalue() == ""  # the command's error is its one line


@pytest.mark.kernel
def test_sim_run_says_games_per_second_of_the_games_and_the_report_apart(tmp_path):
    r = cli.invoke(app, ["run", "scenarios/moor/4p.toml", "--games", "64", "--out", str(tmp_path / "r")])
    assert r.exit_code == 0, r.output
    m = re.search(
        # (a report that takes over 10 s, on a busy machine, ticks " 11 s ..." on the step line before its time)
        r"^moor-4p: 64 games in ([\d.]+) s, [\d,]+ games/s\nmoor-4p: writing the report \.\.\.( \d+ s \.\.\.)* [\d.]+ s$",
        r.stderr,
        re.M,
    )
    assert m, r.stderr
    wall = json.loads((tmp_path / "r" / "provenance.json").read_text())["wall_time_s"]
    assert float(m.group(1)) <= wall + 0.2  # the games' time, not the pages' and plots'


@pytest.mark.kernel
def test_sweep_says_games_per_second_of_the_games_and_the_sweep_apart(tmp_path):
    r = cli.invoke(
        app,
        [
            "sweep",
            "scenarios/moor/4p.toml",
            "--set",
            "seats.0.strategy=collector,random",
            "--games",
            "32",
            "--out",
            str(tmp_path / "s"),
        ],
    )
    assert r.exit_code == 0, r.output
    assert re.search(
        r"^sweep (\S+): 64 games in [\d.]+ s, .*\nsweep \1: writing the sweep \.\.\.( \d+ s \.\.\.)* [\d.]+ s$",
        r.stderr,
        re.M,
    ), r.stderr


def test_a_slow_step_is_said_and_a_quick_one_is_not():
    import time

    from sim.play import progress as PG

    buf = io.StringIO()
    with PG.said_if_slow("compiling ...", 0.05, buf):
        time.sleep(0.5)  # the replay kernel compiling
    assert buf.getvalue() == "compiling ...\n"
    buf = io.StringIO()
    with PG.said_if_slow("compiling ...", 5.0, buf):
        pass
    time.sleep(0.1)
    assert buf.getvalue() == ""


@pytest.mark.kernel
def test_progress_steps_do_not_change_results(monkeypatch):
    sc = load(BASE)
    whole = work.run(sc, 3000, chunk=2000)
    told = []
    monkeypatch.setattr(RN, "MIN_BLOCK", 7)
    monkeypatch.setattr(RN, "BLOCK_S", 1e-9)  # as small as it gets: every block MIN_BLOCK games
    stepped = work.run(sc, 3000, chunk=2000, progress=told.append)
    assert whole.agg.to_dict() == stepped.agg.to_dict()
    assert sum(told) == 3000 and len(told) > 2 * (3000 // 2000) and max(told) == 7
    a = RN.play_chunk(sc, 100, 500)
    b = RN.play_chunk(sc, 100, 500, progress=lambda k: None)
    for f in ("scores", "winners", "turns", "rounds", "status", "extra", "curves"):
        assert np.array_equal(getattr(a, f), getattr(b, f)), f


def test_progress_off_a_terminal_is_plain_lines_with_games_per_second():
    now = [0.0]
    buf = io.StringIO()
    lines = PG.Lines(1000, "moor-4p", buf, every_s=30, clock=lambda: now[0])
    with lines:
        for _ in range(10):
            now[0] += 10
            lines.advance(100)
    out = buf.getvalue().splitlines()
    assert out[0] == "moor-4p: 30% (300 of 1,000 games, 10 games/s, about 1 min 10 s left)"
    assert out[-1] == "moor-4p: 1,000 games in 100.0 s, 10 games/s" and len(out) == 4
    ctx, adv = PG.bar(10, "x", io.StringIO())  # not a terminal: the plain lines
    assert isinstance(ctx, PG.Lines)


def test_progress_on_a_terminal_is_a_live_bar_with_rate_and_time_left():
    class Tty(io.StringIO):
        def isatty(self):
            return True

    ctx, adv = PG.bar(1000, "moor-4p", Tty())
    from rich.progress import Progress, TimeRemainingColumn

    assert isinstance(ctx, Progress) and ctx.live.refresh_per_second >= 1
    assert any(isinstance(c, TimeRemainingColumn) for c in ctx.columns)
    assert any(type(c).__name__ == "Rate" for c in ctx.columns)


@pytest.mark.kernel
def test_sim_run_off_a_terminal_prints_a_line_with_games_per_second(tmp_path):
    r = cli.invoke(app, ["run", str(BASE), "--games", "300", "--out", str(tmp_path / "r")])
    assert r.exit_code == 0, r.output
    assert any(
        ln.startswith("test-moor-2p: 300 games in ") and ln.endswith(" games/s") for ln in r.stderr.splitlines()
    ), r.stderr


def test_piped_progress_speaks_at_least_every_ten_seconds_even_while_compiling():
    """Off a terminal nothing was said for the first 30 s (a first compile holds the first block): a heartbeat says
    "starting up" after 10 s without a block, and the lines come at least every 10 s."""
    import io
    import time

    from sim.play import progress as PG

    assert PG.EVERY_S == 10.0
    buf = io.StringIO()
    with PG.Lines(1000, "slow-start", buf, every_s=0.3):
        time.sleep(1.0)  # no block done yet: the kernels compile
    out = buf.getvalue().splitlines()
    assert (
        out
        and out[0]
        == "slow-start: 0% (0 of 1,000 games; starting up (compiling the kernels on a first run), no games/s yet)"
    ), out


def test_a_run_of_over_ten_minutes_says_its_estimate_once_the_rate_is_known():
    import io

    from sim.play import progress as PG

    now, buf = [0.0], io.StringIO()
    with PG.Lines(10_000_000, "th-advanced-4p", buf, clock=lambda: now[0]) as lines:
        now[0] = 12.0
        lines.advance(256)  # compile + first games
        now[0] += 1.0
        lines.advance(8000)  # 8,000 games/s: 20 min 49 s to go
        now[0] += 1.0
        lines.advance(8000)
    out = buf.getvalue().splitlines()
    assert out[1] == (
        "th-advanced-4p: about 20 min 49 s to go at 8,000 games/s (10,000,000 games; Ctrl-C stops it "
        "cleanly, --games N plays fewer)"
    ), out
    assert sum("to go at" in x for x in out) == 1
    now, buf = [0.0], io.StringIO()
    with PG.Lines(100_000, "quick", buf, clock=lambda: now[0]) as lines:
        now[0] = 1.0
        lines.advance(256)
        now[0] += 1.0
        lines.advance(8000)
    assert not any("to go at" in x for x in buf.getvalue().splitlines())


def test_no_time_to_go_from_a_first_block_of_one_game():
    """A fresh user's `sim run moor/4p.toml --games 2000000` said 'about 2 h 06 min to go at 264 games/s' and
    finished in 17 s: the first block is one game (so that Ctrl-C stops a search run soon), and its time is mostly
    the block's overhead. No rate is said before a second of games is timed; then the estimate is the real one."""
    import io

    from sim.play import progress as PG

    now, buf = [0.0], io.StringIO()
    with PG.Lines(2_000_000, "moor-4p", buf, clock=lambda: now[0]) as lines:
        now[0] = 3.0
        lines.advance(0)  # the kernels are loaded: the games start
        now[0] += 0.004
        lines.advance(1)  # one game and the block's overhead: 250 games/s
        assert lines.left_text() == ""
        for _ in range(8):
            now[0] += 0.25
            lines.advance(25_000)  # 100,000 games/s
    out = buf.getvalue().splitlines()
    assert not any("to go at" in x for x in out), out  # 20 s in all: no estimate to announce


def test_a_slow_block_is_said_after_a_moment_and_again_while_it_lasts():
    """Loading a game's kernels on a first run takes tens of seconds before any game starts: said after a moment and
    again every few seconds, so piped output is never silent for long; a quick block says nothing."""
    import io
    import time

    from sim.play import progress as PG

    buf = io.StringIO()
    with PG.said_if_slow("x: loading the game's kernels ...", after_s=0.1, stream=buf, every_s=0.2):
        time.sleep(0.65)
    out = buf.getvalue().splitlines()
    assert out[0] == "x: loading the game's kernels ..." and len(out) >= 3
    assert out[1].startswith("x: loading the game's kernels ... still going, ")
    buf = io.StringIO()
    with PG.said_if_slow("quick", after_s=0.5, stream=buf, every_s=0.2):
        pass
    time.sleep(0.6)
    assert buf.getvalue() == ""


def test_compare_time_left_adds_each_sides_games_left_at_its_own_rate():
    """sim compare with B's seat a search player: A's 10,000 games at 1,000 games/s, then B's at 10 games/s. One
    rate over both sides said 'about 20 s left' with 16 min to go; each side is now timed apart, the time left waits
    for B's rate, and then adds each side's games left at its own games/s."""
    now, buf = [0.0], io.StringIO()
    with PG.Lines(10_000, "moor-4p vs moor-4p-search", buf, clock=lambda: now[0]) as lines:
        now[0] = 1.0
        lines.side(0, 0)  # A's chunk starts (compiled)
        for _ in range(10):
            now[0] += 1.0
            lines.side(0, 1000)
        now[0] += 5.0  # B compiles
        lines.side(1, 0)
        for _ in range(2):
            now[0] += 10.0
            lines.side(1, 100)
    out = buf.getvalue().splitlines()
    assert out[0] == (
        "moor-4p vs moor-4p-search: 45% (A 9,000, B 0 of 10,000 games each; A 1,000 games/s, B not started; "
        "time left once B is timed)"
    )
    assert out[1] == (
        "moor-4p vs moor-4p-search: about 16 min 30 s to go at A 1,000 games/s, B 10 games/s (10,000 games each; "
        "Ctrl-C stops it cleanly, --games N plays fewer)"
    )
    assert out[2] == (
        "moor-4p vs moor-4p-search: 50% (A 10,000, B 100 of 10,000 games each; A 1,000 games/s, B 10 games/s, "
        "about 16 min 30 s left)"
    )
    assert out[3].endswith("about 16 min 20 s left)")


@pytest.mark.kernel
def test_a_compared_unit_tells_each_sides_games_apart():
    """play_unit tells progress_sides A's games as side 0 and B's as side 1 (each starting with 0), and without it
    progress half of each, as before."""
    from dataclasses import replace

    from sim.play.context import RunContext

    sc = load(BASE)
    b = replace(sc, name="b")
    u = work.Unit("compare", 0, sc, 0, 40, sc.seed, against=b)
    told: list[tuple[int, float]] = []
    halves: list[float] = []
    work.play_unit(u, RunContext(threads=1, progress=halves.append, progress_sides=lambda i, k: told.append((i, k))))
    assert not halves
    sides = [i for i, _ in told]
    assert sides == sorted(sides) and set(sides) == {0, 1}
    assert told[0] == (0, 0) and told[sides.index(1)] == (1, 0)
    assert sum(k for i, k in told if i == 0) == 40 == sum(k for i, k in told if i == 1)
    work.play_unit(u, RunContext(threads=1, progress=halves.append))
    assert sum(halves) == 40


def test_compare_on_a_terminal_shows_each_sides_rate_not_a_mixed_time_left():
    class Tty(io.StringIO):
        def isatty(self):
            return True

    from rich.progress import TimeRemainingColumn

    ctx, adv, side = PG.compare_bar(100, "a vs b", Tty())
    assert not any(isinstance(c, TimeRemainingColumn) for c in ctx.columns)
    assert any(type(c).__name__ == "SideRates" for c in ctx.columns)
    ctx, adv, side = PG.compare_bar(100, "a vs b", io.StringIO())
    assert isinstance(ctx, PG.Lines) and side == ctx.side


@pytest.mark.kernel
def test_a_sweep_says_when_a_points_games_start(tmp_path):
    """A sweep of search seats plays one unit per point for minutes, and its progress line said 'starting up
    (compiling ...)' until point 0's unit was over: the units were played without the runner's progress(0). The
    engine now tells advance(point, 0) as each unit's games start, before the unit's games are counted."""
    from sim.api.sweep import build
    from sim.play import sweep as engine
    from sim.play.distributed import InProcess
    from sim.play.sweep import Progress

    told: list[tuple[int, int]] = []
    sw = build(BASE, ["track_len=24,28"], games=30, measures=["margin"])
    engine.play(sw, tmp_path, InProcess(threads=1), 30, Progress(advance=lambda i, k: told.append((i, k))))
    assert told == [(0, 0), (0, 30), (1, 0), (1, 30)]

    from sim.cli.sweep import SweepBars

    buf = io.StringIO()
    bars = SweepBars(sw)
    bars.count = PG.Lines(60, "sweep s", buf, every_s=float("inf"))  # the games line's counter, off a terminal
    with bars.count, bars:
        bars.count._status(0.0)
        bars.advance(0, 0)  # what the engine now tells as point 0's games start
        bars.count._status(bars.count.clock())
    out = buf.getvalue().splitlines()
    assert "starting up" in out[0] and "playing the first games" in out[1]


def test_the_time_left_does_not_swing_with_uneven_blocks_of_slow_games():
    """A 20 to 30 min search run: blocks of games end unevenly (here 4 games after 40 s, then after 80 s, in turn),
    and the time left said swung by minutes (Rich's games/s of the last 30 s on a terminal, blank while no block
    ended in it; off a terminal a rate timed to now, which fell while a block played, the time left growing). Now
    the rate is every game since the first step over the time to the last block's end, and the time left counts
    down while a block plays: the finish time it implies (now + time left) holds still between blocks, and stays
    within 10% of the run's, at every line and bar redraw."""

    class Tty(io.StringIO):
        def isatty(self):
            return True

    total, now = 200, [0.0]
    gaps = [40.0, 80.0] * 25  # 4 games after each
    end = sum(gaps)  # the run's finish, 15 s a game on average
    ctx, adv = PG.bar(total, "search", Tty(), clock=lambda: now[0])
    from rich.progress import TimeRemainingColumn

    col = next(c for c in ctx.columns if isinstance(c, TimeRemainingColumn))
    lines_buf = io.StringIO()
    lines = PG.Lines(total, "search", lines_buf, every_s=float("inf"), clock=lambda: now[0])

    def left_s(text: str) -> float:
        m = re.search(r"(?:(\d+) h )?(?:(\d+) min)? ?(?:(\d+) s)? left", text)
        assert m and any(m.groups()), text
        return 3600 * int(m.group(1) or 0) + 60 * int(m.group(2) or 0) + int(m.group(3) or 0)

    said: dict[str, list[list[float]]] = {"bar": [], "lines": []}  # implied finish times, per block played
    with ctx, lines:
        adv(0)  # the games start
        lines.advance(0)
        for i, gap in enumerate(gaps[:-1]):
            adv(0)
            for k in said:
                said[k].append([])
            for step in range(4):  # redrawn four times while the block plays, the last as it ends
                now[0] += gap / 4
                if step == 3:
                    adv(4)
                    lines.advance(4)
                    continue
                if i >= 4:  # after the first blocks
                    said["bar"][-1].append(now[0] + left_s(str(col.render(ctx.tasks[0]))))
                    lines._status(now[0])
                    said["lines"][-1].append(now[0] + left_s(lines_buf.getvalue().splitlines()[-1]))
    for k, blocks in said.items():
        finish = [f for b in blocks for f in b]
        assert all(abs(f - end) <= 0.1 * end for f in finish), (k, min(finish), max(finish), end)
        assert all(max(b) - min(b) <= 2 for b in blocks if b), (k, [b for b in blocks if b and max(b) - min(b) > 2])


def test_a_line_said_while_the_report_is_written_stands_on_its_own(monkeypatch):
    """`sim arc`'s timeline lines come while the report is written: the step line begun is ended first, and its
    time is said again on a line of its own (not run into the next line)."""
    import time

    from sim.play import progress as PG

    monkeypatch.setattr(PG, "STEP_SAID_S", 0.01)
    now, buf = [0.0], io.StringIO()
    with PG.Lines(10, "moor-4p", buf, clock=lambda: now[0]) as lines:
        now[0] += 1
        lines.advance(10)
        lines.played()
        time.sleep(0.3)  # the step line is begun
        lines.say("moor-4p: timelines 1/2 games")
        lines.say("moor-4p: timelines 2/2 games")
        now[0] += 2.5
    assert buf.getvalue() == (
        "moor-4p: 10 games in 1.0 s, 10 games/s\nmoor-4p: writing the report ...\n"
        "moor-4p: timelines 1/2 games\nmoor-4p: timelines 2/2 games\nmoor-4p: writing the report ... 2.5 s\n"
    )


def test_a_line_said_before_the_step_line_leaves_the_step_line_whole(monkeypatch):
    """`Lines.say` before the step line is begun (writing was quick so far): the line stands on its own and the step
    line, said at the end, is one line with its time (the flag that it was broken starts cleared in `played`)."""
    from sim.play import progress as PG

    monkeypatch.setattr(PG, "STEP_SAID_S", 60.0)  # the step line is not begun by the timer
    now, buf = [0.0], io.StringIO()
    with PG.Lines(10, "moor-4p", buf, clock=lambda: now[0]) as lines:
        now[0] += 1
        lines.advance(10)
        lines.played()
        assert lines.broken is False
        lines.say("moor-4p: timelines 1/1 games")
        now[0] += 0.5
    assert buf.getvalue() == (
        "moor-4p: timelines 1/1 games\nmoor-4p: 10 games in 1.0 s, 10 games/s\nmoor-4p: writing the report ... 0.5 s\n"
    )


def test_a_side_that_finished_in_one_quick_block_is_done_not_playing_its_first_games():
    """sim fidelity: A (learned players) played its 1,000 games in one block of under a second, then B (search)
    went on at 10 games/s; the line said "A playing its first games, B 10 games/s, about 0 s left" all along. A
    finished side too quick to time (here 400 games in 0.3 s) is now said done and adds nothing, and the time left
    is B's."""
    now, buf = [0.0], io.StringIO()
    with PG.Lines(400, "moor-4p: learned vs search@64", buf, clock=lambda: now[0]) as lines:
        now[0] = 1.0
        lines.side(0, 0)
        now[0] += 0.3
        lines.side(0, 400)  # all of A in one quick block: never timed
        lines.side(1, 0)
        for _ in range(3):
            now[0] += 10.0
            lines.side(1, 100)
    out = buf.getvalue().splitlines()
    assert all("playing its first games" not in line and "about 0 s left" not in line for line in out), out
    assert out[-2].endswith("(A 400, B 300 of 400 games each; A done, B 10 games/s, about 10 s left)"), out


def test_a_quick_side_half_way_is_timed_from_its_chunk_of_thousands():
    """sim fidelity --games 20000: A (learned players) played its first chunk of 10,000 in 0.3 s, then waited while
    B played at 154 games/s; the line said "A playing its first games ... time left once A is timed" for most of the
    run. A chunk of thousands times its side however quick it was."""
    now, buf = [0.0], io.StringIO()
    with PG.Lines(20_000, "moor-4p: learned vs search@2", buf, clock=lambda: now[0]) as lines:
        now[0] = 1.0
        lines.side(0, 0)
        now[0] += 0.3
        lines.side(0, 10_000)
        lines.side(1, 0)
        for _ in range(3):
            now[0] += 10.0
            lines.side(1, 1_000)
    out = buf.getvalue().splitlines()
    assert not any("playing its first games" in x or "once A is timed" in x for x in out), out
    assert out[-2].endswith("A 33,333 games/s, B 100 games/s, about 2 min 50 s left)"), out


def test_a_block_slower_than_the_estimate_is_not_about_0_s_left():
    """A Turnwall run of 256-rollout search games said "82% (82 of 100 games, 0.097 games/s, about 0 s left)" for
    minutes: the time left counts down while a block plays, and that block was slower than the games before it. Past
    the estimate the line now says so instead of a time."""
    now, buf = [0.0], io.StringIO()
    with PG.Lines(100, "turnwall-4p", buf, every_s=30, clock=lambda: now[0]) as lines:
        lines.advance(0)
        for _ in range(8):
            now[0] += 100.0
            lines.advance(10)  # 0.1 games/s: 20 games left is about 200 s
        for _ in range(10):  # the next block takes 10 minutes
            now[0] += 60.0
            lines._status(now[0])
    out = buf.getvalue().splitlines()
    assert not any("about 0 s left" in x for x in out), out
    assert out[-2] == (
        "turnwall-4p: 80% (80 of 100 games, 0.1 games/s, past the time estimated: the games now playing take longer "
        "than those so far)"
    ), out
