"""One test per clause of kernels/moor/RULES.md (R1–R17, A1–A11, C1–C11) plus the rulebook's own examples.

Chance is forced through `rules.new_game(st, prm, n, order, log)` (the deal) and `rules.apply_chance(st, roll, log)`
(the die); decisions through `rules.apply_action(st, prm, a, log)`. Positions are built by hand with the helpers of
`_kit.py`, which write the documented state offsets and keep the state consistent.
"""

from __future__ import annotations

import numpy as np
import pytest

from kernels.batch import play_games
from kernels.moor import features as F
from kernels.moor import play as PL
from kernels.moor import rules as R
from kernels.moor import strategies as S
from kernels.policy import new_marker
from kernels.rng import N_STREAMS_MAX, seed_stream

from ._kit import (
    AXE,
    BONE,
    COIN,
    END,
    MASK,
    URN,
    blank,
    canonical_order,
    events,
    ghost,
    give,
    held,
    kinds_of,
    legal,
    new_state,
    pair,
    pawn_pos,
    plank,
    prm_of,
    put,
    returns,
    score,
    set_pawns,
    tiles_on,
    treasure,
    turn,
)

PAWNS = {2: 5, 3: 4, 4: 3, 5: 2}


def _turn_kinds(log):
    """Event kinds of the turns played, without the skips of players already home."""
    return [k for k in kinds_of(log) if k != R.E_SKIP]


def _pawns(n, *first):
    """Pawn list for one player of an n-player game: the given positions, the rest home."""
    return list(first) + [END] * (PAWNS[n] - len(first))


# =============================================== setup ==============================================================
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_r01_pawns_per_player_all_on_start(n):
    st, prm, log = new_state(n)
    assert st[R.S_NPLAYERS] == n and st[R.S_NPAWNS] == PAWNS[n]
    for p in range(R.MAX_PLAYERS):
        for k in range(R.MAX_PAWNS):
            want = 0 if (p < n and k < PAWNS[n]) else -1
            assert st[R.S_PAWN_POS + p * R.MAX_PAWNS + k] == want
    assert st[R.S_PHASE] == R.PH_ROLL and st[R.S_CUR] == 0


def test_r02_thirty_eight_tiles_25_7_6():
    kinds = [int(R.tile_kind(t)) for t in range(R.N_TILES)]
    assert R.N_TILES == 38
    assert sum(k < R.N_TYPES for k in kinds) == 25
    assert kinds.count(R.K_GHOST) == 7 and kinds.count(R.K_PLANK) == 6
    assert R.TREASURE_NAMES == ("Bone", "Axe", "Coin", "Mask", "Urn")
    st, prm, _ = new_state(4)
    # goal tokens: 5, stacked highest on top, on End
    goals = [int(prm[R.P_GOAL_VALUES + i]) for i in range(R.N_GOALS)]
    assert goals == sorted(goals, reverse=True) and len(goals) == 5
    assert st[R.S_GOAL_NEXT] == 0
    # every tile is somewhere, exactly once
    locs = [int(st[R.S_TILE_LOC + t]) for t in range(R.N_TILES)]
    on_board = [t for s in range(R.MAX_TRACK) for t in tiles_on(st, s)]
    assert sorted(on_board) == sorted(t for t in range(R.N_TILES) if locs[t] >= R.LOC_SPACE)
    assert len(on_board) == 33


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_r03_one_plank_each_one_dealt_rest_boxed(n):
    st, prm, _ = new_state(n)
    for p in range(n):
        assert st[R.S_HOLD + p * R.N_KINDS + R.K_PLANK] == 1
        assert held(st, p) == [plank(p)]
    order = canonical_order(n)
    assert sorted(int(R.tile_kind(t)) for t in order).count(R.K_PLANK) == 1
    assert order[-1] == plank(n)
    assert st[R.S_TILE_LOC + plank(n)] >= R.LOC_SPACE
    boxed = [t for t in range(R.N_TILES) if st[R.S_TILE_LOC + t] == R.LOC_BOX]
    assert boxed == [plank(i) for i in range(n + 1, 6)]  # 5 - n extras, unused this game


def test_r04_deal_two_on_green_one_on_brown():
    order = np.array(canonical_order(4)[::-1])  # any permutation is a legal chance outcome
    st, prm, _ = new_state(4, order=order)
    i = 0
    for s in range(1, 15):  # 14 green spaces: 2 tiles, first dealt below
        assert tiles_on(st, s) == [int(order[i]), int(order[i + 1])]
        i += 2
    for s in range(15, 20):  # next 5 brown spaces: 1 tile
        assert tiles_on(st, s) == [int(order[i])]
        i += 1
    assert i == 33
    for s in [0] + list(range(20, END + 1)):  # Start, the rest of the track, End: empty
        assert tiles_on(st, s) == []


# =============================================== a turn =============================================================
def test_r05_roll_is_a_chance_node():
    for roll in range(1, 7):
        st, prm, log = new_state(3)
        assert st[R.S_PHASE] == R.PH_ROLL and legal(st, prm) == []
        R.apply_chance(st, roll, log)
        assert st[R.S_PHASE] == R.PH_MOVE and st[R.S_ROLL] == roll
        assert events(log)[-1][:3] == (R.E_ROLL, 0, roll)


