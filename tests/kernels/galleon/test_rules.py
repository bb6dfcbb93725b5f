"""One test per clause of kernels/galleon/RULES.md (R1..R24, C1..C16, H1), chance forced through apply_chance."""

from __future__ import annotations

import numpy as np

from kernels.galleon import board as B
from kernels.galleon import rules as R
from tests.kernels.galleon._kit import BOARD, ID, Game


def test_r01_setup_chests_stack_sabres_ghost_and_pirates():
    g = Game(n=3)
    for c in range(6):
        assert g.tiles(R.LOC_CHEST + c) == [6 + c]
    assert int(g.st[R.S_NSTACK]) == 8 and sorted(g.tiles(R.LOC_STACK)) == [4, 5, 12, 13, 14, 15, 16, 17]
    assert g.tiles(0) == [0] and g.tiles(1) == [1] and g.tiles(2) == [2]
    assert g.tiles(R.LOC_CAVE) == [3]  # the fourth sabre into the large cave
    assert BOARD.ids[int(g.st[R.S_GHOST])] == "CC"
    assert [g.pos(s) for s in range(3)] == ["H0", "H1", "H2"]
    assert [int(g.st[R.S_STICKER + c]) for c in range(6)] == [0, 1, 2, 3, 4, 4]


def test_r02_a_turn_starts_with_the_dice():
    g = Game()
    assert g.phase == R.PH_CHANCE and g.st[R.S_CH_KIND] == R.CH_DICE and g.st[R.S_CH_N] == 36
    g.roll(2, 3)
    assert g.phase == R.PH_MOVE and g.st[R.S_PIPS] == 5


def test_r03_exact_roll_without_entering_a_space_twice():
    g = Game()
    g.roll(1, 2)
    assert g.options() == {"P02"}  # H0 -> P00 -> P01 -> P02 (no way back)
    g2 = Game()
    g2.place(0, "M20")
    g2.roll(1, 1)  # 2 pips on the main deck
    o = g2.options()
    assert "M20" not in o and {"M00", "M40", "M31", "M11"} <= o and "M10" not in o


def test_r03_no_piece_is_jumped():
    g = Game()
    g.place(1, "P02")
    g.roll(1, 3)
    assert g.options() == {"P01"}  # cannot pass P02: stop in front of it (C2)


def test_r04_rooms_end_the_move_and_never_while_occupied():
    g = Game()
    g.place(0, "M10")
    g.roll(4, 5)  # 9 pips, but C0 (door M00) may be entered after 2
    assert "C0" in g.options() and "C1" in g.options()
    g.move("C0")
    assert g.pos(0) == "C0"
    g2 = Game()
    g2.place(0, "M10")
    g2.place(1, "C0")
    g2.roll(4, 5)
    assert "C0" not in g2.options()


def test_r04_never_another_players_hideout():
    g = Game()
    g.place(0, "P11")  # seat 1's path, 2 steps from H1
    g.roll(1, 1)
    assert "H1" not in g.options()


def test_r05_stop_short_only_to_challenge_a_duel():
    g = Game()
    g.place(0, "P04")
    g.place(1, "P07")
    g.roll(4, 4)
    assert "P06" in g.options() and g.opt("P06") & R.OPT_SHORT
    g.move("P06")
    assert g.phase == R.PH_DUEL_Q and not g.mask()[R.A_PASS]  # must challenge


def test_r06_blocked_pirate_passes_one_piece_next_time():
    g = Game()
    g.place(1, "P00")  # seat 1 stands in front of H0
    g.roll(1, 2)
    assert g.pos(0) == "H0" and g.events(R.E_BLOCKED) and g.st[R.S_BLOCKED] == 1
    g.st[R.S_CUR] = 0  # seat 0 again (the others' turns change nothing here)
    g.roll(1, 2)
    assert g.options() == {"P01", "P02"}  # passes P00: P02 exactly, P01 to challenge
    assert g.opt("P01") & R.OPT_SHORT and not g.opt("P02") & R.OPT_SHORT


def test_r07_a_move_through_the_caves_takes_a_tile():
    g = Game(n=3)  # one sabre lies in the large cave
    g.place(0, "P03")
    g.roll(1, 2)  # P03 -> P04 (cave) -> P14 -> P15 (3 pips)
    assert g.opt("P15") & R.OPT_CAVE
    g.move("P15")
    assert g.phase == R.PH_CHANCE and g.st[R.S_CH_KIND] == R.CH_TILE
    g.chance(0)
    assert 3 in g.tiles(0) and g.tiles(R.LOC_CAVE) == []


