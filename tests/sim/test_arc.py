"""The game's arc (issue 39): the cheap per-round counts merge exactly whatever the chunks and threads, `sim arc`
writes the section with its timelines, the timelines are reproducible from (seed, scenario, game index) and their
chances are honest (a reliability check), and bad options are one line and exit 2."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

from sim.cli.main import app
from sim.model.scenario import load
from sim.play.context import RunContext
from tests.sim._cli import one_error_line

MOOR = "scenarios/moor/4p.toml"
cli = CliRunner()


@pytest.mark.kernel
def test_arc_counts_do_not_depend_on_chunks_or_threads():
    from sim.play import work

    sc = load(MOOR)
    a = work.play_games(sc, 3000, 5, 3000, None, RunContext(threads=1, arc=True)).agg
    b = work.play_games(sc, 3000, 5, 700, None, RunContext(threads=2, arc=True)).agg
    for k in ("arc_hist", "arc_lead", "arc_changes", "arc_half", "arc_comeback", "arc_clear", "arc_share"):
        assert np.array_equal(getattr(a, k), getattr(b, k)), k
    assert a.arc_changes.sum() == a.finished
    plain = work.play_games(sc, 3000, 5, 3000, None, RunContext(threads=1)).agg
    assert plain.arc_hist.size == 0  # a run without the arc records none
    assert np.array_equal(plain.score_hist, a.score_hist) and plain.win_units.tolist() == a.win_units.tolist()


@pytest.mark.kernel
def test_timelines_are_reproducible_and_honest():
    from sim.play.arc import game_timeline, timelines
    from sim.stats.arc import timeline_summary

    sc = load(MOOR)
    k = sc.spec.kernel()
    one = game_timeline(sc, k, 3, 8, 11)
    again = timelines(sc, 4, 8, 11, threads=2)[3]
    assert np.array_equal(one["p"], again["p"]) and one["rounds"] == again["rounds"]
    assert (one["p"].sum(axis=1) <= 1.0 + 1e-9).all()  # (a rollout stopped at the turn cap is no one's win)
    tl = timelines(sc, 40, 16, 11, threads=2)
    t = timeline_summary(tl, 4, 16)
    assert t["games"] == 40 and 1 <= t["decided"]["p50"] <= t["decided"]["rounds_p50"]
    # the reliability check: where there are enough states, the share that won is near the estimate
    for c in t["calibration"]:
        if c["states"] >= 400:
            assert abs(c["rate"] - c["estimate"]) < 0.08, c


@pytest.mark.kernel
def test_skilled_rollouts_play_the_learned_players_on_the_tables_own_games():
    """`sim arc --skilled`: the learned players play the rollouts, the game followed is the table's own."""
    from sim.play.arc import rollout_table, timelines

    sc = load(MOOR)
    roll = rollout_table(sc)
    assert {s.strategy for s in roll.seats} == {"learned"} and roll.players == sc.players
    own = timelines(sc, 3, 8, 11, threads=2)
    skilled = timelines(sc, 3, 8, 11, threads=2, skilled=True)
    again = timelines(sc, 3, 8, 11, threads=1, skilled=True)
    for a, b, c in zip(own, skilled, again):
        assert (a["rounds"], a["winners"], a["status"]) == (b["rounds"], b["winners"], b["status"])
        assert np.array_equal(a["p"][-1], b["p"][-1])  # the game's own result
        assert np.array_equal(b["p"], c["p"])  # reproducible whatever the threads
    assert any(not np.array_equal(a["p"], b["p"]) for a, b in zip(own, skilled))  # other players, other chances


@pytest.mark.kernel  # (the scenario's kernels load before the options are checked against it)
def test_sim_arc_skilled_needs_a_sample(tmp_path):
    r = cli.invoke(app, ["arc", MOOR, "--games", "100", "--sample", "0", "--skilled", "--out", str(tmp_path / "x")])
    assert r.exit_code == 2, r.output
    assert "--skilled: the learned players play the timelines' rollouts; give --sample > 0" in one_error_line(r)


