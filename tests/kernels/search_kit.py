"""Helpers for the search players' tests: a mid-game decision of a chosen seat, one search decision called from
Python, and a deliberately leaky copy of a game's loop (its `sample_hidden` a no-op: rollouts read the true state).

The hidden-information test of search (each game's) builds two true states that differ only in what the deciding
seat cannot see (the second is the first re-dealt by `sample_hidden` on another stream) and requires the search to
spend every rollout alike on both: same visits, same wins, same action. The leaky copy must fail that test.
"""

from __future__ import annotations

import types

import numpy as np

from kernels import loop
from kernels._jit import njit
from kernels.search import C_BUDGET, C_EXPLORE, C_ROOT, ROOT_UCB1


def cut_game(sc, k, cap_slot, cap, g=3, seed=5):
    """(batch scratch, prm) of game ``g`` of ``sc`` (at ``seed``) played by kernel module ``k`` up to the start of
    turn ``cap`` (prm[cap_slot] lowered to it; the batch scratch's state is where it stopped), a search seat playing
    its rollout strategy. Raises AssertionError unless the game was cut there (status truncated)."""
    from kernels.batch import play_games
    from sim.model.policy import batch_scratch
    from sim.model.search import rollout_seats, table_uses_learned

    sids, sparams = rollout_seats(sc)
    prm = sc.prm()
    short = prm.copy()
    short[cap_slot] = cap
    # (a search seat whose rollout strategy is the learned player plays it here: the scratch carries its policy)
    batch = batch_scratch(sc.spec, k, sc.players, prm, table_uses_learned(sc, sids))
    shape = (len(sc.spec.extra_columns), (len(sc.spec.curves), sc.spec.curve_len))
    out = play_games(k.play_batch, batch, seed, 0, g, 1, sc.players, short, sids, sparams, *shape)
    assert out.status[0] == loop.ST_TRUNCATED
    return batch, prm


def decision_state(sc, k, step, seat, cap_slot, cap, g=3, max_steps=400):
    """(batch scratch whose state is at a decision of ``seat`` with more than one legal action, prm, first seat,
    legal count) of game ``g`` of ``sc``: the game is cut at turn ``cap`` (`cut_game`) and then stepped on with its
    own verbs and strategies (called from Python) until ``seat`` decides among several actions, a search seat playing
    its rollout strategy on the way. Raises AssertionError if it never does within ``max_steps`` steps."""
    from sim.model.search import rollout_seats

    sids, sparams = rollout_seats(sc)
    batch, prm = cut_game(sc, k, cap_slot, cap, g)
    st, rng, ws = step.parts.py_func(batch)  # plain Python: a compiled one cannot return its argument tuple
    n = np.int64(sc.players)
    first = np.int64(g % sc.players)
    mask = step.action_mask.py_func(ws)
    for _ in range(max_steps):
        who = step.to_move(st, prm, n, first, ws)
        if who == loop.CHANCE:
            step.apply_chance(st, prm, step.sample_chance(st, prm, rng, ws), ws)
            continue
        assert who >= 0, who
        nl = step.legal_actions(st, prm, ws)
        if who == seat and nl > 1:
            return batch, prm, first, nl
        a = int(np.flatnonzero(mask)[0]) if nl == 1 else step.decide(st, prm, who, nl, sids, sparams, rng, ws)
        assert step.apply_action(st, prm, a, rng, ws) == 0
    raise AssertionError(f"seat {seat} made no decision among several actions in {max_steps} steps")


def search_row(sc, seat, budget=64, explore=0.7, root=ROOT_UCB1):
    """``sc``'s sparams with ``seat``'s row set for search (budget, explore, root; the rollout index and deviate
    left at 0)."""
    sp = sc.sparams().copy()
    sp[seat, :] = 0.0
    sp[seat, C_BUDGET] = budget
    sp[seat, C_EXPLORE] = explore
    sp[seat, C_ROOT] = root
    return sp


def search_once(k, search, batch, prm, n, first, seat, nl, sparams, seed=11):
    """One search decision of ``seat`` in the state of ``batch`` through ``k.play_batch.search_decide`` (a copy of the
    state and scratch is searched; the seat's stream is seeded from ``seed``): (action, visits int64[nl], wins
    int64[nl]) with visits and wins by legal action in index order."""
    st = k.step.parts.py_func(batch)[0]
    a = k.play_batch.search_decide(search, st.copy(), prm, n, seat, sparams, seed=seed, game=0)
    return int(a), search.visits[:nl].copy(), search.wins[:nl].copy()


@njit(inline="always")
def _no_redeal(st, seat, prm, rng, row, ws):
    return 0


def leaky(k, step, name):
    """A copy of game kernel ``k`` whose loop is bound to ``step``'s verbs but with a `sample_hidden` that re-deals
    nothing: its search reads the true hidden state (the leak the hidden-information test must catch). Its
    play_batch is compiled on first use under the game name ``name``."""
    fake = types.ModuleType(step.__name__)  # its real, importable name: a cached kernel names its module
    for v in loop.VERBS:
        setattr(fake, v, getattr(step, v))
    fake.sample_hidden = _no_redeal
    fake.__file__ = step.__file__
    out = types.SimpleNamespace(**{a: getattr(k, a) for a in ("batch_scratch", "N_ACTIONS")})
    out.play_batch = loop.bind(fake, name)
    out.step = step
    return out