def test_r08_boarding_only_over_arrow_spaces_and_stairs_are_steps():
    g = Game()
    g.place(0, "P07")
    g.roll(1, 1)
    assert g.options() == {"DA0", "B0", "P05"}  # the ship only over LA0 -> DA0
    g2 = Game()
    g2.place(0, "F2")
    g2.roll(1, 1)  # F2 -stairs- M00 -> M01 / M10 / C0? (C0 at step 2)
    assert {"M01", "M10", "C0"} <= g2.options()


def test_r09_a_six_moves_the_ghost_instead():
    g = Game()
    g.roll(6, 2)
    assert g.phase == R.PH_GHOST and g.pos(0) == "H0"


def test_r10_ghost_up_to_six_on_the_ship_jumping_pirates():
    g = Game()
    g.place(1, "Q1")
    g.roll(6, 1)
    o = g.options()
    assert "Q3" in o and "Q1" not in o and "M41" in o  # jumps the pirate on Q1, never ends on it
    assert all(BOARD.kinds[ID[v]] in (R.K_DECK, R.K_DECK_ARROW, R.K_PLANK, R.K_CABIN, R.K_CAPTAIN) for v in o)
    assert "LA3" not in o and "CC" not in o  # never leaves the ship; not back to its start


def test_r11_terror_frightens_every_neighbour_and_the_room_entered():
    g = Game()
    g.ghost_to("M20")
    g.place(1, "M30")
    g.place(3, "C4")
    g.roll(6, 1)
    g.act(R.A_GHOST + ID["M21"])  # M21 is next to the door of C4: its pirate is safe
    assert g.phase != R.PH_WHIRL and g.pos(3) == "C4"
    g2 = Game()
    g2.ghost_to("M20")
    g2.place(1, "M30")
    g2.place(2, "M10")
    g2.place(3, "C4")
    g2.roll(6, 1)
    g2.act(R.A_GHOST + ID["C4"])  # enters C4: seat 3 is frightened
    assert [int(x) for x in g2.st[R.S_PEND : R.S_PEND + g2.st[R.S_NPEND]]] == [3]
    g3 = Game()
    g3.ghost_to("M00")
    g3.place(1, "M30")
    g3.place(2, "M10")
    g3.roll(6, 1)
    g3.act(R.A_GHOST + ID["M20"])  # both neighbours
    assert sorted(int(x) for x in g3.st[R.S_PEND : R.S_PEND + g3.st[R.S_NPEND]]) == [1, 2]


def test_r12_stopping_next_to_the_ghost_the_next_player_chooses():
    g = Game()
    g.ghost_to("M00")
    g.place(0, "LA0")
    g.roll(1, 2)  # LA0 -> DA0 -> M10 (next to the ghost) -> M11
    g.move("M11")  # only the end counts: passing M10 frightens nobody
    assert g.pos(0) == "M11" and g.phase != R.PH_WHIRL and g.st[R.S_OVERBOARD] == 0 and g.cur == 1
    g2 = Game()
    g2.ghost_to("M20")
    g2.place(0, "LA0")
    g2.roll(1, 1)  # LA0 -> DA0 -> M10, next to the ghost on M20
    g2.move("M10")
    assert g2.phase == R.PH_WHIRL and int(g2.st[R.S_ACTOR]) == 1
    g3 = Game(first=3)  # the last seat: the next player is seat 0
    g3.ghost_to("M20")
    g3.place(3, "LA0")
    g3.roll(1, 1)
    g3.move("M10")
    assert g3.phase == R.PH_WHIRL and int(g3.st[R.S_ACTOR]) == 0 and int(g3.st[R.S_PEND]) == 3


def test_r13_overboard_whirlpool_tile_parrot_rock_then_shore():
    g = Game()  # into a FREE whirlpool: W0 and R1 are taken
    g.ghost_to("M30")
    g.place(1, "M10")
    g.place(2, "W0")
    g.st[R.S_STATUS + 2] = R.ST_WHIRLPOOL
    g.place(3, "R1")
    g.st[R.S_STATUS + 3] = R.ST_ROCK
    g.roll(6, 1)
    g.act(R.A_GHOST + ID["M20"])
    m = g.mask()
    assert g.phase == R.PH_WHIRL and [w for w in range(R.N_WHIRL) if m[R.A_WHIRL + w]] == [2, 3]
    g = Game()
    g.ghost_to("M30")
    g.place(1, "M10")
    g.give(1, R.T_PARROT, 13)
    g.roll(6, 1)
    g.act(R.A_GHOST + ID["M20"])  # seat 1 next to the ghost
    g.act(R.A_WHIRL + 2)
    assert g.pos(1) == "W2" and g.st[R.S_LOC + R.T_PARROT] == R.LOC_STACK
    stack = g.st[R.S_STACK : R.S_STACK + g.st[R.S_NSTACK]]
    assert stack[-1] == R.T_PARROT  # back on top of the stack
    assert g.st[R.S_CH_KIND] == R.CH_TILE
    g.chance(1)  # tiles of seat 1: sabre 1, key 13 -> the key
    assert 13 in g.tiles(R.LOC_CAVE) and g.tiles(1) == [1]
    # seat 1's turn came at once: no roll, onto the rock; now seat 2 rolls
    assert g.cur == 2 and g.pos(1) == "R2" and g.st[R.S_STATUS + 1] == R.ST_ROCK and g.events(R.E_ROCK)
    g.roll(1, 1)  # seat 2
    g.move(sorted(g.options())[0])
    g.roll(1, 1)  # seat 3
    g.move(sorted(g.options())[0])
    g.roll(1, 1)  # seat 0
    g.move(sorted(g.options())[0])
    assert g.cur == 1
    g.roll(1, 1)
    assert g.options() == {"B1", "DA3", "P27"}  # first step onto the shore LA3 (C18)


