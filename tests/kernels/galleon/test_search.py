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
    ws[0][0][:] = st
    nl = R.legal_actions(ws[0][0], prm, ws[0][2])
    a = play_batch.search_decide(search, ws[0][0], prm, 4, 0, sc.sparams(), seed=21, game=5)
    k = int(nl)
    return int(a), search[4][:k].tolist(), search[5][:k].tolist(), search[6][:k].tolist()


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
def test_h2_search_is_a_strategy_of_the_pirates_with_scripted_rollouts():
    from sim.games.galleon import ROLLOUTS, SPEC
    from sim.model.search import SEARCH_SID, rollout_seats

    st = SPEC.strategy("search")
    assert st.sid == SEARCH_SID and st.role == "player"
    rollout = next(p for p in st.params if p.name == "rollout")
    scripted = {s.name for s in SPEC.strategies if s.sid != SEARCH_SID}
    assert rollout.default == "raider" and set(rollout.domain) == set(ROLLOUTS) <= scripted
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
