"""The seat spread of `sim compare`: its joint table of winners, the paired bootstrap over game indices (against a
direct resampling of the games, scipy's paired bootstrap), its verdicts inside `sim.stats.compare.evaluate` (Holm
family, margins), all without playing a game."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sim.model.scenario import load
from sim.stats import compare as C
from sim.stats import verdict as V
from sim.stats.measures import PairedSums
from sim.stats.spread_compare import JointWins, paired_bootstrap, seat_wins

DATA = Path(__file__).resolve().parent.parent / "data"


def _joint(wa, wb, players: int) -> np.ndarray:
    j = JointWins(players, players)
    j.add(np.asarray(wa), np.asarray(wb), np.ones(len(wa), bool))
    return j.table


def test_spread_of_a_hand_made_pair_of_outcomes():
    # 10 paired games of 3 seats, winners as bit masks (0b011: seats 0 and 1 share the win, half each)
    a = [1, 1, 1, 1, 1, 2, 2, 2, 4, 0b011]  # seat 0: 5.5 wins, seat 1: 3.5, seat 2: 1 -> spread 0.45
    b = [1, 1, 1, 2, 2, 2, 4, 4, 4, 0b101]  # seat 0: 3.5, seat 1: 3, seat 2: 3.5 -> spread 0.05
    t = _joint(a, b, 3)
    assert t.sum() == 10 and t[1, 1] == 3 and t[0b011, 0b101] == 1
    assert seat_wins(t, 3, 0).tolist() == [5.5, 3.5, 1.0] and seat_wins(t, 3, 1).tolist() == [3.5, 3.0, 3.5]
    d = paired_bootstrap(t, 3, seed=1, resamples=500)
    assert d.a == pytest.approx(0.45) and d.b == pytest.approx(0.05) and d.diff == pytest.approx(-0.40)
    assert d.n == 10 and not d.identical
    # unfinished games (``both`` False) are left out of the table
    j = JointWins(3, 3)
    j.add(np.array(a), np.array(b), np.array([True] * 9 + [False]))
    assert j.table.sum() == 9 and j.table[0b011, 0b101] == 0


def test_the_multinomial_bootstrap_is_a_bootstrap_over_game_indices():
    """Drawing the joint table's cells is drawing the games: its spread of d* matches scipy's bootstrap of the game
    indices themselves (each resample takes A's and B's outcome of the same games), and so does its interval."""
    from scipy import stats

    rng = np.random.default_rng(5)
    n, players = 3000, 3
    wa = 1 << rng.choice(players, n, p=[0.40, 0.35, 0.25])
    keep = rng.random(n) < 0.8  # common random numbers: most games end the same way in B
    wb = np.where(keep, wa, 1 << rng.choice(players, n, p=[0.30, 0.35, 0.35]))
    d = paired_bootstrap(_joint(wa, wb, players), players, seed=3, resamples=4000)
    sa, sb = np.eye(players)[np.log2(wa).astype(int)], np.eye(players)[np.log2(wb).astype(int)]

    def diff(games, axis=-1):
        g = np.moveaxis(games, axis, -1)
        ra, rb = sa[g].mean(axis=-2), sb[g].mean(axis=-2)  # each seat's win rate over the games drawn
        return (rb.max(axis=-1) - rb.min(axis=-1)) - (ra.max(axis=-1) - ra.min(axis=-1))

    ref = stats.bootstrap(
        (np.arange(n),),
        diff,
        vectorized=True,
        batch=500,
        n_resamples=4000,
        method="percentile",
        random_state=np.random.default_rng(4),
    )
    assert d.diff == pytest.approx(diff(np.arange(n)))
    assert d.se == pytest.approx(ref.standard_error, rel=0.1)
    assert d.interval() == pytest.approx([ref.confidence_interval.low, ref.confidence_interval.high], abs=0.003)
    assert d.se_unpaired > 1.5 * d.se  # the pairing is what makes the difference sharp


def test_the_bootstrap_is_reproducible_from_the_seed():
    rng = np.random.default_rng(0)
    wa = 1 << rng.integers(0, 4, 2000)
    wb = np.where(rng.random(2000) < 0.5, wa, 1 << rng.integers(0, 4, 2000))
    t = _joint(wa, wb, 4)
    one, again, other = (paired_bootstrap(t, 4, s, resamples=800) for s in (7, 7, 8))
    assert np.array_equal(one.replicates, again.replicates)
    assert not np.array_equal(one.replicates, other.replicates)


def test_p_values_are_the_percentile_interval_read_as_tests():
    rng = np.random.default_rng(2)
    wa = 1 << rng.integers(0, 2, 4000)
    wb = np.where(rng.random(4000) < 0.7, wa, 1)  # B: seat 0 wins more -> a spread of about 15 points more
    d = paired_bootstrap(_joint(wa, wb, 2), 2, seed=1)
    lo90, hi90 = d.interval(0.90)
    m = max(abs(lo90), abs(hi90)) + 0.001  # a margin just holding the whole 90% interval: equivalent at 5%
    assert d.p_equiv(m) <= 0.05 and d.p_equiv(0.5 * m) > 0.05
    lo95, _ = d.interval()
    assert lo95 > 0 and d.p_diff() < 0.001  # 0 far outside the interval
    assert d.p_beyond(lo95 - 0.01) < 0.05 and d.p_beyond(d.diff) > 0.3


def _pairs(table: np.ndarray) -> PairedSums:
    """A comparison of two 2-player Moor scenarios whose only data is the joint table given (no measure)."""
    ps = PairedSums(load(DATA / "moor-2p-small.toml"), load(DATA / "moor-2p-ghosts.toml"))
    ps.measures, ps.acc = [], {}
    assert ps.joint is not None
    ps.joint.table[:] = table
    return ps


def _spread_row(table: np.ndarray, margins: dict[str, float] | None = None) -> dict:
    rows = C.evaluate(_pairs(table), 0.05, C.resolve_margins(margins, [C.SPREAD]), seed=11)
    assert [r["name"] for r in rows] == [C.SPREAD]
    return rows[0]


def test_a_change_of_the_spread_is_changed_and_no_change_is_unchanged_at_the_margin():
    rng = np.random.default_rng(9)
    n = 20_000
    wa = 1 << rng.integers(0, 2, n)
    # B: seat 0 wins 10% of the games seat 1 won in A: a spread of about 10 points more
    wb = np.where((wa == 2) & (rng.random(n) < 0.2), 1, wa)
    r = _spread_row(_joint(wa, wb, 2))
    assert r["verdict"] == V.CHANGED and r["significant"] and r["diff"] > 0.05
    assert r["test"].startswith("paired bootstrap") and r["margin"] == 0.01 and r["p_holm"] == r["p"]
    # B: the same rates, each game's winner redrawn half the time: spreads differ by noise only
    n = 200_000
    wa = 1 << rng.integers(0, 2, n)
    wb = np.where(rng.random(n) < 0.5, wa, 1 << rng.integers(0, 2, n))
    r = _spread_row(_joint(wa, wb, 2), {"seat_spread": 1})
    assert r["verdict"] == V.UNCHANGED and r["margin"] == 0.01 and r["margin_source"] == "--margin"
    assert r["verdict"] != V.UNCHANGED or -0.01 < r["diff_ci95"][0] < r["diff_ci95"][1] < 0.01
    # at a margin the interval cannot clear, the same games cannot tell yet
    assert _spread_row(_joint(wa, wb, 2), {"seat_spread": 0.05})["verdict"] == V.CANNOT_TELL


def test_identical_games_are_unchanged_without_a_test():
    wa = np.array([1, 2] * 500)
    r = _spread_row(_joint(wa, wa, 2))
    assert r["identical"] and r["p"] is None and r["verdict"] == V.UNCHANGED and r["diff_ci95"] == [0.0, 0.0]


def test_the_spread_joins_the_holm_family_of_the_other_measures():
    """With the per-game measures present, the spread's p-value is Holm-adjusted with theirs (and its equivalence
    p-value with their equivalence tests)."""
    ps = PairedSums(load(DATA / "moor-2p-small.toml"), load(DATA / "moor-2p-ghosts.toml"))
    k = next(m.scale for m in ps.measures if m.name == "first_player.win")
    for m in ps.measures:
        ps.acc[m.name].update(n=0)
    keep = [m for m in ps.measures if m.name in ("first_player.win", "score.seat0")]
    ps.measures, ps.acc = keep, {m.name: ps.acc[m.name] for m in keep}
    ps.acc["first_player.win"].update(
        n=100, sa=50 * k, qa=50 * k * k, sb=60 * k, qb=60 * k * k, sd=10 * k, qd=30 * k * k
    )
    ps.acc["score.seat0"].update(n=100, sa=1000, qa=10_400, sb=900, qb=8_500, sd=-100, qd=300)
    rng = np.random.default_rng(1)
    wa = 1 << rng.integers(0, 2, 100)
    ps.joint.table[:] = _joint(wa, np.where(rng.random(100) < 0.3, 1, wa), 2)
    rows = C.evaluate(ps, 0.05, seed=3)
    assert [r["name"] for r in rows] == ["first_player.win", C.SPREAD, "score.seat0"]
    from sim.stats import metrics

    raw = [r["p"] for r in rows]
    assert [r["p_holm"] for r in rows] == pytest.approx(metrics.holm(raw))
    assert [r["p_equiv_holm"] for r in rows] == pytest.approx(metrics.holm([r["p_equiv"] for r in rows]))


@pytest.mark.parametrize(
    "margins,message",
    [
        ({"seat_sprd": 1}, "--margin: 'seat_sprd' is not a compared measure; did you mean 'seat_spread'?"),
        ({"seat_spread": 1}, "--margin: 'seat_spread' is not a compared measure; "),
    ],
)
def test_a_margin_of_a_spread_not_compared_is_refused(margins, message):
    names = ["win.seat0"] if "seat_spread" in margins else ["seat_spread", "win.seat0"]
    with pytest.raises(C.CompareError) as e:
        C.resolve_margins(margins, names)
    assert str(e.value).startswith(message) and "\n" not in str(e.value)


def test_no_game_finished_on_both_sides_is_too_few_and_no_nan():
    import json

    r = _spread_row(np.zeros((4, 4), np.int64))
    assert r["n"] == 0 and r["too_few_games"] and r["p"] is None and r["verdict"] == V.CANNOT_TELL
    json.dumps(r, allow_nan=False)  # compare.json stays valid JSON