def test_r14_cannon_knocks_down_land_pirates_of_its_quarter():
    g = Game()
    g.place(1, "P05")  # quarter 0 (NW)
    g.place(2, "P04")  # cave: safe
    g.place(3, "P15")  # quarter 1
    g.ghost_to("M01")
    g.roll(6, 1)  # the ghost M01 -> F0 (behind cannon 0, NW)
    assert "F0" in g.options()
    g.act(R.A_GHOST + ID["F0"])
    assert g.events(R.E_KNOCKED) == [(1, 0, 0, 0)] and g.events(R.E_CANNON) == [(0, 0, 1, 0)]
    # seat 1's turn came at once: it stands up and rolls only for the ghost (C19's default)
    assert g.st[R.S_STATUS + 1] == R.ST_OK and g.cur == 1 and g.events(R.E_STANDUP) == [(1, 0, 0, 0)]
    assert g.st[R.S_CH_KIND] == R.CH_DICE


def test_r15_captains_cabin_top_tile():
    g = Game()
    g.ghost_to("F0")
    g.place(0, "Q1")
    g.roll(1, 2)
    g.move("CC")
    assert g.tiles(0) == [0, 17] and g.st[R.S_NSTACK] == 7


def test_r16_chests_peek_open_keep_key_broken_key_opens_nothing():
    g = Game()
    g.place(0, "M10")
    g.give(0, 17)  # the broken key (type 0)
    g.roll(1, 2)
    g.move("C1")  # sticker key 1: cannot open
    assert g.st[R.S_PEEKED] & 2 and g.tiles(R.LOC_CHEST + 1) == [7]
    g = Game()
    g.place(0, "M10")
    g.give(0, 13)  # key type 1
    g.roll(1, 2)
    g.move("C1")
    assert 7 in g.tiles(0) and 13 in g.tiles(0) and g.st[R.S_EMPTY] & 2
    assert g.st[R.S_KEYS_SHOWN] & 2 and g.st[R.S_OPENED_BY] == 1
    g = Game()
    g.place(0, "M10")
    g.roll(1, 2)
    g.move("C0")  # blank: opens without a key
    assert 6 in g.tiles(0)


def test_r17_win_on_entering_the_own_hideout_with_enough_gold():
    g = Game()
    g.place(0, "P01")
    g.give(0, 10)  # gold 5
    g.roll(1, 2)
    g.move("H0")
    assert g.phase == R.PH_OVER and g.st[R.S_WINNER] == 0 and R.returns(g.st, 0) == 1 and R.returns(g.st, 1) == 0
    g = Game()
    g.place(0, "P01")
    g.give(0, 9)  # gold 4 only
    g.roll(1, 2)
    g.move("H0")
    assert g.phase != R.PH_OVER and g.events(R.E_HOME)


def test_r18_the_parrot_flies_back_when_its_holder_leaves_the_ship():
    g = Game()
    g.place(0, "DA0")
    g.give(0, R.T_PARROT)
    g.roll(1, 2)
    g.move("P06")
    assert g.st[R.S_LOC + R.T_PARROT] == R.LOC_STACK and g.events(R.E_PARROT_BACK)


PARROT_ON_TOP = [6, 7, 8, 9, 10, 11, 0, 1, 2, 3, 4, 5, 4, 5, 13, 14, 15, 16, 17, 12]


