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


def test_the_time_left_is_a_lower_bound_until_a_search_table_is_timed_not_an_estimate_at_the_quick_tables_rate():
    """24 quick tables done at 10,000 games/s, then a search table: its games count at the quick rate only as a
    floor, the time left a lower bound that says which tables are not timed."""
    tables = [cheap(i) for i in range(24)] + [LP.TableClock(24, 2000, (0, 1, 3, 8), budgets=(0, 0, 0, 256))]
    for t in tables[:24]:
        t.done, t.secs = 2000, 0.2
    left = LP.time_left(tables)
    assert left == LP.Left(pytest.approx(0.2), (((8,), 1),), pytest.approx(0.2)) and left.bound
    assert not left.telling  # all of it floors: said as unknown, not "at least 0 s"
    assert LP.left_words(left, ["r"] * 8 + ["search:budget=256"]) == "1 table with search@256 not timed yet"


def test_each_table_counts_at_its_own_rate_and_a_search_table_is_priced_by_its_top_budgets_seats():
    """Quick tables at 0.1 ms a game, a table with one search@256 seat timed at 0.5 s a game: its set's other orders
    at that rate, the all-search@256 table at four times its search seat's cost, a quick table of a set not seen yet
    at the quick rate; a search@16 table stays unknown (a rollout at 16 does not cost what one at 256 does)."""
    done = cheap(0)
    done.done, done.secs = 2000, 0.2
    slow = LP.TableClock(1, 2000, (0, 1, 3, 8), budgets=(0, 0, 0, 256), done=100, secs=50.0)
    mirror = LP.TableClock(2, 2000, (8, 3, 1, 0), budgets=(256, 0, 0, 0))
    mono = LP.TableClock(3, 2000, (8, 8, 8, 8), budgets=(256,) * 4)
    other = cheap(4, rungs=(1, 2, 3, 4))
    light = LP.TableClock(5, 2000, (0, 2, 4, 6), budgets=(0, 0, 0, 16))
    spg = LP.seconds_per_game([done, slow, mirror, mono, other, light])
    assert spg[1] == spg[2] == pytest.approx(0.5)
    per_seat = (50.0 - 0.0001 * 100) / 100
    assert spg[3] == pytest.approx(0.0001 + 4 * per_seat)
    assert spg[4] == pytest.approx(0.0001)
    assert spg[5] is None
    left = LP.time_left([done, slow, mirror, mono, other], since_s=10.0)
    expect = 1900 * 0.5 - 10.0 + 2000 * 0.5 + 2000 * spg[3] + 2000 * 0.0001
    assert left.seconds == pytest.approx(expect)
    assert not left.bound


def test_a_search_at_256_table_is_not_priced_from_the_rollouts_of_search_at_16_and_64():
    """`sim ladder moor --games 300` (a fresh user): the search@16 and @64 tables timed first, the time left counted
    the search@256 tables at 256 of their rollouts: 22-30 min said where 110 remained. Until a table whose top
    search rung is search@256 is timed the time left is a lower bound, and the words say which tables would tell."""
    names = ["random", "collector", "runner", "learned"] + [f"search:budget={b},rollout=learned" for b in (16, 64, 256)]
    q = cheap(0, games=300)
    q.done, q.secs = 300, 0.1
    s16 = LP.TableClock(1, 300, (0, 1, 2, 4), budgets=(0, 0, 0, 16), done=300, secs=30.0)
    s64 = LP.TableClock(2, 300, (0, 1, 4, 5), budgets=(0, 0, 16, 64), done=300, secs=120.0)
    s256 = LP.TableClock(3, 300, (0, 1, 3, 6), budgets=(0, 0, 0, 256))
    left = LP.time_left([q, s16, s64, s256])
    assert left == LP.Left(pytest.approx(0.1), (((6,), 1),), pytest.approx(0.1))
    assert LP.left_words(left, names) == "1 table with search@256 not timed yet"
    mixed = LP.TableClock(4, 300, (0, 4, 5, 6), budgets=(0, 16, 64, 256))
    s256.done, s256.secs = 100, 40.0  # 0.4 s a game, its search seat about 0.4 s
    spg = LP.seconds_per_game([q, s16, s64, s256, mixed])
    assert spg[4] == pytest.approx(spg[3])  # priced by its one search@256 seat, not its 336 rollouts at @16's cost


def test_the_words_say_each_kind_of_table_not_timed_and_nothing_for_an_estimate():
    names = ["random", "search:budget=16", "search:budget=16,rollout=random", "search:budget=256"]
    left = LP.Left(5.0, (((), 3), ((3,), 1), ((1, 2), 2)))
    assert LP.left_words(left, names) == (
        "3 tables without search, 1 with search@256 and 2 with search:budget=16 and "
        "search:budget=16,rollout=random not timed yet"
    )
    assert LP.left_words(LP.Left(10.0), []) == ""