def test_r06_move_any_own_pawn_not_home_exactly_the_roll():
    for roll in range(1, 7):
        st, prm, log = blank(4)
        set_pawns(st, 0, [0, 5, END])
        set_pawns(st, 1, [5, END, END])
        R.apply_chance(st, roll, log)
        assert legal(st, prm) == [R.A_MOVE + 0, R.A_MOVE + 1]  # own pawns only; the one home cannot move
        R.apply_action(st, prm, R.A_MOVE + 1, log)
        assert pawn_pos(st, 0, 1) == 5 + roll and pawn_pos(st, 0, 0) == 0
        assert pawn_pos(st, 1, 0) == 5
        assert (R.E_MOVE, 0, 1, 5, 5 + roll) == events(log)[1][:5]


def test_r07_optional_plank_on_tileless_destination():
    for choice in (R.A_PLANK_YES, R.A_PLANK_NO):
        st, prm, log = blank(4)
        set_pawns(st, 0, _pawns(4, 0))
        give(st, prm, 0, plank(0))
        R.apply_chance(st, 3, log)
        R.apply_action(st, prm, R.A_MOVE, log)
        assert st[R.S_PHASE] == R.PH_PLANK and legal(st, prm) == [R.A_PLANK_YES, R.A_PLANK_NO]
        R.apply_action(st, prm, choice, log)
        if choice == R.A_PLANK_YES:
            assert tiles_on(st, 3) == [plank(0)] and held(st, 0) == []
            assert st[R.S_PLANKS_LAID] == 1
        else:
            assert tiles_on(st, 3) == [] and held(st, 0) == [plank(0)]
    # destination holds a tile: no plank decision
    st, prm, log = blank(4)
    set_pawns(st, 0, _pawns(4, 0))
    give(st, prm, 0, plank(0))
    put(st, prm, 3, [treasure(COIN)])
    turn(st, prm, log, 3, R.A_MOVE)
    assert R.E_PLANK not in kinds_of(log) and held(st, 0) == [plank(0)]
    # no plank held: no plank decision
    st, prm, log = blank(4)
    set_pawns(st, 0, _pawns(4, 0))
    turn(st, prm, log, 3, R.A_MOVE)
    assert st[R.S_PHASE] == R.PH_ROLL


def test_r07_cannot_lay_the_plank_picked_up_this_turn():
    st, prm, log = blank(4)
    set_pawns(st, 0, _pawns(4, 5))
    put(st, prm, 5, [plank(1)])  # a plank left behind on the space the pawn leaves
    turn(st, prm, log, 2, R.A_MOVE)  # to space 7, tile-less: no plank decision (none held yet)
    assert tiles_on(st, 7) == [] and held(st, 0) == [plank(1)]
    assert _turn_kinds(log) == [R.E_ROLL, R.E_MOVE, R.E_TAKE]


def test_r08_take_top_tile_when_alone():
    st, prm, log = blank(4)
    set_pawns(st, 0, _pawns(4, 5))
    put(st, prm, 5, [treasure(MASK), ghost(2)])
    turn(st, prm, log, 2, R.A_MOVE)
    assert held(st, 0) == [ghost(2)] and tiles_on(st, 5) == [treasure(MASK)]
    assert st[R.S_GHOST_SUM] == 3
    assert (R.E_TAKE, 0, ghost(2), 5) in [e[:4] for e in events(log)]
    # another player's pawn still there: nothing is taken
    st, prm, log = blank(4)
    set_pawns(st, 0, _pawns(4, 5))
    set_pawns(st, 2, _pawns(4, 5))
    put(st, prm, 5, [treasure(MASK), ghost(2)])
    turn(st, prm, log, 2, R.A_MOVE)
    assert held(st, 0) == [] and tiles_on(st, 5) == [treasure(MASK), ghost(2)]
    assert R.E_TAKE not in kinds_of(log) and R.E_DISCARD not in kinds_of(log)


def test_movement_example_1_take_the_urn():
    """RB Movement Example 1: James rolls a 4, moves one explorer 4 spaces and picks up the Urn tile from the
    otherwise unoccupied space he just left."""
    st, prm, log = blank(4)
    james = 1
    set_pawns(st, james, _pawns(4, 6, 2))
    put(st, prm, 6, [treasure(AXE), treasure(URN, 3)])  # the Urn on top
    put(st, prm, 10, [treasure(BONE)])
    st[R.S_CUR] = james
    R.apply_chance(st, 4, log)
    assert legal(st, prm) == [R.A_MOVE + 0, R.A_MOVE + 1]
    R.apply_action(st, prm, R.A_MOVE + 0, log)
    assert pawn_pos(st, james, 0) == 10
    assert held(st, james) == [treasure(URN, 3)]
    assert st[R.S_HOLD + james * R.N_KINDS + URN] == 1
    assert tiles_on(st, 6) == [treasure(AXE)]
    assert score(st, prm, james) == 1


def test_r09_discard_owed_on_leaving_tileless_space_not_start():
    # leaving Start: never a discard, whatever is held
    st, prm, log = blank(4)
    set_pawns(st, 0, _pawns(4, 0))
    give(st, prm, 0, treasure(BONE), ghost(0))
    put(st, prm, 3, [treasure(COIN)])
    turn(st, prm, log, 3, R.A_MOVE)
    assert st[R.S_PHASE] == R.PH_ROLL and sorted(held(st, 0)) == [treasure(BONE), ghost(0)]
    # leaving a tile-less space: a discard is owed, however many other pawns are there
    st, prm, log = blank(4)
    set_pawns(st, 0, _pawns(4, 6))
    set_pawns(st, 1, _pawns(4, 6, 6))
    give(st, prm, 0, treasure(COIN))
    put(st, prm, 8, [treasure(URN)])
    R.apply_chance(st, 2, log)
    R.apply_action(st, prm, R.A_MOVE, log)
    assert st[R.S_PHASE] == R.PH_DISCARD
    # nothing to give: the turn simply ends
    st, prm, log = blank(4)
    set_pawns(st, 0, _pawns(4, 6))
    put(st, prm, 8, [treasure(URN)])
    turn(st, prm, log, 2, R.A_MOVE)
    assert R.E_NO_DISCARD in kinds_of(log) and st[R.S_PHASE] == R.PH_ROLL