def test_r19_parrot_actions():
    g = Game(deal=PARROT_ON_TOP)  # parrot on top
    g.place(0, "Q1")
    g.ghost_to("F0")
    g.give(1, 10)
    g.roll(1, 2)
    g.move("CC")
    assert g.phase == R.PH_PARROT
    m = g.mask()
    assert m[R.A_PSTEAL + 1] and m[R.A_PTOP] and all(m[R.A_PPEEK + c] for c in range(6)) and not m[R.A_PSTEAL]
    g.act(R.A_PSTEAL + 1)
    assert g.st[R.S_CH_KIND] == R.CH_TILE
    g.chance(1)  # seat 1 holds sabre 1 and gold 5: the gold
    assert 10 in g.tiles(0)
    g2 = Game(deal=PARROT_ON_TOP)
    g2.place(0, "Q1")
    g2.ghost_to("F0")
    g2.roll(1, 2)
    g2.move("CC")
    g2.act(R.A_PPEEK + 4)
    assert g2.st[R.S_PEEKED] & 16


def _duel_setup(wa=None, wd=None):
    g = Game()
    g.place(0, "P04")
    g.place(1, "P07")
    if wa is not None:
        g.give(0, wa)
    if wd is not None:
        g.give(1, wd)
    g.roll(1, 1)
    g.move("P06")
    return g


def test_r20_duel_only_after_moving_next_to_a_challengeable_pirate():
    g = _duel_setup()
    assert g.phase == R.PH_DUEL_Q and g.mask()[R.A_DUEL + 1] and g.mask()[R.A_PASS]
    g = Game()
    g.place(0, "P03")
    g.place(1, "P05")  # P04 is a cave entrance: no duel from there
    g.roll(1, 1)
    assert "P04" not in g.options() or not R.duel_targets(g.st, g.prm, 0, ID["P04"])


def test_r21_weapons_held_and_shown():
    g = _duel_setup(wa=4)
    g.act(R.A_DUEL + 1)
    m = g.mask()
    assert m[R.A_WEAPON] and m[R.A_WEAPON + 1] and m[R.A_WEAPON + 2]
    g.act(R.A_WEAPON + 2)
    m = g.mask()
    assert m[R.A_WEAPON] and m[R.A_WEAPON + 1] and not m[R.A_WEAPON + 2]
    g.act(R.A_WEAPON + 1)
    assert g.st[R.S_SHOWN_W] == 2 and g.st[R.S_SHOWN_W + 1] == 1


def test_r22_last_roll_counts_defender_knows_ties_repeat():
    g = _duel_setup()
    g.act(R.A_DUEL + 1)
    g.act(R.A_WEAPON + 1)  # sabre: up to 2 rolls
    g.act(R.A_WEAPON + 0)
    g.chance(4)  # attacker rolls 5
    assert g.phase == R.PH_ROLLQ
    g.act(R.A_ROLL)
    g.chance(1)  # 2: only the last counts
    assert g.st[R.S_ATT_RES] == 2 and g.st[R.S_ROLLER] == 1
    g.chance(1)  # defender 2: tie, again
    assert g.st[R.S_ROLLER] == 0 and g.st[R.S_ROLLS_LEFT] == 2
    g.chance(5)  # attacker 6
    g.act(R.A_STOP)
    g.chance(2)  # defender 3: attacker wins
    assert g.st[R.S_DUEL_WINNER] == 0


def test_r23_spoils_random_tile_and_swap():
    g = _duel_setup()
    g.act(R.A_DUEL + 1)
    g.act(R.A_WEAPON + 1)
    g.act(R.A_WEAPON + 1)
    g.chance(5)
    g.act(R.A_STOP)
    g.chance(0)
    g.act(R.A_STOP)  # 6 vs 1
    assert g.st[R.S_CH_KIND] == R.CH_TILE and g.st[R.S_CH_N] == 1
    g.chance(0)
    assert g.tiles(0) == [0, 1] and g.phase == R.PH_SWAP
    g.act(R.A_SWAP)
    assert g.pos(0) == "P07" and g.pos(1) == "P06"


def test_r24_turn_cap_truncates():
    from kernels.galleon import params as P
    from kernels.galleon import play
    from tests.kernels.galleon._kit import DEFAULTS

    prm = P.pack({**DEFAULTS, "max_turns": 10}, 4)
    tr = play.trace_game(np.uint64(1), np.uint64(0), 0, 4, prm, np.zeros(4, np.int64), np.zeros((4, 8)), 10, 10, 1)
    assert tr.status == play.ST_TRUNCATED and tr.turns == 10 and tr.winners == 0


def test_c01_reading_b_pirate_moves_the_other_die():
    g = Game(ghost_die="pirate_moves_other_die")
    g.roll(6, 2)
    g.act(R.A_GHOST + ID["Q3"])
    assert g.phase == R.PH_MOVE and g.st[R.S_PIPS] == 2 and g.options() == {"P01"}
    g = Game()
    g.roll(6, 2)
    g.act(R.A_GHOST + ID["Q3"])
    assert g.cur == 1  # reading A: the pirate stays


