"""`sim ladder`: rungs parsed and refused in one line before anything runs, a balanced design, common random numbers,
an A-vs-A ladder whose two copies get overlapping intervals, resumable tables, the same numbers on a 2-worker
LocalCluster, the report folder and its link on reports/index.html. Small Moor ladders (2 players, 400 games)."""

from __future__ import annotations

import html
import itertools
import json
import math
import re
from collections import Counter

import pytest
from typer.testing import CliRunner

import sim
from sim.api import ladder as api_ladder
from sim.cli.main import app
from sim.model import ladder_spec
from sim.model.ladder_spec import split_rungs
from tests.sim._cli import one_error_line

cli = CliRunner()
A_VS_A = ["random", "runner", "weighted", "weighted:w_goal=1.0"]  # w_goal = 1.0 is weighted's default


@pytest.mark.kernel
@pytest.mark.parametrize(
    "args, says",
    [
        (
            ["moor", "--strategies", "random;bogus"],
            "--strategies bogus: unknown strategy 'bogus' for moor; allowed: random",
        ),
        (
            ["moor", "--strategies", "random;weighted:zz=1"],
            "unknown parameter 'zz' for strategy weighted; allowed: w_tile",
        ),
        (["moor", "--strategies", "random;weighted:w_goal=x"], "w_goal: expected a number in -100.0..100.0"),
        (
            ["moor", "--strategies", "random;weighted:w_goal=500"],
            "w_goal: 500.0 is out of range; allowed -100.0..100.0",
        ),
        (["moor", "--strategies", "random;runner:w_goal=1"], "allowed: none (it takes no parameters)"),
        (["moor", "--strategies", "random;random"], "rung 'random' given twice"),
        (  # a strategy of the game but of another role is told as such, not as unknown (a fresh user)
            ["treasure_hunters", "--strategies", "weighted;haunter_search"],
            "--strategies haunter_search: 'haunter_search' is a haunter strategy in treasure_hunters, and this "
            "ladder's rungs are hunter strategies; allowed: ",
        ),
        (["moor", "--strategies", "random"], "a ladder needs at least 2 rungs"),
        (["moor", "--players", "9"], "--players: 9 is out of range for moor; allowed 2..5"),
        (  # a scenario file's players: an option's error (exit 2), not a file's (--set players=6, exit 3)
            ["scenarios/treasure_hunters/head_haunter-4p.toml", "--players", "6"],
            "--players: 6 is out of range for treasure_hunters; allowed 2..5",
        ),
        (["moor", "--strategies", "random;;weighted", "--games", "10"], "empty rung"),
        (  # played as a rung of its own, "search_" (a fresh user)
            ["moor", "--strategies", "weighted;search:"],
            "--strategies 'search:': nothing after the ':'; give search:param=value,... or search alone",
        ),
        (["chess"], "GAME: 'chess' is neither a game"),
        (["moor", "--games", "0"], "--games"),
        (
            ["scenarios/treasure_hunters/head_haunter-4p.toml", "--strategies", "random;runners"],
            "no Head Haunter strategy given",
        ),
    ],
)
def test_a_bad_ladder_is_one_line_before_anything_runs(args, says, tmp_path):
    r = cli.invoke(app, ["ladder", *args, "--out", str(tmp_path / "ld")])
    assert r.exit_code == 2, r.output
    assert says in one_error_line(r)
    assert not (tmp_path / "ld").exists()  # refused before the folder or any table


@pytest.mark.kernel
@pytest.mark.parametrize(
    "rung, says",
    [
        (
            "search:rollout=nope",
            "--strategies search:rollout=nope: rollout: 'nope' is not allowed; allowed: learned, runner, weighted, cautious, "
            "collector, random (e.g. search:rollout=learned)",
        ),
        ("search:root=1", "root: expected a string, got integer 1; allowed: ucb1, halving (e.g. search:root=ucb1)"),
        (
            "weighted:w_goal=[1",
            "--strategies weighted:w_goal=[1: w_goal: '[1' is not a value; give a number, true or false, or a name "
            "(e.g. weighted:w_goal=1.0)",
        ),
    ],
)
def test_a_bad_rung_value_is_said_as_a_rung_is_written(rung, says, tmp_path):
    """--strategies search:rollout=nope said '(a quoted string, e.g. --strategies search:rollout=nope: rollout =
    "runner")', a scenario file's TOML (and a garbled key), and a value the TOML parser refused 'write arrays as
    [1, 2]', which a comma-separated rung cannot hold. The example is now a rung."""
    r = cli.invoke(app, ["ladder", "moor", "--strategies", f"random;{rung}", "--out", str(tmp_path / "ld")])
    line = one_error_line(r)
    assert r.exit_code == 2 and line.endswith(says), line
    assert "quoted" not in line and " = " not in line and "TOML" not in line


