"""Determinism: outputs depend only on (seed, scenario, game index): not on threads, chunk sizes or the entry point
(`trace_game` replays exactly the game of a batch). Also the per-game output conventions (winners, curves)."""

from __future__ import annotations

import numpy as np
import pytest

from kernels.batch import BatchOutputs, play_games
from kernels.treasure_hunters import play as PL
from kernels.treasure_hunters import rules as R
from sim.play import runner
from tests.kernels.tables import per_game_outputs, table

from .test_invariants import setup


def batch(prm, sids, sp, n, game0, games, seed=11) -> BatchOutputs:
    return play_games(
        PL.play_batch, PL.batch_scratch(n), seed, 0, game0, games, n, prm, sids, sp, PL.N_EXTRA, (2, PL.CURVE_LEN)
    )


def chunked(prm, sids, sp, n, total, sizes) -> BatchOutputs:
    parts, g = [], 0
    i = 0
    while g < total:
        k = min(sizes[i % len(sizes)], total - g)
        parts.append(batch(prm, sids, sp, n, g, k))
        g += k
        i += 1
    return BatchOutputs(*(np.concatenate(x) for x in zip(*parts)))


CASES = [
    ("basic", 4, ["weighted", "runners", "busters", "random"]),
    ("advanced", 3, ["random", "weighted", "busters"]),
    ("head_haunter", 5, ["haunter_random", "weighted", "random", "busters", "runners"]),
]


@pytest.mark.parametrize("mode,n,seats", CASES, ids=[c[0] for c in CASES])
def test_threads_and_chunks_do_not_matter(mode, n, seats, monkeypatch):
    monkeypatch.setattr(runner, "available_threads", lambda: 3)  # 3 threads even on a smaller machine
    sc = table("treasure_hunters", mode, n, seats, 1500, 11, params={"mode": mode})
    one = per_game_outputs(sc, 1, 1500)
    three = per_game_outputs(sc, 3, 1500)
    prm, sids, sp = setup(mode, n, seats)
    whole, pieces = batch(prm, sids, sp, n, 0, 1500), chunked(prm, sids, sp, n, 1500, [1, 7, 300, 64])
    for key in one:
        assert np.array_equal(one[key], three[key]), key
    for key, a, b in zip(BatchOutputs._fields, whole, pieces):
        assert np.array_equal(a, b), key
    assert (one["status"] == 0).all()


def test_trace_game_is_the_batch_game():
    prm, sids, sp = setup("head_haunter", 3, ["haunter_trapper", "weighted", "busters"])
    b = batch(prm, sids, sp, 3, 40, 5)
    for i in range(5):
        tr = PL.trace_game(np.uint64(11), np.uint64(0), 40 + i, 3, prm, sids, sp, 20000, 2)
        assert (tr.scores == b.scores[i]).all() and tr.winners == b.winners[i] and tr.status == b.status[i]
        assert tr.turns == b.turns[i] and tr.rounds == b.rounds[i] and (tr.extra == b.extra[i]).all()


def test_output_conventions():
    prm, sids, sp = setup("basic", 4, ["weighted"] * 4)
    o = batch(prm, sids, sp, 4, 0, 2000)
    ex = o.extra
    col = {c: i for i, c in enumerate(PL.EXTRA_COLUMNS)}
    win = ex[:, col["outcome"]] == R.OUT_WIN
    assert win.any() and (~win).any()
    assert (o.winners[win] == 0b1111).all() and (o.winners[~win] == 0).all()  # a team win: every seat
    assert (o.scores == ex[:, [col["jewels_out_end"]]]).all()
    assert (ex[:, col["first_seat"]] == np.arange(2000) % 4).all()
    for g in range(2000):
        r = int(o.rounds[g])
        cv = o.curves[g]
        k = min(r, PL.CURVE_LEN)
        assert (cv[:, :k] >= 0).all() and (cv[:, k:] == -1).all()  # -1 after the end
        if r <= PL.CURVE_LEN:
            assert cv[0, r - 1] == ex[g, col["hauntings_end"]] and cv[1, r - 1] == ex[g, col["ghosts_end"]]
    lost = ex[:, col["outcome"]] == R.OUT_SIX
    assert (ex[lost, col["hauntings_end"]] == 6).all()
    assert (ex[lost, col["lost_jewels_out"]] == 1 + ex[lost, col["jewels_out_end"]]).all()
    assert (ex[win, col["lost_jewels_out"]] == 0).all()
    prm, sids, sp = setup("head_haunter", 4, ["haunter_builder", "weighted", "weighted", "weighted"])
    o = batch(prm, sids, sp, 4, 0, 600)
    oc = o.extra[:, col["outcome"]]
    assert set(np.unique(o.winners[oc == R.OUT_WIN])) <= {0b1110}
    assert set(np.unique(o.winners[(oc == R.OUT_HH_SIX) | (oc == R.OUT_HH_STUCK)])) == {1}
    assert (o.extra[:, col["first_seat"]] == 1 + np.arange(600) % 3).all()
    assert (o.scores[:, 0] == o.extra[:, col["hauntings_end"]]).all()