def test_c02_longest_move_when_no_exact_path_or_stay():
    for opt in ("longest_move", "stay"):
        g = Game(blocked_move=opt)
        g.place(0, "P12")  # on seat 1's path; seat 1 at home (not challengeable)
        g.place(2, "P14")  # in the cave entrance: blocks, not challengeable
        g.roll(5, 5)
        if opt == "longest_move":
            assert g.options() == {"P10"}  # 2 pips back is the longest way
        else:
            assert g.phase != R.PH_MOVE and g.pos(0) == "P12" and g.events(R.E_BLOCKED)


def test_c03_passing_exactly_one_piece():
    g = Game()
    g.place(1, "P00")
    g.place(2, "P01")
    g.st[R.S_BLOCKED] = 1
    g.roll(1, 2)
    assert g.phase != R.PH_MOVE  # two pieces in a row: still blocked


def test_c04_adjacency_graph_or_ship_only():
    for opt, hit in (("graph", True), ("ship_only", False)):
        g = Game(terror_adjacency=opt)
        g.ghost_to("M20")
        g.place(1, "LA0")
        g.roll(6, 1)
        g.act(R.A_GHOST + ID["DA0"])
        assert (g.phase == R.PH_WHIRL) == hit


def test_c05_the_mover_chooses_for_ghost_victims():
    g = Game()
    g.ghost_to("M30")
    g.place(2, "M10")
    g.roll(6, 1)
    g.act(R.A_GHOST + ID["M20"])
    assert g.phase == R.PH_WHIRL and g.st[R.S_ACTOR] == 0


def test_c06_water_is_safe_from_duels():
    g = Game(water_duel_safe=False)
    g.place(1, "R0")
    g.st[R.S_STATUS + 1] = R.ST_ROCK
    g.place(0, "P04")
    g.roll(1, 1)
    assert R.duel_targets(g.st, g.prm, 0, ID["LA0"]) == 2  # from R0's shore LA0 (C18)
    g = Game()
    g.place(1, "R0")
    assert R.duel_targets(g.st, g.prm, 0, ID["LA0"]) == 0


def test_c06_rock_exit_step_onto_shore_or_count_from_shore():
    """C6/R13: from the rock R2 (shore LA3, C18) a 2 ends one space past the shore (default: the step onto it costs
    a pip) or two spaces past it (count_from_shore); a taken shore blocks, then is the piece passed (R6, C3)."""
    near = {"B1", "DA3", "P27"}  # the shore's neighbours
    want = {"step_onto_shore": (near, {"LA3"}), "count_from_shore": ({"M31", "LA2", "P26"}, near)}
    for opt, (two, one) in want.items():
        g = Game(rock_exit=opt)
        g.place(0, "R2")
        g.st[R.S_STATUS] = R.ST_ROCK
        g.roll(1, 1)
        assert g.options() == two, opt
        g.move(sorted(two)[0])
        assert g.st[R.S_STATUS] == R.ST_OK
        g = Game(rock_exit=opt, ghost_die="pirate_moves_other_die")  # C1 reading B: the other die, a 1
        g.place(0, "R2")
        g.st[R.S_STATUS] = R.ST_ROCK
        g.roll(6, 1)
        g.act(R.A_GHOST + ID["Q3"])
        assert g.options() == one, opt
        g = Game(rock_exit=opt)  # the shore taken: blocked, then passes it
        g.place(0, "R2")
        g.st[R.S_STATUS] = R.ST_ROCK
        g.place(1, "LA3")
        g.roll(1, 1)
        assert g.phase != R.PH_MOVE and g.pos(0) == "R2" and g.events(R.E_BLOCKED), opt
        g.st[R.S_CUR] = 0
        g.roll(1, 1)
        assert g.options() == two | near, opt  # counting from LA3, these are stops to challenge (R5)
        assert all((g.opt(v) & R.OPT_SHORT != 0) == (v not in two) for v in g.options()), opt
    g = Game(rock_exit="count_from_shore")  # the taken shore is the one piece passed (C3)
    g.place(0, "R2")
    g.st[R.S_STATUS] = R.ST_ROCK
    g.place(1, "LA3")
    g.place(2, "B1")
    g.st[R.S_BLOCKED] = 1
    g.roll(1, 1)
    assert g.options() == {"M31", "P26", "DA3", "P27"}  # not LA2: B1 would be a second piece passed


