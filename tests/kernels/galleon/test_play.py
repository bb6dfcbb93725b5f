"""Whole games: invariants after every step of many random games (tiles, pieces, ghost, parrot), determinism across
threads and chunks, hidden information, strategies that always return a legal action."""

from __future__ import annotations

import random

import numpy as np
import pytest

from kernels.galleon import play as PL
from kernels.galleon import rules as R
from kernels.galleon import strategies as S
from kernels.rng import seed_game
from sim.play import runner
from tests.kernels.galleon._kit import Game
from tests.kernels.tables import per_game_outputs, table


def scenario(n=4, strategies=("treasure",), games=200, seed=11, params=None, seat_params=None):
    return table("galleon", "gg", n, strategies, games, seed, params, seat_params)


@pytest.mark.parametrize(
    "n,strats,params",
    [
        (4, ("random",), {"max_turns": 400}),
        (4, ("treasure", "raider", "cautious", "weighted"), {}),
        (
            3,
            ("raider", "random"),
            {"ghost_die": "pirate_moves_other_die", "terror_adjacency": "ship_only", "rock_exit": "count_from_shore"},
        ),
        (
            2,
            ("cautious", "raider"),
            {"blocked_move": "stay", "cannon_reuse": "once_per_game", "water_duel_safe": False},
        ),
    ],
)
def test_invariants_hold_after_every_step_of_many_games(n, strats, params):
    """Every step: each of the 18 tiles in exactly one place, the stack list right, one piece per space, the ghost
    on the ship, the parrot only with a pirate on the ship (check_invariants)."""
    sc = scenario(n, strats, params=params)
    prm, sids, sp = sc.prm(), sc.sids(), sc.sparams()
    finished = 0
    for g in range(40):
        tr = PL.trace_game(np.uint64(sc.seed), np.uint64(0), g, n, prm, sids, sp, 1, 1, 1)
        assert tr.status in (PL.ST_DONE, PL.ST_TRUNCATED), f"game {g}: status {tr.status}"
        if tr.status == PL.ST_DONE:
            finished += 1
            win = int(tr.state[R.S_WINNER])
            assert tr.scores[win] >= 5 and tr.winners == 1 << win
        extra = tr.extra
        assert extra[7] + extra[8] + extra[9] == extra[6]  # every duel has one winner
        assert sum(int(x) for x in tr.scores) <= 15
    assert finished > 0


def test_results_identical_across_threads_and_chunks():
    sc = scenario(
        4,
        ("treasure", "raider", "random", "weighted"),
        games=200,
        seat_params=[{}, {}, {}, {"w_raid": 0.8, "w_duel": 0.3}],
    )
    a = per_game_outputs(sc, 1, 200)
    b = per_game_outputs(sc, 2, 37)
    for k in a:
        assert np.array_equal(a[k], b[k]), k


def test_every_strategy_returns_legal_actions_in_every_player_count():
    for n in (2, 3, 4):
        sc = scenario(n, ("random", "treasure", "raider", "cautious", "weighted"), games=48)
        out = runner.play_chunk(sc, 0, 48)
        assert set(np.unique(out.status)) <= {PL.ST_DONE, PL.ST_TRUNCATED}
        assert (out.status == PL.ST_DONE).mean() > 0.5


def _replay_states(sc, g):
    """(state, rng) at every decision of game g, rebuilt from its recorded steps through the public verbs."""
    n = sc.players
    prm, sids, sp = sc.prm(), sc.sids(), sc.sparams()
    steps = PL.trace_game(np.uint64(sc.seed), np.uint64(0), g, n, prm, sids, sp, 1, 300_000, 0).steps
    rows = [(int(k), int(v)) for k, v in steps[1 : int(steps[0, 0]) + 1]]
    deal = [v for k, v in rows if k == PL.K_DEAL]
    game = Game(n=n, first=g % n, deal=deal)
    game.prm = prm
    out = []
    for k, v in rows:
        if k == PL.K_CHANCE:
            game.chance(v)
        elif k == PL.K_ACTION:
            if game.mask().sum() > 1:
                out.append(game.st.copy())
            game.act(v)
    return out


