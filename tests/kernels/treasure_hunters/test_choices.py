"""Tests of the assumptions (A*) and of every option value of the choices (C*) of RULES.md."""

from __future__ import annotations

import numpy as np

from kernels.treasure_hunters import board as B
from kernels.treasure_hunters import params as P
from kernels.treasure_hunters import rules as R

from ._kit import (
    BLANK_FACE,
    GHOST_FACE,
    JEWEL_OF,
    NODE,
    act,
    card_ids,
    deliver,
    dests,
    fight,
    give,
    kinds,
    legal,
    move,
    new_state,
    ok,
    prm_of,
    put,
    reshuffle,
    roll,
    set_ghosts,
    set_haunted,
)

HARMLESS = (R.CT_ROOM + 1, R.CT_ROOM + 7, R.CT_ROOM + 10)


def test_a01_default_board_is_the_candidate_graph():
    b = B.load_board("default")
    assert len(b.hallway) == 23 and b.node_name(b.front_door) == "H1"
    hall_doors = [(a, c, col) for a, c, col in b.edges if (a <= 12) != (c <= 12) and a and c]
    room_doors = [(a, c, col) for a, c, col in b.edges if 1 <= a <= 12 and 1 <= c <= 12]
    assert len(hall_doors) == 13 and sum(col == 1 for *_, col in hall_doors) == 7
    assert sum(col == 2 for *_, col in hall_doors) == 6
    assert len(room_doors) == 9 and all(col == 0 for *_, col in room_doors)
    assert sorted(R.ROOM_LETTERS[r] for r in b.jewel_rooms) == list("ACDEGIJL")
    assert sorted(R.ROOM_LETTERS[r] for r in b.ghost_start_rooms) == list("CFIL")
    # hallway-only distance from H22 (next to A and E) to outside: 14 (th.md: one thread counts 15)
    hall = {0} | set(range(13, b.n_nodes))
    adj = {v: set() for v in hall}
    for a, c, _ in b.edges:
        if a in hall and c in hall:
            adj[a].add(c)
            adj[c].add(a)
    dist, frontier, d = {NODE["H22"]: 0}, [NODE["H22"]], 0
    while frontier:
        d += 1
        frontier = [w for v in frontier for w in adj[v] if w not in dist and dist.setdefault(w, d) is not None]
    assert dist[0] == 14


def test_a02_fight_die_faces():
    prm = prm_of()
    faces = [int(prm[R.P_FIGHT_FACES + i]) for i in range(int(prm[R.P_N_FIGHT_FACES]))]
    assert sorted(faces) == [0, 1, 1, 1, 2, 2]
    prm = prm_of(fight_die=[1, 0])
    assert int(prm[R.P_N_FIGHT_FACES]) == 2


def test_a03_movement_die_faces():
    prm = prm_of()
    n = int(prm[R.P_N_MOVE_FACES])
    assert [int(prm[R.P_MOVE_FACES + i]) for i in range(n)] == [1, 2, 3, 4, 5, 6]
    assert [int(prm[R.P_MOVE_GHOST + i]) for i in range(n)] == [1, 1, 1, 1, 1, 0]


def test_a05_black_card_mix():
    prm = prm_of("head_haunter", 5)
    black = [c for c in range(52) if int(prm[R.P_CARD_TYPE + c]) >= R.CT_HROOM]
    assert len(black) == 33
    count = lambda ct: len(card_ids(prm, ct))  # noqa: E731
    assert sum(count(R.CT_HROOM + r) for r in range(12)) == 12
    assert [count(R.CT_GROUP + g) for g in range(3)] == [1, 1, 1]
    assert (count(R.CT_ADD1), count(R.CT_ADD2), count(R.CT_SPOOK)) == (2, 1, 3)
    assert [count(R.CT_MOVE + k) for k in range(3)] == [4, 4, 4]
    single = {int(prm[R.P_CARD_TYPE + c]) for c in range(52) if prm[R.P_CARD_X + c]}
    assert single == {R.CT_ADD1, R.CT_ADD2, R.CT_SPOOK}