def test_c07_cannon_not_twice_in_a_row_or_once_per_game():
    for opt, again in (("not_twice_in_a_row", True), ("once_per_game", False)):
        g = Game(cannon_reuse=opt)
        g.ghost_to("M01")
        g.roll(6, 1)
        g.act(R.A_GHOST + ID["F0"])  # seat 0: fires cannon 0
        g.roll(6, 1)
        g.act(R.A_GHOST + ID["F1"])  # seat 1: fires cannon 1
        g.place(3, "P05")
        g.roll(6, 1)
        g.act(R.A_GHOST + ID["F0"])  # seat 2: cannon 0 again after a stop elsewhere
        assert ((3, 0, 0, 0) in g.events(R.E_KNOCKED)) == again
        assert g.st[R.S_CANNON_FIRES] == (3 if again else 2)
    g = Game()
    g.ghost_to("F0")
    g.st[R.S_LASTCANNON] = 0  # its previous stop was behind cannon 0
    g.place(3, "P05")
    g.roll(6, 1)
    g.act(R.A_GHOST + ID["F2"])
    assert g.st[R.S_CANNON_FIRES] == 0


def test_c07_default_is_met_by_r10_the_ghost_never_ends_on_its_start():
    """C7: `not_twice_in_a_row` can never block a cannon, because the ghost can never stop on its start space (R10:
    at least one step, no space entered twice). From every ship space, free board or crowded, the start is never a
    destination; so a ghost behind a cannon cannot stop behind it again on its next move."""
    ship = [v for v in range(BOARD.n) if R.K_DECK <= BOARD.kinds[v] <= R.K_CAPTAIN]
    for crowd in (False, True):
        for v in ship:
            g = Game()
            g.ghost_to(BOARD.ids[v])
            if crowd:  # pirates round it: a jump back would be the only way
                free = [w for w in ship if w != v and BOARD.kinds[w] not in (R.K_CABIN, R.K_CAPTAIN)]
                near = [w for w in free if R.next_to(g.prm, v, w)][:4]
                for s, w in enumerate(near):
                    g.place(s, BOARD.ids[w])
            n = R.ghost_options(g.st, g.prm, *g.scratch)
            assert g.st[R.S_OPT + v] == 0 and (n > 0 or crowd), BOARD.ids[v]
    for behind, _ in BOARD.cannons:  # the default's case: behind a cannon, the previous stop
        g = Game()
        g.ghost_to(BOARD.ids[behind])
        g.st[R.S_LASTCANNON] = int(g.prm[R.P_CANNON_AT + behind])
        g.roll(6, 1)
        assert g.phase == R.PH_GHOST and BOARD.ids[behind] not in g.options()


def test_c08_the_ghost_moves_like_a_pirate_without_revisiting():
    g = Game()
    g.ghost_to("PL")
    g.roll(6, 1)
    o = g.options()
    assert "F3" in o and "PL" not in o


def test_c08_b5_no_path_crosses_a_cannon(tmp_path):
    """B5/C8: cannons are not spaces and no edge passes one. A board whose cannon stands between the bow spaces F0
    and F1 (their edge removed): the ghost and the pirates go round it (F0 F2 F3 F1), never across."""
    text = (B.BOARDS_DIR / "default.toml").read_text(encoding="utf-8")
    assert '["F0", "F1"], ' in text
    path = tmp_path / "cannon_between.toml"
    path.write_text(text.replace('["F0", "F1"], ', ""), encoding="utf-8")
    board = B.load_board(str(path))
    assert board.ids == BOARD.ids and all(c < board.n for c, _ in board.cannons)  # a cannon is no space
    for bpath, across in ((str(path), False), ("default", True)):
        g = Game(board=bpath)
        g.ghost_to("F0")
        g.roll(6, 1)
        assert "F1" in g.options()  # the ghost reaches F1 either way ...
        assert (int(g.reach[ID["F1"]]) == 1) == across  # ... in one step only where no cannon stands between
        assert int(g.reach[ID["F1"]]) == (1 if across else 3)
        g = Game(board=bpath)
        g.place(0, "F0")
        R.move_options(g.st, g.prm, 0, 1, 0, *g.scratch)
        one = {BOARD.ids[v] for v in range(BOARD.n) if g.st[R.S_OPT + v]}
        assert one == ({"F1", "F2"} if across else {"F2"})
        R.move_options(g.st, g.prm, 0, 3, 0, *g.scratch)
        assert g.st[R.S_OPT + ID["F1"]] != 0  # round the cannon: F0 F2 F3 F1


def test_c09_empty_stack_gives_nothing():
    g = Game()
    g.st[R.S_NSTACK] = 0
    for t in range(R.N_TILES):
        if g.st[R.S_LOC + t] == R.LOC_STACK:
            g.st[R.S_LOC + t] = R.LOC_CAVE
    g.ghost_to("F0")
    g.place(0, "Q1")
    g.roll(1, 2)
    g.move("CC")
    assert g.tiles(0) == [0] and g.events(R.E_CAPTAIN)[-1][1] == -1