@pytest.mark.kernel
def test_sim_arc_writes_the_section(tmp_path):
    out = tmp_path / "r"
    r = cli.invoke(app, ["arc", MOOR, "--games", "600", "--sample", "4", "--rollouts", "4", "--out", str(out)])
    assert r.exit_code == 0, r.output
    page = (out / "summary.html").read_text()
    assert "How the game unfolds" in page and "chance of winning" in page
    assert "timelines 4/4 games" in r.stderr
    import json

    s = json.loads((out / "summary.json").read_text())
    assert s["arc"]["timeline"]["games"] == 4 and "arc.lead_changes" in s["measures"]


@pytest.mark.parametrize(
    "args, option",
    [
        (["--rollouts", "0"], "--rollouts"),
        (["--sample", "-1"], "--sample"),
        (["--games", "10", "--sample", "50"], "--sample"),
    ],
)
def test_sim_arc_bad_options_are_one_line_and_exit_2(args, option, tmp_path):
    r = cli.invoke(app, ["arc", MOOR, "--out", str(tmp_path / "x"), *args])
    assert r.exit_code == 2, r.output
    assert option in one_error_line(r)
    assert not (tmp_path / "x").exists()


@pytest.mark.kernel
def test_compare_with_arc_compares_the_arc_measures(tmp_path):
    import json

    out = tmp_path / "c"
    r = cli.invoke(
        app,
        [
            "compare",
            MOOR,
            "--set-b",
            "seats.0.strategy=runner",
            "--games",
            "2000",
            "--arc",
            "--json",
            "--out",
            str(out),
        ],
    )
    assert r.exit_code == 0, r.output
    names = {m["name"] for m in json.loads((out / "compare.json").read_text())["metrics"]}
    assert {"arc.lead_changes", "arc.leader_at_half_wins", "arc.last_at_half_wins"} <= names
    plain = cli.invoke(app, ["compare", MOOR, "--set-b", "seats.0.strategy=runner", "--games", "500", "--json",
                             "--out", str(tmp_path / "p")])  # fmt: skip
    assert plain.exit_code == 0 and "arc.lead_changes" not in (tmp_path / "p" / "compare.json").read_text()


TH = "scenarios/treasure_hunters/basic-4p.toml"


@pytest.mark.kernel
def test_team_timelines_follow_the_team_and_the_house_and_are_honest():
    from sim.api.arc import team_groups
    from sim.play.arc import game_timeline, timelines
    from sim.stats.arc import timeline_summary

    sc = load(TH)
    tl = timelines(sc, 80, 16, 3, threads=2)
    one = game_timeline(sc, sc.spec.kernel(), 5, 16, 3)
    assert np.array_equal(one["p"], tl[5]["p"]) and np.array_equal(one["p_half"], tl[5]["p_half"])
    for x in tl:  # the hunters share a win (a quarter each); column 4: the house's (no seat won)
        assert np.allclose(x["p"][:, 0], x["p"][:, 3]) and (x["p"].sum(axis=1) <= 1 + 1e-9).all()
    groups = team_groups(sc)
    assert groups == {"the hunter team": [0, 1, 2, 3], "the house": []}
    t = timeline_summary(tl, 4, 16, groups)
    lost = sum(1 for x in tl if x["status"] == 0 and x["winners"] == 0)
    assert lost > 20 and t["games"] == sum(1 for x in tl if x["status"] == 0)  # the house's wins count
    assert 1 <= t["tipped"]["p50"] <= t["decided"]["p50"] <= t["decided"]["rounds_p50"] + 1
    for c in t["calibration"]:
        if c["states"] >= 300:
            assert abs(c["rate"] - c["estimate"]) < 0.08, c


@pytest.mark.kernel
def test_a_head_haunter_game_has_the_haunter_against_the_team():
    from sim.api.arc import team_groups

    assert team_groups(load("scenarios/treasure_hunters/head_haunter-4p.toml")) == {
        "Head Haunter": [0],
        "the hunter team": [1, 2, 3],
    }