def test_rungs_with_parameters_split_from_a_comma_list():
    assert split_rungs("random,planner:recall_own=0.5,recall_table=0.5,spoiler") == [
        "random",
        "planner:recall_own=0.5,recall_table=0.5",
        "spoiler",
    ]
    assert split_rungs("random; search:budget=64 ;search:budget=128") == [
        "random",
        "search:budget=64",
        "search:budget=128",
    ]


@pytest.mark.kernel
def test_a_rung_with_parameters_is_a_strategy_with_those_seat_parameters():
    ld = api_ladder.build("turnwall", players=2, strategies=["random", "planner:recall_own=0.5"], games=10)
    r = ld.rungs[1]
    assert (r.strategy, dict(r.params), r.text) == ("planner", {"recall_own": 0.5}, "planner:recall_own=0.5")
    sc = next(t.scenario for t in ld.tables if t.rungs == (1, 1))
    assert sc.sparams()[0][0] == 0.5 and sc.seats[0].params == {"recall_own": 0.5}


@pytest.mark.kernel
@pytest.mark.parametrize("players, rungs", [(2, 4), (3, 5), (4, 4), (4, 2), (3, 2)])
def test_every_rung_sits_in_every_seat_equally_often(players, rungs):
    spec_rungs = ["random", "collector", "runner", "cautious", "weighted"][:rungs]
    ld = api_ladder.build("moor", players=players, strategies=spec_rungs, games=401)
    assert ld.games % players == 0 and ld.games >= 401  # the start rotates with the game index: every seat equally
    mixed = [t for t in ld.tables if t.kind == "mixed"]
    seats = Counter((t.rungs[s], s) for t in mixed for s in range(players))
    assert len(set(seats.values())) == 1 and len(seats) == rungs * players
    assert all(len(set(t.rungs)) > 1 for t in mixed)
    assert sorted(t.rungs[0] for t in ld.tables if t.kind == "mono") == list(range(rungs))
    assert {(t.scenario.seed, t.scenario.games) for t in mixed} == {(ld.seed, ld.games)}  # common random numbers
    mono = {(t.scenario.seed, t.scenario.games) for t in ld.tables if t.kind == "mono"}  # each rung's own table:
    assert mono == {(ld.seed, ld.balance_games)} and ld.balance_games % players == 0  # sized for balance, same seed
    assert ld.balance_games >= 16_000 and ld.total_games == len(mixed) * ld.games + rungs * ld.balance_games


@pytest.mark.kernel
def test_a_rung_s_own_table_plays_the_balance_games_asked_for():
    ld = api_ladder.build("moor", players=4, strategies=["random", "runner"], games=40, balance_games=1001)
    assert ld.balance_games == 1004 and all(t.scenario.games == 1004 for t in ld.tables if t.kind == "mono")
    searching = api_ladder.build("moor", players=4, strategies=["random", "search:budget=4"], games=40)
    assert searching.balance_games == 40  # a search rung's table costs hundreds of scripted games a game
    with pytest.raises(api_ladder.LadderError, match="--balance-games: 0 is out of range"):
        api_ladder.build("moor", players=4, strategies=["random", "runner"], games=40, balance_games=0)


