"""The move physics of the kernel against the pure-Python oracle (sim/oracle/turnwall.py) on thousands of random
positions: for every magical move, both agree on legality and on the resulting ghosts, orientation and sliders."""

from __future__ import annotations

import random

import pytest

from kernels.turnwall import rules as R
from sim.oracle.turnwall import Castle
from tests.kernels.turnwall import _kit as K

CELLS = [c for c in range(49) if c != R.PLUG]


def _random_position(rng: random.Random, p, n):
    tunnels = rng.sample(range(5), 3)
    sliders = [(t, rng.randint(0, int(p[R.P_MAX_OUT]))) for t in tunnels]
    rot = rng.randint(0, 3)
    cells = rng.sample(CELLS, n)
    if rng.random() < 0.5:  # half the positions: two ghosts next to each other above a slider (pushes)
        col = int(p[R.P_TUN_COL + tunnels[rng.randrange(3)]])
        r = rng.randint(0, 5)
        pair = [int(R.F2B[rot, r * 7 + col]), int(R.F2B[rot, (r + 1) * 7 + col])]
        if R.PLUG not in pair:
            cells = pair + [c for c in cells if c not in pair][: n - 2]
    st = K.state(p, n=n, ghosts=[divmod(c, 7) for c in cells], rot=rot, sliders=sliders)
    st[R.S_CUR] = rng.randrange(n)
    return st


def _fixed(p, board, opts) -> dict:
    """The castle's parts that no move changes (walls, tunnels, grips, corners), made once per rule variant: the
    oracle only reads them, and rebuilding the grip sets for each of the ~350,000 moves was most of this test's
    time."""
    grip = [[{k for k in range(7) if (int(p[R.P_GRIP + s * 4 + g]) >> k) & 1} for g in range(4)] for s in range(3)]
    return dict(
        walls=list(board.walls),
        tunnels=list(board.tunnels),
        grip=grip,
        corners=[divmod(c, 7) for c in board.corners],
        max_out=board.max_out,
        **opts,
    )


def _castle(st, fixed: dict) -> Castle:
    return Castle(
        ghosts=K.ghosts(st),
        rot=int(st[R.S_ROT]),
        sliders=[[int(st[R.S_STUN + s]), int(st[R.S_SPOS + s])] for s in range(3)],
        **fixed,
    )


def _oracle_move(c: Castle, g: int, a: int) -> bool:
    if a < R.A_SLIDE:
        return c.drag(g, a - R.A_DRAG)
    if a < R.A_SHIFT:
        k = a - R.A_SLIDE
        return c.slide(k // 2, k % 2)
    if a < R.A_TURN:
        k = a - R.A_SHIFT
        return c.shift(k // R.SHIFT_PER_SLIDER, (k % R.SHIFT_PER_SLIDER) // R.DEPTHS, k % R.DEPTHS)
    return c.turn(a - R.A_TURN)


@pytest.mark.parametrize(
    "params,opts",
    [
        ({}, {}),
        ({"slider_off_board": "ghost_stops"}, {"off_board_stops": True}),
        (
            {"turn_collision": "held_ghost_displaced", "turn_physics": "end_cell"},
            {"held_displaced": True, "end_cell": True},
        ),
        ({"turn_physics": "end_cell"}, {"end_cell": True}),
        ({"turn_physics": "sweep_pass_through"}, {"pass_through": True}),
        ({"magnet_polarity": "opposite_poles_grip"}, {}),
    ],
)
def test_oracle_agrees_with_kernel_on_random_positions(params, opts):
    p = K.prm(**params)
    fixed = _fixed(p, K.board(), opts)
    rng = random.Random(20261201)
    checked = {"legal": 0, "illegal": 0, "pushes": 0, "collisions": 0}
    for i in range(3000):
        n = rng.randint(2, 4)
        st = _random_position(rng, p, n)
        g = int(st[R.S_CUR])
        for a in range(R.A_PLACE):
            c = _castle(st, fixed)
            ok = _oracle_move(c, g, a)
            kst = st.copy()
            legal = R.move_legal(kst, p, g, a) == 1
            assert legal == ok, f"position {i}, action {a}: kernel legal={legal}, oracle {ok}"
            if not legal:
                checked["illegal"] += 1
                continue
            code = R.do_move(kst, p, g, a)
            if a >= R.A_TURN and code:
                checked["collisions"] += 1
            if R.A_SLIDE <= a < R.A_SHIFT and code >= 8:
                checked["pushes"] += 1
            R.place_first_options(kst, p)
            assert K.ghosts(kst) == c.ghosts, f"position {i}, action {a}: ghosts differ"
            assert int(kst[R.S_ROT]) == c.rot
            assert [[int(kst[R.S_STUN + s]), int(kst[R.S_SPOS + s])] for s in range(3)] == c.sliders
            checked["legal"] += 1
    # the random positions reach the interesting cases, not only plain moves
    assert checked["pushes"] > 50 and checked["collisions"] > 30 and checked["illegal"] > 1000, checked