def test_a_quick_set_is_timed_once_a_table_of_it_is_done_even_in_under_a_second():
    a, b = cheap(0), cheap(1, rungs=(3, 2, 1, 0))
    a.done, a.secs = 2000, 0.2
    assert LP.seconds_per_game([a, b])[1] == pytest.approx(0.0001)
    a.done = 1000  # not done and under MIN_TIMED_S: not timed yet, no floor known
    assert LP.time_left([a, b]) == LP.Left(0.0, (((), 2),))


def test_the_playing_line_names_the_rungs_the_table_and_its_games():
    names = ["random", "planner", "spoiler", "learned", "search:budget=256,rollout=learned"]
    t = LP.TableClock(24, 2000, (4, 0, 1, 3), budgets=(256, 0, 0, 0), done=120)
    assert LP.playing_line(t, names, 225) == (
        "playing: search@256 vs random vs planner vs learned (table 25 of 225, 120/2,000 games)"
    )
    assert LP.rung_name("search:rollout=learned") == "search@256"


def test_the_watch_times_each_table_from_its_start_not_its_compile():
    now = [0.0]
    w = LP.Watch(
        [cheap(0), LP.TableClock(1, 100, (0, 1, 2, 9), budgets=(0, 0, 0, 64))], ["r"] * 10, 2, clock=lambda: now[0]
    )
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
    """The plain line names the slow table and says why no time left is given (its bound, the quick tables' rate,
    is under a second), instead of the quick tables' one."""
    now, buf = [0.0], io.StringIO()
    tables = [cheap(i) for i in range(24)] + [LP.TableClock(24, 2000, (0, 1, 3, 4), budgets=(0, 0, 0, 256))]
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
    assert said[-3].endswith(", time left unknown: 1 table with search@256 not timed yet)")
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
        f"ladder moor-4p-{ld.variant}: {len(ld.tables)} tables, {ld.total_games:,} games in all "
        "(200 a table, 400 at each rung's own table)"
    )


def test_a_long_ladder_says_its_time_to_go_from_each_tables_own_rate_not_the_games_per_second():
    now, buf = [0.0], io.StringIO()
    tables = [cheap(0), LP.TableClock(1, 2000, (0, 1, 3, 4), budgets=(0, 0, 0, 256))]
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


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def moor_like(games: int = 100) -> tuple[list[LP.TableClock], list[str]]:
    """`sim ladder moor`'s kinds of tables in its playing order: quick ones, then search@256, @64, last @16."""
    names = ["random", "collector", "runner", "cautious", "weighted", "learned"]
    names += [f"search:budget={b},rollout=learned" for b in (16, 64, 256)]
    tables = [cheap(i, games=games) for i in range(2)]
    tables += [LP.TableClock(2 + i, games, (0, 1, 3, 8), budgets=(0, 0, 0, 256)) for i in range(2)]
    tables += [LP.TableClock(4 + i, games, (8, 7, 6, 1), budgets=(256, 64, 16, 0)) for i in range(2)]
    tables += [LP.TableClock(6 + i, games, (0, 1, 2, 7), budgets=(0, 0, 0, 64)) for i in range(2)]
    tables += [LP.TableClock(8 + i, games, (0, 1, 2, 6), budgets=(0, 0, 0, 16)) for i in range(3)]
    return tables, names


def test_tables_not_timed_yet_make_the_time_left_a_lower_bound_not_unknown():
    """`sim ladder moor --games 100` (a fresh user): no time left in 14 minutes of play, and at the table "search@256
    vs search@64 vs search@16 vs collector" it said "unknown until a table with search@16 is timed" (the search@16
    tables come last). The tables priced count at their estimate, the search@16 ones at the quick tables' rate (a
    floor), and the words say the total is a bound and why."""
    tables, names = moor_like()
    quick, s256, mixed, s64, s16 = tables[:2], tables[2:4], tables[4:6], tables[6:8], tables[8:]
    for t in quick:
        t.done, t.secs = 100, 0.05  # 0.5 ms a game
    for t in s256 + s64:
        t.done, t.secs = 100, 100 * (2.0 if t in s256 else 0.5)
    mixed[0].done, mixed[0].secs = 40, 80.0  # playing now: 2 s a game
    left = LP.time_left(tables, since_s=5.0)
    assert left.bound and left.telling and left.untimed == (((6,), 3),)
    expect = 60 * 2.0 - 5.0 + 100 * 2.0 + 3 * 100 * 0.0005
    assert left.seconds == pytest.approx(expect)
    assert LP.left_words(left, names) == "3 tables with search@16 not timed yet"
    for t in s16:
        t.done, t.secs = 100, 10.0
    mixed[0].done, mixed[0].secs = 100, 200.0
    assert LP.time_left(tables) == LP.Left(pytest.approx(100 * 2.0))  # all priced: the estimate, no bound