@pytest.mark.kernel
def test_the_co_operative_and_asymmetric_designs():
    coop = api_ladder.build("treasure_hunters", players=3, games=30)
    assert coop.mode == "cooperative" and {t.kind for t in coop.tables} == {"mono"}
    assert [r.text for r in coop.rungs][0] == "random"
    hh = api_ladder.build("scenarios/treasure_hunters/head_haunter-4p.toml", games=30)
    assert hh.mode == "asymmetric" and hh.label == "treasure_hunters-head_haunter"
    lead = [r for r in hh.rungs if r.role == "haunter"]
    assert len(hh.tables) == len(lead) * (len(hh.rungs) - len(lead))
    assert all(len(set(t.rungs[1:])) == 1 and hh.rungs[t.rungs[0]].role == "haunter" for t in hh.tables)


@pytest.fixture(scope="module")
def a_vs_a(tmp_path_factory):
    out = tmp_path_factory.mktemp("ladder") / "ld"
    return sim.ladder("moor", players=2, strategies=A_VS_A, games=400, seed=5, out=out)


@pytest.mark.kernel
def test_two_copies_of_one_strategy_under_two_names_get_overlapping_intervals(a_vs_a):
    rt = {r["rung"]: r for r in a_vs_a.raw["rating"]["ratings"]}
    a, b = rt["weighted"], rt["weighted:w_goal=1.0"]
    assert a["ci95"][0] <= b["ci95"][1] and b["ci95"][0] <= a["ci95"][1]
    h = a_vs_a.head_to_head.filter((sim_col("rung") == "weighted") & (sim_col("opponent") == "weighted:w_goal=1.0"))
    assert h["ci_low"][0] <= 0.5 <= h["ci_high"][0]
    assert rt["random"]["elo"] == 0 and rt["weighted"]["elo"] > 100  # random is the anchor, and the weakest here


def sim_col(name):
    import polars as pl

    return pl.col(name)


@pytest.mark.kernel
def test_two_copies_at_a_three_player_table_get_the_same_rating_exactly(tmp_path):
    # every seat order is played, so each table has its mirror with the copies swapped, on the same games
    rs = ["random", "runner", "weighted", "weighted:w_goal=1.0"]
    r = sim.ladder("moor", players=3, strategies=rs, games=150, seed=9, out=tmp_path)
    rt = {x["rung"]: x for x in r.raw["rating"]["ratings"]}
    assert rt["weighted"]["elo"] == pytest.approx(rt["weighted:w_goal=1.0"]["elo"], abs=1e-6)
    assert r.raw["rating"]["head_to_head"]["matrix"][2][3] == pytest.approx(0.5)