def test_a06_helper_choice():
    st, prm, log = new_state("head_haunter", 5, top=(R.CT_SPOOK,) * 3)
    set_ghosts(st, "F", 2)
    for h in (1, 2, 3):
        put(st, h, "F")
    st[R.S_HREROLL + 1] = 0
    assert R.choose_helper(st, 0, NODE["F"]) == 2  # the first with an unused reroll card
    st[R.S_HREROLL + 2] = 0
    st[R.S_HREROLL + 3] = 0
    assert R.choose_helper(st, 0, NODE["F"]) == 1  # none has one: the first in turn order
    # an unhaunting attempt is made whenever another hunter is there (no decision)
    st, prm, log = new_state("basic", 4, top=HARMLESS)
    set_haunted(st, "F")
    put(st, 1, "F")
    put(st, 0, "H12")
    roll(st, prm, log, 6)
    move(st, prm, log, "F")
    assert st[R.S_PHASE] == R.PH_FIGHT_ROLL and int(st[R.S_FKIND]) == 1


def test_a09_empty_pile_refills():
    st, prm, log = new_state("advanced", 4, top=(R.CT_DRAW3, R.CT_ROOM + 1, R.CT_ROOM + 7))
    n = int(st[R.S_NDRAW])
    for i in range(n - 3):  # leave only Draw 3, B and H in the pile
        c = int(st[R.S_DRAW + i])
        st[R.S_CLOC + c] = R.CL_DISCARD
    for i in range(3):
        st[R.S_DRAW + i] = st[R.S_DRAW + n - 3 + i]
    for i in range(3, n):
        st[R.S_DRAW + i] = -1
    st[R.S_NDRAW] = 3
    ok(st, prm)
    roll(st, prm, log, 1)
    assert st[R.S_PHASE] == R.PH_SHUFFLE and int(st[R.S_DRAW_LEFT]) == 1  # two drawn, the pile is empty
    reshuffle(st, prm, log, top=(R.CT_ROOM + 10,))
    assert int(st[R.S_GHOSTS + 10]) == 1 and st[R.S_PHASE] == R.PH_SHUFFLE  # the third card, then the shuffle
    reshuffle(st, prm, log)
    assert int(st[R.S_SHUFFLES]) == 2 and st[R.S_PHASE] == R.PH_MOVE
    ok(st, prm)


def test_c01_fight_optional():
    for choice in (R.A_PASS, R.A_FIGHT):
        st, prm, log = new_state("basic", 4, top=HARMLESS, fight_optional=True)
        put(st, 0, "H12")
        roll(st, prm, log, 6)
        move(st, prm, log, "F")
        assert st[R.S_PHASE] == R.PH_FIGHT_CHOICE and legal(st, prm) == {R.A_PASS, R.A_FIGHT}
        act(st, prm, log, choice)
        assert (st[R.S_PHASE] == R.PH_FIGHT_ROLL) == (choice == R.A_FIGHT)
    st, prm, log = new_state("basic", 4, top=HARMLESS)
    put(st, 0, "H12")
    roll(st, prm, log, 6)
    move(st, prm, log, "F")
    assert st[R.S_PHASE] == R.PH_FIGHT_ROLL


def test_c02_carrier_pass_haunted():
    for opt in (False, True):
        st, prm, log = new_state("basic", 4, top=HARMLESS, carrier_may_pass_haunted=opt)
        set_haunted(st, "G")
        put(st, 0, "J")
        give(st, 0, JEWEL_OF["A"])
        roll(st, prm, log, 3)
        assert ("H13" in dests(st, prm)) == opt
        move(st, prm, log, "G")
        assert R.is_stuck(st, 0)  # stopping there still traps it


def test_c04_pickup_requires_clear_room():
    for opt in (False, True):
        st, prm, log = new_state("basic", 4, top=HARMLESS, pickup_requires_clear_room=opt)
        roll(st, prm, log, 6)
        move(st, prm, log, "L")  # L has a ghost and a jewel
        assert st[R.S_PHASE] == (R.PH_FIGHT_ROLL if opt else R.PH_PICKUP)


def test_c05_nested_shuffle_skipped():
    for opt in (True, False):
        st, prm, log = new_state(
            "advanced", 4, top=(R.CT_DRAW2, R.CT_SHUFFLE, R.CT_ROOM + 0, R.CT_ROOM + 1), nested_draw_counts=opt
        )
        roll(st, prm, log, 1)
        assert int(st[R.S_GHOSTS + 0]) == 1
        assert int(st[R.S_GHOSTS + 1]) == (0 if opt else 1)  # skipped: another card replaces it
        reshuffle(st, prm, log)
        ok(st, prm)


