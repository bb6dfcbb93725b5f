"""The search player in Ghostly Galleon: its re-deal of what a seat cannot see (RULES.md H1, `kernels.galleon.hidden`)
keeps everything the seat saw and depends on nothing else, and a search decision is the same in two worlds the seat
cannot tell apart (it fails on a deliberate leak)."""

from __future__ import annotations

import numpy as np
import pytest

from kernels.galleon import play as PL
from kernels.galleon import rules as R
from kernels.galleon import step
from kernels.rng import N_STREAMS_MAX, seed_game
from tests.kernels.galleon._kit import Game
from tests.kernels.galleon.test_play import _replay_states, scenario

ROW = 3


def _redeal(st, seat, seed, prm):
    rng = np.zeros((N_STREAMS_MAX, 4), np.uint64)
    seed_game(rng, np.uint64(seed), np.uint64(0), np.int64(0), np.int64(4))
    x = st.copy()
    step.sample_hidden(x, np.int64(seat), prm, rng, np.int64(ROW), PL.batch_scratch(4, prm))
    return x


def _worlds(g, seat, seeds=range(12)):
    return [_redeal(g.st, seat, s, g.prm) for s in seeds]


def _held(x, s):
    return [t for t in range(R.N_TILES) if x[R.S_LOC + t] == s]


def _rich_game():
    """Seat 0 opened cabin 0's chest (gold 1). Rival 1 lost nothing, opened cabin 1's chest (gold 2) with key 1
    (tile 13). Rival 2 lost its sabre to the cave, then drew pistol 5 and showed it in a duel. Rival 3 opened cabin
    5's chest (the bottle) with key 4 (tile 16), showed its sabre, then lost key 4 to the cave. The stack, bottom to
    top: pistol 4, the parrot (never drawn), keys 14, 15, 17."""
    g = Game()
    g.give(0, R.T_GOLD)
    g.give(1, R.T_KEY, R.T_GOLD + 1)
    g.give(2, R.T_PISTOL + 1)
    g.give(3, R.T_BOTTLE)
    g.give(R.LOC_CAVE, R.T_KEY + 3)
    g.st[R.S_LOC + 2] = R.LOC_CAVE
    for seat, cabin, key in ((0, 0, 0), (1, 1, 1), (3, 5, 4)):
        g.st[R.S_EMPTY] |= 1 << cabin
        g.st[R.S_OPENED_BY + seat] = 1
        g.st[R.S_PEEKED + seat] |= 1 << cabin
        g.st[R.S_KEYS_SHOWN + seat] |= (1 << key) if key else 0
    g.st[R.S_LOST + 2] = 1
    g.st[R.S_SHOWN_W + 2] = R.W_PISTOL
    g.st[R.S_LOST_AT_SHOW + 2] = 1
    g.st[R.S_SHOWN_W + 3] = R.W_SABRE
    g.st[R.S_LOST_AT_SHOW + 3] = 0
    g.st[R.S_LOST + 3] = 1
    g.ok()
    assert [int(t) for t in g.st[R.S_STACK : R.S_STACK + g.st[R.S_NSTACK]]] == [4, 12, 14, 15, 17]
    return g


def test_h1_redeal_keeps_a_rivals_dealt_sabre_while_it_lost_nothing():
    g = _rich_game()
    moved = set()
    for x in _worlds(g, 0):
        assert x[R.S_LOC + 1] == 1  # rival 1 lost nothing: its sabre (tile 1, R1) is public
        moved.add(int(x[R.S_LOC + 3]))  # rival 3 lost a tile: its sabre may be anywhere
    assert len(moved) > 1


def test_h1_redeal_keeps_a_shown_weapon_until_its_holder_loses_a_tile():
    g = _rich_game()
    sabre3 = False
    for x in _worlds(g, 0):
        assert any(R.T_PISTOL <= t < R.T_GOLD for t in _held(x, 2))  # showed a pistol, lost nothing since
        sabre3 |= not any(t < R.T_PISTOL for t in _held(x, 3))  # showed a sabre, then lost a tile
    assert sabre3


