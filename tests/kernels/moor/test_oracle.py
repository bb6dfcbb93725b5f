"""The Numba kernel against the pure-Python oracle (sim/oracle/moor.py): identical outcomes game by game.

The oracle re-implements RULES.md and the RNG contract independently (it imports nothing from `kernels`). Both are
run on the same scenarios and game indices; scores per seat, the winners bitmask, status, turns and rounds must be
equal for every game, and for a subset the whole event log must be equal event by event.
"""

from __future__ import annotations

import numpy as np
import pytest

from kernels.batch import play_games
from kernels.moor import play as PL
from kernels.moor import rules as R
from kernels.moor import strategies as S
from sim.model.scenario import from_dict
from sim.oracle import moor as O
from sim.oracle.rng import Xoshiro256

STRATS = ("random", "collector", "runner", "cautious", "weighted")


def _scenario(n, seats, seed, params=None, seat_params=None):
    seat_params = seat_params or [{}] * n
    return from_dict(
        {
            "scenario": {"name": f"oracle-{n}p", "game": "moor", "players": n, "games": 1, "seed": seed},
            "params": params or {},
            "seats": [{"strategy": s, "params": p} for s, p in zip(seats, seat_params)],
        }
    )


def _kernel_batch(sc, games):
    n = sc.players
    return play_games(
        PL.play_batch, PL.batch_scratch(n), sc.seed, 0, 0, games, n, sc.prm(), sc.sids(), sc.sparams(), PL.N_EXTRA
    )


def _compare(sc, games):
    k = _kernel_batch(sc, games)
    for g in range(games):
        o = O.play_game(sc, g)
        got = dict(
            scores=[int(x) for x in k.scores[g]],
            winners=int(k.winners[g]),
            status=int(k.status[g]),
            turns=int(k.turns[g]),
            rounds=int(k.rounds[g]),
        )
        assert o == got, f"{sc.players} players, seats {[s.strategy for s in sc.seats]}, game {g}"
    return games


def _rotations(n):
    """Seat lineups: every strategy in every seat across the rotations, plus the all-same lineups."""
    lineups = [[STRATS[(r + i) % 5] for i in range(n)] for r in range(5)]
    lineups += [[s] * n for s in STRATS]
    return lineups


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_oracle_matches_kernel_default_rules(n):
    total = 0
    for i, seats in enumerate(_rotations(n)):
        total += _compare(_scenario(n, seats, seed=1000 + 17 * n + i), 100)
    assert total == 1000


VARIANTS = [
    dict(discard_fallback="ignore_pawns"),
    dict(vacated_origin_counts=False),
    dict(ghost_before_two=True),
    dict(planks_discardable=False),
    dict(tiebreak="shared"),
    dict(track_len=19),
    dict(track_len=19, discard_fallback="ignore_pawns", vacated_origin_counts=False, planks_discardable=False),
    dict(
        track_len=40,
        die_faces=4,
        ghost_values=[1, 1, 2, 2, 3, 3, 4],
        goal_values=[9, 7, 5, 3, 1],
        set_points=[2, 3, 5, 8, 13],
    ),
    dict(track_len=22, space_symbols=[(3 * s) % 5 for s in range(22)]),
    dict(max_turns=40),  # truncated games: status 1 on both sides
]


@pytest.mark.parametrize("variant", VARIANTS, ids=[",".join(v) for v in VARIANTS])
def test_oracle_matches_kernel_rule_variants(variant):
    total = 0
    for n in (2, 3, 4, 5):
        seats = [STRATS[(n + i) % 5] for i in range(n)]
        total += _compare(_scenario(n, seats, seed=77 + n, params=variant), 30)
    assert total == 120


def test_oracle_matches_kernel_with_swept_weights():
    rng = np.random.default_rng(5)
    names = [name for name, _, _ in S.WEIGHT_SPECS]
    for n in (2, 3, 4, 5):
        for rep in range(4):
            seat_params = [
                {k: float(np.round(v, 3)) for k, v in zip(names, rng.uniform(-3, 5, len(names)))} for _ in range(n)
            ]
            _compare(_scenario(n, ["weighted"] * n, seed=500 + rep, seat_params=seat_params), 25)


def test_oracle_event_logs_match_kernel():
    """Event by event (rolls, moves, planks, takes, discards with their targets, goal tokens, skips)."""
    for n in (2, 3, 4, 5):
        for r in range(5):
            sc = _scenario(n, [STRATS[(r + i) % 5] for i in range(n)], seed=31 + r)
            for g in range(10):
                log = PL.trace_game(
                    np.uint64(sc.seed), np.uint64(0), g, n, sc.prm(), sc.sids(), sc.sparams(), 20_000
                ).log
                klog = [tuple(int(x) for x in log[i]) for i in range(1, int(log[0, 0]) + 1)]
                olog = []
                O.play_game(sc, g, log=olog)
                assert olog == klog, f"{n} players, lineup {r}, game {g}"


def test_oracle_rng_reference_vector():
    g = Xoshiro256([1, 2, 3, 4])
    assert [g.next_u64() for _ in range(3)] == [11520, 0, 1509978240]


def test_oracle_uses_the_same_public_encodings():
    assert (O.GHOST0, O.PLANK0, O.N_TILES, O.N_ACTIONS) == (R.GHOST0, R.PLANK0, R.N_TILES, R.N_ACTIONS)
    assert (O.MOVE, O.PLANK_YES, O.PLANK_NO, O.DISCARD_MATCH, O.DISCARD_GHOST, O.DISCARD_PAIR, O.DISCARD_ONE) == (
        R.A_MOVE,
        R.A_PLANK_YES,
        R.A_PLANK_NO,
        R.A_DISCARD_MATCH,
        R.A_DISCARD_GHOST,
        R.A_DISCARD_PAIR,
        R.A_DISCARD_ONE,
    )
    assert (O.E_ROLL, O.E_MOVE, O.E_PLANK, O.E_TAKE, O.E_DISCARD, O.E_GOAL, O.E_SKIP, O.E_NO_DISCARD) == (
        R.E_ROLL,
        R.E_MOVE,
        R.E_PLANK,
        R.E_TAKE,
        R.E_DISCARD,
        R.E_GOAL,
        R.E_SKIP,
        R.E_NO_DISCARD,
    )
    # the scripted strategies (the learned policy is not in the oracle: tests/kernels/moor/test_learned.py)
    assert O.STRATEGY_IDS == {name: sid for name, sid, _ in S.STRATEGIES if sid != S.S_LEARNED}
    for sid, row in O.SCRIPTED_WEIGHTS.items():
        assert list(row) == [float(x) for x in S.SCRIPTED_WEIGHTS[sid - 1]]
    assert O.TREASURE_NAMES == R.TREASURE_NAMES


def test_oracle_games_per_second():
    sc = _scenario(4, ["weighted"] * 4, seed=1)
    gps = O.games_per_second(sc, 20)
    assert gps > 0