def _leave_axe_space(n=4, prm=None, hold=(), roll=1, origin=7):
    """Player 0 leaves tile-less space ``origin`` (default 7: an Axe space) holding ``hold``; returns the state at
    the discard decision (or after the turn when none is owed)."""
    st, prm, log = blank(n, prm=prm)
    set_pawns(st, 0, _pawns(n, origin))
    give(st, prm, 0, *hold)
    put(st, prm, origin + roll, [treasure(URN, 4)])  # a tile on the destination: no plank decision
    R.apply_chance(st, roll, log)
    R.apply_action(st, prm, R.A_MOVE, log)
    return st, prm, log


def test_r10_matching_treasure_is_forced():
    st, prm, log = _leave_axe_space(hold=(treasure(AXE, 1), ghost(0), treasure(BONE, 0), treasure(BONE, 1)))
    assert legal(st, prm) == [R.A_DISCARD_MATCH]
    R.apply_action(st, prm, R.A_DISCARD_MATCH, log)
    assert st[R.S_TILE_LOC + treasure(AXE, 1)] == R.LOC_SPACE + 1  # space 1: the closest empty one
    assert sorted(held(st, 0)) == [treasure(BONE, 0), treasure(BONE, 1), ghost(0)]


def test_r10_no_match_ghost_or_two_others():
    st, prm, log = _leave_axe_space(hold=(ghost(3), treasure(BONE), treasure(COIN)))
    assert legal(st, prm) == [R.A_DISCARD_GHOST + 3, pair(BONE, COIN), pair(COIN, BONE)]
    R.apply_action(st, prm, R.A_DISCARD_GHOST + 3, log)
    assert tiles_on(st, 1) == [ghost(3)] and st[R.S_GHOST_SUM] == 0
    assert sorted(held(st, 0)) == [treasure(BONE), treasure(COIN)]
    # two of one type make a pair too
    st, prm, log = _leave_axe_space(hold=(treasure(MASK, 0), treasure(MASK, 1)))
    assert legal(st, prm) == [pair(MASK, MASK)]
    # a ghost and only one other tile: the ghost must go (one other tile is not "2 other tiles")
    st, prm, log = _leave_axe_space(hold=(ghost(1), treasure(COIN)))
    assert legal(st, prm) == [R.A_DISCARD_GHOST + 1]


def test_r10_as_many_as_you_can():
    st, prm, log = _leave_axe_space(hold=(treasure(COIN),))
    assert legal(st, prm) == [R.A_DISCARD_ONE + COIN]
    R.apply_action(st, prm, R.A_DISCARD_ONE + COIN, log)
    assert held(st, 0) == [] and tiles_on(st, 1) == [treasure(COIN)]
    st, prm, log = _leave_axe_space(hold=(plank(0),))
    assert legal(st, prm) == [R.A_DISCARD_ONE + 5]
    st, prm, log = _leave_axe_space(hold=())
    assert st[R.S_PHASE] == R.PH_ROLL and R.E_NO_DISCARD in kinds_of(log)


def test_r11_discard_goes_to_nearest_empty_space():
    st, prm, log = blank(4)
    set_pawns(st, 0, _pawns(4, 12))
    set_pawns(st, 1, _pawns(4, 3))
    put(st, prm, 1, [treasure(URN, 0)])
    put(st, prm, 2, [treasure(URN, 1), treasure(URN, 2)])
    put(st, prm, 14, [treasure(URN, 3)])
    give(st, prm, 0, treasure(BONE))
    turn(st, prm, log, 2, R.A_MOVE, R.A_DISCARD_ONE + BONE)  # 12 is an Axe space; 3 has a pawn
    assert tiles_on(st, 4) == [treasure(BONE)]
    assert (R.E_DISCARD, 0, treasure(BONE), 4) in [e[:4] for e in events(log)]


def test_r11_two_tiles_stacked_in_chosen_order():
    for bottom, top in ((BONE, COIN), (COIN, BONE)):
        st, prm, log = _leave_axe_space(hold=(treasure(BONE), treasure(COIN)))
        R.apply_action(st, prm, pair(bottom, top), log)
        assert tiles_on(st, 1) == [treasure(bottom), treasure(top)]
        assert int(S.visible_top(st, 1)) == treasure(top)


def test_movement_example_2_discard_two_others():
    """RB Movement Example 2: James rolls a 1 and leaves a square with no tiles that depicts an Axe; he has no Axe,
    so he discards two other tiles to the empty space closest to the Start space."""
    st, prm, log = blank(4)
    james = 2
    axe_space = 12
    assert prm[R.P_SYMBOLS + axe_space] == AXE
    set_pawns(st, james, _pawns(4, axe_space))
    set_pawns(st, 0, _pawns(4, 4))  # space 4 is free of tiles but holds a pawn
    for i, s in enumerate((1, 2, 3, 13)):
        put(st, prm, s, [treasure(URN, i)])
    give(st, prm, james, treasure(BONE), treasure(MASK))
    st[R.S_CUR] = james
    R.apply_chance(st, 1, log)
    R.apply_action(st, prm, R.A_MOVE, log)
    assert legal(st, prm) == [pair(BONE, MASK), pair(MASK, BONE)]  # no Axe, no ghost: two other tiles
    R.apply_action(st, prm, pair(MASK, BONE), log)
    assert tiles_on(st, 5) == [treasure(MASK), treasure(BONE)]  # same space, in the chosen order
    assert held(st, james) == []