def test_h1_redeal_keeps_the_keys_and_chest_tiles_of_a_rival_that_lost_nothing():
    g = _rich_game()
    for x in _worlds(g, 0):
        held = _held(x, 1)
        assert any(R.T_KEY <= t and g.prm[R.P_KEY_TILES + t - R.T_KEY] == 1 for t in held)
        assert any(R.T_GOLD <= t < R.T_PARROT for t in held)


def test_h1_redeal_closed_chests_hold_gold_or_the_bottle_and_the_stack_its_own_kinds():
    g = _rich_game()
    for x in _worlds(g, 0):
        for c in range(6):
            inside = _held(x, R.LOC_CHEST + c)
            assert (len(inside) == 0) == bool((x[R.S_EMPTY] >> c) & 1)
            assert all(R.T_GOLD <= t < R.T_PARROT for t in inside)
        stack = [int(t) for t in x[R.S_STACK : R.S_STACK + x[R.S_NSTACK]]]
        assert sorted(stack) == _held(x, R.LOC_STACK)
        assert all(R.T_PISTOL <= t < R.T_GOLD or t >= R.T_PARROT for t in stack)
        assert R.check_invariants(x, g.prm) == 0


def test_h1_redeal_a_key_type_shown_is_never_on_the_stack():
    """Rival 2 showed key 2 (tile 14) and lost a tile since: it may hold it or not, but keys never go back."""
    g = _rich_game()
    g.give(2, R.T_KEY + 1)
    g.st[R.S_KEYS_SHOWN + 2] |= 1 << 2
    places = set()
    for x in _worlds(g, 0, range(24)):
        assert x[R.S_LOC + R.T_KEY + 1] != R.LOC_STACK
        places.add(int(x[R.S_LOC + R.T_KEY + 1]))
    assert len(places) > 1


def test_h1_redeal_the_parrot_keeps_its_place_only_once_drawn():
    g = _rich_game()
    spots = {int(np.flatnonzero(x[R.S_STACK : R.S_STACK + 5] == R.T_PARROT)[0]) for x in _worlds(g, 0)}
    assert len(spots) > 1  # never drawn: its place in the stack is hidden
    g.give(0, R.T_PARROT)  # drawn, then flown back: on top (nothing else is ever put back)
    R.stack_push(g.st, R.T_PARROT)
    g.st[R.S_PARROT_SEEN] = 1
    for x in _worlds(g, 0):
        assert x[R.S_STACK + x[R.S_NSTACK] - 1] == R.T_PARROT


def test_c12_a_defender_choosing_its_weapon_has_not_seen_the_attackers():
    """Rival 1 challenged seat 0 and chose its weapon; seat 0 chooses at once (C12): the re-deal is the same whatever
    rival 1 chose, and rival 1 fights with the best weapon it holds in that world."""
    worlds = []
    for w in (R.W_NONE, R.W_SABRE):
        g = _rich_game()
        g.st[R.S_DUEL_ATT] = 1
        g.st[R.S_DUEL_DEF] = 0
        g.st[R.S_PHASE] = R.PH_WEAPON
        g.st[R.S_STAGE] = R.SG_WAIT
        g.st[R.S_ACTOR] = 0
        g.st[R.S_WA] = w
        g.st[R.S_SHOWN_W + 1] = w
        g.st[R.S_DUELS_ATT + w] += 1
        worlds.append(_redeal(g.st, 0, 5, g.prm))
    assert np.array_equal(worlds[0], worlds[1])
    x = worlds[0]
    assert x[R.S_WA] == R.best_weapon(x, 1) == x[R.S_SHOWN_W + 1]


def _decisions(seed=11, games=2):
    sc = scenario(4, ("raider", "treasure", "raider", "cautious"), seed=seed)
    return sc.prm(), [st for g in range(games) for st in _replay_states(sc, g)]


