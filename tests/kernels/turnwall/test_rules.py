"""One test per clause of kernels/turnwall/RULES.md (R*, C*, M*), on positions built by hand (chance forced)."""

from __future__ import annotations

import numpy as np
import pytest

from kernels.turnwall import memory as M
from kernels.turnwall import rules as R
from tests.kernels.turnwall import _kit as K
from tests.kernels.turnwall._kit import NOLOG, cell

P = K.prm()
OUT, IN = 1, 0


def _slide(st, p, s, d):
    return R.slide(st, p, s, d, True)


def test_r01_board_cell_over_floor_cell_turns_clockwise():
    assert R.B2F[1, cell(0, 0)] == cell(0, 6) and R.B2F[2, cell(0, 0)] == cell(6, 6)
    assert R.B2F[1, cell(1, 2)] == cell(2, 5)
    for rot in range(4):
        assert all(R.F2B[rot, R.B2F[rot, c]] == c for c in range(49))
        assert R.B2F[rot, R.PLUG] == R.PLUG


def test_r02_setup_corners_sliders_and_one_card_of_each_back_per_deck():
    st = K.state(P, deal=np.array([(p * 4 + (k + p) % 4) for p in range(5) for k in range(4)]))
    assert K.ghosts(st) == [(0, 0), (0, 6), (6, 6), (6, 0)]
    assert [int(st[R.S_STUN + s]) for s in range(3)] == [0, 2, 4] and all(st[R.S_SPOS : R.S_SPOS + 3] == 0)
    for k in range(4):
        assert sorted(int(st[R.S_DECK + k * 5 + p]) // 4 for p in range(5)) == [0, 1, 2, 3, 4]
    assert R.check_invariants(st, P) == 0


def test_r03_two_players_leave_two_ghosts_off_the_board():
    st = K.state(P, n=2)
    assert K.ghosts(st) == [(0, 0), (0, 6)] and st[R.S_GPOS + 2] == -1 and st[R.S_GPOS + 3] == -1
    assert R.check_invariants(st, P) == 0


def test_r04_held_over_a_magnet_of_the_slider_below():
    st = K.state(P, ghosts=[(1, 0), (2, 0), (0, 3), (6, 3)])
    assert [R.is_held(st, P, g) for g in range(4)] == [True, False, False, False]  # slider 0 magnets at 1, 4
    st[R.S_SPOS + 0] = 1  # pulled out: rows 2, 5
    assert [R.is_held(st, P, g) for g in range(2)] == [False, True]
    st[R.S_STUN + 1] = 1  # middle slider moved away
    st2 = K.state(P, ghosts=[(2, 3), (0, 0), (0, 6), (6, 6)])
    assert R.is_held(st2, P, 0)
    st2[R.S_STUN + 1] = 1
    assert not R.is_held(st2, P, 0)


def test_r05_drag_one_step_not_through_walls_plug_ghosts_or_edge():
    st = K.state(P, ghosts=[(0, 1), (0, 6), (6, 6), (6, 0)])
    assert R.can_drag(st, P, 0, 3) and R.can_drag(st, P, 0, 2)  # west to the corner, south in room A
    assert not R.can_drag(st, P, 0, 1)  # wall between A [0,1] and B [0,2]
    assert not R.can_drag(st, P, 0, 0)  # off the board
    st = K.state(P, ghosts=[(2, 3), (1, 3), (6, 6), (6, 0)])
    assert not R.can_drag(st, P, 0, 2)  # the plug
    assert not R.can_drag(st, P, 0, 0)  # a ghost


def test_r06_slide_carries_held_ghost_through_a_wall():
    st = K.state(P, ghosts=[(1, 0), (0, 6), (6, 6), (5, 5)])
    assert P[R.P_WALLS + cell(1, 0)] & 4  # wall south of [1,0]
    assert _slide(st, P, 0, OUT) == 0
    assert K.ghosts(st)[0] == (2, 0) and st[R.S_SPOS] == 1 and R.is_held(st, P, 0)


def test_r06_slide_pushes_the_ghosts_ahead():
    st = K.state(P, ghosts=[(1, 0), (2, 0), (3, 0), (5, 5)])
    assert _slide(st, P, 0, OUT) == 16  # two pushed, no plug stop
    assert K.ghosts(st)[:3] == [(2, 0), (3, 0), (4, 0)]


def test_r06_ghost_bumping_into_the_plug_stops_and_so_do_those_behind():
    st = K.state(P, ghosts=[(2, 3), (0, 0), (0, 6), (6, 6)])  # held by the middle slider (magnet 2)
    assert _slide(st, P, 1, OUT) == 1
    assert K.ghosts(st)[0] == (2, 3) and st[R.S_SPOS + 1] == 1 and not R.is_held(st, P, 0)
    # middle slider pulled out 1: magnets at rows 3 (the plug) and 6; a held ghost pushes two ghosts north
    st = K.state(P, ghosts=[(6, 3), (5, 3), (0, 6), (6, 6)], sliders=[(0, 0), (2, 1), (4, 0)])
    st2 = st.copy()
    assert _slide(st2, P, 1, IN) == 8  # both move north, one pushed
    assert K.ghosts(st2)[:2] == [(5, 3), (4, 3)] and st2[R.S_SPOS + 1] == 0
    st3 = K.state(P, ghosts=[(6, 3), (5, 3), (4, 3), (6, 6)], sliders=[(0, 0), (2, 1), (4, 0)])
    assert _slide(st3, P, 1, IN) == 1  # [4,3] would enter the plug: all stop
    assert K.ghosts(st3)[:3] == [(6, 3), (5, 3), (4, 3)] and st3[R.S_SPOS + 1] == 0


def test_r06_slider_stays_within_its_marked_segments():
    st = K.state(P, ghosts=[(0, 1), (0, 5), (6, 5), (6, 1)])
    assert R.slide(st, P, 0, IN, False) == -1  # fully in already
    st[R.S_SPOS] = 2
    assert R.slide(st, P, 0, OUT, False) == -1  # both marked segments visible
    assert R.slide(st, P, 0, IN, False) == 0


def test_c2_slide_that_would_put_a_ghost_off_the_board_is_illegal():
    st = K.state(P)  # yellow [6,6] held by magnet 6 of slider 2
    assert R.is_held(st, P, 2) and R.slide(st, P, 2, OUT, False) == -1
    p2 = K.prm(slider_off_board="ghost_stops")
    st = K.state(p2)
    assert R.slide(st, p2, 2, OUT, True) >= 0
    assert K.ghosts(st)[2] == (6, 6) and K.ghosts(st)[1] == (1, 6) and st[R.S_SPOS + 2] == 1


def test_r07_c4_shift_needs_both_corridors_free_and_goes_to_any_depth():
    st = K.state(P)
    assert not R.can_shift(st, P, 0, 1, 0)  # ghosts above tunnel 0 (column 0)
    assert R.can_shift(st, P, 1, 1, 2) and R.can_shift(st, P, 1, 3, 0)  # middle slider, columns 2 and 4 free
    assert not R.can_shift(st, P, 1, 4, 0)  # tunnel 4 holds slider 2
    st[R.S_GPOS] = cell(3, 2)
    assert not R.can_shift(st, P, 1, 1, 0)  # a ghost above the target tunnel
    st = K.state(P)
    R.do_move(st, P, 0, R.A_SHIFT + 1 * R.SHIFT_PER_SLIDER + 3 * R.DEPTHS + 2)
    assert st[R.S_STUN + 1] == 3 and st[R.S_SPOS + 1] == 2 and K.ghosts(st) == K.ghosts(K.state(P))


def test_r08_turn_held_ghosts_stay_over_the_floor_others_turn_with_the_board():
    PE = K.prm(turn_physics="end_cell")  # red at a corner: C12 leaves it off
    st = K.state(PE, ghosts=[(1, 1), (0, 6), (5, 5), (6, 0)])  # red held (slider 2, magnet 0)
    assert [R.is_held(st, PE, g) for g in range(4)] == [False, True, False, False]
    assert R.turn_board(st, PE, 0) == 0
    assert st[R.S_ROT] == 1
    assert K.ghosts(st) == [(1, 1), (0, 0), (5, 5), (6, 0)]  # red moved on the board to [0,0]
    assert R.B2F[1, cell(0, 0)] == cell(0, 6)  # ... still over floor [0,6]


def test_c6_turning_ghost_meeting_a_held_one_is_displaced_and_the_player_chooses():
    P = K.prm(turn_physics="end_cell")  # noqa: N806 (the version-2 physics)
    st = K.state(P)  # green [0,0] not held, red [0,6] held
    st[R.S_PHASE] = R.PH_MOVE
    R.apply_action(st, P, R.A_TURN, NOLOG)
    assert st[R.S_GPOS + 1] == cell(0, 0) and st[R.S_GPOS] == -1 and st[R.S_PHASE] == R.PH_PLACE
    m = K.mask(st, P)
    assert sorted(np.nonzero(m)[0] - R.A_PLACE) == [cell(0, 1), cell(1, 0)]
    R.apply_action(st, P, R.A_PLACE + cell(1, 0), NOLOG)
    assert st[R.S_GPOS] == cell(1, 0) and st[R.S_PHASE] == R.PH_MOVE and st[R.S_DISPLACED] == 1
    p2 = K.prm(turn_collision="held_ghost_displaced", turn_physics="end_cell")
    st = K.state(p2)
    R.apply_action(st, p2, R.A_TURN, NOLOG)
    assert st[R.S_GPOS] == cell(0, 0) and st[R.S_GPOS + 1] == -1 and st[R.S_PEND] == 1


def test_r10_ghost_with_no_free_neighbour_goes_to_an_empty_corner_of_the_players_choice():
    P = K.prm(turn_physics="end_cell")  # noqa: N806 (the version-2 physics)
    st = K.state(
        P,
        n=4,
        ghosts=[(0, 0), (0, 6), (0, 1), (1, 0)],  # green boxed in at the corner
        sliders=[(0, 1), (2, 0), (4, 0)],
    )
    st[R.S_CUR] = 2
    R.apply_action(st, P, R.A_TURN, NOLOG)  # red (held) lands on green's cell
    assert st[R.S_GPOS] == -1 and st[R.S_PHASE] == R.PH_PLACE
    m = K.mask(st, P)
    assert sorted(np.nonzero(m)[0] - R.A_PLACE) == [cell(0, 6), cell(6, 0), cell(6, 6)]
    R.apply_action(st, P, R.A_PLACE + cell(6, 6), NOLOG)
    assert st[R.S_GPOS] == cell(6, 6) and st[R.S_EJECTED] == 1 and R.check_invariants(st, P) == 0


def test_r09_c1_three_moves_and_an_early_end_only_on_a_needed_garment():
    st = K.state(P)  # default: the rulebook's reading
    assert not K.mask(st, P)[R.A_END]
    st[R.S_GPOS] = cell(0, 1)  # on the sombrero, a needed garment
    assert K.mask(st, P)[R.A_END]
    st = K.state(P)
    for _ in range(3):
        m = K.mask(st, P)
        a = int(np.nonzero(m[: R.A_PLACE])[0][0])
        R.apply_action(st, P, a, NOLOG)
        if st[R.S_PHASE] == R.PH_PLACE:
            R.apply_action(st, P, int(np.nonzero(K.mask(st, P))[0][0]), NOLOG)
    assert st[R.S_MOVES_LEFT] == 0 and not K.mask(st, P)[: R.A_PLACE].any() and K.mask(st, P)[R.A_END]


def test_c1_option_up_to_three_moves_and_the_turn_may_end_any_time():
    p2 = K.prm(must_use_all_moves=False)
    st = K.state(p2)
    assert K.mask(st, p2)[R.A_END]


def test_r11_turn_passes_clockwise_and_counts():
    st = K.state(P, n=3, first=2)
    R.apply_action(st, P, R.A_END, NOLOG)
    assert st[R.S_CUR] == 0 and st[R.S_TURNS] == 1 and st[R.S_MOVES_LEFT] == 3 and st[R.S_SKIPPED] == 1


def test_r12_search_only_on_a_garment_of_a_missing_part_and_it_ends_the_turn():
    st = K.state(P)
    assert not K.mask(st, P)[R.A_SEARCH : R.A_SEARCH + 4].any()  # a corner: no garment
    st[R.S_GPOS] = cell(0, 1)  # sombrero (head), start of the turn
    assert K.mask(st, P)[R.A_SEARCH : R.A_SEARCH + 4].all()
    assert R.apply_action(st, P, R.A_SEARCH + 3, NOLOG) == 1
    assert st[R.S_CUR] == 1 and st[R.S_MOVES_LEFT] == 3  # turn over: no move after a search
    st[R.S_CUR] = 0
    st[R.S_HAVE] = 1  # wears a head garment already
    assert not K.mask(st, P)[R.A_SEARCH : R.A_SEARCH + 4].any()


def test_r13_found_card_leaves_its_deck_and_a_gone_card_is_never_found():
    st = K.state(P)  # deck k holds garment p * 4 + k
    st[R.S_GPOS] = cell(0, 1)  # sombrero = garment 0: in deck 0
    R.apply_action(st, P, R.A_SEARCH + 2, NOLOG)
    assert st[R.S_NOT_FOUND] == 1 and st[R.S_HAVE] == 0 and st[R.S_LAST_RESULT] == 0
    st[R.S_CUR] = 0
    R.apply_action(st, P, R.A_SEARCH + 0, NOLOG)
    assert st[R.S_FOUND] == 1 and st[R.S_HAVE] == 1 and st[R.S_DECK + 0] == -1
    assert st[R.S_CARD_LOC + 0] == R.LOC_SEAT + 0 and st[R.S_PART_TAKEN] == 1
    st[R.S_CUR] = 1
    st[R.S_GPOS + 1] = cell(0, 1)
    st[R.S_GPOS] = cell(1, 1)
    R.apply_action(st, P, R.A_SEARCH + 0, NOLOG)  # stood on and searched for: wasted
    assert st[R.S_WASTED] == 1 and st[R.S_HAVE + 1] == 0 and st[R.S_LAST_RESULT] == 2
    assert R.check_invariants(st, P) == 0


def test_r14_five_body_parts_win_at_once():
    st = K.state(P)
    st[R.S_HAVE] = 0b01111  # lacks the hand
    for gm in range(16):
        st[R.S_CARD_LOC + gm] = R.LOC_SEAT + 3
    st[R.S_HAVE + 3] = 0
    st[R.S_GPOS] = cell(1, 4)  # umbrella = garment 16: deck 0
    R.apply_action(st, P, R.A_SEARCH + 0, NOLOG)
    assert st[R.S_WINNER] == 0 and st[R.S_PHASE] == R.PH_OVER and K.mask(st, P).sum() == 0


def test_c10_with_polarity_only_opposite_poles_grip():
    p2 = K.prm(magnet_polarity="opposite_poles_grip")  # slider 0 poles (0, 1) at cells (1, 4)
    st = K.state(p2, ghosts=[(1, 0), (4, 0), (0, 6), (6, 6)])
    assert not R.is_held(st, p2, 0) and R.is_held(st, p2, 1) is False  # green pole 0: magnet 1 (pole 0) no
    st[R.S_GPOS] = cell(4, 0)
    st[R.S_GPOS + 1] = cell(1, 0)  # red pole 1 over magnet 1 (pole 0): grips
    assert R.is_held(st, p2, 0) and R.is_held(st, p2, 1)


def test_c11_decks_moved_in_view_every_seat_follows_the_deck():
    st = K.state(P)
    st[R.S_KNOW + (1 * 4 + 2) * 5 + 0] = 2  # seat 1 remembers deck 2's head card
    st[R.S_KNOW + (0 * 4 + 2) * 5 + 0] = 2  # so does seat 0, the searcher
    st[R.S_EXCL + 3 * 20 + 7] = 1 << 3  # seat 3: deck 3 lacks garment 7
    R.swap_decks(st, 2, 3)
    M.observe_swap(st, 0, 2, 3)
    assert st[R.S_DECK + 3 * 5] == 2 and st[R.S_CARD_LOC + 2] == 3 and R.check_invariants(st, P) == 0
    for o in (0, 1):  # the searcher and the table alike
        assert st[R.S_KNOW + (o * 4 + 3) * 5] == 2 and st[R.S_KNOW + (o * 4 + 2) * 5] == R.KNOW_UNSEEN
    assert st[R.S_EXCL + 3 * 20 + 7] == 1 << 2 and M.find_chance(st, 1, 2) == 1.0


def test_c11_option_decks_moved_unseen_the_others_forget():
    p2 = K.prm(decks_moved_seen=False)
    st = K.state(p2)
    st[R.S_KNOW + (1 * 4 + 2) * 5 + 0] = 2
    st[R.S_KNOW + (0 * 4 + 2) * 5 + 0] = 2
    R.swap_decks(st, 2, 3)
    M.observe_swap(st, 0, 2, 3)
    assert st[R.S_KNOW + (0 * 4 + 3) * 5] == 2 and st[R.S_KNOW + (0 * 4 + 2) * 5] == R.KNOW_UNSEEN
    assert st[R.S_KNOW + (1 * 4 + 2) * 5] == R.KNOW_UNSEEN and st[R.S_KNOW + (1 * 4 + 3) * 5] == R.KNOW_UNSEEN


def test_c11_decks_moved_the_order_travels_with_the_deck():
    st = K.state(P)
    st[R.S_RANK + 2 * 5 + 4] = -1  # deck 2's top card: a hand
    R.swap_decks(st, 2, 3)
    assert R.top_back(st, 3) == 4 and R.top_back(st, 2) == 0


def _rows(own, table, n=4):
    r = np.zeros((n, 8))
    r[:, 0] = own
    r[:, 1] = table
    return r


def test_m2_m3_searcher_sees_the_deck_the_table_sees_the_result():
    rng = np.zeros((8, 4), np.uint64)
    st = K.state(P)
    st[R.S_GPOS] = cell(0, 1)  # sombrero, garment 0, in deck 0
    R.apply_action(st, P, R.A_SEARCH + 1, NOLOG)  # not found in deck 1
    M.observe_search(st, _rows(1.0, 1.0), rng)
    assert [int(st[R.S_KNOW + (0 * 4 + 1) * 5 + p]) for p in range(5)] == [1, 5, 9, 13, 17]
    assert st[R.S_EXCL + 1 * 20 + 0] == 0b10 and st[R.S_KNOW + (1 * 4 + 1) * 5] == R.KNOW_UNSEEN
    assert M.find_chance(st, 1, 0) == pytest.approx(1 / 3) and M.find_chance(st, 0, 0) == pytest.approx(1 / 3)
    assert not M.possible(st, 0, 1, 0)


def test_m4_memory_models_own_only_and_none():
    rng = np.zeros((8, 4), np.uint64)
    st = K.state(P)
    st[R.S_GPOS] = cell(0, 1)
    R.apply_action(st, P, R.A_SEARCH + 1, NOLOG)
    M.observe_search(st, _rows(1.0, 0.0), rng)  # own searches only
    assert st[R.S_KNOW + (0 * 4 + 1) * 5] == 1 and st[R.S_EXCL + 1 * 20] == 0
    st2 = K.state(P)
    st2[R.S_GPOS] = cell(0, 1)
    R.apply_action(st2, P, R.A_SEARCH + 1, NOLOG)
    M.observe_search(st2, _rows(0.0, 0.0), rng)  # none
    assert (st2[R.S_KNOW : R.S_KNOW + 80] == R.KNOW_UNSEEN).all() and (st2[R.S_EXCL : R.S_EXCL + 80] == 0).all()


def test_m5_a_remembered_card_is_a_certain_find_and_taken_cards_are_public():
    st = K.state(P)
    st[R.S_KNOW + (2 * 4 + 3) * 5 + 4] = 19  # seat 2 saw the lantern in deck 3
    assert M.find_chance(st, 2, 19) == 1.0 and M.find_chance(st, 1, 19) == 0.25
    st[R.S_CARD_LOC + 19] = R.LOC_SEAT + 0
    assert M.find_chance(st, 2, 19) == 0.0 and M.find_chance(st, 1, 19) == 0.0


def _search(st, p, seat, garment_cell, deck, rows):
    st[R.S_CUR] = seat
    st[R.S_GPOS + seat] = garment_cell
    R.apply_action(st, p, R.A_SEARCH + deck, NOLOG)
    M.observe_search(st, rows, np.zeros((8, 4), np.uint64))


def test_m1_deck_sizes_show_which_deck_lost_a_card_to_a_seat_that_remembers_nothing():
    """The found sombrero (head, deck 0) leaves deck 0 one card short: a seat with no memory of any search still
    sees the heights, so a head garment can only be in decks 1..3 (version 2 gave it 1/4)."""
    for view, chance in (("size_and_top_back", 1 / 3), ("size", 1 / 3), ("nothing", 1 / 4)):
        p = K.prm(deck_view=view)
        st = K.state(p)
        _search(st, p, 0, cell(0, 1), 0, _rows(0.0, 0.0))
        assert st[R.S_HAVE] == 1 and R.deck_size(st, 0) == 4
        assert M.find_chance(st, 1, 1) == pytest.approx(chance), view
        assert M.possible(st, 1, 0, 1) == (view == "nothing")


def test_m1_top_card_back_tells_which_part_a_short_deck_still_holds():
    """Head from deck 0 and face from deck 1 taken: sizes 4, 4, 5, 5 leave open which of the two each short deck
    lacks; deck 0's top card showing a face back settles it (deck 0 lacks the head)."""
    for view, chance in (("size_and_top_back", 1 / 3), ("size", 1 / 4)):
        p = K.prm(deck_view=view)
        st = K.state(p)
        for k in range(4):
            st[R.S_RANK + k * 5 : R.S_RANK + k * 5 + 5] = [1, 0, 2, 3, 4]  # a face card on top of every deck
        _search(st, p, 0, cell(0, 1), 0, _rows(0.0, 0.0))  # sombrero (garment 0) from deck 0
        board = K.board()
        _search(st, p, 2, board.garment_cells[5], 1, _rows(0.0, 0.0))  # garment 5 (face) from deck 1
        assert st[R.S_FOUND] == 2 and R.top_back(st, 0) == 1 and R.top_back(st, 1) == 0
        assert M.find_chance(st, 1, 1) == pytest.approx(chance), view  # garment 1: a head card


def test_m4_forgets_the_cards_it_saw_but_keeps_what_the_table_saw():
    st = K.state(P)
    _search(st, P, 0, cell(0, 1), 1, _rows(0.0, 1.0))  # own failed search for garment 0
    assert (st[R.S_KNOW : R.S_KNOW + 20] == R.KNOW_UNSEEN).all()  # the cards it saw: forgotten
    assert st[R.S_EXCL + 0] == 0b10  # the table saw deck 1 lacks garment 0
    st2 = K.state(P)
    _search(st2, P, 0, cell(0, 1), 1, _rows(1.0, 0.0))  # ignores the table: others learn nothing
    assert st2[R.S_KNOW + (0 * 4 + 1) * 5] == 1 and st2[R.S_EXCL + 1 * 20] == 0


def test_r13_a_search_of_a_deck_without_that_part_is_counted():
    st = K.state(P)
    _search(st, P, 0, cell(0, 1), 0, _rows(1.0, 1.0))  # sombrero found in deck 0
    _search(st, P, 1, K.board().garment_cells[1], 0, _rows(1.0, 1.0))  # seat 1 on a head garment, deck 0
    assert st[R.S_PART_GONE] == 1 and st[R.S_NOT_FOUND] == 1


def test_b6_a_slider_shifts_in_at_every_depth_up_to_max_out():
    p = K.prm()
    p[R.P_MAX_OUT] = 3
    st = K.state(p)
    a = R.A_SHIFT + 1 * R.SHIFT_PER_SLIDER + 3 * R.DEPTHS + 3
    assert R.move_legal(st, p, 0, a) == 1 and K.mask(st, p)[a]
    R.do_move(st, p, 0, a)
    assert st[R.S_STUN + 1] == 3 and st[R.S_SPOS + 1] == 3
    assert R.move_legal(st, p, 0, R.A_SHIFT + 1 * R.SHIFT_PER_SLIDER + 1 * R.DEPTHS + 4) == 0


def test_r10_several_displaced_ghosts_wait_in_the_order_of_the_held_ghost_each_met():
    import random

    from tests.kernels.turnwall.test_oracle import _random_position

    P = K.prm(turn_physics="end_cell")  # noqa: N806 (the version-2 physics)
    rng = random.Random(7)
    several = 0
    for _ in range(20000):
        st = _random_position(rng, P, 4)
        if R.turn_board(st, P, rng.randint(0, 1)) < 2:
            continue
        met = [R.ghost_at(st, int(st[R.S_PANCHOR + i])) for i in range(int(st[R.S_NPEND]))]
        assert met == sorted(met) and all(R.is_held(st, P, h) for h in met), met
        several += 1
    assert several > 0


def test_c13_version_3_a_held_ghost_at_a_corner_is_left_off_the_board_and_put_on_an_empty_corner():
    P = K.prm(turn_physics="sweep_pass_through")  # noqa: N806 (the version-3 physics)
    st = K.state(P)  # red [0,6] and yellow [6,6] held by slider 2 (0, 6)
    assert R.is_held(st, P, 1) and R.is_held(st, P, 2) and R.SWEEP_OFF[int(R.B2F[0, cell(0, 6)])] == 1
    R.apply_action(st, P, R.A_TURN, NOLOG)
    assert st[R.S_DISPLACED] == 2 and st[R.S_PHASE] == R.PH_PLACE and K.ghosts(st)[0] == (0, 0)  # green rode
    assert sorted(np.nonzero(K.mask(st, P))[0] - R.A_PLACE) == [cell(0, 6), cell(6, 6)]  # the empty corners
    R.apply_action(st, P, R.A_PLACE + cell(6, 6), NOLOG)  # red: the player's choice
    assert st[R.S_GPOS + 1] == cell(6, 6) and st[R.S_GPOS + 2] == cell(0, 6)  # yellow: forced
    assert st[R.S_EJECTED] == 2 and st[R.S_PHASE] == R.PH_MOVE and R.check_invariants(st, P) == 0
    pe = K.prm(turn_physics="end_cell")  # version 2: red lands on green
    st = K.state(pe)
    R.apply_action(st, pe, R.A_TURN, NOLOG)
    assert st[R.S_EJECTED] == 0 and st[R.S_GPOS + 1] == cell(0, 0)


def test_c13_version_3_a_riding_ghost_stops_where_it_touches_a_held_ghost_and_goes_into_a_space_it_straddles():
    """A ghost riding the board past a held ghost (not at its end cell) stops against it and waits; it may only be
    put into a free cell it straddles there (else an empty corner); the end-cell physics let it ride through."""
    import random

    from tests.kernels.turnwall.test_oracle import _random_position

    P = K.prm(turn_physics="sweep_pass_through")  # noqa: N806 (the version-3 physics)
    rng = random.Random(11)
    pe = K.prm(turn_physics="end_cell")
    seen = 0
    for _ in range(4000):
        st = _random_position(rng, P, 4)
        d = rng.randint(0, 1)
        old = int(st[R.S_ROT])
        held = [g for g in range(4) if R.is_held(st, P, g)]
        for g in range(4):
            if g in held:
                continue
            f = int(R.B2F[old, st[R.S_GPOS + g]])
            live = [h for h in held if not R.SWEEP_OFF[int(R.B2F[old, st[R.S_GPOS + h]])]]
            for h in sorted(live, key=lambda x: R.SWEEP_TOUCH[d, f, int(R.B2F[old, st[R.S_GPOS + x]])])[:1]:
                fh = int(R.B2F[old, st[R.S_GPOS + h]])
                new = (old + (1 if d == 0 else 3)) % 4
                end = int(st[R.S_GPOS + g])  # a rider keeps its board cell
                if (
                    R.SWEEP_OFF[fh]
                    or not 0.05 < R.SWEEP_TOUCH[d, f, fh] < 1.5
                    or end in [int(R.F2B[new, R.B2F[old, st[R.S_GPOS + x]]]) for x in held]
                ):
                    continue
                k = st.copy()
                R.turn_board(k, P, d)
                assert g in [int(k[R.S_PEND + i]) for i in range(k[R.S_NPEND])]
                while k[R.S_NPEND] and int(k[R.S_PEND]) != g:
                    R.place(k, P, R.lowest_bit(R.place_options(k, P)))
                spaces = int(R.SWEEP_SPACES[d, f, fh])
                allowed = {int(R.F2B[k[R.S_ROT], c]) for c in range(49) if (spaces >> c) & 1}
                opts = {c for c in range(49) if (R.place_options(k, P) >> c) & 1}
                assert opts <= allowed or opts <= {int(x) for x in P[R.P_CORNER : R.P_CORNER + 4]}
                assert len(allowed) >= 2 or 0.05 < R.SWEEP_TOUCH[d, f, fh]
                o = st.copy()  # version 2: no collision on the way
                R.turn_board(o, pe, d)
                assert g not in [int(o[R.S_PEND + i]) for i in range(o[R.S_NPEND])]
                seen += 1
    assert seen > 20, seen


def test_c5_the_table_sees_grips_only_in_moves():
    st = K.state(P)  # slider 2 grips red [0,6] and yellow [6,6]
    assert (st[R.S_SEEN_KNOWN : R.S_SEEN_KNOWN + 3] == 0).all()
    R.apply_action(st, P, R.A_TURN, NOLOG)
    known, grip = int(st[R.S_SEEN_KNOWN + 2]), int(st[R.S_SEEN_GRIP + 2])
    assert known == (1 << (0 * 4 + 1)) | (1 << (6 * 4 + 2)) and grip == known  # red over cell 0, yellow over 6
    assert int(st[R.S_SEEN_KNOWN + 0]) == (1 << 0) | (1 << (6 * 4 + 3))  # green and blue over slider 0 ...
    assert st[R.S_SEEN_GRIP + 0] == 0  # ... rode the board: no grip
    st = K.state(P, ghosts=[(1, 0), (0, 6), (6, 6), (5, 5)])  # green over slider 0's magnet 1
    R.apply_action(st, P, R.A_SLIDE + 0 * 2 + 1, NOLOG)  # pulled out: green moves with it
    assert int(st[R.S_SEEN_GRIP + 0]) == 1 << (1 * 4 + 0) and K.ghosts(st)[0] == (2, 0)


def test_c12_narrower_ghosts_touch_less_often():
    wide, narrow = K.prm(), K.prm(ghost_width_pct=60)
    n_wide = int((wide[R.P_SWEEP_TOUCH : R.P_SWEEP_SPACES] >= 0).sum())
    n_narrow = int((narrow[R.P_SWEEP_TOUCH : R.P_SWEEP_SPACES] >= 0).sum())
    assert 0 < n_narrow < n_wide
    assert n_wide == (R.SWEEP_TOUCH < np.inf).sum()  # the default is the tests' table