def _permute_hidden(st, seat, rnd):
    """A state seat ``seat`` cannot tell from ``st``: the tiles it cannot see (others', chests', the stack's, the
    large cave's; the parrot excepted, its holder is public; and the tiles it lost while it knows where they lie)
    shuffled over the same places, the parrot's place in the stack while it was never drawn, and the stickers of
    chests it never peeked at (and not opened) shuffled among themselves; the rivals' private records (S_HELD, their
    S_KNOWN bits) drawn at random. The public record stays: tile counts, tiles lost, weapons shown, keys shown (H1)."""
    x = st.copy()
    hidden = [
        t
        for t in range(R.N_TILES)
        if t != R.T_PARROT and int(st[R.S_LOC + t]) != seat and not (st[R.S_KNOWN + t] >> seat) & 1
    ]
    locs = [int(st[R.S_LOC + t]) for t in hidden]
    rnd.shuffle(locs)
    for t, loc in zip(hidden, locs):
        x[R.S_LOC + t] = loc
    stack = [int(v) for v in st[R.S_STACK : R.S_STACK + st[R.S_NSTACK]]]
    moved = [t for t in hidden if x[R.S_LOC + t] == R.LOC_STACK]
    known_parrot = st[R.S_PARROT_SEEN] != 0  # flown back: its place (the top) is public; else hidden too
    if not known_parrot and R.T_PARROT in stack:
        moved.append(R.T_PARROT)
    rnd.shuffle(moved)
    it = iter(moved)
    for i, t in enumerate(stack):
        x[R.S_STACK + i] = t if t == R.T_PARROT and known_parrot else next(it)
    cabins = [c for c in range(6) if not (st[R.S_PEEKED + seat] >> c) & 1 and not (st[R.S_EMPTY] >> c) & 1]
    vals = [int(st[R.S_STICKER + c]) for c in cabins]
    rnd.shuffle(vals)
    for c, v in zip(cabins, vals):
        x[R.S_STICKER + c] = v
    for r in range(int(st[R.S_N])):  # the rivals' private records (what they held, what they know of their losses)
        if r != seat:
            x[R.S_HELD + r] = rnd.getrandbits(R.N_TILES)
    for t in range(R.N_TILES):
        x[R.S_KNOWN + t] = (st[R.S_KNOWN + t] & (1 << seat)) | (rnd.getrandbits(4) & ~(1 << seat))
    return x


def test_h1_hidden_information_permuting_what_a_seat_cannot_see_changes_no_decision():
    sc = scenario(4, ("treasure", "raider", "cautious", "weighted"), games=4, seat_params=[{}, {}, {}, {"w_raid": 0.7}])
    prm = sc.prm()
    rows = np.zeros((4, S.N_SPARAMS))
    S.effective_rows(sc.sids(), sc.sparams(), rows)
    rnd = random.Random(3)
    rng = np.zeros((8, 4), np.uint64)
    checked = changed_world = 0
    phases = set()
    for g in range(3):
        seed_game(rng, np.uint64(7), np.uint64(0), g, 4)  # a live stream (tie-breaks draw from it)
        for st in _replay_states(sc, g):
            seat = int(st[R.S_ACTOR])
            mask = np.zeros(R.N_ACTIONS, np.int8)
            nl = R.legal_actions(st, prm, mask)
            sid = int(sc.sids()[seat])
            a = S.decide(sid, rows[seat], st, prm, mask, nl, rng.copy(), 1 + seat)
            for _ in range(3):
                x = _permute_hidden(st, seat, rnd)
                changed_world += not np.array_equal(x, st)
                m2 = np.zeros(R.N_ACTIONS, np.int8)
                assert R.legal_actions(x, prm, m2) == nl and np.array_equal(m2, mask)
                assert S.decide(sid, rows[seat], x, prm, m2, nl, rng.copy(), 1 + seat) == a, (
                    g,
                    seat,
                    int(st[R.S_PHASE]),
                )
            checked += 1
            phases.add(int(st[R.S_PHASE]))
    assert checked > 200 and changed_world > 200
    assert {R.PH_MOVE, R.PH_GHOST, R.PH_WHIRL, R.PH_DUEL_Q} <= phases  # the knowledge of S2b, S3, S5b