def test_r12_reaching_or_passing_end_takes_top_goal():
    st, prm, log = blank(4)
    set_pawns(st, 0, _pawns(4, END - 2))
    set_pawns(st, 1, _pawns(4, END - 1))
    give(st, prm, 1, treasure(COIN))
    turn(st, prm, log, 6, R.A_MOVE)  # passes End: stops on End
    assert pawn_pos(st, 0, 0) == END
    assert st[R.S_GOAL_SUM + 0] == 5 and st[R.S_GOAL_COUNT + 0] == 1 and st[R.S_GOAL_NEXT] == 1
    assert st[R.S_CUR] == 1
    turn(st, prm, log, 1, R.A_MOVE)  # exactly End; its origin owes a discard first
    assert st[R.S_PHASE] == R.PH_DISCARD
    R.apply_action(st, prm, R.A_DISCARD_ONE + COIN, log)
    assert pawn_pos(st, 1, 0) == END and st[R.S_GOAL_SUM + 1] == 4 and st[R.S_GOAL_COUNT + 1] == 1
    assert st[R.S_PHASE] == R.PH_OVER
    # a pawn on End never moves again
    st, prm, log = blank(4)
    set_pawns(st, 0, _pawns(4, 3))
    R.apply_chance(st, 2, log)
    assert legal(st, prm) == [R.A_MOVE + 0]
    # goal tokens are never discarded
    st, prm, log = _leave_axe_space(hold=(treasure(BONE),))
    st[R.S_GOAL_SUM] = 5
    st[R.S_GOAL_COUNT] = 1
    assert legal(st, prm) == [R.A_DISCARD_ONE + BONE]
    R.apply_action(st, prm, R.A_DISCARD_ONE + BONE, log)
    assert st[R.S_GOAL_SUM] == 5 and st[R.S_GOAL_COUNT] == 1


def test_r13_clockwise_and_skip_players_all_home():
    st, prm, log = blank(4)
    set_pawns(st, 0, _pawns(4, 20))
    set_pawns(st, 2, _pawns(4, 21))
    put(st, prm, 23, [treasure(COIN)])
    put(st, prm, 24, [treasure(COIN, 1)])
    turn(st, prm, log, 3, R.A_MOVE)
    assert st[R.S_CUR] == 2  # player 1 is all home: skipped
    assert (R.E_SKIP, 1) in [e[:2] for e in events(log)]
    turn(st, prm, log, 3, R.A_MOVE)
    assert st[R.S_CUR] == 0  # player 3 skipped, back round to player 0
    assert st[R.S_TURNS] == 2 and st[R.S_ROUNDS] == 2


def test_r14_game_ends_when_every_pawn_home():
    st, prm, log = blank(2)
    set_pawns(st, 1, _pawns(2, END - 1))
    st[R.S_CUR] = 1
    turn(st, prm, log, 4, R.A_MOVE)
    assert st[R.S_PHASE] == R.PH_OVER and legal(st, prm) == []
    # one pawn still out: the game goes on
    st, prm, log = blank(2)
    set_pawns(st, 1, _pawns(2, END - 1, END - 5))
    st[R.S_CUR] = 1
    put(st, prm, END - 5 + 4, [treasure(COIN)])
    turn(st, prm, log, 4, R.A_MOVE + 1)
    assert st[R.S_PHASE] == R.PH_ROLL and st[R.S_CUR] == 1


def test_r15_scoring():
    st, prm, _ = blank(4)
    for kind, count in ((BONE, 1), (AXE, 2), (COIN, 3), (MASK, 4), (URN, 5)):
        give(st, prm, 0, *[treasure(kind, i) for i in range(count)])
    assert score(st, prm, 0) == 1 + 3 + 6 + 10 + 15
    give(st, prm, 0, ghost(0), ghost(6))  # values 1 and 7
    assert score(st, prm, 0) == 35 - 8
    give(st, prm, 0, plank(0), plank(1))  # planks: 0 points
    assert score(st, prm, 0) == 27
    st[R.S_GOAL_SUM + 0] = 5 + 4  # two goal tokens
    assert score(st, prm, 0) == 36
    assert score(st, prm, 1) == 0


def test_scoring_example_6_plus_3_minus_4():
    """RB Scoring Example: 3 matching tiles earn 6, 2 matching tiles 3 more, minus a 4-point ghost: 5."""
    st, prm, _ = blank(4)
    give(st, prm, 0, treasure(COIN, 0), treasure(COIN, 1), treasure(COIN, 2), treasure(MASK, 0), treasure(MASK, 1))
    four = [j for j in range(7) if prm[R.P_GHOST_VALUES + j] == 4][0]
    give(st, prm, 0, ghost(four))
    assert score(st, prm, 0) == 6 + 3 - 4 == 5


def test_r16_most_points_wins():
    st, prm, _ = blank(3)
    give(st, prm, 0, treasure(COIN, 0), treasure(COIN, 1))  # 3
    give(st, prm, 1, treasure(BONE, 0), treasure(BONE, 1), treasure(BONE, 2))  # 6
    give(st, prm, 2, treasure(URN, 0))  # 1
    scores, w = returns(st, prm)
    assert scores == [3, 6, 1] and w == 1 << 1


