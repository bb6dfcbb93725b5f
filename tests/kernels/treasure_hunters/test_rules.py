"""One test per rule clause R1..R47 of kernels/treasure_hunters/RULES.md (chance forced, positions hand-built)."""

from __future__ import annotations

import numpy as np
import pytest

from kernels.treasure_hunters import params as P
from kernels.treasure_hunters import play as PL
from kernels.treasure_hunters import rules as R

from ._kit import (
    BLANK_FACE,
    GHOST_FACE,
    HAUNT_FACE,
    JEWEL_OF,
    NAME,
    NODE,
    act,
    card_ids,
    clear_ghosts,
    deliver,
    dests,
    events,
    fight,
    give,
    jewel_at,
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

HARMLESS = (R.CT_ROOM + 1, R.CT_ROOM + 7, R.CT_ROOM + 10)  # room cards B, H, K: no jewel, no start ghost


def start(mode="basic", players=4, top=HARMLESS, **kw):
    return new_state(mode, players, top=top, **kw)


def arrive(st, prm, log, where):
    """Move there and decline a jewel lying there (so a fight or unhaunting comes next)."""
    move(st, prm, log, where)
    if st[R.S_PHASE] == R.PH_PICKUP:
        act(st, prm, log, R.A_PASS)


def static_ball(prm, u, k):
    return {NAME[v] for v in range(int(prm[R.P_N_NODES])) if R.dist(prm, 0, u, v) <= k}


# ---- setup ----------------------------------------------------------------------------------------------------------
def test_r01_hunters_per_players_and_seats():
    assert [P.n_hunters("basic", p) for p in (2, 3, 4)] == [4, 3, 4]
    assert [P.n_hunters("advanced", p) for p in (2, 3, 4)] == [4, 3, 4]
    assert [P.n_hunters("head_haunter", p) for p in (2, 3, 4, 5)] == [4, 4, 3, 4]
    st, prm, _ = start(players=2, first=1)
    assert [int(st[R.S_HSEAT + h]) for h in range(4)] == [1, 0, 1, 0]
    st, prm, _ = start(players=3, first=2)
    assert int(st[R.S_NH]) == 3 and [int(st[R.S_HSEAT + h]) for h in range(3)] == [2, 0, 1]
    assert int(st[R.S_HPOS + 3]) == -1
    st, prm, _ = start("head_haunter", players=4, first=2, top=())
    assert [int(st[R.S_HSEAT + h]) for h in range(3)] == [2, 3, 1]
    st, prm, _ = start("head_haunter", players=2, first=1, top=())
    assert [int(st[R.S_HSEAT + h]) for h in range(4)] == [1, 1, 1, 1]
    assert all(int(st[R.S_HPOS + h]) == R.OUTSIDE for h in range(4))
    prm5 = prm_of("head_haunter", 5)
    assert [int(PL.first_seat(prm5, g, 5)) for g in range(5)] == [1, 2, 3, 4, 1]
    assert [int(PL.first_seat(prm_of(), g, 4)) for g in range(5)] == [0, 1, 2, 3, 0]


def test_r02_setup_ghosts_jewels_supply():
    st, prm, _ = start()
    assert {R.ROOM_LETTERS[r]: int(st[R.S_GHOSTS + r]) for r in range(12) if st[R.S_GHOSTS + r]} == {
        "C": 1,
        "F": 1,
        "I": 1,
        "L": 1,
    }
    assert int(st[R.S_SUPPLY_G]) == 20 and int(st[R.S_SUPPLY_H]) == 6 and int(st[R.S_HAUNTS]) == 0
    assert sorted(R.ROOM_LETTERS[int(st[R.S_JLOC + j]) - 1] for j in range(8)) == list("ACDEGIJL")
    ok(st, prm)


def test_r03_deck_per_mode():
    for mode, n, types in (
        ("basic", 13, {*range(12), R.CT_SHUFFLE}),
        ("advanced", 19, {*range(17)}),
        ("head_haunter", 52, {*range(R.N_CT)}),
    ):
        prm = prm_of(mode, 3)
        assert int(prm[R.P_N_CARDS]) == n
        assert {int(prm[R.P_CARD_TYPE + c]) for c in range(n)} == types
        st, prm, _ = start(mode, 3, top=())
        in_pile = int(st[R.S_NDRAW]) + int(st[R.S_HAND_N])
        assert in_pile == n
    prm = prm_of("advanced", 3)
    assert len(card_ids(prm, R.CT_DOOR_BLUE)) == 2 and len(card_ids(prm, R.CT_DOOR_GREEN)) == 2
    assert [len(card_ids(prm, r)) for r in range(12)] == [1] * 12


# ---- a turn ---------------------------------------------------------------------------------------------------------
def test_r04_every_turn_rolls():
    st, prm, log = start()
    for h in range(6):
        assert st[R.S_PHASE] == R.PH_ROLL and int(st[R.S_CUR]) == h % 4
        roll(st, prm, log, 6)
        move(st, prm, log, "outside")  # stays outside: the next turn still starts with a roll
    assert kinds(log).count(R.E_ROLL) == 6 and int(st[R.S_TURNS]) == 7


def test_r05_ghost_face_flips_a_card():
    st, prm, log = start(top=(R.CT_ROOM + 1,))
    n0 = int(st[R.S_NDRAW])
    roll(st, prm, log, 6)  # no ghost icon: no card
    assert int(st[R.S_NDRAW]) == n0 and st[R.S_PHASE] == R.PH_MOVE
    move(st, prm, log, "outside")
    roll(st, prm, log, 2)  # ghost icon: the top card is flipped before moving
    assert int(st[R.S_NDRAW]) == n0 - 1 and st[R.S_PHASE] == R.PH_MOVE
    c = card_ids(prm, R.CT_ROOM + 1)[0]
    assert int(st[R.S_CLOC + c]) == R.CL_DISCARD
    ok(st, prm)


def test_r06_room_card_places_a_ghost():
    st, prm, log = start(top=(R.CT_ROOM + 2,))
    roll(st, prm, log, 1)
    assert int(st[R.S_GHOSTS + 2]) == 2 and int(st[R.S_SUPPLY_G]) == 19
    assert (R.E_GHOST, 2, 2, 2, 1) == events(log)[-1][:5]
    ok(st, prm)


def test_r07_shuffle_card_reshuffles_everything():
    st, prm, log = start(top=(R.CT_ROOM + 1, R.CT_SHUFFLE))
    roll(st, prm, log, 1)
    move(st, prm, log, "outside")
    ghosts = int(st[R.S_GHOSTS_ON])
    roll(st, prm, log, 1)
    assert st[R.S_PHASE] == R.PH_SHUFFLE and int(st[R.S_GHOSTS_ON]) == ghosts
    pool = np.zeros(R.MAX_CARDS, dtype=np.int32)
    assert R.shuffle_pool(st, pool) == 13  # draw pile + discard pile (with the Shuffle itself)
    reshuffle(st, prm, log)
    assert int(st[R.S_NDRAW]) == 13 and int(st[R.S_SHUFFLES]) == 1 and st[R.S_PHASE] == R.PH_MOVE
    ok(st, prm)


def test_r08_move_up_to_the_roll():
    for k in (1, 3, 6):
        st, prm, log = start()
        roll(st, prm, log, k)
        assert dests(st, prm) == static_ball(prm, R.OUTSIDE, k)
    st, prm, log = start()
    put(st, 0, "H22")
    roll(st, prm, log, 6)
    assert dests(st, prm) == static_ball(prm, NODE["H22"], 6)


def test_r08_move_search_by_sets_matches_node_search():
    """R8–R13, R31: `move_targets` (breadth-first by bit sets) and `move_search` (node by node, with the paths) give
    the same destinations in positions of played games (basic and advanced, carriers passing haunted rooms or not):
    every hunter, 0..7 steps, as carrier or not, each locked colour; `move_targets` lists them in node order."""
    rng = np.random.default_rng(20261202)
    pool = np.zeros(R.MAX_CARDS, dtype=np.int32)
    log = np.zeros((1, R.LOG_W), dtype=np.int32)
    m1, m2 = np.zeros(R.N_ACTIONS, dtype=np.int8), np.zeros(R.N_ACTIONS, dtype=np.int8)
    w1, w2 = np.zeros(R.WORK_SIZE, dtype=np.int32), np.zeros(R.WORK_SIZE, dtype=np.int32)
    positions = 0
    for mode in ("basic", "advanced"):
        for passing in (False, True):
            prm = prm_of(mode, 4, carrier_may_pass_haunted=passing)
            st = np.zeros(R.S_SIZE, dtype=np.int32)
            R.init(st, prm, 4, 0)
            step = 0
            while st[R.S_PHASE] != R.PH_OVER:
                if st[R.S_PHASE] == R.PH_SHUFFLE:
                    k = R.shuffle_pool(st, pool)
                    pool[:k] = rng.permutation(pool[:k])
                    R.apply_shuffle(st, prm, pool, k, log)
                    continue
                nc = R.chance_outcomes(st, prm)
                if nc > 0:
                    R.apply_chance(st, prm, int(rng.integers(nc)), log)
                    continue
                step += 1
                if st[R.S_PHASE] == R.PH_MOVE and step % 3 == 0:
                    positions += 1
                    for lock in range(3):
                        s2 = st.copy()
                        s2[R.S_LOCK] = lock
                        for h in range(int(st[R.S_NH])):
                            for steps in range(8):
                                for carrier in (False, True):
                                    m1[:] = 0
                                    m2[:] = 0
                                    n1 = R.move_targets(s2, prm, h, steps, carrier, m1, w1)
                                    n2 = R.move_search(1, s2, prm, h, steps, carrier, m2, w2)
                                    assert n1 == n2 and (m1 == m2).all(), (mode, passing, lock, h, steps, carrier)
                                    assert list(w1[64 : 64 + n1]) == list(np.flatnonzero(m1)), (mode, lock, h, steps)
                R.legal_actions(st, prm, m1, w1)
                R.apply_action(st, prm, int(rng.choice(np.flatnonzero(m1[: R.N_ACTIONS]))), log)
    assert positions >= 20


def test_r09_rooms_only_through_doors():
    st, prm, log = start()
    put(st, 0, "H2")
    roll(st, prm, log, 1)
    assert dests(st, prm) == {"H2", "H1", "H3", "J", "L"}
    st, prm, log = start()
    put(st, 0, "J")
    roll(st, prm, log, 1)
    assert dests(st, prm) == {"J", "H2", "G"}  # the hallway door and the J–G room door
    roll_two = start()
    st, prm, log = roll_two
    put(st, 0, "J")
    roll(st, prm, log, 2)
    assert {"H13", "H1", "H3", "L"} <= dests(st, prm) and "H12" not in dests(st, prm)


def test_r10_front_door_only():
    prm = prm_of()
    links = [int(prm[R.P_ADJ + k]) for k in range(R.MAX_DEG) if prm[R.P_ADJ + k] >= 0]
    assert links == [NODE["H1"]]
    st, prm, log = start()
    put(st, 0, "H3")
    roll(st, prm, log, 6)
    assert "outside" in dests(st, prm)
    move(st, prm, log, "outside")  # outside ends the move: the next hunter rolls
    assert int(st[R.S_CUR]) == 1 and st[R.S_PHASE] == R.PH_ROLL


def test_r11_hallway_blocking_and_passing():
    st, prm, log = start()
    put(st, 1, "H2")
    roll(st, prm, log, 2)
    assert dests(st, prm) == {"outside", "H1"}  # H2 is taken: stop on the first free square behind
    st, prm, log = start()
    put(st, 1, "H2")
    roll(st, prm, log, 3)
    assert {"H3", "J", "L", "H1", "outside"} == dests(st, prm)  # passing H2 is allowed
    st, prm, log = start()
    put(st, 1, "J")
    put(st, 2, "J")
    roll(st, prm, log, 3)
    assert "J" in dests(st, prm)  # rooms hold several hunters
    move(st, prm, log, "J")
    ok(st, prm)


def test_r12_may_stay():
    st, prm, log = start()
    put(st, 0, "H5")
    roll(st, prm, log, 4)
    assert "H5" in dests(st, prm)
    move(st, prm, log, "H5")
    assert int(st[R.S_HPOS]) == NODE["H5"] and int(st[R.S_CUR]) == 1


def test_r13_pick_up_one_jewel():
    st, prm, log = start()
    roll(st, prm, log, 3)
    move(st, prm, log, "J")
    j = JEWEL_OF["J"]
    assert st[R.S_PHASE] == R.PH_PICKUP and legal(st, prm) == {R.A_PASS, R.A_PICK + j}
    act(st, prm, log, R.A_PICK + j)
    assert int(st[R.S_HCARRY]) == j and int(st[R.S_JLOC + j]) == -1
    ok(st, prm)
    st, prm, log = start()
    give(st, 0, JEWEL_OF["A"])
    roll(st, prm, log, 3)
    move(st, prm, log, "J")  # a carrier cannot take a second jewel
    assert st[R.S_PHASE] != R.PH_PICKUP and jewel_at(st, "J") == [JEWEL_OF["J"]]


def test_r14_drop_off_outside():
    st, prm, log = start()
    j = JEWEL_OF["J"]
    give(st, 0, j)
    put(st, 0, "J")
    roll(st, prm, log, 6)
    move(st, prm, log, "outside")
    assert int(st[R.S_JLOC + j]) == R.J_WAGON and int(st[R.S_DELIVERED]) == 1 and int(st[R.S_HCARRY]) == -1
    assert int(st[R.S_CUR]) == 1 and st[R.S_PHASE] == R.PH_ROLL
    ok(st, prm)


def test_r15_must_fight():
    st, prm, log = start()
    give(st, 0, JEWEL_OF["A"])
    roll(st, prm, log, 3)
    move(st, prm, log, "L")  # L has a ghost: the fight follows, carrier or not
    assert st[R.S_PHASE] == R.PH_FIGHT_ROLL and int(st[R.S_NDICE]) == 1
    fight(st, prm, log, GHOST_FACE)
    assert int(st[R.S_GHOSTS + 11]) == 0 and int(st[R.S_FIGHTS_WON]) == 1


def test_r16_fight_dice_and_one_helper():
    st, prm, log = start()
    set_ghosts(st, "L", 2)
    put(st, 1, "L")
    put(st, 2, "L")
    roll(st, prm, log, 3)
    arrive(st, prm, log, "L")
    assert int(st[R.S_NDICE]) == 2  # two others there, only one helps
    fight(st, prm, log, GHOST_FACE, GHOST_FACE)
    assert int(st[R.S_GHOSTS + 11]) == 0 and int(st[R.S_GHOSTS_REMOVED]) == 2
    st, prm, log = start()
    set_ghosts(st, "L", 2)
    roll(st, prm, log, 3)
    arrive(st, prm, log, "L")
    assert int(st[R.S_NDICE]) == 1
    fight(st, prm, log, HAUNT_FACE)  # a haunting icon or blank does nothing to ghosts
    assert int(st[R.S_GHOSTS + 11]) == 2
    st, prm, log = start()
    set_ghosts(st, "L", 2)
    put(st, 1, "L")
    roll(st, prm, log, 3)
    arrive(st, prm, log, "L")
    fight(st, prm, log, BLANK_FACE, GHOST_FACE)
    assert int(st[R.S_GHOSTS + 11]) == 1
    ok(st, prm)


def test_r17_supply_is_reused():
    st, prm, log = start()
    set_ghosts(st, "L", 2)
    put(st, 1, "L")
    roll(st, prm, log, 3)
    arrive(st, prm, log, "L")
    fight(st, prm, log, GHOST_FACE, GHOST_FACE)
    assert int(st[R.S_SUPPLY_G]) == 24 - int(st[R.S_GHOSTS_ON])
    set_haunted(st, "K")
    assert int(st[R.S_SUPPLY_H]) == 5
    ok(st, prm)


def test_r18_three_ghosts_haunt():
    st, prm, log = start(top=(R.CT_ROOM + 2,))
    set_ghosts(st, "C", 2)
    roll(st, prm, log, 1)
    assert int(st[R.S_HAUNTED + 2]) == 1 and int(st[R.S_GHOSTS + 2]) == 0 and int(st[R.S_HAUNTS]) == 1
    assert int(st[R.S_SUPPLY_G]) == 24 - int(st[R.S_GHOSTS_ON]) and int(st[R.S_SUPPLY_H]) == 5
    assert R.E_HAUNT in kinds(log)
    ok(st, prm)


def test_r19_overflow_wraps():
    st, prm, log = start(top=(R.CT_ROOM + 11,))
    clear_ghosts(st)
    set_haunted(st, "L")
    set_haunted(st, "A")
    roll(st, prm, log, 1)
    assert int(st[R.S_GHOSTS + 1]) == 1 and int(st[R.S_OVERFLOWS]) == 1  # L, A haunted: the ghost lands in B
    st, prm, log = start(top=(R.CT_ROOM + 4,))
    set_haunted(st, "E")
    set_ghosts(st, "F", 2)
    roll(st, prm, log, 1)
    assert int(st[R.S_HAUNTED + 5]) == 1  # moving on, it completes the haunting of F
    ok(st, prm)


def test_r20_unhaunt_needs_two():
    st, prm, log = start()
    set_haunted(st, "J")
    roll(st, prm, log, 3)
    move(st, prm, log, "J")
    act(st, prm, log, R.A_PASS)  # no pick-up
    assert int(st[R.S_UNHAUNT_TRIES]) == 0 and int(st[R.S_CUR]) == 1  # alone: no attempt
    roll(st, prm, log, 3)
    move(st, prm, log, "J")
    act(st, prm, log, R.A_PASS)
    assert st[R.S_PHASE] == R.PH_FIGHT_ROLL and int(st[R.S_NDICE]) == 2
    fight(st, prm, log, GHOST_FACE, GHOST_FACE)
    assert int(st[R.S_HAUNTED + 9]) == 1
    roll(st, prm, log, 3)
    move(st, prm, log, "J")
    act(st, prm, log, R.A_PASS)
    fight(st, prm, log, BLANK_FACE, HAUNT_FACE)
    assert int(st[R.S_HAUNTED + 9]) == 0 and int(st[R.S_UNHAUNTS]) == 1 and int(st[R.S_SUPPLY_H]) == 6
    ok(st, prm)


def test_r21_carrier_stuck_in_haunted_room():
    st, prm, log = start()
    set_haunted(st, "J")
    put(st, 0, "J")
    give(st, 0, JEWEL_OF["A"])
    roll(st, prm, log, 6)
    assert dests(st, prm) == {"J"}
    st, prm, log = start()  # a carrier cannot pass a haunted room, may stop in it
    set_haunted(st, "G")
    put(st, 0, "J")
    give(st, 0, JEWEL_OF["A"])
    roll(st, prm, log, 3)
    d = dests(st, prm)
    assert "G" in d and "H13" not in d
    move(st, prm, log, "G")
    assert R.is_stuck(st, 0) and R.E_STUCK in kinds(log)
    st, prm, log = start(top=(R.CT_ROOM + 9,))  # the room turns haunted around the carrier
    set_ghosts(st, "J", 2)
    put(st, 1, "J")
    give(st, 1, JEWEL_OF["J"])
    roll(st, prm, log, 1)
    assert R.is_stuck(st, 1) and int(st[R.S_STUCK_EVENTS]) == 1
    ok(st, prm)


def test_r22_win_needs_jewels_and_hunters_out():
    st, prm, log = start()
    for j in range(7):
        deliver(st, j)
    give(st, 0, 7)
    put(st, 0, "H1")
    put(st, 1, "H5")
    roll(st, prm, log, 6)
    move(st, prm, log, "outside")
    assert int(st[R.S_DELIVERED]) == 8 and st[R.S_PHASE] == R.PH_ROLL  # hunter 1 is still inside
    roll(st, prm, log, 6)
    move(st, prm, log, "outside")
    assert st[R.S_PHASE] == R.PH_OVER and int(st[R.S_OUTCOME]) == R.OUT_WIN
    ok(st, prm)


def test_r23_sixth_haunting_loses():
    st, prm, log = start(top=(R.CT_ROOM + 2,))
    for x in "ABDEG":
        set_haunted(st, x)
    set_ghosts(st, "C", 2)
    roll(st, prm, log, 1)
    assert st[R.S_PHASE] == R.PH_OVER and int(st[R.S_OUTCOME]) == R.OUT_SIX and int(st[R.S_HAUNTS]) == 6
    ok(st, prm)


def test_r24_all_stuck_in_different_rooms_loses():
    def setup(rooms):
        st, prm, log = start()
        for h, x in enumerate(rooms):
            if x not in ("A",):
                set_haunted(st, x) if not st[R.S_HAUNTED + R.ROOM_LETTERS.index(x)] else None
            put(st, h, x)
            give(st, h, h)
        set_haunted(st, "A")
        put(st, 0, "H21")
        return st, prm, log

    st, prm, log = setup("ABDE")
    roll(st, prm, log, 2)
    move(st, prm, log, "A")  # the last free carrier walks into a haunting
    assert int(st[R.S_OUTCOME]) == R.OUT_STUCK and st[R.S_PHASE] == R.PH_OVER
    st, prm, log = setup("ABBE")  # two share a room: they can still unhaunt it
    roll(st, prm, log, 2)
    move(st, prm, log, "A")
    assert st[R.S_PHASE] != R.PH_OVER


def test_r24_flipped_card_haunts_the_last_free_carriers_room():
    st, prm, log = start(top=(R.CT_ROOM + 9,) + HARMLESS)
    for h, x in enumerate("BDE"):  # hunters 0..2 stuck, each in its own haunted room
        set_haunted(st, x)
        put(st, h, x)
        give(st, h, h)
    set_ghosts(st, "J", 2)  # hunter 3, the last free carrier, stands in J
    put(st, 3, "J")
    give(st, 3, JEWEL_OF["J"])
    roll(st, prm, log, 1)  # hunter 0 flips J: J is haunted around hunter 3
    assert int(st[R.S_HAUNTED + 9]) == 1 and R.is_stuck(st, 3)
    assert st[R.S_PHASE] == R.PH_OVER and int(st[R.S_OUTCOME]) == R.OUT_STUCK and int(st[R.S_HAUNTS]) == 4
    ok(st, prm)


def test_r25_two_players_two_hunters_each():
    st, prm, log = start(players=2, first=1)
    seats = []
    for _ in range(8):
        seats.append(int(R.decision_seat(st)))
        assert st[R.S_PHASE] == R.PH_ROLL
        roll(st, prm, log, 6)
        seats[-1] = int(R.decision_seat(st))
        move(st, prm, log, "outside")
    assert seats == [1, 0, 1, 0, 1, 0, 1, 0]
    assert int(st[R.S_ROUNDS]) == 3 and kinds(log).count(R.E_ROLL) == 8


# ---- advanced -------------------------------------------------------------------------------------------------------
def test_r26_door_card_locks_its_colour():
    st, prm, log = start("advanced", top=(R.CT_DOOR_BLUE,))
    put(st, 0, "H2")
    roll(st, prm, log, 1)
    assert int(st[R.S_LOCK]) == R.COL_BLUE and R.E_LOCK in kinds(log)
    c = int(st[R.S_LOCK_CARD])
    assert int(prm[R.P_CARD_TYPE + c]) == R.CT_DOOR_BLUE and int(st[R.S_CLOC + c]) == R.CL_DOOR
    assert dests(st, prm) == {"H2", "H1", "H3", "L"}  # J's door at H2 is blue
    ok(st, prm)


def test_r27_other_colour_replaces_the_lock():
    st, prm, log = start("advanced", top=(R.CT_DOOR_BLUE, R.CT_DOOR_GREEN))
    roll(st, prm, log, 1)
    blue = int(st[R.S_LOCK_CARD])
    move(st, prm, log, "outside")
    roll(st, prm, log, 1)
    assert int(st[R.S_LOCK]) == R.COL_GREEN and int(st[R.S_CLOC + blue]) == R.CL_DISCARD
    ok(st, prm)


def test_r28_any_shuffle_unlocks():
    st, prm, log = start("advanced", top=(R.CT_DOOR_GREEN, R.CT_SHUFFLE))
    roll(st, prm, log, 1)
    door = int(st[R.S_LOCK_CARD])
    move(st, prm, log, "outside")
    roll(st, prm, log, 1)
    pool = np.zeros(R.MAX_CARDS, dtype=np.int32)
    n = R.shuffle_pool(st, pool)
    assert door in pool[:n].tolist() and n == 19
    reshuffle(st, prm, log)
    assert int(st[R.S_LOCK]) == 0 and int(st[R.S_LOCK_CARD]) == -1 and int(st[R.S_CLOC + door]) == R.CL_DRAW
    ok(st, prm)


def test_r29_draw_n_then_shuffle_nested_counts():
    st, prm, log = start("advanced", top=(R.CT_DRAW2, R.CT_ROOM + 0, R.CT_SHUFFLE, R.CT_ROOM + 1))
    roll(st, prm, log, 1)
    assert int(st[R.S_GHOSTS + 0]) == 1 and int(st[R.S_GHOSTS + 1]) == 0  # A placed; the Shuffle counted
    assert st[R.S_PHASE] == R.PH_SHUFFLE and R.E_NESTED in kinds(log)
    reshuffle(st, prm, log)
    assert int(st[R.S_NDRAW]) == 19 and int(st[R.S_SHUFFLES]) == 1
    st, prm, log = start("advanced", top=(R.CT_DRAW3, R.CT_DOOR_BLUE, R.CT_ROOM + 1, R.CT_ROOM + 7))
    roll(st, prm, log, 1)
    assert int(st[R.S_LOCK]) == R.COL_BLUE  # the door locks …
    reshuffle(st, prm, log)
    assert int(st[R.S_LOCK]) == 0  # … and the closing shuffle unlocks it (C5)
    assert int(st[R.S_GHOSTS + 1]) == 1 and int(st[R.S_GHOSTS + 7]) == 1
    ok(st, prm)


def test_r30_jewels_revealed_at_end_of_move():
    st, prm, log = start("advanced", nums=[5, 2, 8, 1, 3, 7, 6, 4])
    roll(st, prm, log, 4)
    move(st, prm, log, "H3")  # passed J and L: nothing revealed
    assert sum(int(st[R.S_JREV + j]) for j in range(8)) == 0
    st, prm, log = start("advanced", nums=[5, 2, 8, 1, 3, 7, 6, 4])
    roll(st, prm, log, 3)
    move(st, prm, log, "J")
    j = JEWEL_OF["J"]
    assert int(st[R.S_JREV + j]) == 1 and st[R.S_PHASE] == R.PH_PICKUP
    assert (R.E_REVEAL, j, 6) == events(log)[-1][:3]


def test_r31_only_next_number_leaves():
    st, prm, log = start("advanced", nums=[1, 2, 3, 4, 5, 6, 7, 8])
    give(st, 0, 2)  # number 3: it may not leave the house yet (C8)
    st[R.S_JREV + 2] = 1
    put(st, 0, "H1")
    roll(st, prm, log, 6)
    assert "outside" not in dests(st, prm) and "H1" in dests(st, prm)
    move(st, prm, log, "H1")
    give(st, 1, 0)  # number 1 leaves
    put(st, 1, "H2")
    roll(st, prm, log, 6)
    assert "outside" in dests(st, prm)
    move(st, prm, log, "outside")
    assert int(st[R.S_DELIVERED]) == 1 and int(st[R.S_HCARRY + 1]) == -1
    deliver(st, 1)  # number 2 out: 3 is next
    for _ in range(2):
        roll(st, prm, log, 6)
        move(st, prm, log, "outside")
    roll(st, prm, log, 6)
    move(st, prm, log, "outside")  # now hunter 0 may take number 3 out
    assert int(st[R.S_DELIVERED]) == 3 and int(st[R.S_HCARRY]) == -1
    ok(st, prm)


def test_r32_advanced_win_in_order():
    st, prm, log = start("advanced", nums=[1, 2, 3, 4, 5, 6, 7, 8])
    for j in range(7):
        deliver(st, j)
    give(st, 0, 7)
    put(st, 0, "H1")
    roll(st, prm, log, 6)
    move(st, prm, log, "outside")
    assert int(st[R.S_OUTCOME]) == R.OUT_WIN


def test_r33_all_hold_unremovable_jewels_loses():
    st, prm, log = start("advanced", nums=[1, 2, 3, 4, 5, 6, 7, 8])
    deliver(st, 0)  # 1 is out, 2 is next
    for h, j in enumerate((2, 3, 5)):
        give(st, h + 1, j)
    put(st, 0, "J")
    roll(st, prm, log, 6)
    move(st, prm, log, "G")
    act(st, prm, log, R.A_PICK + JEWEL_OF["G"])  # number 5: now nobody can leave
    assert int(st[R.S_OUTCOME]) == R.OUT_JEWELS
    st, prm, log = start("advanced", nums=[1, 2, 3, 4, 5, 6, 7, 8])
    deliver(st, 0)
    for h, j in enumerate((1, 3, 5)):  # somebody holds number 2: play on
        give(st, h + 1, j)
    put(st, 0, "J")
    roll(st, prm, log, 6)
    move(st, prm, log, "G")
    act(st, prm, log, R.A_PICK + JEWEL_OF["G"])
    assert st[R.S_PHASE] != R.PH_OVER


# ---- Head Haunter -----------------------------------------------------------------------------------------------------
def hh(top=(), players=5, **kw):
    return new_state("head_haunter", players, top=top, **kw)


def hand_types(st, prm):
    return sorted(int(prm[R.P_CARD_TYPE + int(st[R.S_HAND + i])]) for i in range(int(st[R.S_HAND_N])))


def slot_of(st, prm, ct):
    return next(i for i in range(int(st[R.S_HAND_N])) if int(prm[R.P_CARD_TYPE + int(st[R.S_HAND + i])]) == ct)


def test_r34_hand_of_three_and_reroll_cards():
    st, prm, log = hh(top=(R.CT_ADD1, R.CT_SPOOK, R.CT_MOVE))
    assert int(st[R.S_HAND_N]) == 3 and int(st[R.S_NDRAW]) == 49
    assert hand_types(st, prm) == sorted([R.CT_ADD1, R.CT_SPOOK, R.CT_MOVE])
    assert [int(st[R.S_HREROLL + h]) for h in range(4)] == [1, 1, 1, 1]
    st2, _, _ = start("basic")
    assert [int(st2[R.S_HREROLL + h]) for h in range(4)] == [0, 0, 0, 0]
    ok(st, prm)


def test_r35_reroll_once_per_hunter():
    st, prm, log = hh(top=(R.CT_ROOM + 1, R.CT_ROOM + 7, R.CT_ROOM + 10))
    roll(st, prm, log, 2)
    assert st[R.S_PHASE] == R.PH_REROLL_MOVE and legal(st, prm) == {R.A_PASS, R.A_REROLL0}
    act(st, prm, log, R.A_REROLL0)
    assert st[R.S_PHASE] == R.PH_REROLL_ROLL and int(st[R.S_HREROLL]) == 0
    roll(st, prm, log, 6)  # the new result stands: a 6
    assert st[R.S_PHASE] == R.PH_SIX_PICK
    R.apply_chance(st, prm, 0, log)
    move(st, prm, log, "outside")
    # a fight: only a failed die of a hunter with an unused card may be rerolled, once
    set_ghosts(st, "L", 2)
    put(st, 2, "L")
    roll(st, prm, log, 6)
    act(st, prm, log, R.A_PASS)
    R.apply_chance(st, prm, 0, log)
    arrive(st, prm, log, "L")
    fight(st, prm, log, GHOST_FACE, BLANK_FACE)
    assert st[R.S_PHASE] == R.PH_REROLL_FIGHT and legal(st, prm) == {R.A_PASS, R.A_REROLL1}
    act(st, prm, log, R.A_REROLL1)
    assert int(st[R.S_HREROLL + 2]) == 0
    fight(st, prm, log, BLANK_FACE)
    assert int(st[R.S_GHOSTS + 11]) == 1 and int(st[R.S_REROLLS]) == 2
    ok(st, prm)


def test_r36_play_discard_or_remove_and_refill():
    st, prm, log = hh(top=(R.CT_HROOM + 0, R.CT_ADD1, R.CT_SPOOK, R.CT_ROOM + 1))
    roll(st, prm, log, 2)
    act(st, prm, log, R.A_PASS)  # keep the die
    assert st[R.S_PHASE] == R.PH_HH_PLAY and legal(st, prm) == {R.A_SLOT, R.A_SLOT + 1, R.A_SLOT + 2}
    c = int(st[R.S_HAND + slot_of(st, prm, R.CT_HROOM + 0)])
    act(st, prm, log, R.A_SLOT + slot_of(st, prm, R.CT_HROOM + 0))
    assert int(st[R.S_GHOSTS + 0]) == 1 and int(st[R.S_CLOC + c]) == R.CL_DISCARD
    assert int(st[R.S_HAND_N]) == 3 and int(st[R.S_NDRAW]) == 48 and st[R.S_PHASE] == R.PH_MOVE
    move(st, prm, log, "outside")
    roll(st, prm, log, 2)
    act(st, prm, log, R.A_PASS)
    c = int(st[R.S_HAND + slot_of(st, prm, R.CT_ADD1)])
    act(st, prm, log, R.A_SLOT + slot_of(st, prm, R.CT_ADD1))
    act(st, prm, log, R.A_ROOM + 6)
    assert int(st[R.S_GHOSTS + 6]) == 1 and int(st[R.S_CLOC + c]) == R.CL_REMOVED  # X card leaves the game
    ok(st, prm)
    # an empty draw pile is refilled from the discard pile (removed cards stay out)
    while int(st[R.S_NDRAW]) > 0:
        cc = int(st[R.S_DRAW + int(st[R.S_NDRAW]) - 1])
        st[R.S_DRAW + int(st[R.S_NDRAW]) - 1] = -1
        st[R.S_NDRAW] -= 1
        st[R.S_CLOC + cc] = R.CL_DISCARD
    move(st, prm, log, "outside")
    set_ghosts(st, "B", 0)
    roll(st, prm, log, 2)
    act(st, prm, log, R.A_PASS)
    s = next(i for i in range(3) if int(prm[R.P_CARD_TYPE + int(st[R.S_HAND + i])]) != R.CT_SPOOK)
    cc = int(st[R.S_HAND + s])
    act(st, prm, log, R.A_SLOT + s)
    while st[R.S_PHASE] == R.PH_HH_TARGET:
        act(st, prm, log, min(legal(st, prm)))
    if st[R.S_PHASE] == R.PH_SPOOK_DEST:
        act(st, prm, log, min(legal(st, prm)))
    if st[R.S_PHASE] == R.PH_SHUFFLE:
        pool = np.zeros(R.MAX_CARDS, dtype=np.int32)
        n = R.shuffle_pool(st, pool)
        assert c not in pool[:n].tolist() and n == 52 - 1 - 2 - (1 if int(st[R.S_CLOC + cc]) == R.CL_REMOVED else 0)
        reshuffle(st, prm, log)
    assert int(st[R.S_HAND_N]) == 3 and int(st[R.S_CLOC + c]) == R.CL_REMOVED
    ok(st, prm)


def test_r37_six_discards_random_card():
    st, prm, log = hh(top=(R.CT_ADD1, R.CT_SPOOK, R.CT_MOVE))
    roll(st, prm, log, 6)
    act(st, prm, log, R.A_PASS)
    assert st[R.S_PHASE] == R.PH_SIX_PICK and R.chance_outcomes(st, prm) == 3
    c = int(st[R.S_HAND + 0])
    R.apply_chance(st, prm, 0, log)
    assert int(st[R.S_CLOC + c]) == R.CL_DISCARD and int(st[R.S_HAND_N]) == 2  # even an X card; no refill
    assert int(prm[R.P_CARD_TYPE + c]) == R.CT_ADD1 and st[R.S_PHASE] == R.PH_MOVE
    move(st, prm, log, "outside")
    roll(st, prm, log, 6)
    act(st, prm, log, R.A_PASS)
    R.apply_chance(st, prm, 0, log)
    move(st, prm, log, "outside")
    roll(st, prm, log, 6)
    act(st, prm, log, R.A_PASS)
    R.apply_chance(st, prm, 0, log)
    assert int(st[R.S_HAND_N]) == 0
    move(st, prm, log, "outside")
    n = int(st[R.S_NDRAW])
    roll(st, prm, log, 3)  # ghost face, empty hand: nothing played, refill
    act(st, prm, log, R.A_PASS)
    assert int(st[R.S_HAND_N]) == 3 and int(st[R.S_NDRAW]) == n - 3 and int(st[R.S_HH_PLAYED]) == 0
    assert st[R.S_PHASE] == R.PH_MOVE
    ok(st, prm)


def play_card(st, prm, log, ct, hunter_roll=2):
    roll(st, prm, log, hunter_roll)
    if st[R.S_PHASE] == R.PH_REROLL_MOVE:
        act(st, prm, log, R.A_PASS)
    act(st, prm, log, R.A_SLOT + slot_of(st, prm, ct))


def test_r38_hh_room_cards():
    st, prm, log = hh(top=(R.CT_HROOM + 7, R.CT_ROOM + 10, R.CT_SPOOK))
    play_card(st, prm, log, R.CT_HROOM + 7)
    assert int(st[R.S_GHOSTS + 7]) == 1
    move(st, prm, log, "outside")
    play_card(st, prm, log, R.CT_ROOM + 10)
    assert int(st[R.S_GHOSTS + 10]) == 1
    ok(st, prm)


def test_r39_group_card():
    st, prm, log = hh(top=(R.CT_GROUP + 2, R.CT_SPOOK, R.CT_SPOOK))
    play_card(st, prm, log, R.CT_GROUP + 2)
    assert st[R.S_PHASE] == R.PH_HH_TARGET and legal(st, prm) == {R.A_PAIR + k for k in range(6)}
    act(st, prm, log, R.A_PAIR + 4)  # (1, 3): J and L
    assert int(st[R.S_GHOSTS + 9]) == 1 and int(st[R.S_GHOSTS + 11]) == 2
    ok(st, prm)


def test_r40_add_one():
    st, prm, log = hh(top=(R.CT_ADD1, R.CT_SPOOK, R.CT_SPOOK))
    play_card(st, prm, log, R.CT_ADD1)
    assert legal(st, prm) == {R.A_ROOM + r for r in range(12)}
    act(st, prm, log, R.A_ROOM + 3)
    assert int(st[R.S_GHOSTS + 3]) == 1 and int(st[R.S_GHOSTS_PLACED]) == 1


def test_r41_add_two_overflows():
    st, prm, log = hh(top=(R.CT_ADD2, R.CT_SPOOK, R.CT_SPOOK))
    set_ghosts(st, "D", 2)
    play_card(st, prm, log, R.CT_ADD2)
    act(st, prm, log, R.A_ROOM + 3)
    assert int(st[R.S_HAUNTED + 3]) == 1 and int(st[R.S_GHOSTS + 4]) == 1  # D haunted, the second goes to E
    st, prm, log = hh(top=(R.CT_ADD2, R.CT_SPOOK, R.CT_SPOOK))
    play_card(st, prm, log, R.CT_ADD2)
    act(st, prm, log, R.A_ROOM + 2)  # C had one: 3 = a haunting, nothing moves on
    assert int(st[R.S_HAUNTED + 2]) == 1 and int(st[R.S_GHOSTS + 3]) == 0 and int(st[R.S_OVERFLOWS]) == 0
    ok(st, prm)


def test_r42_move_ghost():
    st, prm, log = hh(top=(R.CT_MOVE + 1, R.CT_SPOOK, R.CT_SPOOK))
    clear_ghosts(st)
    set_ghosts(st, "C", 1)
    set_ghosts(st, "B", 1)
    play_card(st, prm, log, R.CT_MOVE + 1)
    opts = legal(st, prm)
    assert opts == {R.A_MOVEG + 2 * 2 + 0, R.A_MOVEG + 2 * 2 + 1, R.A_MOVEG + 1 * 2 + 0}  # B cannot go down 2
    act(st, prm, log, R.A_MOVEG + 2 * 2 + 0)  # C up 2 -> E
    assert int(st[R.S_GHOSTS + 2]) == 0 and int(st[R.S_GHOSTS + 4]) == 1 and int(st[R.S_GHOSTS_MOVED]) == 1
    st, prm, log = hh(top=(R.CT_MOVE + 0, R.CT_SPOOK, R.CT_SPOOK))
    set_haunted(st, "D")
    play_card(st, prm, log, R.CT_MOVE + 0)
    act(st, prm, log, R.A_MOVEG + 2 * 2 + 0)  # C up 1 -> D haunted -> E
    assert int(st[R.S_GHOSTS + 4]) == 1 and int(st[R.S_GHOSTS + 2]) == 0
    ok(st, prm)


def test_r43_hh_door_cards():
    st, prm, log = hh(top=(R.CT_DOOR_BLUE, R.CT_SPOOK, R.CT_SPOOK))
    play_card(st, prm, log, R.CT_DOOR_BLUE)
    rooms = {R.ROOM_LETTERS[a - R.A_ROOM] for a in legal(st, prm)}
    assert rooms == {"B", "D", "E", "F", "I", "J", "K"}
    act(st, prm, log, R.A_ROOM + 10)
    assert int(st[R.S_GHOSTS + 10]) == 1 and int(st[R.S_LOCK]) == 0
    ok(st, prm)


def test_r44_spook():
    st, prm, log = hh(top=(R.CT_SPOOK, R.CT_ROOM + 1, R.CT_ROOM + 1 + 6))
    set_haunted(st, "J")
    put(st, 2, "J")
    give(st, 2, 0)
    put(st, 3, "H10")
    play_card(st, prm, log, R.CT_SPOOK)
    assert legal(st, prm) == {R.A_SPOOK + 2}  # only hunters in rooms
    act(st, prm, log, R.A_SPOOK + 2)
    assert int(st[R.S_JLOC]) == NODE["J"] and int(st[R.S_HCARRY + 2]) == -1 and st[R.S_PHASE] == R.PH_SPOOK_DEST
    d = dests(st, prm)
    assert d == {NAME[v] for v in range(int(prm[R.P_N_NODES])) if R.dist(prm, 0, NODE["J"], v) <= 3} - {"H10"}
    move(st, prm, log, "outside")  # chased out of the house
    assert int(st[R.S_HPOS + 2]) == 0 and st[R.S_PHASE] == R.PH_MOVE and int(st[R.S_SPOOKS]) == 1
    ok(st, prm)


def test_r45_hh_shuffle_cards():
    st, prm, log = hh(top=(R.CT_DRAW2, R.CT_SPOOK, R.CT_SPOOK, R.CT_ADD1, R.CT_HROOM + 3, R.CT_ROOM + 7))
    play_card(st, prm, log, R.CT_DRAW2)
    assert st[R.S_PHASE] == R.PH_HH_TARGET  # the drawn Add 1 needs a target
    act(st, prm, log, R.A_ROOM + 5)
    assert int(st[R.S_GHOSTS + 5]) == 2 and int(st[R.S_GHOSTS + 3]) == 1
    assert st[R.S_PHASE] == R.PH_SHUFFLE
    reshuffle(st, prm, log)
    assert int(st[R.S_HAND_N]) == 3 and st[R.S_PHASE] == R.PH_MOVE
    ok(st, prm)


def test_r46_head_haunter_wins():
    st, prm, log = hh(top=(R.CT_HROOM + 2, R.CT_SPOOK, R.CT_SPOOK))
    for x in "ABDEG":
        set_haunted(st, x)
    set_ghosts(st, "C", 2)
    play_card(st, prm, log, R.CT_HROOM + 2)
    assert int(st[R.S_OUTCOME]) == R.OUT_HH_SIX
    prm = prm_of("head_haunter", 3)
    sids = np.array([6, 0, 0], dtype=np.int64)  # builder vs passive hunters
    out = PL.trace_game(np.uint64(5), np.uint64(0), 0, 3, prm, sids, np.zeros((3, 13)), 10, 2)
    assert out.winners == 1 and out.status == 0 and out.scores[0] == 6  # winners = seat 0; its score = 6 hauntings
    sids = np.array([5, 4, 4], dtype=np.int64)
    for g in range(40):
        out = PL.trace_game(
            np.uint64(5),
            np.uint64(0),
            g,
            3,
            prm,
            sids,
            np.tile(
                np.array(
                    [w[1] for w in __import__("kernels.treasure_hunters.strategies", fromlist=["x"]).WEIGHT_SPECS]
                ),
                (3, 1),
            ),
            10,
            2,
        )
        if out.extra[PL.EXTRA_COLUMNS.index("outcome")] == R.OUT_WIN:
            assert out.winners == 0b110  # a hunters' win: seats 1 and 2
            break
    else:
        pytest.fail("no hunter win in 40 games")


def test_r46_head_haunter_wins_when_every_hunter_is_stuck_apart():
    for last_room in ("J", "B"):  # J: a room of its own; B: shared with another hunter
        st, prm, log = hh(top=(R.CT_HROOM + 9, R.CT_SPOOK, R.CT_SPOOK))
        for h, x in zip((1, 2, 3), "BDE"):
            set_haunted(st, x)
            put(st, h, x)
            give(st, h, h)
        if last_room == "J":
            set_ghosts(st, "J", 2)
        put(st, 0, last_room)
        give(st, 0, JEWEL_OF["J"])
        play_card(st, prm, log, R.CT_HROOM + 9)  # J haunted; a free carrier in J is now stuck
        if last_room == "J":
            assert st[R.S_PHASE] == R.PH_OVER and int(st[R.S_OUTCOME]) == R.OUT_HH_STUCK
            scores = np.zeros(5, dtype=np.int32)
            extra = np.zeros(len(PL.EXTRA_COLUMNS), dtype=np.int32)
            curves = np.zeros((2, R.CURVE_MAX), dtype=np.int32)
            assert PL.game_outputs(st, prm, 5, 1, PL.ST_DONE, scores, extra, curves) == 1  # the Head Haunter wins
        else:  # two share B: they can still unhaunt it, no win
            assert st[R.S_PHASE] != R.PH_OVER
        ok(st, prm)


def test_r47_turn_cap_truncates():
    prm = prm_of("basic", 4, max_turns=10, hauntings=11)
    out = PL.trace_game(np.uint64(1), np.uint64(0), 0, 4, prm, np.zeros(4, dtype=np.int64), np.zeros((4, 13)), 200, 2)
    outcome = out.extra[PL.EXTRA_COLUMNS.index("outcome")]
    assert out.status == PL.ST_TRUNCATED and out.winners == 0 and out.turns == 10 and outcome == R.OUT_TRUNC