def test_c05_skipping_cannot_loop_forever():
    st, prm, log = new_state("advanced", 4, top=(R.CT_DRAW3,), nested_draw_counts=False, ghost_cards=[0, 1, 1, 1, 0, 0])
    roll(st, prm, log, 1)
    for _ in range(20):
        if st[R.S_PHASE] != R.PH_SHUFFLE:
            break
        reshuffle(st, prm, log)
    assert st[R.S_PHASE] == R.PH_MOVE and int(st[R.S_SKIPS]) <= 3
    ok(st, prm)


def test_c06_same_colour_door():
    st, prm, log = new_state("advanced", 4, top=(R.CT_DOOR_BLUE, R.CT_DOOR_BLUE))
    roll(st, prm, log, 1)
    first = int(st[R.S_LOCK_CARD])
    move(st, prm, log, "outside")
    roll(st, prm, log, 1)
    second = int(st[R.S_LOCK_CARD])
    assert int(st[R.S_LOCK]) == R.COL_BLUE and second != first
    assert int(st[R.S_CLOC + first]) == R.CL_DISCARD and int(st[R.S_CLOC + second]) == R.CL_DOOR
    ok(st, prm)


def test_c07_reveal_on_enter():
    for opt in (False, True):
        st, prm, log = new_state("advanced", 4, top=HARMLESS, reveal_jewel_on_enter=opt)
        put(st, 0, "H2")
        roll(st, prm, log, 6)
        move(st, prm, log, "G")  # H2 -> J -> G: J is passed
        assert int(st[R.S_JREV + JEWEL_OF["G"]]) == 1
        assert int(st[R.S_JREV + JEWEL_OF["J"]]) == int(opt)


def test_c07_reveal_on_enter_scratch_stays_in_bounds():
    """`apply_action_with` with exactly WORK_SIZE entries of move-search scratch (a view ahead of guard entries):
    nothing is written past it (do_move once allocated 192 entries and the search wrote entry 192), and the move
    ends exactly as with `apply_action`."""
    ends = []
    for own_scratch in (False, True):
        st, prm, log = new_state("advanced", 4, top=HARMLESS, reveal_jewel_on_enter=True)
        put(st, 0, "H2")
        roll(st, prm, log, 6)
        a = R.A_MOVE + NODE["G"]
        assert a in legal(st, prm)
        if own_scratch:
            mask = np.zeros(R.N_ACTIONS + 8, dtype=np.int8)
            work = np.full(R.WORK_SIZE + 8, -7, dtype=np.int32)
            R.apply_action_with(st, prm, a, log, mask[: R.N_ACTIONS], work[: R.WORK_SIZE])
            assert (work[R.WORK_SIZE :] == -7).all() and (mask[R.N_ACTIONS :] == 0).all()
        else:
            R.apply_action(st, prm, a, log)
        assert int(st[R.S_JREV + JEWEL_OF["J"]]) == 1
        ends.append((st.copy(), log.copy()))
    assert (ends[0][0] == ends[1][0]).all() and (ends[0][1] == ends[1][1]).all()


def test_c08_carrier_may_wait_outside():
    for opt in (False, True):
        st, prm, log = new_state(
            "advanced", 4, top=HARMLESS, nums=[1, 2, 3, 4, 5, 6, 7, 8], carrier_may_wait_outside=opt
        )
        give(st, 0, 2)  # number 3 while 1 is next
        st[R.S_JREV + 2] = 1
        put(st, 0, "H1")
        roll(st, prm, log, 6)
        assert ("outside" in dests(st, prm)) == opt  # rulebook: it may not leave the house
        if not opt:
            continue
        move(st, prm, log, "outside")  # option: it waits outside, keeping the jewel
        assert int(st[R.S_HCARRY]) == 2 and int(st[R.S_DELIVERED]) == 0 and R.E_WAIT in kinds(log)
        deliver(st, 0)
        deliver(st, 1)  # 1 and 2 out: 3 is next
        for _ in range(3):
            roll(st, prm, log, 6)
            move(st, prm, log, "outside")
        roll(st, prm, log, 6)
        move(st, prm, log, "outside")  # staying outside now drops number 3 off
        assert int(st[R.S_DELIVERED]) == 3 and int(st[R.S_HCARRY]) == -1
        ok(st, prm)
    # a carrier of the next number leaves under both readings (R31)
    st, prm, log = new_state("advanced", 4, top=HARMLESS, nums=[1, 2, 3, 4, 5, 6, 7, 8])
    give(st, 0, 0)
    st[R.S_JREV + 0] = 1
    put(st, 0, "H1")
    roll(st, prm, log, 6)
    assert "outside" in dests(st, prm)