def test_h1_redeal_is_canonical_two_states_a_seat_cannot_tell_apart_give_the_same_world():
    """From decisions of whole games (duels, keys, peeks, the parrot): a second true state made by re-dealing the
    first (it differs only in what the deciding seat cannot see) gives the same world on the same stream. Gathering
    the hidden tiles in their true order before the shuffle (the version before issue 22) fails this."""
    prm, states = _decisions()
    differ = pins = 0
    for i, st in enumerate(states[::7]):
        seat = int(st[R.S_ACTOR])
        other = _redeal(st, seat, 1000 + i, prm)
        differ += not np.array_equal(other, st)
        pins += any(st[R.S_SHOWN_W + r] > 0 or st[R.S_KEYS_SHOWN + r] for r in range(4) if r != seat)
        assert np.array_equal(_redeal(st, seat, i, prm), _redeal(other, seat, i, prm)), (i, seat)
    assert differ > 20 and pins > 5


# ---- the search decision ------------------------------------------------------------------------------------------
def _search_case(budget=48):
    """(scenario with a search seat 0, its prm, a mid-game decision state of seat 0 with several legal actions)."""
    from sim.model.scenario import load

    sc = load("scenarios/galleon/search-4p.toml")
    sc = sc.with_changes(seats=(type(sc.seats[0])("search", {"budget": budget, "rollout": "raider"}),) + sc.seats[1:])
    prm, states = _decisions(games=1)
    assert np.array_equal(prm, sc.prm())
    st = next(s for s in states[len(states) // 3 :] if s[R.S_ACTOR] == 0 and s[R.S_PHASE] == R.PH_MOVE)
    return sc, prm, st


def _search(play_batch, sc, prm, st):
    from sim.model.search import search_scratch

    search = search_scratch(sc, PL)
    ws = PL.batch_scratch(4, prm)
    ws.work.st[:] = st
    nl = R.legal_actions(ws.work.st, prm, ws.work.mask)
    a = play_batch.search_decide(search, ws.work.st, prm, 4, 0, sc.sparams(), seed=21, game=5)
    k = int(nl)
    return int(a), search.acts[:k].tolist(), search.visits[:k].tolist(), search.wins[:k].tolist()


@pytest.fixture(scope="module")
def two_worlds():
    sc, prm, st = _search_case()
    other = _redeal(st, 0, 77, prm)
    assert not np.array_equal(other, st)
    return sc, prm, st, other


def test_h2_search_decides_the_same_in_two_worlds_its_seat_cannot_tell_apart(two_worlds):
    sc, prm, st, other = two_worlds
    a = _search(PL.play_batch, sc, prm, st)
    b = _search(PL.play_batch, sc, prm, other)
    assert sum(a[2]) == 48
    assert a == b


def test_h2_search_permutation_test_fails_on_a_deliberate_leak(two_worlds):
    """The same search with `sample_hidden` re-dealing nothing (tests/kernels/search_kit.py `leaky`): its rollouts
    read the true world, and the two worlds give different estimates."""

    from tests.kernels.search_kit import leaky as leaky_kernel

    leaky = leaky_kernel(PL, step, "galleon_leak").play_batch
    sc, prm, st, other = two_worlds
    assert _search(leaky, sc, prm, st) != _search(leaky, sc, prm, other)


# ---- the strategy and its replay ----------------------------------------------------------------------------------
def test_h2_search_is_a_strategy_of_the_pirates_with_learned_rollouts_by_default():
    from sim.games.galleon import ROLLOUTS, SPEC
    from sim.model.search import SEARCH_SID, rollout_seats

    st = SPEC.strategy("search")
    assert st.sid == SEARCH_SID and st.role == "player"
    rollout = next(p for p in st.params if p.name == "rollout")
    scripted = {s.name for s in SPEC.strategies if s.sid != SEARCH_SID}
    assert rollout.default == "learned" and set(rollout.domain) == set(ROLLOUTS) <= scripted
    # the learned pirate's rollouts with sequential halving and a one-standard-error margin (the default since
    # 2026-12-07: stronger at equal budget than `raider` with UCB1, docs/guide/learned.md)
    defaults = {p.name: p.default for p in st.params}
    assert defaults["root"] == "halving" and defaults["deviate"] == 1.0
    sc, _, _ = _search_case()
    sids, _ = rollout_seats(sc)
    assert list(sids) == [SPEC.strategy(n).sid for n in ("raider", "treasure", "raider", "cautious")]


def test_h2_every_action_has_its_own_name_in_replay():
    from sim.games.galleon import action_name
    from tests.kernels.galleon._kit import BOARD

    prm = Game().prm
    names = [action_name(a, prm, BOARD) for a in range(R.A_WHIRL, R.N_ACTIONS)]
    names += [action_name(base + v, prm, BOARD) for base in (R.A_MOVE, R.A_GHOST) for v in range(BOARD.n)]
    assert len(set(names)) == len(names)
    assert action_name(R.A_WEAPON + R.W_PISTOL, prm) == "fight with a pistol"
    assert action_name(R.A_PPEEK + 3, prm) == "parrot: peek at cabin 3"


# ---- issue 35: what the seat saw survives the re-deal (H2 a-e) ---------------------------------------------------
def _states(n, strategies, games, seed=11):
    """(prm, decision states with several legal actions) of ``games`` scripted games at ``n`` players."""
    sc = scenario(n, strategies, seed=seed)
    return sc.prm(), [st for g in range(games) for st in _replay_states(sc, g)]


@pytest.fixture(scope="module")
def small_tables():
    """Decision states of scripted games at 2 and 3 players (the cave holds 2 and 1 set-up sabres)."""
    return {n: _states(n, ("raider", "treasure", "cautious"), 6) for n in (2, 3)}


def test_h2a_the_records_are_true_in_every_state_of_real_games(small_tables):
    """The public records the re-deal pins (S_CAVE_IN, S_CAVE_SABRES, S_STACK_DRAWS) and the seat's own (S_HELD,
    S_KNOWN) agree with the true state wherever they can be checked against it."""
    cave_closed = sure = draws = known = 0
    for n, (_, states) in small_tables.items():
        for st in states:
            if st[R.S_CAVE_IN] == 0:  # nothing ever went in: the cave holds only set-up sabres (R1)
                cave_closed += 1
                assert all(n <= t < R.T_PISTOL for t in _held(st, R.LOC_CAVE))
            for s in range(n):
                held = _held(st, s)
                assert all((st[R.S_HELD + s] >> t) & 1 for t in held)
                cave = [t for t in held if n <= t < R.T_PISTOL]
                assert len(cave) >= st[R.S_CAVE_SABRES + s]
                assert sum(R.T_PISTOL <= t < R.T_GOLD or t >= R.T_KEY for t in held) >= st[R.S_STACK_DRAWS + s]
                sure += st[R.S_CAVE_SABRES + s] > 0
                draws += st[R.S_STACK_DRAWS + s] > 0
            for t in range(R.N_TILES):
                for s in range(n):
                    if (st[R.S_KNOWN + t] >> s) & 1:
                        known += 1
                        assert st[R.S_LOC + t] != s and (st[R.S_HELD + s] >> t) & 1
    assert cave_closed > 50 and sure > 20 and draws > 20 and known > 20


def _cave_breaks(prm, states, seeds=range(8)):
    """(re-deals, those putting anything but a set-up sabre into a cave nothing ever went into)."""
    deals = bad = 0
    for i, st in enumerate(states):
        if st[R.S_CAVE_IN] != 0 or not _held(st, R.LOC_CAVE):
            continue
        n = int(st[R.S_N])
        seat = int(st[R.S_ACTOR])
        for s in seeds:
            x = _redeal(st, seat, 100 * i + s, prm)
            deals += 1
            bad += any(not (n <= t < R.T_PISTOL) for t in _held(x, R.LOC_CAVE))
    return deals, bad


@pytest.mark.parametrize("n", [2, 3])
def test_h2b_while_no_tile_went_into_the_large_cave_it_holds_only_set_up_sabres(small_tables, n):
    """Issue 35 item 4: at 2 and 3 players the cave holds its set-up sabres (tiles n..3) until a pirate loses a tile
    overboard; before the fix 9.6% (2 players) and 1.5% (3 players) of the search's re-deals put a pistol, key or
    gold there (and a sabre in a rival's hand). A rival that drew from such a cave holds those sabres."""
    prm, states = small_tables[n]
    deals, bad = _cave_breaks(prm, states)
    assert deals > 200 and bad == 0
    pinned = 0
    for i, st in enumerate(states):
        seat = int(st[R.S_ACTOR])
        if any(r != seat and st[R.S_CAVE_SABRES + r] for r in range(n)):
            x = _redeal(st, seat, i, prm)
            for r in range(n):
                if r != seat and st[R.S_CAVE_SABRES + r]:
                    pinned += 1
                    assert sum(n <= t < R.T_PISTOL for t in _held(x, r)) >= st[R.S_CAVE_SABRES + r]
    assert pinned >= 5


def test_h2c_the_tiles_the_seat_lost_stay_where_they_went():
    """Seat 0 loses gold 5 overboard (to the cave), key 13 to rival 1 (a duel) and gold 4 to rival 2 (a parrot
    steal): it saw each tile leave and who took it, so every re-deal keeps them there; once rival 1 loses a tile face
    down, key 13 may be anywhere rival 1's tiles may be."""
    g = Game()
    g.give(0, R.T_GOLD + 4, R.T_KEY, R.T_GOLD + 3)

    def lose(frm, to, tile):
        R.tile_draw(g.st, frm, to, R.SG_END, len(g.tiles(frm)))
        g.chance(g.tiles(frm).index(tile))

    lose(0, R.LOC_CAVE, R.T_GOLD + 4)
    lose(0, 1, R.T_KEY)
    lose(0, 2, R.T_GOLD + 3)
    assert g.st[R.S_LOST] == 3 and g.st[R.S_CAVE_IN] == 1
    for x in _worlds(g, 0, range(24)):
        assert x[R.S_LOC + R.T_GOLD + 4] == R.LOC_CAVE
        assert x[R.S_LOC + R.T_KEY] == 1 and x[R.S_LOC + R.T_GOLD + 3] == 2
        assert x[R.S_LOC + 1] == 1  # and rival 1's dealt sabre (it lost nothing)
    assert len({int(x[R.S_LOC + R.T_KEY]) for x in _worlds(g, 3, range(24))}) > 1
    lose(1, 3, R.T_KEY)  # rival 1 loses key 13 face down: seat 0 does not see which tile went
    assert g.st[R.S_KNOWN + R.T_KEY] == 1 << 1  # the loser knows it
    assert {int(x[R.S_LOC + R.T_KEY]) for x in _worlds(g, 0, range(24))} != {3}
    for x in _worlds(g, 1, range(24)):
        assert x[R.S_LOC + R.T_KEY] == 3


def test_h2c_the_tiles_the_seat_lost_survive_every_re_deal_of_real_games(small_tables):
    kept = 0
    for prm, states in small_tables.values():
        for i, st in enumerate(states[::2]):
            seat = int(st[R.S_ACTOR])
            mine = [t for t in range(R.N_TILES) if (st[R.S_KNOWN + t] >> seat) & 1]
            x = _redeal(st, seat, i, prm)
            assert R.check_invariants(x, prm) == 0
            assert sorted(x[R.S_LOC : R.S_LOC + R.N_TILES]) == sorted(st[R.S_LOC : R.S_LOC + R.N_TILES])  # counts
            for t in mine:
                kept += 1
                assert x[R.S_LOC + t] == st[R.S_LOC + t]
    assert kept > 20


def test_h2d_a_rivals_draw_from_the_stack_that_was_not_the_parrot_is_a_pistol_or_a_key():
    """Rival 1 enters the captain's cabin and draws the top tile (key 17, not the parrot: the table saw no parrot
    act), then opens nothing: in every re-deal it holds a pistol or a key beside its dealt sabre."""
    g = Game()
    g.give(0, R.T_PISTOL, R.T_PISTOL + 1, R.T_KEY, R.T_KEY + 1)  # seat 0 holds the rest of the stack's pistols
    assert R.stack_pop(g.st, 1) == R.T_KEY + 4
    assert g.st[R.S_STACK_DRAWS + 1] == 1
    for x in _worlds(g, 0, range(24)):
        held = _held(x, 1)
        assert 1 in held and any(t >= R.T_KEY for t in held)
    R.tile_draw(g.st, 1, 2, R.SG_END, 2)  # it loses one of its two tiles face down: the record is void
    g.chance(0)
    assert g.st[R.S_STACK_DRAWS + 1] == 0
    assert any(not any(t >= R.T_KEY for t in _held(x, 1)) for x in _worlds(g, 0, range(24)))


def test_h2d_a_rivals_stack_draws_hold_in_every_re_deal_of_real_games(small_tables):
    pinned = 0
    for n, (prm, states) in small_tables.items():
        for i, st in enumerate(states[1::3]):
            seat = int(st[R.S_ACTOR])
            x = _redeal(st, seat, i, prm)
            for r in range(n):
                d = int(st[R.S_STACK_DRAWS + r])
                if r != seat and d:
                    pinned += 1
                    mine = [t for t in _held(x, r) if not (st[R.S_KNOWN + t] >> seat) & 1]
                    assert sum(R.T_PISTOL <= t < R.T_GOLD or t >= R.T_KEY for t in mine) >= d
    assert pinned > 10


def test_h2e_a_tile_the_seat_held_is_never_re_dealt_into_a_chest_or_onto_the_stack():
    """Seat 0 drew keys 17 and 16 from the stack and lost key 17 to rival 2 in a duel; rival 2 then lost a tile face
    down to rival 3, so seat 0 no longer knows where key 17 is: it may be with rival 2 or 3, never on the stack
    (nothing but the parrot goes back onto it; before issue 35 the re-deal could put it there)."""
    g = Game()
    for _ in range(2):
        R.stack_pop(g.st, 0)  # keys 17, 16
    R.tile_draw(g.st, 0, 2, R.SG_END, 3)
    g.chance(2)  # seat 0's tiles 0, 16, 17: key 17 to rival 2
    assert g.st[R.S_KNOWN + R.T_KEY + 4] == 1 << 0
    R.tile_draw(g.st, 2, 3, R.SG_END, 2)
    g.chance(0)  # rival 2's tiles 2, 17: its sabre to rival 3, face down
    assert g.st[R.S_KNOWN + R.T_KEY + 4] == 0 and (g.st[R.S_HELD] >> (R.T_KEY + 4)) & 1
    places = set()
    for x in _worlds(g, 0, range(32)):
        assert x[R.S_LOC + R.T_KEY + 4] != R.LOC_STACK
        places.add(int(x[R.S_LOC + R.T_KEY + 4]))
    assert places == {2, 3}


def test_h2f_the_rivals_private_records_do_not_come_from_the_true_world(small_tables):
    """What a rival knows of the tiles it lost (S_KNOWN) and which tiles it held (S_HELD) are its own: the re-deal
    gives each rival only what it holds in the new world, and clears what it knew, so the seat's rollouts never read
    them (the scripted strategies read S_HELD: key_may_be_on_stack)."""
    for n, (prm, states) in small_tables.items():
        for i, st in enumerate(states[::5]):
            seat = int(st[R.S_ACTOR])
            x = _redeal(st, seat, i, prm)
            for r in range(n):
                if r != seat:
                    assert x[R.S_HELD + r] == sum(1 << t for t in _held(x, r))
            assert all(x[R.S_KNOWN + t] == st[R.S_KNOWN + t] & (1 << seat) for t in range(R.N_TILES))
