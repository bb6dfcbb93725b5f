"""Issue 21: what the players know and the readings chosen for it (RULES.md S2b, S3, S5b, H1, C18, C19, R10's
reach). Each test fails under version 2's behaviour (first free whirlpool, trips to a stack known to hold only the
parrot, a rival always assumed to hold a sabre, shores on plain path spaces, standing up without a roll)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kernels.galleon import board as B
from kernels.galleon import rules as R
from kernels.galleon import strategies as S
from kernels.galleon.columns import EXTRA_COLUMNS
from kernels.rng import seed_game
from tests.kernels.galleon._kit import ID, Game
from tests.kernels.tables import per_game_outputs, table

TREASURE = S.ROWS[0]


def _decide(g, sid=S.S_TREASURE, row=TREASURE, rng=None):
    mask = g.mask()
    nl = int(mask.sum())
    if rng is None:
        rng = np.zeros((8, 4), np.uint64)
        seed_game(rng, np.uint64(99), np.uint64(0), 0, 4)
    return int(S.decide(sid, np.asarray(row, np.float64), g.st, g.prm, mask, nl, rng, 1 + int(g.st[R.S_ACTOR])))


def _overboard(g, victim, chooser):
    """A pending whirlpool choice: ``victim`` went overboard, ``chooser`` puts it in."""
    g.st[R.S_NPEND] = 1
    g.st[R.S_PEND] = victim
    g.st[R.S_CHOOSER] = chooser
    g.st[R.S_ACTOR] = chooser
    g.st[R.S_PHASE] = R.PH_WHIRL
    g.st[R.S_STAGE] = R.SG_WAIT


def _reversed_board(tmp_path: Path) -> Path:
    text = B.resolve_path("default").read_text()
    i = text.index("[[whirlpools]]")
    blocks = ["[[whirlpools]]" + b.rstrip() + "\n\n" for b in text[i:].split("[[whirlpools]]")[1:]]
    out = tmp_path / "reversed.toml"
    out.write_text(text[:i] + "".join(reversed(blocks)))
    return out


def test_s5b_reordering_the_whirlpool_list_changes_no_game(tmp_path):
    """Permuting the board file's [[whirlpools]] leaves every game as it was (the use of whirlpool w moves to column
    3 - w): the choice depends on where the whirlpools are, not on their place in the list (version 2 took the
    first free one, so the games differed and seat 0 won 23.7% against seat 3's 26.1%)."""
    rev = str(_reversed_board(tmp_path))
    a = per_game_outputs(table("galleon", "gg", 4, ("treasure", "raider", "cautious", "treasure"), 300, 5), 1, 300)
    b = per_game_outputs(
        table("galleon", "gg", 4, ("treasure", "raider", "cautious", "treasure"), 300, 5, {"board": rev}), 1, 300
    )
    for k in ("scores", "winners", "turns", "status"):
        assert np.array_equal(a[k], b[k]), k
    col = [EXTRA_COLUMNS.index(f"whirlpool_{w}") for w in range(4)]
    assert a["extra"][:, col].sum() > 1000
    assert np.array_equal(a["extra"][:, col], b["extra"][:, col[::-1]])
    rest = [i for i in range(len(EXTRA_COLUMNS)) if i not in col]
    assert np.array_equal(a["extra"][:, rest], b["extra"][:, rest])


def test_s5b_own_pirate_surfaces_nearest_its_goal():
    g = Game()
    g.give(0, R.T_GOLD + 4)  # gold 5: heads home to H0, whose arrow is LA0 (W0)
    g.place(0, "M20")
    _overboard(g, 0, 0)
    assert _decide(g) == R.A_WHIRL + 0


def test_s5b_a_rivals_pirate_surfaces_far_from_its_route():
    """Seat 1 opened a chest (the table sees it may hold gold): it is put where its way home is longest, never at
    its own arrow LA2 (W1); ties between equally far shores are broken at random on the chooser's stream."""
    seen = set()
    for seed in range(40):
        g = Game()
        g.place(1, "M21")
        g.st[R.S_OPENED_BY + 1] = 1
        _overboard(g, 1, 0)
        rng = np.zeros((8, 4), np.uint64)
        seed_game(rng, np.uint64(seed), np.uint64(0), 0, 4)
        seen.add(_decide(g, rng=rng) - R.A_WHIRL)
    d = B.load_board("default").distances()
    far = [
        w
        for w, (_, _, s) in enumerate(B.load_board("default").whirlpools)
        if d[s, ID["H1"]] == max(d[s2, ID["H1"]] for _, _, s2 in B.load_board("default").whirlpools)
    ]
    assert seen == set(far) and 1 not in seen


def test_h1_no_trip_to_a_stack_the_table_knows_holds_only_the_parrot():
    """S3: a pirate needing a key (it peeked at chest 1: key 1) heads for the captain's cabin while the stack holds a
    tile the table does not know, and not when the table saw the parrot fly back onto a stack that was otherwise
    empty (version 2 went there whenever the stack was not empty)."""
    g = Game()
    g.place(0, "M10")
    g.st[R.S_PEEKED] = 1 << 1
    g.st[R.S_EMPTY] = 0b111101  # only chest 1 still closed
    for t in (4, 5, 13, 14, 15, 16, 17):
        g.give(2, t)  # the stack: only the parrot
    assert int(g.st[R.S_NSTACK]) == 1
    raid = 0.0
    assert S.goal_of(g.st, g.prm, 0, raid) == ID["CC"]  # never drawn: the table cannot know it is the parrot
    g.st[R.S_PARROT_SEEN] = 1  # it was drawn and flew back: the top, and all there is
    assert S.goal_of(g.st, g.prm, 0, raid) == ID["H0"]
    assert R.stack_known_useless(g.st)


def test_h1_no_trip_for_a_key_another_seat_showed():
    g = Game()
    g.place(0, "M10")
    g.st[R.S_PEEKED] = 1 << 1  # chest 1 needs key 1 (one key-1 tile: key_tiles)
    g.st[R.S_EMPTY] = 0b110101  # chests 1 and 3 closed, 3 not peeked at
    assert S.goal_of(g.st, g.prm, 0, 0.0) == ID["CC"]  # a key first
    g.st[R.S_KEYS_SHOWN + 2] = 1 << 1  # seat 2 opened a chest with key 1: not on the stack
    assert S.goal_of(g.st, g.prm, 0, 0.0) == ID["C3"]


def test_s2b_win_chance_from_what_the_challenger_knows():
    """A rival that lost no tile still holds its dealt sabre (sabre against sabre: 0.4702); one that showed a pistol
    and lost nothing since holds it (0.3589); one that lost its tiles and holds one tile it may have drawn anywhere
    is likely unarmed (version 2 assumed a sabre for every rival holding a tile)."""
    g = Game()
    win = R.P_DUEL_WIN
    p, _ = S.duel_worth(g.st, g.prm, 0, 1)
    assert p == pytest.approx(g.prm[win + 1 * 3 + 1] / 1e6)
    g.st[R.S_SHOWN_W + 1] = 2
    g.st[R.S_LOST_AT_SHOW + 1] = 0
    assert S.duel_worth(g.st, g.prm, 0, 1)[0] == pytest.approx(g.prm[win + 1 * 3 + 2] / 1e6)
    g.st[R.S_LOST + 1] = 1  # lost a tile since it showed the pistol
    g.give(R.LOC_CAVE, 1)
    g.give(1, R.T_GOLD)
    p, ev = S.duel_worth(g.st, g.prm, 0, 1)
    assert g.prm[win + 4] / 1e6 < p < g.prm[win + 3] / 1e6 and ev > 0


def test_s2b_challenges_a_likely_unarmed_rival_and_not_one_worth_nothing():
    g = Game()
    g.place(0, "M10")
    g.place(1, "M20")
    g.st[R.S_LOST + 1] = 1  # seat 1 lost its sabre; it holds one unknown tile
    g.give(R.LOC_CAVE, 1)
    g.give(1, R.T_GOLD + 2)
    g.st[R.S_MOVED] = 1
    g.st[R.S_PHASE] = R.PH_DUEL_Q
    g.st[R.S_ACTOR] = 0
    g.st[R.S_STAGE] = R.SG_WAIT
    assert _decide(g) == R.A_DUEL + 1  # p about 0.6 > 0.4, worth it
    g.give(0, R.T_GOLD + 4, R.T_GOLD + 3)  # now seat 0 risks gold 5 and 4 for one unknown tile
    assert _decide(g) == R.A_PASS


def test_c18_the_shore_is_a_land_arrow(tmp_path):
    board = B.load_board("default")
    assert all(board.kinds[s] == B.K_LAND_ARROW for _, _, s in board.whirlpools)
    text = B.resolve_path("default").read_text().replace('shore = "LA0"', 'shore = "P06"')
    bad = tmp_path / "bad.toml"
    bad.write_text(text)
    with pytest.raises(
        B.BoardError,
        match=r"whirlpools\[0\]\.shore: 'P06' is a land space; the shore \(C\) is a "
        r"land_arrow space",
    ):
        B.load_board(str(bad))


def test_c19_standing_up_after_a_cannon_rolls_for_the_ghost_or_not():
    for opt in ("roll_for_ghost", "no_roll"):
        g = Game(cannon_standup=opt)
        g.place(1, "P05")
        g.ghost_to("M01")
        g.roll(6, 1)
        g.act(R.A_GHOST + ID["F0"])  # cannon 0 knocks seat 1 down; seat 1's turn
        assert g.events(R.E_STANDUP) == [(1, 0, 0, 0)] and g.st[R.S_STATUS + 1] == R.ST_OK
        if opt == "no_roll":
            assert g.cur == 2  # no roll: seat 2 is on turn
            continue
        assert g.cur == 1 and g.st[R.S_CH_KIND] == R.CH_DICE
        g.roll(2, 3)  # no 6: it stood up, it does not move
        assert g.cur == 2 and g.pos(1) == "P05"
        g = Game(cannon_standup=opt)
        g.place(1, "P05")
        g.ghost_to("M01")
        g.roll(6, 1)
        g.act(R.A_GHOST + ID["F0"])
        g.roll(6, 2)  # a 6 while standing up: the ghost moves
        assert g.phase == R.PH_GHOST and g.cur == 1


def test_c19_ghost_die_b_gives_no_other_die_to_a_pirate_standing_up():
    g = Game(ghost_die="pirate_moves_other_die")
    g.place(1, "P05")
    g.ghost_to("M01")
    g.roll(6, 1)
    g.act(R.A_GHOST + ID["F0"])  # seat 0: after the ghost, moves its other die (1)
    g.move(sorted(g.options())[0])
    g.roll(6, 3)  # seat 1 stands up and rolls a 6
    g.act(R.A_GHOST + sorted(v for v in range(R.MAX_SPACES) if g.mask()[R.A_GHOST + v])[0])
    if g.phase == R.PH_WHIRL:
        g.act(R.A_WHIRL + int(np.flatnonzero(g.mask()[R.A_WHIRL : R.A_WHIRL + 4])[0]))
    assert g.cur == 2 and g.pos(1) == "P05"


def test_r10_ghost_reach_limits_the_ghosts_steps():
    g = Game(ghost_reach=2)
    g.ghost_to("M20")
    g.roll(6, 1)
    d = B.load_board("default").distances()
    assert g.options() and all(d[ID["M20"], ID[v]] <= 2 for v in g.options())
    g6 = Game()
    g6.ghost_to("M20")
    g6.roll(6, 1)
    assert len(g6.options()) > len(g.options())


def test_b10_the_ships_size_is_board_data_a_smaller_ship_plays():
    """B10: the ship's size and layout are the board file's: boards/small_ship.toml (main deck 2 x 3) loads, has 4
    deck spaces fewer than the default, and whole games on it keep every invariant."""
    small, default = B.load_board("small_ship"), B.load_board("default")
    deck = lambda b: sum(k in B.WALK_DECK for k in b.kinds)  # noqa: E731
    assert deck(default) - deck(small) == 4
    sc = table("galleon", "gg", 4, ("treasure", "raider"), 12, 3, {"board": "small_ship"})
    from kernels.galleon import play as PL

    for g in range(12):
        tr = PL.trace_game(np.uint64(sc.seed), np.uint64(0), g, 4, sc.prm(), sc.sids(), sc.sparams(), 1, 1, 1)
        assert tr.status == PL.ST_DONE and tr.turns > 0


def test_s3_a_key_the_seat_drew_and_lost_is_not_on_the_stack():
    """Issue 35 item 5: seat 0 drew the only key-1 tile (13) from the stack and lost it overboard; chest 1 needs key
    1. Keys never go back onto the stack, so no trip to the captain's cabin for it (before the fix the strategy
    counted only the keys it held now, and went)."""
    g = Game()
    g.place(0, "M10")
    g.st[R.S_PEEKED] = 1 << 1  # chest 1 needs key 1 (one key-1 tile: key_tiles)
    g.st[R.S_EMPTY] = 0b110101  # chests 1 and 3 closed, 3 not peeked at
    assert S.key_may_be_on_stack(g.st, g.prm, 0, 1)
    g.give(0, R.T_KEY)
    g.st[R.S_HELD] |= 1 << R.T_KEY
    assert not S.key_may_be_on_stack(g.st, g.prm, 0, 1)  # it holds it
    g.give(R.LOC_CAVE, R.T_KEY)  # lost, face down, into the large cave
    assert not S.key_may_be_on_stack(g.st, g.prm, 0, 1)
    assert S.goal_of(g.st, g.prm, 0, 0.0) == ID["C3"]  # not the captain's cabin
    g.st[R.S_HELD] &= ~(1 << R.T_KEY)  # a seat that never held it may still hope
    assert S.goal_of(g.st, g.prm, 0, 0.0) == ID["CC"]


def test_s3_another_seats_shown_key_may_be_the_one_the_seat_lost():
    """Two key-4 tiles (16, 17 with key_tiles 1, 2, 3, 4, 4): seat 0 drew and lost 16, and seat 2 showed a key 4
    (perhaps 16): one more may still lie on the stack. Seat 0 holding 16 while seat 2 showed key 4: none may."""
    g = Game(key_tiles=[1, 2, 3, 4, 4])
    g.give(R.LOC_CAVE, R.T_KEY + 3)
    g.st[R.S_HELD] |= 1 << (R.T_KEY + 3)
    g.st[R.S_KEYS_SHOWN + 2] = 1 << 4
    assert S.key_may_be_on_stack(g.st, g.prm, 0, 4)
    g.give(0, R.T_KEY + 3)
    assert not S.key_may_be_on_stack(g.st, g.prm, 0, 4)