def test_c10_an_emptied_chest_gives_nothing_later():
    g = Game()
    g.place(0, "M10")
    g.roll(1, 2)
    g.move("C0")
    assert g.st[R.S_EMPTY] & 1
    g.place(1, "M10")
    g.roll(1, 2)
    g.move("C1") if "C1" in g.options() else None
    assert g.tiles(R.LOC_CHEST) == []


def test_c11_gold_never_banked_early():
    g = Game()
    g.place(0, "P01")
    g.give(0, 6)
    g.roll(1, 2)
    g.move("H0")
    assert 6 in g.tiles(0)  # still held in front of the player


def test_c12_one_weapon_each_duel_repeats_with_the_same_weapons():
    g = _duel_setup(wa=4, wd=5)
    g.act(R.A_DUEL + 1)
    g.act(R.A_WEAPON + 2)
    g.act(R.A_WEAPON + 2)
    g.chance(3)
    g.act(R.A_STOP)
    g.chance(3)
    g.act(R.A_STOP)  # 4 vs 4: again, pistols again
    assert g.st[R.S_ROLLS_LEFT] == 3 and g.st[R.S_WA] == 2 and g.st[R.S_WD] == 2


def test_c13_parrot_steal_is_random_face_down():
    """The thief does not pick the tile: the steal is a chance node with one equally likely outcome per tile the
    victim holds (the driver draws it uniformly), outcome k giving the victim's k-th tile in tile order."""
    taken = []
    for k in range(3):
        g = Game(deal=PARROT_ON_TOP)
        g.place(0, "Q1")
        g.ghost_to("F0")
        g.give(1, 10, 14)  # seat 1: sabre 1, gold 5, key 14
        g.roll(1, 2)
        g.move("CC")
        g.act(R.A_PSTEAL + 1)
        assert g.phase == R.PH_CHANCE and g.st[R.S_CH_KIND] == R.CH_TILE and g.st[R.S_CH_N] == 3
        before = set(g.tiles(1))
        g.chance(k)
        got = before - set(g.tiles(1))
        assert len(got) == 1 and got <= set(g.tiles(0))
        taken.append(got.pop())
    assert taken == [1, 10, 14]  # every tile of the victim can be taken


def test_c14_caves_any_entrance_to_any_entrance():
    g = Game()
    g.place(0, "P04")
    g.roll(1, 1)
    o = g.options()
    assert {"P15", "P25", "P35", "P13", "P23", "P33"} <= o


def test_c14_the_cave_tile_needs_a_cave_link_not_just_an_entrance():
    """C14/R7: only a move that used a cave link takes a tile. Over the entrance P04 along the path (P03 P04 P05),
    or off it after standing there (P04 P05 P06): no tile; P04 -> P14 (link) -> P15: the tile."""
    for start, dest in (("P03", "P05"), ("P04", "P06")):
        g = Game(n=3)  # one sabre lies in the large cave
        g.place(0, start)
        g.roll(1, 1)
        assert not g.opt(dest) & R.OPT_CAVE
        if start == "P04":
            assert g.opt("P15") & R.OPT_CAVE  # the same start through the caves does take one
        g.move(dest)
        assert g.pos(0) == dest and g.tiles(R.LOC_CAVE) == [3] and g.tiles(0) == [0] and g.cur == 1
        assert not g.events(R.E_CAVE_TILE)
    g = Game(n=3)
    g.place(0, "P04")
    g.roll(1, 1)
    g.move("P15")
    g.chance(0)
    assert g.tiles(0) == [0, 3] and g.events(R.E_CAVE_TILE) == [(0, 3, 0, 0)]


def test_c15_own_hideout_can_be_blocked():
    g = Game()
    g.place(1, "P00")
    g.roll(2, 2)
    assert g.pos(0) == "H0" and g.events(R.E_BLOCKED)


def test_c16_start_player_rotates():
    from kernels.galleon import params as P
    from kernels.galleon import play
    from tests.kernels.galleon._kit import DEFAULTS

    prm = P.pack(DEFAULTS, 3)
    for gi in range(3):
        out = play.trace_game(
            np.uint64(5), np.uint64(0), gi, 3, prm, np.zeros(3, np.int64), np.zeros((3, 8)), 10, 10, 0
        )
        assert out.extra[0] == gi % 3  # extra column 0: the first seat