def test_r17_ties_most_planks_then_latest_in_turn_order():
    st, prm, _ = blank(4)
    give(st, prm, 0, treasure(COIN, 0), treasure(COIN, 1), treasure(COIN, 2), plank(0))  # 6, one plank
    give(st, prm, 2, treasure(BONE, 0), treasure(BONE, 1), treasure(BONE, 2))  # 6, no plank
    give(st, prm, 3, treasure(URN, 0))
    scores, w = returns(st, prm)
    assert scores[0] == scores[2] == 6 and w == 1 << 0  # most planks, although earlier in turn order
    give(st, prm, 2, plank(2))
    scores, w = returns(st, prm)
    assert w == 1 << 2  # planks tied too: the latest in turn order
    give(st, prm, 1, treasure(AXE, 0), treasure(AXE, 1), treasure(AXE, 2), plank(1))
    assert returns(st, prm)[1] == 1 << 2  # three-way tie, equal planks: still the latest


# =============================================== assumptions ========================================================
def test_a01_track_len_is_a_parameter():
    for tl in (19, 25, 30, 34, 62):
        st, prm, log = new_state(4, prm=prm_of(track_len=tl))
        assert st[R.S_END] == tl + 1
    # a pawn on space 19 rolling 3 is home on a 21-space track, not on the default one
    for tl, home in ((21, True), (30, False)):
        st, prm, log = blank(4, prm=prm_of(track_len=tl))
        set_pawns(st, 0, [19, tl + 1, tl + 1])
        put(st, prm, 19, [treasure(COIN)])
        turn(st, prm, log, 3, R.A_MOVE)
        assert (pawn_pos(st, 0, 0) == tl + 1) == home
        assert (st[R.S_GOAL_SUM] == 5) == home


def test_a02_space_symbols_cycle_and_parameter():
    prm = prm_of()
    assert [int(prm[R.P_SYMBOLS + s]) for s in range(1, 31)] == [(s - 1) % 5 for s in range(1, 31)]
    # default: space 2 shows an Axe; with every space an Urn, the Urn becomes the forced match
    hold = (treasure(URN), treasure(BONE))
    st, prm, log = _leave_axe_space(hold=hold, origin=2)
    assert legal(st, prm) == [pair(BONE, URN), pair(URN, BONE)]
    st, prm, log = _leave_axe_space(prm=prm_of(space_symbols=[URN] * 30), hold=hold, origin=2)
    assert legal(st, prm) == [R.A_DISCARD_MATCH]
    R.apply_action(st, prm, R.A_DISCARD_MATCH, log)
    assert held(st, 0) == [treasure(BONE)]


def test_a03_ghost_values_are_a_parameter():
    prm = prm_of()
    assert [int(prm[R.P_GHOST_VALUES + j]) for j in range(7)] == [1, 2, 3, 4, 5, 6, 7]
    for values, want in (([1, 2, 3, 4, 5, 6, 7], -3), ([1, 1, 2, 2, 3, 3, 4], -2)):
        st, prm, log = blank(4, prm=prm_of(ghost_values=values))
        set_pawns(st, 0, _pawns(4, 5))
        put(st, prm, 5, [ghost(2)])
        put(st, prm, 6, [treasure(AXE)])
        turn(st, prm, log, 1, R.A_MOVE)
        assert held(st, 0) == [ghost(2)] and st[R.S_GHOST_SUM] == -want and score(st, prm, 0) == want


def test_a04_goal_values_top_first_parameter():
    for values in ([5, 4, 3, 2, 1], [9, 7, 5, 3, 1]):
        st, prm, log = blank(4, prm=prm_of(goal_values=values))
        set_pawns(st, 0, _pawns(4, END - 1))
        set_pawns(st, 1, _pawns(4, END - 1))
        turn(st, prm, log, 1, R.A_MOVE)
        turn(st, prm, log, 1, R.A_MOVE)
        assert [int(st[R.S_GOAL_SUM + p]) for p in (0, 1)] == values[:2]


def test_a05_five_of_each_type():
    assert R.PER_TYPE == 5
    types = [int(R.tile_kind(t)) for t in range(25)]
    assert all(types.count(k) == 5 for k in range(5))
    st, prm, _ = blank(4)
    give(st, prm, 0, *[treasure(URN, i) for i in range(5)])
    assert score(st, prm, 0) == 15


def test_a06_start_and_end_have_no_symbol():
    prm = prm_of()
    assert prm[R.P_SYMBOLS + 0] == -1
    assert prm[R.P_SYMBOLS + prm[R.P_TRACK_LEN] + 1] == -1
    st, prm, log = blank(4)
    set_pawns(st, 0, _pawns(4, 0))
    give(st, prm, 0, *[treasure(k) for k in range(5)], ghost(0), plank(0))
    turn(st, prm, log, 2, R.A_MOVE, R.A_PLANK_NO)
    assert R.E_DISCARD not in kinds_of(log) and len(held(st, 0)) == 7
    # End is never left: no move is legal for a pawn on End
    st, prm, log = blank(4)
    set_pawns(st, 0, [END, END, 4])
    R.apply_chance(st, 1, log)
    assert legal(st, prm) == [R.A_MOVE + 2]