@pytest.mark.kernel
def test_sim_arc_of_treasure_hunters_writes_the_team_timelines(tmp_path):
    import json

    out = tmp_path / "th"
    r = cli.invoke(app, ["arc", TH, "--games", "300", "--sample", "6", "--rollouts", "4", "--out", str(out)])
    assert r.exit_code == 0, r.output
    t = json.loads((out / "summary.json").read_text())["arc"]["timeline"]
    assert t["team"] and [b["label"] for b in t["bands"]] == ["the hunter team", "the house"]
    assert "The game tips" in r.stdout and "chance of winning" in (out / "summary.html").read_text()


@pytest.mark.kernel
def test_compare_with_sample_compares_the_rollout_measures_game_by_game(tmp_path):
    import json

    out = tmp_path / "c"
    args = ["compare", MOOR, "--set-b", "track_len=40", "--games", "400", "--arc", "--out", str(out)]
    r = cli.invoke(app, [*args, "--sample", "12", "--rollouts", "4"])
    assert r.exit_code == 0, r.output
    t = json.loads((out / "compare.json").read_text())["arc_timeline"]
    assert t["games"] == 12 and [m["name"] for m in t["measures"]] == [
        "arc.decided_share",
        "arc.tipped_share",
        "arc.comeback",
    ]
    for m in t["measures"]:
        assert m["verdict"] in ("unchanged", "changed", "cannot_tell") and m["ci95"][0] <= m["diff"] <= m["ci95"][1]
    assert "The game's arc from rollouts" in (out / "compare.html").read_text()
    # the same game of A and of B: A against itself differs in nothing
    same = cli.invoke(app, ["compare", MOOR, "--set-b", "track_len=30", "--games", "300", "--arc", "--sample", "6",
                            "--rollouts", "4", "--out", str(tmp_path / "s")])  # fmt: skip
    assert same.exit_code == 0, same.output
    t = json.loads((tmp_path / "s" / "compare.json").read_text())["arc_timeline"]
    assert all(m["diff"] == 0 and m["a"] == m["b"] for m in t["measures"])


@pytest.mark.kernel
def test_compare_sample_takes_a_margin_for_a_rollout_measure(tmp_path):
    """`--margin` may name a rollout measure when --sample compares the timelines: the row carries that margin and
    it decides the verdict; without --sample the same entry is one line naming the allowed measures."""
    import json

    base = ["compare", MOOR, "--set-b", "track_len=30", "--games", "300", "--arc"]
    r = cli.invoke(app, [*base, "--sample", "6", "--rollouts", "4", "--margin", "arc.decided_share=60",
                         "--out", str(tmp_path / "m")])  # fmt: skip
    assert r.exit_code == 0, r.output
    rows = {m["name"]: m for m in json.loads((tmp_path / "m" / "compare.json").read_text())["arc_timeline"]["measures"]}
    assert rows["arc.decided_share"]["margin"] == pytest.approx(0.6)
    assert rows["arc.tipped_share"]["margin"] == pytest.approx(0.01)  # the default: 1 point
    # A against itself, 6 games: equal pairs bound the difference within 60 points (3 / 6), never within 1 point
    assert all(m["diff"] == 0 for m in rows.values())
    assert rows["arc.decided_share"]["verdict"] == "unchanged"
    assert rows["arc.tipped_share"]["verdict"] == "cannot_tell"
    bad = cli.invoke(app, [*base, "--margin", "arc.decided_share=60", "--out", str(tmp_path / "b")])
    assert bad.exit_code != 0
    assert "--margin: 'arc.decided_share' is not a compared measure; allowed: " in one_error_line(bad)


@pytest.mark.parametrize(
    "args, says",
    [
        (["--sample", "5"], "--sample: the arc's timelines are compared with --arc"),
        (["--arc", "--sample", "500", "--games", "100"], "--sample"),
        (["--arc", "--sample", "5", "--rollouts", "0"], "--rollouts"),
    ],
)
@pytest.mark.kernel  # (--sample beyond --games is refused once A's kernels are loaded)
def test_compare_sample_bad_options_are_one_line(args, says, tmp_path):
    r = cli.invoke(app, ["compare", MOOR, "--set-b", "track_len=40", "--out", str(tmp_path / "x"), *args])
    assert r.exit_code == 2, r.output
    assert says in one_error_line(r)