def test_c17_the_start_space_is_never_entered_again():
    """C17: the start counts as entered. From DA0 (edges LA0, M10) a 2 cannot come back to DA0, and a 3 cannot turn
    back over it (DA0 LA0 DA0 M10, DA0 M10 DA0 LA0): M10 and LA0 are only 1 pip away; from M20 a 4 cannot go round the
    square M21 M31 M30 back to M20. Reading the rule as allowing one return to the start would offer all of these."""
    for pips, never in ((2, {"DA0"}), (3, {"DA0", "LA0", "M10"})):
        g = Game()
        g.place(0, "DA0")
        R.move_options(g.st, g.prm, 0, pips, 0, *g.scratch)
        o = {BOARD.ids[v] for v in range(BOARD.n) if g.st[R.S_OPT + v]}
        assert o and not (o & never), (pips, o)
    g = Game()
    g.place(0, "M20")
    g.roll(2, 2)
    assert "M20" not in g.options() and {"M11", "M31"} <= g.options()  # round the square: 3 of its 4 sides


def test_bad_actions_and_outcomes_are_refused_without_change():
    g = Game()
    before = g.st.copy()
    assert R.apply_action(g.st, g.prm, R.A_PASS, g.log, *g.scratch) == -1
    assert R.apply_chance(g.st, g.prm, 36, g.log, *g.scratch) == -1
    assert (g.st == before).all()


# ---- the rulebook's own examples ------------------------------------------------------------------------------------


def test_example_traversing_the_caves_with_a_dice_total_of_5():
    """Rulebook 2 (figure): into the caves, entrance to entrance for one pip, out on another path: 5 pips."""
    g = Game()
    g.place(0, "P02")
    g.roll(2, 3)
    assert {"P16", "P26", "P36"} <= g.options()  # P03, P04, (cave) P14, P15, P16, or another path
    assert g.opt("P16") & R.OPT_CAVE


def test_example_movement_with_a_3_over_the_stairs():
    """Rulebook 3 (figure): the stairs are no space: main deck to the forecastle and on, 3 pips."""
    g = Game()
    g.place(0, "M10")
    g.roll(1, 2)
    assert "F3" in g.options() and "F0" in g.options()  # M10 M00 (stairs) F2 F3 / F0


def test_example_pirate_c_may_fight_only_with_pirate_b_not_a():
    """Rulebook 8 (figure): C stops next to B; A stands further away: only B can be challenged."""
    g = Game()
    g.place(1, "P06")  # B
    g.place(2, "P02")  # A, not next to where C stops
    g.place(0, "LA0")  # C
    g.roll(1, 1)
    assert "P07" in g.options()
    g.move("P07")
    m = g.mask()
    assert m[R.A_DUEL + 1] and not m[R.A_DUEL + 2]


def test_example_a_key_with_two_teeth_opens_only_a_two_teeth_chest():
    """Rulebook 6: the key type must match the chest's sticker (key 2 opens cabin 2's chest, not cabin 1's)."""
    g = Game()
    g.place(0, "M20")
    g.give(0, 14)  # key type 2
    g.roll(1, 1)
    g.move("C1")  # sticker key 1
    assert g.tiles(R.LOC_CHEST + 1) == [7]
    g = Game()
    g.place(0, "M30")
    g.give(0, 14)
    g.roll(1, 1)
    g.move("C2")  # sticker key 2
    assert 8 in g.tiles(0)


def test_example_pulling_a_pirate_out_of_the_water():
    """Rulebook 4.1 (figure): whirlpool (A), next turn the rock (B), then on from the arrow space (C)."""
    test_r13_overboard_whirlpool_tile_parrot_rock_then_shore()


def test_c20_a_whirlpool_is_free_only_with_its_rock():
    """C20: a whirlpool whose rock is taken is not offered (the pirate climbs onto that rock next turn), nor one that
    is taken itself; with the three other pirates in the water on three different whirlpool-and-rock pairs the
    fourth pair is still offered."""
    g = Game()
    g.ghost_to("M30")
    g.place(1, "M10")
    g.place(2, "R0")  # whirlpool W0 is free, its rock is not
    g.st[R.S_STATUS + 2] = R.ST_ROCK
    g.roll(6, 1)
    g.act(R.A_GHOST + ID["M20"])  # seat 1 next to the ghost
    m = g.mask()
    assert g.phase == R.PH_WHIRL and [w for w in range(R.N_WHIRL) if m[R.A_WHIRL + w]] == [1, 2, 3]
    g = Game()
    g.ghost_to("M30")
    g.place(0, "M10")
    for seat, space, status in ((1, "W1", R.ST_WHIRLPOOL), (2, "R2", R.ST_ROCK), (3, "W3", R.ST_WHIRLPOOL)):
        g.place(seat, space)
        g.st[R.S_STATUS + seat] = status
    g.roll(6, 1)
    g.act(R.A_GHOST + ID["M20"])
    m = g.mask()
    assert g.phase == R.PH_WHIRL and [w for w in range(R.N_WHIRL) if m[R.A_WHIRL + w]] == [0]