def _trace(n=4, seed=5, g=0, strategies=("random",), prm=None, log_len=20_000):
    prm = prm_of() if prm is None else prm
    sids = np.array(
        [dict((s[0], s[1]) for s in S.STRATEGIES)[strategies[i % len(strategies)]] for i in range(n)], dtype=np.int64
    )
    sp = np.tile(np.array([d for _, d, _ in S.WEIGHT_SPECS], dtype=np.float64), (n, 1))
    return PL.trace_game(np.uint64(seed), np.uint64(0), g, n, prm, sids, sp, log_len)


def test_a07_die_faces_parameter():
    for faces in (3, 6):
        rolls = []
        for g in range(6):
            log = _trace(g=g, prm=prm_of(die_faces=faces)).log
            rolls += [e[2] for e in events(log) if e[0] == R.E_ROLL]
        assert set(rolls) == set(range(1, faces + 1))


def test_a08_seat_rotation():
    n, games = 3, 9
    prm = prm_of()
    sids = np.zeros(n, dtype=np.int64)
    sp = np.zeros((n, S.N_SPARAMS), dtype=np.float64)
    out = play_games(PL.play_batch, PL.batch_scratch(n), 1, 0, 0, games, n, prm, sids, sp, PL.N_EXTRA)
    first = list(PL.EXTRA_COLUMNS).index("first_seat")
    assert [int(x) for x in out.extra[:, first]] == [g % n for g in range(games)]


def test_a09_set_points_parameter():
    for table, want in (([1, 3, 6, 10, 15], 6), ([2, 4, 8, 16, 32], 8)):
        st, prm, _ = blank(4, prm=prm_of(set_points=table))
        give(st, prm, 0, treasure(COIN, 0), treasure(COIN, 1), treasure(COIN, 2))
        assert score(st, prm, 0) == want


def test_a10_turn_cap_truncates():
    tr = _trace(prm=prm_of(max_turns=10))
    assert tr.status == PL.ST_TRUNCATED and tr.turns == 10 and tr.winners == 0
    tr = _trace()
    assert tr.status == PL.ST_DONE and tr.turns > 10 and tr.winners != 0


def test_a11_no_plank_or_discard_on_end():
    st, prm, log = blank(4)
    set_pawns(st, 0, _pawns(4, END - 3))
    put(st, prm, END - 3, [treasure(COIN)])
    give(st, prm, 0, plank(0))
    turn(st, prm, log, 3, R.A_MOVE)  # to End, holding a plank: no plank decision
    assert R.E_PLANK not in kinds_of(log) and tiles_on(st, END) == []
    # every path space holds a tile: the discard goes neither to Start nor to End (C1: it leaves the game)
    st, prm, log = blank(4)
    set_pawns(st, 0, _pawns(4, 7))
    set_pawns(st, 1, _pawns(4, 7))
    for s in range(1, END):
        if s != 7:
            put(st, prm, s, [s - 1] if s <= 25 else [ghost(s - 26)])
    give(st, prm, 0, plank(0))
    turn(st, prm, log, 1, R.A_MOVE, R.A_DISCARD_ONE + 5)
    assert tiles_on(st, 0) == [] and tiles_on(st, END) == []
    assert st[R.S_TILE_LOC + plank(0)] == R.LOC_LOST


# =============================================== ambiguity choices ==================================================
def _no_empty_space(fallback):
    """Every tile-less path space holds a pawn; player 0 leaves Axe space 7 (another pawn stays) to space 10."""
    st, prm, log = blank(4, prm=prm_of(discard_fallback=fallback))
    set_pawns(st, 0, _pawns(4, 7))
    set_pawns(st, 1, [7, 10, 20])
    for s in range(1, END):
        if s not in (7, 10, 20):
            put(st, prm, s, [s - 1] if s <= 25 else [ghost(s - 26)])
    give(st, prm, 0, plank(0))
    turn(st, prm, log, 3, R.A_MOVE, R.A_PLANK_NO, R.A_DISCARD_ONE + 5)
    return st, prm, log


def test_c01_discard_fallback_remove():
    st, prm, log = _no_empty_space("remove")
    assert st[R.S_TILE_LOC + plank(0)] == R.LOC_LOST and st[R.S_TILES_LOST] == 1
    assert (R.E_DISCARD, 0, plank(0), -1) in [e[:4] for e in events(log)]


def test_c01_discard_fallback_ignore_pawns():
    st, prm, log = _no_empty_space("ignore_pawns")
    assert tiles_on(st, 7) == [plank(0)] and st[R.S_TILES_LOST] == 0  # nearest tile-less space, pawn or not


def test_c01_scan_from_start_target_may_lie_ahead():
    st, prm, log = blank(4)
    set_pawns(st, 0, _pawns(4, 12))
    set_pawns(st, 1, _pawns(4, 12))
    for s in range(1, 21):
        if s != 12:
            put(st, prm, s, [s - 1])
    give(st, prm, 0, treasure(URN, 4))
    turn(st, prm, log, 2, R.A_MOVE, R.A_DISCARD_ONE + URN)
    assert tiles_on(st, 21) == [treasure(URN, 4)]  # beyond every pawn


@pytest.mark.parametrize("counts,target", [(True, 7), (False, 8)])
def test_c02_vacated_origin_counts(counts, target):
    st, prm, log = blank(4, prm=prm_of(vacated_origin_counts=counts))
    set_pawns(st, 0, _pawns(4, 7))
    for s in range(1, 7):
        put(st, prm, s, [s - 1])
    put(st, prm, 9, [treasure(URN, 4)])
    give(st, prm, 0, treasure(COIN, 4))
    turn(st, prm, log, 2, R.A_MOVE, R.A_DISCARD_ONE + COIN)
    assert tiles_on(st, target) == [treasure(COIN, 4)]


