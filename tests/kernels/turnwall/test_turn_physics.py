"""C12 of kernels/turnwall/RULES.md, the quarter turn with solid ghosts (version 4), and what the table sees of it
(C5): no ghost passes through another, a ghost on one space is never re-placed, "pushed off the board" is one test
(on no space after the turn). Each test also shows what version 3's physics (C13, `sweep_pass_through`) did, so it
fails there."""

from __future__ import annotations

import math
import random

import numpy as np

from kernels.turnwall import rules as R
from tests.kernels.turnwall import _kit as K
from tests.kernels.turnwall._kit import NOLOG, cell
from tests.kernels.turnwall.test_oracle import _random_position

P = K.prm()
V3 = K.prm(turn_physics="sweep_pass_through")
# The audit's case: game 0 of scenarios/turnwall/4p.toml at version 3, turn 6 (red's turn), before its board turn.
# Red [0, 2] is not held and turns at once towards blue [0, 3], which is held; green [1, 1] rides towards red.
AUDIT = dict(ghosts=[(1, 1), (0, 2), (0, 0), (0, 3)], rot=3, sliders=[(0, 2), (2, 0), (4, 1)])


def _turn_and_place(p, st, d=0):
    """The board turn as the game plays it, every waiting ghost put on its lowest-numbered option."""
    R.apply_action(st, p, R.A_TURN + d, NOLOG)
    options = []
    while st[R.S_NPEND]:
        m = R.place_options(st, p)
        options.append((int(st[R.S_PEND]), [c for c in range(49) if (m >> c) & 1]))
        R.apply_action(st, p, R.A_PLACE + R.lowest_bit(m), NOLOG)
    return options