def test_c14_pickup_in_haunted_room():
    for opt in (True, False):
        st, prm, log = new_state("basic", 4, top=HARMLESS, pickup_in_haunted_room=opt)
        set_haunted(st, "A")  # A holds a jewel
        put(st, 0, "H21")
        roll(st, prm, log, 2)
        move(st, prm, log, "A")
        assert (st[R.S_PHASE] == R.PH_PICKUP) == opt
        if opt:
            act(st, prm, log, R.A_PICK + JEWEL_OF["A"])
            assert R.is_stuck(st, 0)  # picking it up traps the hunter at once
        else:
            assert int(st[R.S_CUR]) == 1 and int(st[R.S_HCARRY]) == -1
        ok(st, prm)


def test_c15_pickup_when_staying():
    for stay_fights in (True, False):
        for opt in (True, False):
            st, prm, log = new_state("basic", 4, top=HARMLESS, pickup_when_staying=opt, fight_when_staying=stay_fights)
            put(st, 0, "D")  # D holds a jewel, no ghost
            roll(st, prm, log, 6)
            move(st, prm, log, "D")  # stays put
            assert (st[R.S_PHASE] == R.PH_PICKUP) == opt
    st, prm, log = new_state("basic", 4, top=HARMLESS, pickup_when_staying=False)
    put(st, 0, "H12")
    roll(st, prm, log, 6)
    move(st, prm, log, "D")  # a hunter that moves there is offered it
    assert st[R.S_PHASE] == R.PH_PICKUP


def test_c16_group_ghosts_distinct():
    for opt in (False, True):
        st, prm, log = new_state(
            "head_haunter", 5, top=(R.CT_GROUP + 0, R.CT_SPOOK, R.CT_SPOOK), group_ghosts_distinct=opt
        )
        set_haunted(st, "A")
        roll(st, prm, log, 2)
        act(st, prm, log, R.A_PASS)
        slot = next(i for i in range(3) if int(prm[R.P_CARD_TYPE + int(st[R.S_HAND + i])]) == R.CT_GROUP + 0)
        act(st, prm, log, R.A_SLOT + slot)
        act(st, prm, log, R.A_PAIR + 0)  # A and B; A is haunted: its ghost overflows to B
        ghosts = [int(st[R.S_GHOSTS + r]) for r in range(3)]
        assert ghosts == ([0, 1, 2] if opt else [0, 2, 1])  # option: B's ghost moves on to C (1 at setup)
        ok(st, prm)


def test_c17_helper_decides_reroll():
    for opt in (False, True):
        st, prm, log = new_state("head_haunter", 5, top=HARMLESS, helper_decides_reroll=opt)
        set_ghosts(st, "L", 2)
        put(st, 2, "L")  # hunter 2 (seat 3) will help hunter 0 (seat 1)
        roll(st, prm, log, 6)
        act(st, prm, log, R.A_PASS)
        R.apply_chance(st, prm, 0, log)  # the 6 discards a hand card
        move(st, prm, log, "L")
        if st[R.S_PHASE] == R.PH_PICKUP:
            act(st, prm, log, R.A_PASS)
        fight(st, prm, log, BLANK_FACE, BLANK_FACE)
        seats = (int(st[R.S_HSEAT + 0]), int(st[R.S_HSEAT + 2]))
        assert seats == (1, 3) and st[R.S_PHASE] == R.PH_REROLL_FIGHT
        assert int(R.decision_seat(st)) == 1
        if not opt:  # default: the active player decides for both dice
            assert legal(st, prm) == {R.A_PASS, R.A_REROLL0, R.A_REROLL1}
            act(st, prm, log, R.A_REROLL1)
        else:  # option: each player for its own hunter's die
            assert legal(st, prm) == {R.A_PASS, R.A_REROLL0}
            act(st, prm, log, R.A_PASS)
            assert st[R.S_PHASE] == R.PH_REROLL_FIGHT and int(R.decision_seat(st)) == 3
            assert legal(st, prm) == {R.A_PASS, R.A_REROLL1}
            act(st, prm, log, R.A_REROLL1)
        assert int(st[R.S_HREROLL + 2]) == 0 and int(st[R.S_HREROLL + 0]) == 1
        fight(st, prm, log, GHOST_FACE)  # one ghost of two: the active die may still go
        assert legal(st, prm) == {R.A_PASS, R.A_REROLL0} and int(R.decision_seat(st)) == 1
        act(st, prm, log, R.A_PASS)
        assert int(st[R.S_GHOSTS + 11]) == 1
        ok(st, prm)