@pytest.mark.kernel
def test_the_default_games_spread_a_fixed_total_over_the_mixed_tables():
    from sim.model.ladder_spec import DEFAULT_TOTAL, MIN_DEFAULT_GAMES

    for players in (2, 4):
        ld = api_ladder.build("moor", players=players)
        mixed = sum(t.kind == "mixed" for t in ld.tables)
        rungs = len(ld.rungs)
        # every ordered seating of distinct rungs; past MAX_TABLES (9 default rungs at 4 players) of cyclic sets
        assert mixed == len(ladder_spec.mixed_sets(rungs, players)) * math.factorial(players)
        assert mixed == (math.perm(rungs, players) if players == 2 else 9 * 24)
        # the total spread over the tables, rounded up to whole rotations of the start seat
        assert ld.games == -(-max(MIN_DEFAULT_GAMES, DEFAULT_TOTAL // mixed) // players) * players


@pytest.mark.kernel
def test_the_report_folder_has_its_files_and_frames(a_vs_a):
    f = a_vs_a.folder
    assert {p.name for p in f.iterdir()} >= {"ladder.json", "ladder.parquet", "ladder.html", "points"}
    doc = json.loads((f / "ladder.json").read_text())
    assert doc["kind"] == "ladder" and doc["anchor"] == "random" and len(doc["tables"]) == 16
    assert a_vs_a.ratings.columns == ["rung", "elo", "ci_low", "ci_high", "pairs"]
    assert set(a_vs_a.luck["figure"]) == {"best_vs_random", "best_vs_next", "spread_elo", "stronger_wins", "explained"}
    arc = {"comeback", "last_at_half_wins"}  # the game's arc, judged for skill too (issue 39)
    assert set(a_vs_a.balance["figure"]) == {"first_player_advantage", "seat_spread", "length_turns"} | arc
    starts = ("holds for skill", "changes with skill", "cannot tell yet", "seats equal", "seats differ", "nothing to")
    assert len(a_vs_a.verdicts) == 5 and all(v.split(": ", 1)[1].startswith(starts) for v in a_vs_a.verdicts)
    assert not any("within noise" in v for v in a_vs_a.verdicts)
    page = (f / "ladder.html").read_text()
    for words in ("Luck versus skill", "Does the balance hold for skilled play?", "No rung family varies a budget"):
        assert words in page


@pytest.mark.kernel
def test_a_rerun_reuses_every_stored_table_with_the_same_numbers(a_vs_a):
    again = sim.ladder("moor", players=2, strategies=A_VS_A, games=400, seed=5, out=a_vs_a.folder)
    assert again.played == () and len(again.reused) == 16
    assert again.raw["rating"] == a_vs_a.raw["rating"] and again.raw["balance"] == a_vs_a.raw["balance"]


@pytest.mark.kernel
def test_an_interrupted_ladder_keeps_its_finished_tables(tmp_path):
    from sim.play.context import RunContext

    seen = []

    def stop_after_two(n):  # told as blocks of games end: stopped once the third table's games began
        seen.append(n)
        if sum(seen) > 2 * 50:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        sim.ladder("moor", players=2, strategies=["random", "runner"], games=50, out=tmp_path, advance=stop_after_two)
    assert not (tmp_path / "ladder.json").exists()
    assert len(list((tmp_path / "points").glob("*.json"))) == 2
    r = sim.ladder("moor", players=2, strategies=["random", "runner"], games=50, out=tmp_path, ctx=RunContext())
    assert len(r.reused) == 2 and len(r.played) == 2


@pytest.mark.kernel
def test_a_ladder_run_again_after_a_stop_says_the_tables_it_kept_and_counts_the_rest(tmp_path):
    """The same command again after a stop plays only the missing tables: it says how many it kept, and its count
    runs over the games still to play (a fresh user saw the count start at 0 of every table's games)."""
    args = ["ladder", "moor", "--players", "2", "--strategies", "random;runner", "--games", "50"]
    args += ["--out", str(tmp_path / "ld")]
    assert cli.invoke(app, args).exit_code == 0
    points = sorted((tmp_path / "ld" / "points").glob("*.json"))
    assert len(points) == 4
    points[0].unlink()  # as a run stopped before its last table
    r = cli.invoke(app, args)
    assert r.exit_code == 0, r.output
    said = re.search(r"3 of 4 tables kept from an earlier run in (.+) \(([\d,]+) games\): playing the other 1 "
                     r"\(([\d,]+) games; --fresh plays them all again\)", r.output)  # fmt: skip
    assert said, r.output
    assert said[1] == str(tmp_path / "ld" / "points")
    kept, rest = (int(x.replace(",", "")) for x in (said[2], said[3]))
    assert kept + rest == 32_100 and f": {rest:,} games in " in r.output  # the games line: only those played now
    fresh = cli.invoke(app, [*args, "--fresh"])
    assert fresh.exit_code == 0 and "kept from an earlier run" not in fresh.output


@pytest.mark.kernel
def test_a_resumed_ladder_reads_its_stored_tables_once(tmp_path, monkeypatch):
    """The kept line's list of stored tables goes to the run: the folder's files are not read a second time."""
    import sim.play.ladder as engine

    args = ["ladder", "moor", "--players", "2", "--strategies", "random;runner", "--games", "50"]
    args += ["--out", str(tmp_path / "ld")]
    assert cli.invoke(app, args).exit_code == 0
    sorted((tmp_path / "ld" / "points").glob("*.json"))[0].unlink()
    reads, real = [], engine.stored_tables
    monkeypatch.setattr(engine, "stored_tables", lambda *a: reads.append(a) or real(*a))
    r = cli.invoke(app, args)
    assert r.exit_code == 0 and "3 of 4 tables kept" in r.output, r.output
    assert len(reads) == 1


@pytest.mark.kernel
def test_the_cli_prints_the_ratings_and_writes_the_folder(tmp_path):
    r = cli.invoke(
        app,
        [
            "ladder",
            "moor",
            "--players",
            "2",
            "--strategies",
            "random,runner,collector",
            "--games",
            "100",
            "--out",
            str(tmp_path / "ld"),
        ],
    )
    assert r.exit_code == 0, r.output
    assert "Elo" in r.stdout and "best vs random" in r.stdout and "game length" in r.stdout
    assert (tmp_path / "ld" / "ladder.json").is_file()


@pytest.mark.kernel
def test_the_index_links_a_ladder(a_vs_a, tmp_path):
    import shutil

    from sim.pages import index_page

    shutil.copytree(a_vs_a.folder, tmp_path / "ladder-moor-2p", ignore=shutil.ignore_patterns("points"))
    page = index_page.write([], [], tmp_path).read_text()
    assert "Skill ladders" in page and 'href="ladder-moor-2p/ladder.html"' in page and "strongest:" in page


@pytest.mark.kernel
def test_a_ladder_on_a_local_cluster_gives_the_same_numbers(a_vs_a, tmp_path):
    pytest.importorskip("distributed")
    r = sim.ladder("moor", players=2, strategies=A_VS_A, games=400, seed=5, out=tmp_path, workers=2, chunk=150)
    assert r.raw["rating"] == a_vs_a.raw["rating"] and r.raw["tables"] == a_vs_a.raw["tables"]
    assert r.raw["balance"] == a_vs_a.raw["balance"]


@pytest.mark.kernel
def test_the_design_refuses_too_many_tables():
    with pytest.raises(ladder_spec.LadderError, match="need .* tables; allowed at most"):
        api_ladder.build("moor", players=5, strategies=[f"weighted:w_goal={i}" for i in range(12)], games=10)


@pytest.mark.kernel
def test_an_interrupted_fresh_rerun_keeps_the_earlier_ladder_as_it_was(tmp_path):
    """`sim ladder --fresh` stopped by Ctrl-C deleted the earlier ladder.json/html (the index then linked a missing
    page): the earlier report now stays, byte for byte, until the new one replaces it."""
    first = sim.ladder("moor", players=2, strategies=["random", "runner"], games=50, out=tmp_path)
    before = {o: (first.folder / o).read_bytes() for o in ("ladder.json", "ladder.html", "ladder.parquet")}

    def stop(n):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        sim.ladder("moor", players=2, strategies=["random", "runner"], games=60, out=tmp_path, fresh=True, advance=stop)
    assert {o: (tmp_path / o).read_bytes() for o in before} == before


@pytest.mark.kernel
def test_a_ladder_of_chosen_rungs_gets_a_folder_of_its_own():
    """`sim ladder moor --strategies 'random;weighted'` wrote into reports/ladder-moor-4p, replacing the default
    ladder: chosen rungs now name their folder; the default rungs (in any order) keep the plain name."""
    from sim.api.ladder import build

    assert build("moor").folder_name() == "ladder-moor-4p"
    default = [r.text for r in build("moor").rungs]
    assert build("moor", strategies=default[::-1]).folder_name() == "ladder-moor-4p"
    assert build("moor", strategies=["random", "weighted"]).folder_name() == "ladder-moor-4p-random-weighted"
    long = build("moor", strategies=["random", *[f"weighted:w_goal={v}" for v in (1.5, 2.5, 3.5, 4.5)]])
    assert len(long.folder_name()) == len("ladder-moor-4p-") + 10


def test_heatmap_numbers_are_white_on_dark_cells_and_black_on_light_ones():
    """The ladder's head-to-head heatmap wrote every number black, unreadable on the dark ends of RdBu (random's 8%
    against runner, weighted's 92% against random). The text colour now follows the cell's luminance, on the
    asymmetric ladder's matrix and a run's strategy matchups too."""
    from matplotlib.colors import to_rgb

    from sim.pages import ladder_plots, plots

    def colours(fig) -> dict[str, tuple]:
        return {t.get_text(): to_rgb(t.get_color()) for t in fig.axes[0].texts}

    white, black = to_rgb("white"), to_rgb("black")
    names = ["a", "b", "c"]
    h2h = [[None, 0.92, 0.5], [0.08, None, 0.13], [0.5, 0.87, None]]
    d = {"rating": {"order": [0, 1, 2], "ratings": [{"rung": n} for n in names], "head_to_head": {"matrix": h2h}}}
    c = colours(ladder_plots.heatmap(d))
    assert c["92"] == c["8"] == c["13"] == c["87"] == white and c["50"] == black
    cells = [{"row": "h", "col": n, "hunters_win_rate": v} for n, v in zip(names, (0.0, 0.5, 0.95))]
    c = colours(ladder_plots.matrix({"matrix": {"rows": ["h"], "cols": names, "cells": cells, "row_role": "x"}}))
    assert c["0"] == c["95"] == white and c["50"] == black
    c = colours(plots.matchups({"matchups": {"a": {"b": 0.8}, "b": {"a": 0.2}}}))
    assert c["80.0"] == c["20.0"] == white


def test_the_asymmetric_ladders_matrix_title_is_whole_in_its_figure():
    """The Head Haunter ladder's matrix title ran past the figure's right edge ('... x hunters (column'); a title
    longer than its figure now breaks into lines that fit."""
    from sim.pages import ladder_plots
    from tests.sim._plots import texts_outside

    cols = ["random", "runners", "weighted"]
    cells = [{"row": r, "col": c, "hunters_win_rate": 0.3} for r in ("haunter_random", "haunter_builder") for c in cols]
    m = {"rows": ["haunter_random", "haunter_builder"], "cols": cols, "cells": cells, "row_role": "Head Haunter"}
    fig = ladder_plots.matrix({"matrix": m})
    assert texts_outside(fig) == []
    assert fig.axes[0].get_title() == "hunters' win rate (%):\nHead Haunter (rows) x hunters (columns)"


@pytest.mark.kernel
def test_a_top_the_games_cannot_split_is_said_to_be_a_tie(a_vs_a, tmp_path):
    """weighted and its copy lead the A-vs-A ladder with a head-to-head interval holding 50%: the text names both as
    tied for strongest instead of one (the Turnwall default ladder's planner and weighted in make run)."""
    from sim.cli.ladder import summary_text
    from sim.pages.index_page import ladder_headline

    d = a_vs_a.raw
    rt = d["rating"]
    best = rt["ratings"][rt["best"]]["rung"]
    assert {best, *rt["tied_with_best"]} == {"weighted", "weighted:w_goal=1.0"}
    head = ladder_headline(d)
    assert head.startswith("tied for strongest: weighted and weighted:w_goal=1.0, +"), head
    assert "tied for strongest: " in summary_text(d) and "cannot tell them apart" in summary_text(d)
    page = (a_vs_a.folder / "ladder.html").read_text()
    sentence = html.unescape(page.split("In a sentence</h2><p>")[1].split("</p>")[0])
    assert "are tied for the strongest rung" in sentence and "is the strongest rung" not in sentence
    # a best rung that stands out is named alone
    r = sim.ladder("moor", players=2, strategies=["random", "weighted"], games=400, seed=5, out=tmp_path / "l")
    assert r.raw["rating"]["tied_with_best"] == [] and ladder_headline(r.raw).startswith("strongest: weighted ")
    # an anchor that won no game: the headline gives no number (a fresh user's Turnwall '+2818 Elo (not measured
    # (random won no game)) over random', the number the fit's regularisation, not a measure)
    never = {**d, "rating": {**rt, "never_won": [d["anchor"]]}}
    head = ladder_headline(never)
    assert (
        head == f"tied for strongest: weighted and weighted:w_goal=1.0; {d['anchor']} won no game, so the "
        "distance above it is not measured"
    ), head
    assert "Elo" not in head


@pytest.mark.kernel
def test_margin_entries_of_the_balance_verdicts_are_checked_before_play():
    ld = api_ladder.build("moor", players=4, strategies=["random", "runner"], games=40)
    wide = api_ladder.with_margins(ld, ["first_player_advantage=50", "length_turns=3"])
    assert dict(wide.margins) == {"first_player_advantage": 50.0, "length_turns": 3.0}
    for bad, words in (
        ("fpa=1", "'fpa' is not a balance figure; allowed: first_player_advantage"),
        ("seat_spread=-1", "allowed: a positive, finite number"),
    ):
        with pytest.raises(api_ladder.LadderError, match=words):
            api_ladder.with_margins(ld, [bad])


def test_a_strongest_rung_barely_above_the_reference_is_said_to_tell_little_about_skill():
    from sim.stats.ladder_fit import close_words

    words = close_words(5.2, "Elo", "weighted", "runner")
    assert words.startswith("Note: runner, the strongest rung, is rated only 5 Elo above weighted")
    assert close_words(120.0, "Elo", "weighted", "search") == ""
    assert close_words(0.0, "Elo", "weighted", "weighted") == ""
    assert "only 2 points above" in close_words(2.0, "points", "a", "b")


@pytest.mark.parametrize("r, n", [(r, n) for r in range(5, 13) for n in (2, 3, 4, 5) if n < r])
def test_cyclic_sets_meet_every_pair_of_rungs_and_hold_each_rung_equally_often(r, n):
    blocks = ladder_spec.cyclic_blocks(r, n)
    assert all(len(set(b)) == n for b in blocks) and len(set(blocks)) == len(blocks)
    met = {p for b in blocks for p in itertools.combinations(b, 2)}
    assert met == set(itertools.combinations(range(r), 2))
    assert len(set(Counter(x for b in blocks for x in b).values())) == 1


@pytest.mark.kernel
def test_the_default_ladder_of_a_game_with_a_learned_player_has_it_and_search_at_doubling_budgets():
    """Issue 38: the default ladder includes the learned player and search at 16, 64, 256 with learned rollouts (9
    rungs at 4 players: cyclic sets, every rung in every seat equally often); make run's first look leaves search
    out under a folder of its own."""
    from sim.model import registry

    ld = api_ladder.build("moor")
    texts = [r.text for r in ld.rungs]
    assert texts[-4:] == ["learned"] + [f"search:budget={b},rollout=learned" for b in (16, 64, 256)]
    mixed = [t for t in ld.tables if t.kind == "mixed"]
    assert len(mixed) == 9 * 24 and ld.folder_name() == "ladder-moor-4p"
    seats = Counter((t.rungs[s], s) for t in mixed for s in range(4))
    assert len(seats) == 9 * 4 and len(set(seats.values())) == 1
    spec = registry.get("moor")
    cheap = [t for t in texts if not ladder_spec.is_search_rung(spec, t)]
    assert (
        cheap == texts[:-3] and api_ladder.build("moor", strategies=cheap).folder_name() == "ladder-moor-4p-no-search"
    )
    # a game without a learned player (every game has one now: its learners taken away) keeps its scripted rungs
    import dataclasses

    bare = dataclasses.replace(registry.get("turnwall"), learners=())
    rungs = ladder_spec.default_rungs(bare, "player")
    assert rungs and not any(ladder_spec.is_search_rung(bare, r) for r in rungs)


def test_a_ladder_out_that_cannot_be_made_is_refused_before_the_plan_line(tmp_path):
    """`sim ladder moor --out /proc/x` printed the plan line, then an error that did not name --out (a fresh user)."""
    r = cli.invoke(app, ["ladder", "moor", "--strategies", "random;weighted", "--out", "/proc/x"])
    assert r.exit_code != 0
    assert one_error_line(r).startswith("error: --out: cannot create /proc/x"), r.output
    assert "tables" not in r.output  # no plan line before the refusal


@pytest.mark.kernel
def test_collecting_a_ladder_decodes_each_tables_document_once(a_vs_a, monkeypatch):
    """`collect` decoded every stored table's JSON twice (once for its paired names, once for its aggregates, built
    into an `Aggregates` it did not use): the moor ladder of make run reads 40 MB of them. Once, with the numbers
    the store's own readers give."""
    import numpy as np

    import sim.play.ladder as engine
    from sim.play.sweep_store import Store

    ld = api_ladder.build("moor", players=2, strategies=A_VS_A, games=400, seed=5)
    decoded, real = [], json.loads
    monkeypatch.setattr(json, "loads", lambda *a, **k: decoded.append(1) or real(*a, **k))
    got = engine.collect(ld, a_vs_a.folder)
    assert len(decoded) == len(ld.tables)
    monkeypatch.setattr(json, "loads", real)
    store = Store(a_vs_a.folder / "points")
    for tg in got:
        k = engine.key(ld, tg.table)
        p = store.load_paired(k)
        assert tg.aggregates == store.load(k)["aggregates"] and np.array_equal(tg.finished, p["finished"])
        assert all(np.array_equal(tg.values[n], p["paired"][:, j]) for j, n in enumerate(p["names"]))


def test_the_balance_reference_says_why_it_is_the_reference():
    """The balance section names why its reference table is one: the scenario's own players where the ladder's
    scenario seats that rung everywhere, else the first rung given that is not a random player (a fresh user read
    "the scenario's own players" of a rung the scenario never seats)."""
    from sim.output.ladder_output import reference_why

    own = api_ladder.build("moor", strategies=["random", "weighted", "runner"])
    assert {s.strategy for s in own.base.seats} == {"weighted"}
    assert reference_why(own, "weighted") == "the scenario's own players"
    assert reference_why(own, "runner") == "the first rung given that is not a random player"


def test_a_ladder_out_that_is_a_file_raises_the_ladders_own_error_from_python(tmp_path):
    """`sim.ladder(out=<a file>)` raised SweepOutputError: right words, a sweep's class name (a fresh user)."""
    from sim.output.ladder_output import LadderOutputError

    f = tmp_path / "a-file"
    f.write_text("x")
    with pytest.raises(LadderOutputError, match="is a file; give a folder"):
        sim.ladder("moor", strategies=["random", "weighted"], games=10, out=f)


def test_the_page_says_what_each_search_rung_played_by_default():
    """A search default that changes (Moor's search moved to halving with deviate 1 on 2026-12-07) is read on the
    page itself: the parameters a search rung left to the game's defaults, rungs that left the same said together;
    scripted rungs and parameters the rung gave are not repeated."""
    from sim.pages.ladder_page import search_defaults

    played = {"budget": 4, "rollout": "learned", "deviate": 1.0, "root": "halving", "tiebreak": "none"}
    d = {
        "rungs": [
            {"rung": "weighted", "params": {}, "played": {"w_goal": 1.0}},
            {"rung": "search:budget=4", "params": {"budget": 4}, "played": played},
            {"rung": "search:budget=16", "params": {"budget": 16}, "played": {**played, "budget": 16}},
            {"rung": "search:root=ucb1", "params": {"root": "ucb1"}, "played": {**played, "root": "ucb1"}},
        ]
    }
    assert search_defaults(d) == (
        "search:budget=4, search:budget=16: rollout = learned, deviate = 1.0, root = halving, tiebreak = none; "
        "search:root=ucb1: budget = 4, rollout = learned, deviate = 1.0, tiebreak = none"
    )
    assert search_defaults({"rungs": [{"rung": "weighted", "params": {}}]}) == ""


@pytest.mark.parametrize(
    "given, said",
    [
        ({"games": "10"}, "games: expected an integer, got '10'"),
        ({"games": 4.5}, "games: expected an integer, got 4.5"),
        ({"threads": 0}, "threads=0 is out of range; allowed >= 1"),
        ({"balance_games": "x"}, "balance_games: expected an integer, got 'x'"),
        ({"out": ""}, "out: an empty path; give a folder"),
        ({"strategies": []}, "strategies: [] names no rung"),
    ],
)
def test_the_python_ladder_refuses_a_bad_keyword_in_one_line(given, said):
    """sim.ladder(games="10") raised a TypeError from deep inside, threads=0 was accepted and out="" wrote to the
    default folder (a fresh user): each is now one SimError naming the keyword, as sim.run's are."""
    from sim.model.errors import SimError

    with pytest.raises(SimError) as e:
        sim.ladder("moor", **{"strategies": ["random", "weighted"], **given})
    assert said in str(e.value) and "\n" not in str(e.value)
