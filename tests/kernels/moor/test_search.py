"""Ghosts of the Moor's search player: what it may know (R4: only the covered bottom tiles of sealed stacks are
hidden), and that its rollouts are the game's own."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from kernels.moor import play as PL
from kernels.moor import rules as R
from kernels.moor import step
from kernels.rng import N_STREAMS_MAX, seed_game
from tests.kernels.search_kit import decision_state, leaky, search_once, search_row

REPO = Path(__file__).resolve().parents[3]
SEAT = 1


def _scenario():
    from sim.model.scenario import Seat, load

    sc = load(REPO / "scenarios/moor/4p.toml")
    seats = list(sc.seats)
    seats[SEAT] = Seat("search", {"budget": 48})
    return sc.with_changes(seats=tuple(seats))


def _twin_states():
    """A decision of the search seat with sealed stacks, and the same state with the covered tiles re-dealt."""
    sc = _scenario()
    batch, prm, first, nl = decision_state(sc, PL, step, SEAT, R.P_MAX_TURNS, 8)
    st = batch.st
    rng = np.zeros((N_STREAMS_MAX, 4), np.uint64)
    seed_game(rng, np.uint64(99), np.uint64(0), np.int64(0), np.int64(N_STREAMS_MAX - 1))  # every row seeded
    other = st.copy()
    assert step.sample_hidden(other, np.int64(SEAT), prm, rng, np.int64(7), batch) >= 2
    assert not np.array_equal(other, st)  # a different true world, the same observations
    return sc, batch, prm, first, nl, st.copy(), other


def _decide(k, sc, batch, prm, first, nl, state):
    from sim.model.search import search_scratch

    batch.st[:] = state
    return search_once(k, search_scratch(sc, PL), batch, prm, 4, first, SEAT, nl, search_row(sc, SEAT, 48))


def test_r04_search_decision_depends_only_on_what_the_seat_saw():
    """R4 (covered tiles are secret): two true states that differ only in the covered tiles give the search the
    same worlds, so every rollout, every estimate and the action played are identical."""
    sc, batch, prm, first, nl, st, other = _twin_states()
    a1, v1, w1 = _decide(PL, sc, batch, prm, first, nl, st)
    a2, v2, w2 = _decide(PL, sc, batch, prm, first, nl, other)
    assert v1.sum() == 48 and (v1 > 0).all()
    assert (a1, v1.tolist(), w1.tolist()) == (a2, v2.tolist(), w2.tolist())


def test_r04_a_search_that_reads_the_covered_tiles_is_caught():
    """The same test on a deliberately leaky search (its sample_hidden re-deals nothing, so its rollouts play the
    true covered tiles): the estimates differ between the two true states."""
    sc, batch, prm, first, nl, st, other = _twin_states()
    bad = leaky(PL, step, "moor_leak")
    r1 = _decide(bad, sc, batch, prm, first, nl, st)
    r2 = _decide(bad, sc, batch, prm, first, nl, other)
    assert (r1[1].tolist(), r1[2].tolist()) != (r2[1].tolist(), r2[2].tolist())


def test_sample_hidden_is_canonical():
    """The re-deal depends only on what the seat saw and the stream: re-dealing either twin with one stream gives
    one state."""
    sc, batch, prm, first, nl, st, other = _twin_states()
    out = []
    for s in (st, other):
        rng = np.zeros((N_STREAMS_MAX, 4), np.uint64)
        seed_game(rng, np.uint64(5), np.uint64(0), np.int64(0), np.int64(N_STREAMS_MAX - 1))
        x = s.copy()
        step.sample_hidden(x, np.int64(SEAT), prm, rng, np.int64(7), batch)
        out.append(x)
    assert np.array_equal(out[0], out[1])
