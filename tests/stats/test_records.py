"""Typed records of the statistics (sim.stats.records): read from the JSON documents on disk as they are, given back
field for field, so a summary.json of any earlier version draws the same pages. No kernel: the summary is made
from hand-written kernel outputs."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from sim.model.scenario import load
from sim.play.runner import new_aggregates
from sim.stats import metrics
from sim.stats.records import Decisiveness, Distribution, Estimate, Rate, SummaryFigures, SummaryRates
from sim.stats.summary import summarize

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("wins,games", [(0, 0), (3, 10), (2.5, 7), (100, 100), (1 / 3, 1)])
def test_a_rate_record_gives_back_the_json_it_was_read_from(wins, games):
    d = metrics.rate(wins, games)
    r = Rate.of(d)
    assert r.to_dict() == d
    assert json.dumps(r.to_dict()) == json.dumps(d)  # same fields, same order, same numbers
    assert (r.lo, r.hi) == tuple(d["ci95"]) and r.rate == d["rate"]


def test_an_estimate_without_games_has_no_value_and_says_so_when_asked_for_one():
    d = {"value": None, "ci95": None, "n": 0}
    e = Estimate.of(d)
    assert e.to_dict() == d
    assert not e.contains(0.5) and not e.overlaps(0.0, 1.0)
    with pytest.raises(ValueError, match="no interval"):
        _ = e.lo
    with pytest.raises(ValueError, match="no value"):
        _ = e.known


def test_an_estimate_reads_its_value_under_the_documents_own_key():
    row = {"rung": "runner", "elo": 41.5, "ci95": [20.0, 63.0], "pairs": 900}
    e = Estimate.of(row, "elo")
    assert (e.known, e.lo, e.hi, e.n) == (41.5, 20.0, 63.0, 0)
    assert e.contains(20.0) and e.contains(63.0) and not e.contains(63.5)
    assert e.overlaps(60.0, 70.0) and not e.overlaps(64.0, 70.0)
    with pytest.raises(KeyError):
        Estimate.of(row)  # no "value" field: the caller names the key


def _outputs(n: int, games: int, seed: int = 5):
    """Kernel-shaped outputs of ``games`` games of ``n`` seats: random scores, the top scorers winning (ties
    shared), one game in ten truncated."""
    rng = np.random.default_rng(seed)
    scores = rng.integers(0, 8, (games, n)).astype(np.int32)
    top = scores.max(axis=1, keepdims=True)
    winners = ((scores == top) * (1 << np.arange(n))).sum(axis=1).astype(np.int32)
    status = (np.arange(games) % 10 == 9).astype(np.int32)
    winners[status == 1] = 0
    turns = rng.integers(5, 40, games).astype(np.int32)
    return scores, winners, turns, turns // n, status


def _summary(n_games: int = 200) -> dict:
    sc = load(ROOT / "tests" / "data" / "moor-2p-small.toml")
    spec = sc.spec
    agg = new_aggregates(sc)
    scores, winners, turns, rounds, status = _outputs(sc.players, n_games)
    extra = np.zeros((n_games, len(spec.extra_columns)), np.int32)
    curves = np.full((n_games, len(spec.curves), spec.curve_len), -1, np.int32)  # none recorded
    agg.add(0, scores, winners, turns, rounds, status, extra, curves)
    return summarize(sc, agg)


def test_summary_rates_read_every_win_rate_of_a_summary_as_written_to_disk():
    s = json.loads(json.dumps(_summary()))  # what summary.json holds
    w = SummaryRates.of(s)
    assert [r.seat for r in w.seats] == [r["seat"] for r in s["seats"]]
    assert [r.win.to_dict() for r in w.seats] == [r["win"] for r in s["seats"]]
    assert [r.win.to_dict() for r in w.strategies] == [r["win"] for r in s["strategies"]]
    assert [(p.position, p.win.to_dict()) for p in w.positions] == [(p["position"], p["win"]) for p in s["positions"]]
    fp = s["first_player"]
    assert w.first_player is not None and w.first_player.win.to_dict() == fp["win"]
    assert (w.first_player.advantage, list(w.first_player.advantage_ci95)) == (fp["advantage"], fp["advantage_ci95"])
    assert w.team == {}  # a competitive game
    assert sum(r.win.wins for r in w.seats) == pytest.approx(w.seats[0].win.games)  # shared wins split


def test_a_summary_from_before_positions_and_teams_reads_with_none_of_them():
    s = json.loads(json.dumps(_summary(50)))
    for k in ("positions", "team", "first_player"):
        s.pop(k)
    w = SummaryRates.of(s)
    assert w.positions == () and w.team == {} and w.first_player is None
    assert len(w.seats) == 2


def test_summary_figures_read_every_count_and_distribution_of_a_summary_as_written_to_disk():
    s = json.loads(json.dumps(_summary()))
    f = SummaryFigures.of(s)
    g = s["games"]
    assert (f.games.played, f.games.finished, f.games.truncated, f.games.errors) == (
        g["played"],
        g["finished"],
        g["truncated"],
        g["errors"],
    )
    assert f.games.truncated_rate == g["truncated_rate"] and f.games.truncated == 20  # one game in ten
    for key, d in (("turns", f.length.turns), ("rounds", f.length.rounds)):
        assert d.to_dict() == s["length"][key]
        assert json.dumps(d.to_dict()) == json.dumps(s["length"][key])  # same fields, order and numbers
    assert [d.to_dict() for d in f.scores] == [r["score"] for r in s["seats"]]
    t = f.length.turns
    assert (t.p05, t.median, t.p95) == tuple(s["length"]["turns"]["quantiles"][q] for q in ("p05", "p50", "p95"))
    assert t.known_mean == s["length"]["turns"]["mean"] and t.half_width() > 0
    assert sum(t.counts) == t.n == f.games.finished
    assert (f.ties.tie_rate, f.ties.shared_games) == (s["ties"]["tie_rate"], s["ties"]["shared_games"])
    m = s["length"]["minutes"]
    assert f.length.minutes is not None
    assert (f.length.minutes.mean, f.length.minutes.median, f.length.minutes.seconds_per_turn) == (
        m["mean"],
        m["median"],
        m["seconds_per_turn"],
    )
    assert f.decisiveness is None  # added by the API after summarize (sim.api.core), not by the summary


def test_a_distribution_with_no_game_observed_has_no_mean_and_says_so_when_asked_for_one():
    d = Distribution.of(metrics.distribution([0, 0, 0], 5))
    assert d.n == 0 and d.mean is None and d.median is None and d.half_width() == 0.0
    with pytest.raises(ValueError, match="no mean"):
        _ = d.known_mean


def test_a_summary_from_before_played_minutes_and_tiebreaks_reads_without_them():
    s = json.loads(json.dumps(_summary(50)))
    del s["games"]["played"], s["length"]["minutes"], s["ties"]["tiebreak_decided"], s["ties"]["tiebreak_rate"]
    f = SummaryFigures.of(s)
    assert f.games.played == f.games.finished  # the index's reading of a summary without "played"
    assert f.length.minutes is None and f.ties.tiebreak_decided is None and f.decisiveness is None
    assert f.length.turns.to_dict() == s["length"]["turns"]


def test_a_decisiveness_block_reads_its_margin_interval_and_close_games():
    d = {
        "margin": metrics.distribution([0, 3, 5, 2], 0),
        "mean_ci95": [1.5, 2.3],
        "close_margin": 1,
        "close": metrics.rate(3, 10),
    }
    x = Decisiveness.of(d)
    assert x is not None and x.margin.to_dict() == d["margin"] and x.mean_ci95 == (1.5, 2.3)
    assert x.close is not None and x.close.to_dict() == d["close"] and x.close_margin == 1
    assert Decisiveness.of(None) is None
