"""The arc measures (issue 39) used like any measure: a sweep or tune that asks for one records the game's arc
(and a stored point played without it is played again), the ladder's balance figures judge the arc for skill, and
`sim baselines` / `sim check` keep and check the arc measures of a competitive game (its arc counts stay out of
the exact tier; an older baseline without them is checked as before)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from sim.model.scenario import load
from sim.stats.measures import needs_arc

MOOR = "scenarios/moor/4p.toml"


def test_needs_arc_names_the_arc_measures():
    assert needs_arc(["margin", "arc.comeback"]) and not needs_arc(["margin", "first_player_advantage"])


def test_a_sweep_of_a_competitive_game_offers_the_arc_measures_and_a_team_game_none():
    from sim.stats.sweep_table import quantities

    assert {"arc.comeback", "arc.last_at_half_wins", "arc.decided_by_score_share"} <= set(quantities(load(MOOR)))
    assert not [q for q in quantities(load("scenarios/treasure_hunters/basic-4p.toml")) if q.startswith("arc.")]


@pytest.mark.kernel
def test_a_sweep_of_an_arc_measure_records_the_arc_and_replays_a_point_without_it(tmp_path):
    from sim.api.sweep import build, run_sweep
    from sim.play.distributed import InProcess

    plain = build(MOOR, ["track_len=24,32"], games=300, measures=["margin"])
    doc, _, played = run_sweep(plain, InProcess(), tmp_path / "s")
    assert "arc.comeback" not in doc["points"][0]["measures"]  # (played without the arc: not reported)
    arc = build(MOOR, ["track_len=24,32"], games=300, measures=["margin", "arc.comeback"])
    doc2, _, played2 = run_sweep(arc, InProcess(), tmp_path / "s")
    assert len(played2.played) == 2 and not played2.reused  # stored without the arc: played again
    for r in doc2["points"]:
        c = r["measures"]["arc.comeback"]
        assert c["n"] > 250 and 0 < c["value"] < 0.5
        assert r["measures"]["margin"] == doc["points"][r["index"]]["measures"]["margin"]  # the arc changes no game
    _, _, played3 = run_sweep(arc, InProcess(), tmp_path / "s")
    assert len(played3.reused) == 2  # now stored with it


def test_ladder_balance_figures_judge_the_arc():
    from sim.stats.ladder_fit import balance_figures

    n = 400
    rng = np.random.default_rng(1)
    win = rng.integers(0, 4, n)
    values = {f"win.seat{s}": np.where(win == s, 60, 0) for s in range(4)}
    values["first_player.win"] = values["win.seat0"]
    values["length.turns"] = rng.integers(80, 120, n)
    values["arc.comeback"] = (rng.random(n) < 0.1).astype(np.int64)
    values["arc.last_at_half_wins"] = np.where(rng.random(n) < 0.5, (rng.random(n) < 0.08).astype(np.int64), -1)
    f = balance_figures(values, np.ones(n, bool), 4, False)
    assert f["comeback"]["value"] == values["arc.comeback"].mean() and f["comeback"]["n"] == n
    defined = values["arc.last_at_half_wins"] >= 0
    assert f["last_at_half_wins"]["n"] == defined.sum()
    assert f["last_at_half_wins"]["value"] == values["arc.last_at_half_wins"][defined].mean()
    del values["arc.comeback"], values["arc.last_at_half_wins"]
    assert "comeback" not in balance_figures(values, np.ones(n, bool), 4, False)  # a table without the arc


@pytest.mark.kernel
def test_a_baseline_keeps_the_arc_measures_and_its_check_replays_them_exactly(tmp_path):
    from sim.api.check import exact_tier, make_baseline, stat_tests

    sc = load(MOOR)
    b = make_baseline(sc, exact_games=300, stat_games=600, check_games=300, threads=1)
    assert {"arc.comeback", "arc.lead_changes"} <= set(b["exact"]["measures"])
    assert not [k for k in b["exact"]["aggregates"] if k.startswith("arc_")]  # the arc's counts: not in the tier
    b = json.loads(json.dumps(b))
    res, msgs = exact_tier(sc, b, threads=2)
    assert res["identical"] and not msgs and not res["not_in_baseline"], res
    tests, notes = stat_tests(sc, b, 99, 300, threads=2)
    assert {t["metric"] for t in tests} >= {"arc.comeback"} and not [x for x in notes if "arc." in x]
    # a baseline made before the arc measures is checked as it was: no arc recorded, nothing missing
    old = json.loads(json.dumps(b))
    for part in ("exact", "statistical"):
        old[part]["measures"] = {k: v for k, v in old[part]["measures"].items() if not needs_arc([k])}
    res, msgs = exact_tier(sc, old, threads=2)
    assert res["identical"] and not msgs and not res["not_in_baseline"], res