@pytest.mark.parametrize("ghost_first", [False, True])
def test_c03_ghost_before_two(ghost_first):
    prm = prm_of(ghost_before_two=ghost_first)
    st, prm, log = _leave_axe_space(prm=prm, hold=(ghost(5), treasure(BONE), treasure(COIN)))
    want = [R.A_DISCARD_GHOST + 5] + ([] if ghost_first else [pair(BONE, COIN), pair(COIN, BONE)])
    assert legal(st, prm) == want
    # a match still comes first under both readings
    st, prm, log = _leave_axe_space(prm=prm, hold=(ghost(5), treasure(AXE), treasure(COIN)))
    assert legal(st, prm) == [R.A_DISCARD_MATCH]


@pytest.mark.parametrize("ghost_first", [False, True])
def test_c03_ghost_never_one_of_two_others(ghost_first):
    """C3: "1 ghost or any 2 other tiles": a ghost is never one of the two (not with a treasure, not two ghosts)."""
    prm = prm_of(ghost_before_two=ghost_first)
    st, prm, log = _leave_axe_space(prm=prm, hold=(ghost(5), ghost(2)))
    assert legal(st, prm) == [R.A_DISCARD_GHOST + 2, R.A_DISCARD_GHOST + 5]
    st, prm, log = _leave_axe_space(prm=prm, hold=(ghost(5), treasure(BONE)))
    assert legal(st, prm) == [R.A_DISCARD_GHOST + 5]  # not ghost + Bone, and not the Bone alone
    R.apply_action(st, prm, R.A_DISCARD_GHOST + 5, log)
    assert held(st, 0) == [treasure(BONE)]


@pytest.mark.parametrize("discardable", [True, False])
def test_c03_planks_discardable(discardable):
    prm = prm_of(planks_discardable=discardable)
    st, prm, log = _leave_axe_space(prm=prm, hold=(plank(0), treasure(BONE)))
    assert legal(st, prm) == ([pair(BONE, 5), pair(5, BONE)] if discardable else [R.A_DISCARD_ONE + BONE])
    st, prm, log = _leave_axe_space(prm=prm, hold=(plank(0),))
    if discardable:
        assert legal(st, prm) == [R.A_DISCARD_ONE + 5]
    else:
        assert st[R.S_PHASE] == R.PH_ROLL and R.E_NO_DISCARD in kinds_of(log) and held(st, 0) == [plank(0)]


def test_c04_step_order():
    # plank on the destination, then the take from the origin
    st, prm, log = blank(4)
    set_pawns(st, 0, _pawns(4, 5))
    put(st, prm, 5, [treasure(COIN)])
    give(st, prm, 0, plank(0))
    turn(st, prm, log, 3, R.A_MOVE, R.A_PLANK_YES)
    assert _turn_kinds(log) == [R.E_ROLL, R.E_MOVE, R.E_PLANK, R.E_TAKE]
    # take from the origin, then the goal token
    st, prm, log = blank(4)
    set_pawns(st, 0, _pawns(4, END - 1))
    put(st, prm, END - 1, [treasure(COIN)])
    turn(st, prm, log, 2, R.A_MOVE)
    assert _turn_kinds(log) == [R.E_ROLL, R.E_MOVE, R.E_TAKE, R.E_GOAL]
    # a plank laid on the destination is no longer there to be discarded
    for lay, discard in ((R.A_PLANK_YES, False), (R.A_PLANK_NO, True)):
        st, prm, log = blank(4)
        set_pawns(st, 0, _pawns(4, 6))
        give(st, prm, 0, plank(0))
        R.apply_chance(st, 3, log)
        R.apply_action(st, prm, R.A_MOVE, log)
        R.apply_action(st, prm, lay, log)
        assert (st[R.S_PHASE] == R.PH_DISCARD) == discard


def test_c05_own_other_pawn_blocks_take():
    st, prm, log = blank(4)
    set_pawns(st, 0, [5, 5, END])
    put(st, prm, 5, [treasure(COIN)])
    turn(st, prm, log, 1, R.A_MOVE + 0)
    assert held(st, 0) == [] and tiles_on(st, 5) == [treasure(COIN)]


def test_c06_plank_on_occupied_tileless_destination():
    st, prm, log = blank(4)
    set_pawns(st, 0, _pawns(4, 0))
    set_pawns(st, 3, _pawns(4, 4))
    give(st, prm, 0, plank(0))
    turn(st, prm, log, 4, R.A_MOVE, R.A_PLANK_YES)
    assert tiles_on(st, 4) == [plank(0)]


def test_c07_goal_tokens_run_out():
    st, prm, log = blank(2)
    set_pawns(st, 0, [END - 1] * 5)
    set_pawns(st, 1, _pawns(2, END - 1))
    while st[R.S_PHASE] != R.PH_OVER:
        turn_first(st, prm, log, 1)
    goals = [(e[1], e[2]) for e in events(log) if e[0] == R.E_GOAL]
    assert goals == [(0, 5), (1, 4), (0, 3), (0, 2), (0, 1)]  # six arrivals, five tokens
    assert st[R.S_GOAL_SUM] == 11 and st[R.S_GOAL_COUNT] == 4 and st[R.S_GOAL_NEXT] == 5


def turn_first(st, prm, log, roll):
    """Force ``roll``, then take the first legal action at every decision until the turn is over."""
    R.apply_chance(st, roll, log)
    while st[R.S_PHASE] not in (R.PH_ROLL, R.PH_OVER):
        R.apply_action(st, prm, legal(st, prm)[0], log)


