"""The game's arc (issue 39): the loop's per-round progress rows (kernels/loop.py). Recording them changes no other
output of any game, each seat's last recorded value is its final score, and a compact record (the standings and
figures rows only) holds what a full record's last two rows hold."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from kernels.batch import play_games
from sim.model.scenario import load

pytestmark = pytest.mark.kernel

CASES = {
    "scenarios/moor/4p.toml": 200,
    "scenarios/galleon/4p.toml": 10,
    "scenarios/turnwall/4p.toml": 8,
    "scenarios/treasure_hunters/basic-4p.toml": 60,
    "scenarios/treasure_hunters/head_haunter-4p.toml": 40,
}


def _play(sc, n, arc=None):
    k = importlib.import_module(sc.spec.kernel_module)
    prm = sc.prm()
    return play_games(
        k.play_batch, k.batch_scratch(sc.players, prm), 7, 0, 0, n, sc.players, prm, sc.sids(), sc.sparams(),
        len(sc.spec.extra_columns), (len(sc.spec.curves), sc.spec.curve_len), arc=arc,
    )  # fmt: skip


@pytest.mark.parametrize("path", sorted(CASES))
def test_arc_rows_change_nothing_else_and_end_at_the_score(path):
    sc = load(path)
    spec = sc.spec
    n = CASES[path]
    p = sc.players
    own = _play(sc, n)
    rec = np.full((n, *spec.arc_shape(p)), -99999, np.int32)  # every cell written (none left unset)
    arc = _play(sc, n, rec)
    for a, b in zip(own, arc):
        assert np.array_equal(a, b)
    scores, winners, rounds, status = arc.scores, arc.winners, arc.rounds, arc.status
    rows, lead, fig = rec[:, :p, :], rec[:, p, :], rec[:, p + 1, :]
    compact = np.full((n, 2, spec.arc_len), -99999, np.int32)
    for a, b in zip(own, _play(sc, n, compact)):
        assert np.array_equal(a, b)
    assert np.array_equal(compact, rec[:, p:, :])  # every game's standings and figures, a game at its turn cap too
    fin = status == 0
    assert fin.sum() > n // 2
    assert (rec[fin] != -99999).all()  # every column recorded
    for g in np.flatnonzero(fin):
        r = min(int(rounds[g]), rows.shape[2])
        assert r >= 1
        # the final column (and every later one) holds the final score
        assert np.array_equal(rows[g, :, r - 1], scores[g]), (g, rows[g, :, r - 1], scores[g])
        assert (rows[g, :, r - 1 :] == scores[g][:, None]).all()
        _check_figures(rows[g], lead[g], fig[g], r, int(winners[g]))
        assert (fig[g, 5:] == 0).all()  # the working slots cleared


def _check_figures(rows, lead, fig, r, w):
    """The leader row and the figures (kernels.loop ARC_*) recomputed in plain Python."""
    from kernels.arc import ARC_CHANGES, ARC_CLEAR, ARC_EVER_LAST, ARC_HALF_LAST, ARC_HALF_LEAD, behind_of, leader_of

    def alone(col, best):
        s = [i for i, v in enumerate(col) if v == best]
        return s[0] if len(s) == 1 else -1

    leaders = [alone(rows[:, i], rows[:, i].max()) for i in range(rows.shape[1])]
    behind = [alone(rows[:, i], rows[:, i].min()) for i in range(rows.shape[1])]
    assert list(leader_of(lead)) == leaders
    assert list(behind_of(lead)) == behind
    held = [x for x in leaders[:r] if x >= 0]
    assert fig[ARC_CHANGES] == sum(a != b for a, b in zip(held, held[1:]))
    if r >= 2:
        h = r // 2 - 1
        assert fig[ARC_HALF_LEAD] == (1 << leaders[h] if leaders[h] >= 0 else 0)
        assert fig[ARC_HALF_LAST] == (1 << behind[h] if behind[h] >= 0 else 0)
    assert fig[ARC_EVER_LAST] == sum({1 << b for b in behind[: r - 1] if b >= 0})
    not_w = [i + 1 for i in range(r) if leaders[i] < 0 or not (w >> leaders[i]) & 1]
    assert fig[ARC_CLEAR] == (not_w[-1] if not_w else 0)