def test_a_lower_bound_is_said_as_at_least_and_the_plain_line_says_why():
    now, buf = [0.0], io.StringIO()
    tables, names = moor_like()
    w = LP.Watch(tables, names, 225, clock=lambda: now[0])
    with PG.Lines(1100, "ladder moor-4p", buf, every_s=float("inf"), clock=lambda: now[0]) as lines:
        lines.watch = w
        lines.advance(0)
        for t in tables[:4]:
            w.began(t.index)
            now[0] += 0.05 if not t.top else 200.0
            w.games(t.index, 100)
            lines.advance(100)
        w.began(4)
        lines._status(now[0])
        assert lines.left_text(short=True) == "≥ 6 min 40 s left"  # 200 at 2 s, 500 at the floor of 0.5 ms
    said = buf.getvalue().splitlines()
    assert said[-3].endswith(", at least 6 min 40 s left: 2 tables with search@64 and 3 with search@16 not timed yet)")
    assert said[-2] == (
        "ladder moor-4p: playing: search@256 vs search@64 vs search@16 vs collector (table 5 of 225, 0/100 games)"
    )
    assert not any("about" in s for s in said)  # no "about ... to go" from a bound


@pytest.mark.parametrize("label", ["ladder moor-4p", "ladder treasure_hunters-head_haunter-4p"])
def test_the_ladders_bar_fits_80_columns_and_says_why_the_time_left_is_unknown_or_a_bound(label):
    """At 80 columns the bar line was cut ("time left: unknown …") and so was the playing line: the bar says
    "time left: unknown" (a bound under a second) or "≥ 1 h 30 min left", the line beneath it (wrapped, not cut)
    says the table playing and why; a long name gives way, not the numbers."""
    from rich.console import Console

    now = [0.0]
    prog, adv = PG.bar(67_500, label, _Terminal(), clock=lambda: now[0])
    tables = [cheap(i, games=300) for i in range(24)] + [LP.TableClock(24, 300, (0, 1, 3, 8), budgets=(0, 0, 0, 256))]
    tables += [LP.TableClock(25 + i, 300, (0, 1, 2, 6), budgets=(0, 0, 0, 16)) for i in range(12)]
    names = ["random", "collector", "runner", "cautious", "weighted", "learned"]
    names += [f"search:budget={b},rollout=learned" for b in (16, 64, 256)]
    w = LP.Watch(tables, names, 225, clock=lambda: now[0])
    prog.lines.watch = w

    def screen() -> list[str]:
        out = Console(file=io.StringIO(), width=80, color_system=None)
        out.print(prog.get_renderable())
        said = out.file.getvalue().splitlines()  # type: ignore[attr-defined]
        assert all(len(x) <= 80 for x in said) and len(said) >= 2, said  # the reason wraps, not cut (the join below)
        assert said[0].startswith(label[:14])  # a long name gives way
        return said

    with prog:
        for i in range(24):
            w.began(i)
            now[0] += 0.2
            w.games(i, 300)
            adv(300)
        w.began(24)
        now[0] += 5
        said = screen()
        assert said[0].endswith("7200/67500 1,500 games/s time left: unknown")
        assert said[0].startswith(label if len(label) < 20 else "ladder treasur…")
        assert " ".join(x.strip() for x in said[1:]) == (
            "playing: random vs collector vs cautious vs search@256 (table 25 of 225, 0/300 games); time left unknown: "
            "1 table with search@256 and 12 with search@16 not timed yet"
        )
        now[0] += 595
        w.games(24, 30)  # 20 s a game: 270 games left, 1 h 30 min, the search@16 tables at the quick rate
        adv(30)
        said = screen()
        assert said[0].endswith("7230/67500 11 games/s ≥ 1 h 30 min left")
        assert " ".join(x.strip() for x in said[1:]) == (
            "playing: random vs collector vs cautious vs search@256 (table 25 of 225, 30/300 games); time left is a "
            "lower bound: 12 tables with search@16 not timed yet"
        )


def test_the_ladders_progress_line_names_it_once_at_80_columns(monkeypatch, tmp_path):
    """`sim ladder moor` drew "ladder ladder-mo…" at 80 columns: the bar's label was "ladder " + the folder's name,
    which starts with "ladder-" itself. The label `sim ladder` gives its bar, drawn at 80 columns, reads
    "ladder moor-4p" and the numbers after it."""
    from rich.console import Console

    from sim.cli.main import app

    labels: list[str] = []

    class Stop(Exception):
        pass

    def bar(total, label, *a, **kw):
        labels.append(label)
        raise Stop

    real = PG.bar
    monkeypatch.setattr(PG, "bar", bar)  # (sim ladder imports it when it runs)
    cli.invoke(app, ["ladder", "moor", "--games", "200", "--out", str(tmp_path / "ld")])
    assert labels == ["ladder moor-4p"], labels
    now = [0.0]
    prog, adv = real(67_500, labels[0], _Terminal(), clock=lambda: now[0])
    with prog:
        now[0] += 5
        adv(7200)
        out = Console(file=io.StringIO(), width=80, color_system=None)
        out.print(prog.get_renderable())
    first = out.file.getvalue().splitlines()[0]  # type: ignore[attr-defined]
    assert first.startswith("ladder moor-4p ") and "ladder ladder" not in first and "…" not in first, first