def test_c08_skipped_players_take_no_turns_until_all_home():
    for n in (2, 3, 4, 5):
        for g in range(4):
            tr = _trace(n=n, g=g, seed=11)
            assert tr.status == PL.ST_DONE
            homes = [0] * n
            ev = events(tr.log)
            for e in ev:
                if e[0] == R.E_ROLL:
                    assert homes[e[1]] < PAWNS[n]
                if e[0] == R.E_MOVE and e[4] == END:
                    homes[e[1]] += 1
            assert homes == [PAWNS[n]] * n
            last_move = max(i for i, e in enumerate(ev) if e[0] == R.E_MOVE)
            assert all(
                e[0] in (R.E_TAKE, R.E_DISCARD, R.E_NO_DISCARD, R.E_GOAL, R.E_SKIP, R.E_PLANK)
                for e in ev[last_move + 1 :]
            )


@pytest.mark.parametrize("mode", ["rulebook", "shared"])
def test_c09_tiebreak(mode):
    st, prm, _ = blank(4, prm=prm_of(tiebreak=mode))
    give(st, prm, 1, treasure(COIN, 0), treasure(COIN, 1), treasure(COIN, 2), plank(1))
    give(st, prm, 3, treasure(BONE, 0), treasure(BONE, 1), treasure(BONE, 2))
    scores, w = returns(st, prm)
    assert w == ((1 << 1) if mode == "rulebook" else (1 << 1) | (1 << 3))


def test_c10_ghost_on_top_must_be_taken():
    st, prm, log = blank(4)
    set_pawns(st, 0, _pawns(4, 5))
    put(st, prm, 5, [treasure(COIN), ghost(6)])
    R.apply_chance(st, 1, log)
    put(st, prm, 6, [treasure(BONE)])
    R.apply_action(st, prm, R.A_MOVE, log)  # no decision is offered: the ghost is taken
    assert st[R.S_PHASE] == R.PH_ROLL and held(st, 0) == [ghost(6)] and score(st, prm, 0) == -7


def test_c11_strategies_never_read_covered_tiles():
    """Two positions differing only in covered tiles get the same decision from every strategy."""
    for sid in range(len(S.STRATEGIES)):
        picks = []
        for under in (ghost(6), treasure(MASK)):
            st, prm, log = blank(4)
            set_pawns(st, 0, [5, 8, 0])
            put(st, prm, 5, [under, treasure(COIN)])
            put(st, prm, 8, [treasure(URN) if under == ghost(6) else ghost(6), treasure(BONE)])
            R.apply_chance(st, 2, log)
            mask = np.zeros(R.N_ACTIONS, np.int8)
            legal = np.zeros(R.N_ACTIONS, np.int8)
            nl = R.legal_actions(st, prm, mask, legal)
            rng = np.zeros((N_STREAMS_MAX, 4), np.uint64)
            seed_stream(rng, 1, 3, 0, 0, 1)
            sp = np.array([d for _, d, _ in S.WEIGHT_SPECS], dtype=np.float64)
            if sid == S.S_LEARNED:  # dispatched by step.decide (its weights: a row of random ones)
                row = np.random.default_rng(1).uniform(-3.0, 3.0, F.N_LEARNED_PARAMS)
                row[0] = 0.0
                picks.append(int(F.learned_choice(row, st, prm, mask, rng, 1, new_marker(R.N_ACTIONS))))
            else:
                picks.append(int(S.decide(sid, sp, st, prm, mask, nl, rng, 1, legal)))
        assert picks[0] == picks[1]


# =============================================== the spec itself ====================================================
def test_every_clause_assumption_and_choice_has_a_test():
    """RULES.md and this module stay in step: every R*, A*, C* id there has a test_<id>_... here, and back."""
    import re
    from pathlib import Path

    text = (Path(R.__file__).parent / "RULES.md").read_text(encoding="utf-8")
    ids = {f"r{int(x):02d}" for x in re.findall(r"^\*\*R(\d+) ", text, re.M)}
    ids |= {f"a{int(x):02d}" for x in re.findall(r"^\| A(\d+) \|", text, re.M)}
    ids |= {f"c{int(x):02d}" for x in re.findall(r"^\| C(\d+) \|", text, re.M)}
    assert {i for i in ids if i[0] == "r"} == {f"r{i:02d}" for i in range(1, 18)}
    assert {i for i in ids if i[0] == "c"} == {f"c{i:02d}" for i in range(1, 12)}
    tested = {name[5:8] for name in globals() if re.match(r"test_[rac]\d\d_", name)}
    assert ids == tested, (sorted(ids - tested), sorted(tested - ids))
    assert f"RULES_VERSION = {R.RULES_VERSION}" in text


def test_c09_tiebreak_decided_counts_only_ties_the_rulebook_settles(moor_sc):
    """The `tiebreak_decided` counter: a tied top score settled by most planks / latest in turn order (rulebook);
    with tiebreak = shared the tied players all win and nothing is settled, so it stays 0."""
    from sim.play import runner

    col = PL.EXTRA_COLUMNS.index("tiebreak_decided")
    for mode in ("rulebook", "shared"):
        out = runner.play_chunk(moor_sc(players=3, tiebreak=mode), 0, 3000)
        done = out.status == PL.ST_DONE
        multi = np.array([bin(int(w)).count("1") > 1 for w in out.winners])
        decided = out.extra[:, col]
        if mode == "rulebook":
            assert not multi.any() and decided[done].sum() > 0
        else:
            assert multi[done].sum() > 0 and decided.sum() == 0