@pytest.mark.kernel
def test_every_team_report_with_the_arc_says_when_the_house_tips_whatever_the_chunks(tmp_path):
    """`sim run --arc` of a Treasure Hunters scenario (what `make run` plays) says when the game tips, from its
    own games by score (`sim.stats.arc_tips`): the same figure with other chunks and threads (each game's path row
    is written by its own chunk), in the summary, the plain words and the measures table; not in a competitive
    game's, nor without the arc."""
    from sim.pages import arc_page
    from sim.play import work
    from sim.stats.summary import summarize

    sc = load(TH)
    a = work.play_games(sc, 900, 4, 900, None, RunContext(threads=1, arc=True)).agg
    b = work.play_games(sc, 900, 4, 250, None, RunContext(threads=2, arc=True)).agg
    assert np.array_equal(a.arc_paths, b.arc_paths) and "arc_paths" not in a.to_dict()
    s = summarize(sc, b)
    t = s["arc"]["tips"]
    assert t["games"] == int((a.arc_paths[:, 0] > 0).sum()) == a.finished  # every game finished is one of the fan's
    assert set(t["by_side"]) <= {"the hunter team", "the house"} and 1 <= t["tipped"]["p50"] <= t["tipped"]["p75"]
    words = " ".join(arc_page.sentences(s))
    assert "When does the game tip? By the scores alone" in words and f"{t['games']:,} finished" in words
    assert any(r["measure"].startswith("tips at, by score") for r in arc_page.measure_rows(s))
    plain = work.play_games(sc, 300, 4, 300, None, RunContext(threads=1)).agg
    assert summarize(sc, plain)["arc"] is None and plain.arc_paths.size == 0
    moor = work.play_games(load(MOOR), 300, 4, 300, None, RunContext(threads=1, arc=True)).agg
    assert "tips" not in summarize(load(MOOR), moor)["arc"]


def _arc_block(fan: int, every: int | None) -> dict:
    return {"fan_games": fan} | ({"measures": {"lead_changes": {"games": every}}} if every is not None else {})


def test_the_section_says_which_games_each_of_its_numbers_come_from():
    """The charts come from the run's first finished games (FAN_GAMES), the arc measures and their intervals from
    every finished game: the intro names each count as the summary holds it, never the charts' count for all."""
    from sim.pages.arc_page import games_said

    said = games_said(_arc_block(8192, 200_000), team=False)
    assert "first 8,192 finished games" in said and "95% intervals, from all 200,000 finished games" in said
    assert (
        games_said(_arc_block(1500, 1500), team=False)
        == "Charts, figures and intervals: all 1,500 finished games of the run."
    )
    assert (
        games_said(_arc_block(8000, None), team=True)
        == "The score chart comes from the run's first 8,000 finished games."
    )


@pytest.mark.kernel
def test_a_run_past_the_charts_games_says_its_intervals_count_every_game(tmp_path):
    import html
    import json
    import re

    out = tmp_path / "r"
    r = cli.invoke(app, ["run", "tests/data/moor-2p-small.toml", "--arc", "--games", "9000", "--out", str(out)])
    assert r.exit_code == 0, r.output
    a = json.loads((out / "summary.json").read_text())["arc"]
    fan, every = a["fan_games"], a["measures"]["lead_changes"]["games"]
    assert fan < every  # the run is longer than the charts' games
    page = html.unescape((out / "summary.html").read_text())
    intro = page[page.index("How the scores build up over a game") :]
    intro = intro[: intro.index("<")]
    assert f"first {fan:,} finished games (enough for their bands)" in intro
    assert f"with their 95% intervals, from all {every:,} finished games" in intro
    # every count the section's words and table give for the arc measures is the one the intro names for them
    counts = {int(x.replace(",", "")) for x in re.findall(r"(\d[\d,]*) finished games", intro)}
    assert counts == {fan, every}
