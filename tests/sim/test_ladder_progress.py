"""A ladder's time left from each table's own games/s, and the table now playing (`sim.play.ladder_progress`).

`sim ladder turnwall --games 2000` (a fresh user): the count stayed at 48,000 games for minutes while "time left"
counted down, estimated from the quick scripted tables' rate while a search table at 256 rollouts played."""

from __future__ import annotations

import io

import pytest
from typer.testing import CliRunner

from sim.play import ladder_progress as LP
from sim.play import progress as PG

cli = CliRunner()


def cheap(i: int, rungs=(0, 1, 2, 3), games=2000) -> LP.TableClock:
    return LP.TableClock(i, games, rungs)


def test_the_time_left_is_unknown_until_a_search_table_is_timed_not_counted_at_the_quick_tables_rate():
    """24 quick tables done at 10,000 games/s, then a search table: no time left is made up from the quick rate;
    the first table that cannot be priced is named."""
    tables = [cheap(i) for i in range(24)] + [LP.TableClock(24, 2000, (0, 1, 3, 8), rollouts=256)]
    for t in tables[:24]:
        t.done, t.secs = 2000, 0.2
    left = LP.time_left(tables)
    assert left == LP.Left(None, 24)
    assert LP.left_words(left) == "unknown until table 25 is timed"


def test_each_table_counts_at_its_own_rate_and_a_search_table_is_priced_by_its_rollouts():
    """Quick tables at 0.1 ms a game, the search@256 table timed at 0.5 s a game: its set's other orders at that
    rate, a search@16 table at 16/256 of the rollouts' cost, a quick table of a set not seen yet at the quick rate."""
    done = cheap(0)
    done.done, done.secs = 2000, 0.2
    slow = LP.TableClock(1, 2000, (0, 1, 3, 8), rollouts=256, done=100, secs=50.0)
    mirror = LP.TableClock(2, 2000, (8, 3, 1, 0), rollouts=256)
    light = LP.TableClock(3, 2000, (0, 2, 4, 6), rollouts=16)
    other = cheap(4, rungs=(1, 2, 3, 4))
    spg = LP.seconds_per_game([done, slow, mirror, light, other])
    assert spg[1] == spg[2] == pytest.approx(0.5)
    per_rollout = (50.0 - 0.0001 * 100) / (100 * 256)
    assert spg[3] == pytest.approx(0.0001 + 16 * per_rollout)
    assert spg[4] == pytest.approx(0.0001)
    left = LP.time_left([done, slow, mirror, light, other], since_s=10.0)
    expect = 1900 * 0.5 - 10.0 + 2000 * 0.5 + 2000 * spg[3] + 2000 * 0.0001
    assert left.seconds == pytest.approx(expect)
    assert left.until is None


def test_a_quick_set_is_timed_once_a_table_of_it_is_done_even_in_under_a_second():
    a, b = cheap(0), cheap(1, rungs=(3, 2, 1, 0))
    a.done, a.secs = 2000, 0.2
    assert LP.seconds_per_game([a, b])[1] == pytest.approx(0.0001)
    a.done = 1000  # not done and under MIN_TIMED_S: not timed yet
    assert LP.time_left([a, b]) == LP.Left(None, 0)


def test_the_playing_line_names_the_rungs_the_table_and_its_games():
    names = ["random", "planner", "spoiler", "learned", "search:budget=256,rollout=learned"]
    t = LP.TableClock(24, 2000, (4, 0, 1, 3), rollouts=256, done=120)
    assert LP.playing_line(t, names, 225) == (
        "playing: search@256 vs random vs planner vs learned (table 25 of 225, 120/2,000 games)"
    )
    assert LP.rung_name("search:rollout=learned") == "search@256"


def test_the_watch_times_each_table_from_its_start_not_its_compile():
    now = [0.0]
    w = LP.Watch([cheap(0), LP.TableClock(1, 100, (0, 1, 2, 9), rollouts=64)], ["r"] * 10, 2, clock=lambda: now[0])
    now[0] = 30.0  # compiling
    assert w.playing() == "starting: r vs r vs r vs r (table 1 of 2, 0/2,000 games; loading or compiling its kernels)"
    w.began(0)
    now[0] = 30.2
    w.games(0, 2000)
    now[0] = 40.0
    w.began(1)
    now[0] = 42.0
    w.games(1, 10)
    assert (w.tables[0].secs, w.tables[1].secs) == (pytest.approx(0.2), pytest.approx(2.0))
    assert w.playing() == "playing: r vs r vs r vs r (table 2 of 2, 10/100 games)"
    now[0] = 43.0
    assert w.left().seconds == pytest.approx(90 * 0.2 - 1.0)


def test_the_progress_line_says_the_time_left_is_unknown_and_the_table_playing():
    """The plain line names the slow table and says why no time left is given, instead of the quick tables' one."""
    now, buf = [0.0], io.StringIO()
    tables = [cheap(i) for i in range(24)] + [LP.TableClock(24, 2000, (0, 1, 3, 4), rollouts=256)]
    names = ["random", "planner", "spoiler", "learned", "search:budget=256,rollout=learned"]
    w = LP.Watch(tables, names, 25, clock=lambda: now[0])
    with PG.Lines(50000, "ladder turnwall-4p", buf, clock=lambda: now[0]) as lines:
        lines.watch = w
        lines.advance(0)
        for i in range(24):
            w.began(i)
            now[0] += 0.2
            w.games(i, 2000)
            lines.advance(2000)
        w.began(24)
        now[0] += 600.0  # no block of the search table ended yet
        lines.advance(0)
    said = buf.getvalue().splitlines()
    assert "time left: unknown until table 25 is timed" in said[-3]
    assert said[-2] == (
        "ladder turnwall-4p: playing: random vs planner vs learned vs search@256 (table 25 of 25, 0/2,000 games)"
    )
    assert not any("min" in s and "left" in s for s in said)


def test_ladder_help_says_games_is_per_table_and_the_run_says_the_games_in_all():
    from sim.api.ladder import build
    from sim.cli.ladder import opening_line
    from sim.cli.main import app

    out = cli.invoke(app, ["ladder", "--help"], terminal_width=200).output
    assert "games at each table, not in all" in " ".join(out.split())
    ld = build("moor", games=200, strategies=["random", "runner", "collector"], balance_games=400)
    assert opening_line(ld) == (
        f"ladder {ld.folder_name()}: {len(ld.tables)} tables, {ld.total_games:,} games in all "
        "(200 a table, 400 at each rung's own table)"
    )


def test_a_long_ladder_says_its_time_to_go_from_each_tables_own_rate_not_the_games_per_second():
    now, buf = [0.0], io.StringIO()
    tables = [cheap(0), LP.TableClock(1, 2000, (0, 1, 3, 4), rollouts=256)]
    w = LP.Watch(tables, ["a", "b", "c", "d", "search:budget=256"], 2, clock=lambda: now[0])
    with PG.Lines(4000, "ladder x", buf, clock=lambda: now[0]) as lines:
        lines.watch = w
        lines.advance(0)
        w.began(0)
        now[0] += 0.2
        w.games(0, 2000)
        lines.advance(2000)
        w.began(1)
        now[0] += 2.0
        w.games(1, 4)
        lines.advance(4)
    said = buf.getvalue().splitlines()
    assert said[0] == (
        "ladder x: about 16 min 38 s to go at each table at its own games/s (4,000 games; Ctrl-C stops it cleanly, "
        "--games N plays fewer)"
    )
