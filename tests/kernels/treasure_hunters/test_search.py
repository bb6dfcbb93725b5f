"""Treasure Hunters' search players (issue 22): the `search` hunter and the `haunter_search` Head Haunter, their
hidden-information permutation test (a search decision depends only on what its seat sees), their action names."""

from __future__ import annotations

import numpy as np
import pytest

from kernels.treasure_hunters import play as PL
from kernels.treasure_hunters import rules as R
from kernels.treasure_hunters import step
from tests.kernels.treasure_hunters._kit import new_log, roll

BUDGET = 48


def _decision(path, haunter, cap=12):
    """(search scenario, prm, state): game 3 of ``path`` with random seats cut after ``cap`` hunter turns, then the
    next turn started and its movement die forced: a ghost face for the Head Haunter's card play (``haunter``), a
    6 for the hunter's move. The deciding seat has several legal actions."""
    from sim.model.scenario import load
    from tests.kernels.test_sample_hidden import _th_state

    _, _, prm, st = _th_state(path, cap)  # every seat random
    st[R.S_OUTCOME] = R.OUT_NONE  # the cut game goes on: its next turn starts
    log = new_log()
    R.start_turn(st, prm, log)
    roll(st, prm, log, 2 if haunter else 6, ghost=haunter)  # the default die's one face without the ghost is 6
    if st[R.S_PHASE] == R.PH_SIX_PICK:  # R37: a 6 discards a hand card (face up) before the hunter moves
        R.apply_chance(st, prm, 0, log)
    assert R.check_invariants(st, prm) == 0
    sc = load(path)
    sc = sc.with_changes(seats=tuple(type(s)(s.strategy, {**s.params, "budget": BUDGET}) for s in sc.seats))
    assert np.array_equal(prm, sc.prm())
    return sc, prm, st


def _search(play_batch, sc, prm, st, search=None):
    """(action, root actions, visits, wins) of the search decision at ``st`` on a fixed seat stream (in ``search``,
    default a fresh `search_scratch` of ``sc``)."""
    from sim.model.search import search_scratch

    search = search_scratch(sc, PL) if search is None else search
    ws = PL.batch_scratch(sc.players, prm)
    ws.st[:] = st
    nl = step.legal_actions(ws.st, prm, ws)
    assert nl > 1
    seat = int(R.decision_seat(ws.st))
    a = play_batch.search_decide(search, ws.st, prm, sc.players, seat, sc.sparams(), seed=21, game=5)
    k = int(nl)
    return int(a), search.acts[:k].tolist(), search.visits[:k].tolist(), search.wins[:k].tolist()


def _other_world(st, seat, prm):
    """A second true state: ``st`` with what ``seat`` cannot see re-dealt on another stream."""
    from tests.kernels.test_sample_hidden import _resample

    other, _, _ = _resample(step, st, seat, prm, 77, PL.batch_scratch(4, prm))
    assert not np.array_equal(other, st)
    return other


CASES = {
    "advanced hunter": ("scenarios/treasure_hunters/search-advanced-4p.toml", False),
    "Head Haunter game hunter": ("scenarios/treasure_hunters/search-head-haunter-4p.toml", False),
    "Head Haunter": ("scenarios/treasure_hunters/search-head-haunter-4p.toml", True),
}


@pytest.fixture(scope="module", params=sorted(CASES))
def two_worlds(request):
    path, haunter = CASES[request.param]
    sc, prm, st = _decision(path, haunter)
    if not haunter and sc.params["mode"] == "head_haunter":  # a hunter seat searches, the haunter is scripted
        seats = (type(sc.seats[0])("haunter_weighted", {}),) + tuple(
            type(s)("search", {"budget": BUDGET}) for s in sc.seats[1:]
        )
        sc = sc.with_changes(seats=seats)
    seat = int(R.decision_seat(st))
    assert (seat == 0) == haunter
    return request.param, sc, prm, st, _other_world(st, seat, prm)


def _rooted(sc, root, budget=BUDGET, **params):
    """``sc`` with every search seat's root allocation ``root``, budget ``budget`` and any other ``params``."""
    from sim.model.search import is_search

    seats = tuple(
        type(s)(s.strategy, {**s.params, "root": root, "budget": budget, **params}) if is_search(sc, i) else s
        for i, s in enumerate(sc.seats)
    )
    return sc.with_changes(seats=seats)


@pytest.mark.parametrize("root", ["ucb1", "halving"])
def test_search_decides_the_same_in_two_worlds_its_seat_cannot_tell_apart(two_worlds, root):
    """Face-down jewel numbers, the pile's order and (for a hunter) the Head Haunter's hand re-dealt: the same
    visits, wins and chosen action, whichever way the rollouts are spread."""
    _, sc, prm, st, other = two_worlds
    sc = _rooted(sc, root)
    a = _search(PL.play_batch, sc, prm, st)
    b = _search(PL.play_batch, sc, prm, other)
    assert sum(a[2]) == BUDGET and len(a[1]) > 1
    assert a == b


@pytest.mark.parametrize("root, budget", [("ucb1", BUDGET), ("halving", 4 * BUDGET)])
def test_search_permutation_test_fails_on_a_deliberate_leak(two_worlds, root, budget):
    """The same search with `sample_hidden` re-dealing nothing (tests/kernels/search_kit.py `leaky`): its rollouts
    read the true world, and the two worlds give different estimates. (Halving's equal rounds react to the results
    only at round ends: in the advanced game, where hunters rarely win, it needs more rollouts to show the leak.)"""

    from tests.kernels.search_kit import leaky as leaky_kernel

    name, sc, prm, st, other = two_worlds
    if name != "advanced hunter":
        pytest.skip("one leaky kernel is enough (its compile is the cost)")
    sc = _rooted(sc, root, budget)
    leaky = leaky_kernel(PL, step, "treasure_hunters_leak").play_batch
    assert _search(leaky, sc, prm, st) != _search(leaky, sc, prm, other)