def test_c12_move_ghost_wraps():
    for opt in (False, True):
        st, prm, log = new_state("head_haunter", 5, top=(R.CT_MOVE + 1, R.CT_SPOOK, R.CT_SPOOK), move_ghost_wraps=opt)
        for r in range(12):
            set_ghosts(st, r, 0)
        set_ghosts(st, "B", 1)
        roll(st, prm, log, 2)
        act(st, prm, log, R.A_PASS)
        slot = next(i for i in range(3) if int(prm[R.P_CARD_TYPE + int(st[R.S_HAND + i])]) == R.CT_MOVE + 1)
        act(st, prm, log, R.A_SLOT + slot)
        down = R.A_MOVEG + 1 * 2 + 1
        assert (down in legal(st, prm)) == opt
        if opt:
            act(st, prm, log, down)
            assert int(st[R.S_GHOSTS + 11]) == 1  # B down 2 wraps to L


def test_c13_fight_when_staying():
    for opt in (True, False):
        st, prm, log = new_state("basic", 4, top=HARMLESS, fight_when_staying=opt)
        put(st, 0, "F")
        roll(st, prm, log, 6)
        move(st, prm, log, "F")
        assert (st[R.S_PHASE] == R.PH_FIGHT_ROLL) == opt
    st, prm, log = new_state("basic", 4, top=HARMLESS, fight_when_staying=True)
    put(st, 0, "F")
    roll(st, prm, log, 6)
    move(st, prm, log, "F")
    fight(st, prm, log, GHOST_FACE)
    assert int(st[R.S_GHOSTS + 5]) == 0


def test_params_every_option_reaches_the_kernel():
    names = [p[0] for p in P.PARAM_SPECS]
    assert len(names) == len(set(names))
    v = P.defaults()
    v.update(
        fight_optional=True,
        nested_draw_counts=False,
        reveal_jewel_on_enter=True,
        carrier_may_pass_haunted=True,
        pickup_requires_clear_room=True,
        fight_when_staying=False,
        move_ghost_wraps=True,
        reroll_cards=False,
        spook_range=2,
        hand_size=4,
        hauntings=5,
        max_turns=77,
        carrier_may_wait_outside=True,
        pickup_in_haunted_room=False,
        pickup_when_staying=False,
        group_ghosts_distinct=True,
        helper_decides_reroll=True,
    )
    prm = P.pack(v, 4)
    got = [
        int(prm[k])
        for k in (
            R.P_FIGHT_OPTIONAL,
            R.P_NESTED_COUNTS,
            R.P_REVEAL_ON_ENTER,
            R.P_CARRIER_PASS,
            R.P_PICKUP_CLEAR,
            R.P_STAY_FIGHTS,
            R.P_MOVE_WRAP,
            R.P_REROLL,
            R.P_SPOOK_RANGE,
            R.P_HAND_SIZE,
            R.P_HAUNTINGS,
            R.P_MAX_TURNS,
            R.P_WAIT_OUTSIDE,
            R.P_PICKUP_HAUNTED,
            R.P_PICKUP_STAYING,
            R.P_GROUP_DISTINCT,
            R.P_HELPER_REROLL,
        )
    ]
    assert got == [1, 0, 1, 1, 1, 0, 1, 0, 2, 4, 5, 77, 1, 0, 0, 1, 1]