def _floor_xy(f):
    return complex(f % 7 - 3, f // 7 - 3)


def test_c12_a_rider_stopped_at_once_stays_on_its_space_the_audit_s_game_0_turn_6():
    st = K.state(P, **AUDIT)
    st[R.S_CUR] = 1
    assert [R.is_held(st, P, g) for g in range(4)] == [False, False, True, True]
    red_floor = int(R.B2F[3, cell(0, 2)])
    options = _turn_and_place(P, st)
    assert st[R.S_GPOS + 1] == R.F2B[0, red_floor]  # red stood still over the floor: it is where it stood
    assert [g for g, _ in options] == [0]  # only green waits: red is not re-placed
    assert int(R.F2B[0, red_floor]) not in options[0][1]  # green stopped against red, short of red's space
    assert st[R.S_EJECTED] == 0 and R.check_invariants(st, P) == 0
    old = K.state(V3, **AUDIT)
    old[R.S_CUR] = 1
    options = _turn_and_place(V3, old)
    assert int(R.F2B[0, red_floor]) in options[0][1]  # version 3: green swept into red's space ...
    assert old[R.S_GPOS + 1] in [int(c) for c in V3[R.P_CORNER : R.P_CORNER + 4]]  # ... and red went to a corner


def test_c12_no_ghost_passes_through_another_during_a_turn():
    """On random positions, the ghosts' paths through the quarter turn (riders on their arcs until they stop, the
    others standing still) never bring two ghosts closer than a ghost's width."""
    rng = random.Random(20261206)
    thetas = np.linspace(0.0, math.pi / 2, 721)
    for _ in range(1500):
        st = _random_position(rng, P, rng.randint(2, 4))
        d = rng.randint(0, 1)
        k = st.copy()
        R.sweep_stops(k, P, d)
        n = int(st[R.S_NG])
        sign = 1.0 if d == 0 else -1.0
        paths = []
        for g in range(n):
            t = int(k[R.S_PANCHOR + g])
            z = _floor_xy(int(R.B2F[int(st[R.S_ROT]), st[R.S_GPOS + g]]))
            upto = thetas if t < 0 else np.minimum(thetas, t * 1e-9)
            paths.append(z * np.exp(1j * sign * upto))
        for a in range(n):
            for b in range(a + 1, n):
                assert np.abs(paths[a] - paths[b]).min() > 1.0 - 2e-3, (K.ghosts(st), d, a, b)


def test_c12_a_stopped_rider_stops_the_riders_behind_it():
    """A rider stopped at angle T is an obstacle from T on: some rider stops against a ghost that is not held."""
    rng = random.Random(5)
    chained = 0
    for _ in range(3000):
        st = _random_position(rng, P, 4)
        d = rng.randint(0, 1)
        k = st.copy()
        held = R.sweep_stops(k, P, d)
        stops = [int(k[R.S_PANCHOR + g]) for g in range(4)]
        rot = int(st[R.S_ROT])
        for g in range(4):
            if stops[g] <= 0 or (held >> g) & 1:
                continue
            f = int(R.B2F[rot, st[R.S_GPOS + g]])
            by_held = any(
                (held >> h) & 1 and 0 <= R.SWEEP_TOUCH[d, f, int(R.B2F[rot, st[R.S_GPOS + h]])] * 1e9 <= stops[g] + 1
                for h in range(4)
            )
            chained += not by_held  # nothing held explains where it stopped: a stopped rider did
    assert chained > 5, chained


def test_c12_a_held_ghost_at_a_corner_stays_on_the_board_and_stops_riders():
    st = K.state(P)  # red [0,6] and yellow [6,6] held by slider 2 (0, 6), at corners
    _turn_and_place(P, st)
    assert K.ghosts(st)[1:3] == [(0, 0), (0, 6)]  # still over their floor corners: on the board
    assert st[R.S_EJECTED] == 0 and st[R.S_DISPLACED] == 1  # green stopped against red, short of its corner ...
    assert K.ghosts(st)[0] == (1, 0)  # ... next to it on the turned board (over floor [0, 5]: placed at once)
    old = K.state(V3)
    _turn_and_place(V3, old)
    assert old[R.S_EJECTED] == 2  # version 3: both left the board


def test_c12_pushed_off_the_board_means_on_no_space_after_the_turn():
    """A stopped ghost goes on an empty corner exactly when it covers no space (10% of a cell's width) of the board
    after the turn; one whose centre is past the board's edge but covers a space stays on the board."""
    rng = random.Random(17)
    off = edge = 0
    for _ in range(6000):
        st = _random_position(rng, P, 4)
        d = rng.randint(0, 1)
        k = st.copy()
        held = R.sweep_stops(k, P, d)
        rot = int(st[R.S_ROT])
        for g in range(4):
            t = int(k[R.S_PANCHOR + g])
            if t <= 0 or (held >> g) & 1:
                continue
            f = int(R.B2F[rot, st[R.S_GPOS + g]])
            at = _floor_xy(f) * np.exp(1j * (1.0 if d == 0 else -1.0) * t * 1e-9)
            spaces = R.stop_spaces(P, R.stop_key(d, f, t))
            beyond = max(abs(at.real), abs(at.imag))
            if beyond > 3.9:
                assert spaces == 0
                off += 1
            elif beyond > 3.5:
                assert spaces != 0
                edge += 1
            else:
                assert spaces != 0
        if off and edge:
            break
    assert off > 0 and edge > 0, (off, edge)
    # and the turn sends exactly the ghosts on no space to the corners
    rng = random.Random(23)
    sent = 0
    for _ in range(3000):
        st = _random_position(rng, P, rng.randint(2, 4))
        d = rng.randint(0, 1)
        k = st.copy()
        R.sweep_stops(k, P, d)
        R.turn_board(st, P, d)
        queue = [int(st[R.S_PEND + i]) for i in range(int(st[R.S_NPEND]))]
        for i, g in enumerate(queue):
            if st[R.S_PANCHOR + i] == R.OFF_BOARD_KEY:
                f = int(R.B2F[int(st[R.S_ROT]) - (1 if d == 0 else -1) & 3, k[R.S_GPOS + g]])
                assert R.stop_spaces(P, R.stop_key(d, f, int(k[R.S_PANCHOR + g]))) == 0
                sent += 1
    assert sent > 0


def test_c12_a_ghost_on_one_space_is_never_re_placed_those_on_several_wait_first_then_those_on_none():
    rng = random.Random(29)
    single = several = 0
    for _ in range(3000):
        st = _random_position(rng, P, 4)
        d = rng.randint(0, 1)
        k = st.copy()
        held = R.sweep_stops(k, P, d)
        old = int(st[R.S_ROT])
        new = (old + (1 if d == 0 else 3)) % 4
        kinds = {}
        for g in range(4):
            t = int(k[R.S_PANCHOR + g])
            if t < 0 or (held >> g) & 1:
                continue
            f = int(R.B2F[old, st[R.S_GPOS + g]])
            sp = R.stop_spaces(P, R.stop_key(d, f, t))
            kinds[g] = (bin(sp).count("1"), sp)
        R.turn_board(st, P, d)
        queue = [int(st[R.S_PEND + i]) for i in range(int(st[R.S_NPEND]))]
        order = [min(kinds[g][0], 2) for g in queue]
        assert order == sorted(order, key=lambda x: (x == 0, x)), order  # several first, then none
        for g, (count, sp) in kinds.items():
            if count == 1:
                assert st[R.S_GPOS + g] == R.F2B[new, R.lowest_bit(sp)] and g not in queue
                single += 1
            elif count > 1:
                assert g in queue
                several += 1
    assert single > 10 and several > 10, (single, several)


def test_c5_a_rider_stopped_at_once_shows_nothing_of_its_grip():
    """The table sees red stand still, as a held ghost would, because it turned at once towards held blue: it
    learns nothing of the magnet under red. Version 3's table learnt "no grip" there."""
    st = K.state(P, **AUDIT)
    st[R.S_CUR] = 1
    floor = int(R.B2F[3, cell(0, 2)])
    s, k = 0, floor // 7 - 2  # slider 0 (tunnel 0, column 0) pulled out 2
    bit = 1 << (k * 4 + 1)
    R.apply_action(st, P, R.A_TURN, NOLOG)
    assert int(st[R.S_SEEN_KNOWN + s]) & bit == 0
    assert R.B2F[3, cell(0, 3)] == cell(3, 0)  # blue stood still over slider 0's cell 1, and nothing stopped it at
    blue = 1 << (1 * 4 + 3)  # once (it turns away from red): the table sees its grip
    assert int(st[R.S_SEEN_KNOWN + s]) & blue and int(st[R.S_SEEN_GRIP + s]) & blue
    old = K.state(V3, **AUDIT)
    old[R.S_CUR] = 1
    R.apply_action(old, V3, R.A_TURN, NOLOG)
    assert int(old[R.S_SEEN_KNOWN + s]) & bit and not int(old[R.S_SEEN_GRIP + s]) & bit