# ---- the strategies and their replay --------------------------------------------------------------------------------
def test_search_is_a_strategy_of_each_role_with_its_roles_other_strategies_as_rollouts():
    """The rollouts of each role's search are its role's other strategies; the Head Haunter's default since
    2026-12-07 is its learned player, and the hunters' theirs (each stronger at equal budget: docs/guide/learned.md)."""
    from sim.games.treasure_hunters import HAUNTER_ROLLOUTS, HUNTER_ROLLOUTS, SPEC
    from sim.model.search import SEARCH_SID

    for name, role, rollouts, default in (
        ("search", "hunter", HUNTER_ROLLOUTS, "learned"),
        ("haunter_search", "haunter", HAUNTER_ROLLOUTS, "haunter_learned"),
    ):
        st = SPEC.strategy(name)
        assert st.sid == SEARCH_SID and st.role == role
        rollout = next(p for p in st.params if p.name == "rollout")
        scripted = {s.name for s in SPEC.strategies if s.sid != SEARCH_SID and s.role == role}
        assert rollout.default == default and set(rollout.domain) == set(rollouts) == scripted


def test_search_seats_play_their_rollout_strategy_in_rollouts():
    from sim.games.treasure_hunters import SPEC
    from sim.model.scenario import load
    from sim.model.search import has_search, rollout_seats

    sc = load("scenarios/treasure_hunters/search-head-haunter-4p.toml")
    assert has_search(sc)
    sids, _ = rollout_seats(sc)
    assert list(sids) == [SPEC.strategy(n).sid for n in ("haunter_weighted", "weighted", "weighted", "weighted")]
    sc = load("scenarios/treasure_hunters/search-basic-4p.toml")
    sids, _ = rollout_seats(sc)
    assert list(sids) == [SPEC.strategy("weighted").sid] * 4


@pytest.mark.parametrize(
    "seat, message",
    [
        ({"strategy": "search", "params": {"budget": 0}}, "budget"),
        ({"strategy": "search", "params": {"rollout": "haunter_weighted"}}, "rollout"),
        ({"strategy": "haunter_search"}, "Head Haunter strategy"),
    ],
)
def test_a_bad_search_seat_is_refused_in_one_line(seat, message):
    from sim.model.scenario import ScenarioError, from_dict

    doc = {
        "scenario": {"game": "treasure_hunters", "players": 4},
        "params": {"mode": "basic"},
        "seats": [seat, {"strategy": "weighted"}, {"strategy": "weighted"}, {"strategy": "weighted"}],
    }
    with pytest.raises(ScenarioError, match=message) as e:
        from_dict(doc)
    assert "\n" not in str(e.value)


def test_every_action_has_its_own_name_in_replay():
    from sim.games.treasure_hunters import action_name
    from tests.kernels.treasure_hunters._kit import BOARD, prm_of

    prm = prm_of("head_haunter")
    nodes = 1 + R.N_ROOMS + len(BOARD.hallway)
    names = [action_name(R.A_MOVE + v, prm, BOARD.node_name) for v in range(nodes)]
    names += [action_name(a, prm) for a in range(R.A_PASS, R.A_SPOOK + 4)]
    assert len(set(names)) == len(names)
    assert action_name(R.A_MOVE, prm, BOARD.node_name) == "end the move on outside"
    assert action_name(R.A_PICK + 0, prm) == "pick up the jewel from room A"
    assert action_name(R.A_MOVEG + 3 * 2 + 1, prm) == "Move Ghost from room D down the alphabet"


def test_replay_shows_each_search_decision_with_its_candidates():
    from sim.games.treasure_hunters import replay
    from sim.model.scenario import load

    sc = load("scenarios/treasure_hunters/search-head-haunter-4p.toml")
    sc = sc.with_changes(seats=(type(sc.seats[0])("haunter_search", {"budget": 8}),) + sc.seats[1:])
    lines = replay(sc, 1)
    decisions = [x for x in lines if x.startswith("  search: ")]
    end = next(i for i, x in enumerate(lines) if x.startswith("final after"))
    assert decisions and lines.index(decisions[-1]) < end  # each where it was made, among the game's events
    assert decisions and all(x.startswith("  search: seat 0 (haunter_search), game decision ") for x in decisions)
    assert all(", 8 rollouts: chose " in x and "% of " in x for x in decisions)
    assert any("chose play hand card" in x for x in decisions)
    # every hand card named by what the slot holds then (the log's E_HAND draws, less the cards played or lost to a
    # 6), and the card a decision chose is the one the Head Haunter then plays
    import re

    assert all(re.findall(r"play hand card \d+(?! \()", x) == [] for x in decisions)
    for i, x in enumerate(lines[:-1]):
        chose = re.match(r"  search: .*: chose play hand card \d+ \((.*)\)\n", x)
        if chose:
            assert lines[i + 1] == f"  the Head Haunter plays {chose.group(1)}", (x, lines[i + 1])
    # a target the search chose follows its block, which split it from its card: the card is named again (a fresh
    # user read "    on the ghost in room C up the alphabet" there as a stray line)
    after = [lines[i + 1] for i, x in enumerate(lines[:-1]) if x.startswith("  search: ")]
    targets = [x for x in after if x.startswith("    ") and " on " in x]
    assert targets and all(not x.startswith("    on ") for x in targets), targets
