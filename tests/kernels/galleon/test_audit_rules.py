"""Clauses the independent audit found broken (tests named after the clause; rulebook quotes in the docstrings)."""

from __future__ import annotations

from kernels.galleon import rules as R
from tests.kernels.galleon._kit import ID, Game


def test_r07_one_cave_tile_per_visit_not_per_move():
    """Rulebook 2: "Each time you visit the caves you may take only one tile. For each further tile you want to
    collect, you must first leave the caves again." A pirate that ended its move on a cave entrance after taking a
    tile is still in the caves: going on through them next turn takes nothing."""
    g = Game(n=2)  # sabres 2 and 3 lie in the large cave
    g.place(0, "P03")
    g.roll(1, 1)  # P03 -> P04 -> (caves) -> P14: ends inside the caves
    g.move("P14")
    assert g.st[R.S_CH_KIND] == R.CH_TILE
    g.chance(0)
    assert len(g.tiles(R.LOC_CAVE)) == 1
    g.roll(1, 1)  # seat 1: H1 -> P11
    g.move("P11")
    assert g.cur == 0
    g.roll(1, 1)  # P14 -> (caves) -> P24 -> P25: the same visit
    assert not g.opt("P25") & R.OPT_CAVE
    g.move("P25")
    assert len(g.tiles(R.LOC_CAVE)) == 1 and g.cur == 1  # no second tile
    g.roll(1, 1)  # seat 1 again; then seat 0 re-enters the caves
    g.move(sorted(g.options())[0])
    g.roll(1, 1)  # P25 -> P24 -> (caves) -> P34: a new visit
    assert g.opt("P34") & R.OPT_CAVE


def test_r23_duel_end_logged_once_when_the_parrot_is_won():
    """R23/R19: the winner who takes the parrot acts at once; the duel's end (and its spoils) is one event, so the
    replay in words does not report a second spoils line ("wins the duel and takes ...") after the parrot's action."""
    g = Game()
    g.place(0, "M10")
    g.place(1, "M30")
    g.give(1, R.T_PARROT)
    g.roll(1, 1)  # M10 -> M20, next to seat 1 on M30
    g.move("M20")
    g.act(R.A_DUEL + 1)
    g.act(R.A_WEAPON + 0)
    g.act(R.A_WEAPON + 1)
    g.chance(5)  # attacker 6
    g.chance(0)  # defender 1
    g.act(R.A_STOP)
    g.chance(1)  # seat 1 holds sabre 1 and the parrot: the parrot
    assert g.phase == R.PH_PARROT and g.st[R.S_LOC + R.T_PARROT] == 0
    g.act(R.A_PTOP)
    assert len(g.events(R.E_DUEL_END)) == 1 and g.events(R.E_DUEL_END)[0][2] == R.T_PARROT


def test_c01_reading_b_pirate_on_its_rock_moves_the_other_die():
    """C1 reading B ("after the ghost, the pirate moves the other die") with R13 ("The turn after: it moves normally
    from the rock"): a pirate back on its rock that rolls a 6 moves the other die like any other pirate."""
    g = Game(ghost_die="pirate_moves_other_die")
    g.place(0, "R0")
    g.st[R.S_STATUS] = R.ST_ROCK
    g.roll(6, 2)
    g.act(R.A_GHOST + ID["Q3"])  # the ghost CC -> Q3, far from the rock
    assert g.phase == R.PH_MOVE and g.st[R.S_PIPS] == 2 and g.pos(0) == "R0"
    assert g.options() == {"P05", "P07"}  # rock -> shore P06 -> P05 / P07


def test_c02_blocked_by_a_pirate_stops_in_front_and_may_duel():
    """Rulebook 1: "If the way is blocked, you must stop in front of the obstacle or take another route"; rulebook 8:
    "Whoever stops directly next to another foreign pirate *may* challenge it". GG 4.3.2: "if no path of exactly the
    rolled length exists, move the longest legal distance". A pirate blocked by another pirate stops in front of it
    (the longest move) and may challenge it, but need not: stopping short *by choice* is what obliges the duel (R5)."""
    g = Game()
    g.place(1, "P02")
    g.roll(1, 3)  # 4 pips, P02 blocks the path: P01 is the longest move
    assert g.options() == {"P01"} and not g.opt("P01") & R.OPT_SHORT
    g.move("P01")
    assert g.phase == R.PH_DUEL_Q and g.mask()[R.A_PASS] and g.mask()[R.A_DUEL + 1]


def test_r20_no_duel_without_moving_a_space():
    """Rulebook 8: "Whoever begins their turn next to another pirate may not fight straight away; they must first roll
    the dice and move at least one space." A pirate blocked on both sides, or whose 6 moved the ghost, may not
    challenge the pirate next to it."""
    g = Game()
    g.place(0, "P01")
    g.place(1, "P02")
    g.place(2, "P00")  # blocked on both sides of its path
    g.roll(1, 1)
    assert g.events(R.E_BLOCKED) and g.phase == R.PH_CHANCE and g.cur == 1 and not g.events(R.E_DUEL)
    g = Game()
    g.place(0, "M10")
    g.place(1, "M20")
    g.ghost_to("Q3")
    g.roll(6, 1)  # the ghost moves instead of the pirate
    g.act(R.A_GHOST + ID["Q1"])
    assert g.phase == R.PH_CHANCE and g.cur == 1 and not g.events(R.E_DUEL)


def test_c10_an_emptied_chest_gives_nothing_to_a_later_visitor():
    """Rulebook 6: "Then close the chest again and return it to its place." A later visitor with the key finds the
    chest empty: it peeks, opens nothing, takes nothing."""
    g = Game()
    g.place(0, "M10")
    g.roll(1, 2)
    g.move("C0")  # blank sticker: seat 0 takes gold 1
    assert 6 in g.tiles(0) and g.st[R.S_EMPTY] & 1
    g.place(0, "P00")  # out of the way
    g.place(1, "M10")
    g.roll(1, 2)  # seat 1 into the emptied C0
    g.move("C0")
    assert g.tiles(1) == [1] and len(g.events(R.E_OPEN)) == 1 and len(g.events(R.E_PEEK)) == 2
