"""The search strategy from the Python side: seated like any strategy, its parameters validated, its results the
same on any thread count or block split, the chance stream untouched (paired comparisons against a scripted seat),
its decisions shown by sim replay."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from sim.cli.main import app
from sim.model import registry
from sim.model import search as M
from sim.model.errors import SimError
from sim.model.search import SEARCH, SEARCH_SID
from sim.play import runner
from sim.play.context import RunContext

pytestmark = pytest.mark.kernel  # every test here plays games

REPO = Path(__file__).resolve().parents[2]
MOOR = REPO / "scenarios" / "moor" / "search-4p.toml"
cli = CliRunner()


def _with(*changes):
    from sim.model.overrides import load as load_with
    from sim.model.overrides import parse_set

    return load_with(MOOR, [parse_set(c) for c in changes])


def _small(budget=12):
    return _with(f"seats.0.budget={budget}")


def test_the_kernel_and_the_python_side_agree_on_the_search_id_and_budget_bound():
    from kernels import search as K

    assert SEARCH_SID == K.SEARCH_SID and M.BUDGET_MAX == K.BUDGET_MAX
    assert len(M.GENERIC) == K.N_SEARCH_PARAMS  # the game's extras start where the kernel reads them
    assert M.ROOTS.index("ucb1") == K.ROOT_UCB1 and M.ROOTS.index("halving") == K.ROOT_HALVING


@pytest.mark.parametrize("game", ["moor", "treasure_hunters", "turnwall", "galleon"])
def test_every_role_of_every_game_offers_search(game):
    spec = registry.get(game)
    roles = {s.role for s in spec.strategies}
    offered = {s.role for s in spec.strategies if s.sid == SEARCH_SID}
    assert offered == roles
    assert spec.strategy(SEARCH) is not None  # the players' (or hunters') search is called search
    for s in spec.strategies:
        if s.sid == SEARCH_SID:
            rollouts = next(p for p in s.params if p.name == "rollout").domain
            assert all(spec.strategy(r) is not None and spec.strategy(r).sid != SEARCH_SID for r in rollouts)


def test_results_do_not_depend_on_threads_or_blocks():
    sc = _small()
    one = runner.play_chunk(sc, 0, 16, ctx=RunContext(threads=1))
    two = runner.play_chunk(sc, 0, 16, ctx=RunContext(threads=2))
    halves = [runner.play_chunk(sc, g, 8, ctx=RunContext(threads=2)) for g in (0, 8)]
    for f in ("scores", "winners", "turns", "rounds", "status", "extra"):
        a = getattr(one, f)
        assert np.array_equal(a, getattr(two, f)), f
        assert np.array_equal(a, np.concatenate([getattr(h, f) for h in halves])), f
    assert (one.status == 0).all()


def test_a_search_seat_leaves_the_chance_stream_alone():
    """Common random numbers: seat 0 playing search or its rollout strategy, each game is dealt alike (the deal
    is the game's first chance draws); only seat 0's own stream keys the search."""
    from kernels.moor import play
    from sim.model.search import RECORD_LEN, search_scratch

    sc = _small(8)
    scripted = sc.with_changes(seats=(type(sc.seats[0])("runner", {}),) + sc.seats[1:])
    for g in range(4):
        deals = []
        for s in (sc, scripted):
            out = play.trace_game(
                np.uint64(s.seed),
                np.uint64(0),
                g,
                4,
                s.prm(),
                s.sids(),
                s.sparams(),
                10,
                search=search_scratch(s, play, RECORD_LEN),
            )
            deals.append(out.deal.copy())
        assert np.array_equal(deals[0], deals[1])


@pytest.mark.parametrize(
    "change, words",
    [
        ("seats.0.budget=0", "seats[0].params.budget"),
        ("seats.0.rollout=search", "seats[0].params.rollout"),
        ("seats.0.explore=-1", "seats[0].params.explore"),
        ("seats.0.depth=3", "no parameter 'depth'; allowed: strategy, budget, explore, rollout"),
    ],
)
def test_bad_search_parameters_get_one_line(change, words):
    with pytest.raises(SimError) as e:
        _with(change)
    assert words in str(e.value) and "\n" not in str(e.value)


def test_replay_shows_each_search_decision_with_its_candidates():
    r = cli.invoke(app, ["replay", str(MOOR), "--game", "2", "--set", "seats.0.budget=16"])
    assert r.exit_code == 0, r.output
    lines = [x for x in r.output.splitlines() if x.strip().startswith("search: seat 0")]
    assert len(lines) > 10
    assert "16 rollouts: chose " in lines[0]
    # a block a decision: the choice, then a candidate a line ("won N% of M rollouts"), no line of hundreds of
    # characters (a fresh user's Head Haunter replay had lines of 572)
    blocks = [b for b in r.output.split("  search: seat 0")[1:]]
    assert all("\n    candidates" in b and "\n      " in b and "% of " in b for b in blocks)
    assert max(len(x) for x in r.output.splitlines()) <= 160


def _record(*decisions):
    """A search record (kernels.search REC_* layout) of decisions (seat, played, prior, halving, challenger,
    [(action, visits, wins, ahead, behind)])."""
    from kernels import search as K

    rows = [[0] * K.REC_COLS]
    for seat, played, prior, halving, challenger, top in decisions:
        rows.append([K.REC_DECISION, seat, played, len(top), 0, 64, 0, prior, int(halving), challenger])
        rows += [[K.REC_CANDIDATE, a, v, w, ah, bh, 0, 0, 0, 0] for a, v, w, ah, bh in top]
    rows[0][0] = len(rows) - 1
    return np.array(rows, dtype=np.int32)


@pytest.mark.parametrize(
    "decision, says",
    [
        (
            (2, 1, True, 2, [(1, 40, 10, 0, 0), (2, 39, 14, 9, 2)]),
            "chose a2\n    overrules its rollout strategy's choice, a1: in its last round's worlds a2 won 9 that a1 "
            "lost and lost 2 that it won\n    candidates:",
        ),
        (
            (1, 1, True, 2, [(1, 40, 12, 0, 0), (2, 39, 14, 4, 2)]),
            "chose a1\n    keeps its rollout strategy's choice: in its last round's worlds a2 won 4 that a1 lost "
            "and lost 2 that it won: a lead too small to pass the deviate margin\n    candidates:",
        ),
        (  # a fresh user: "not more by the deviate margin" read as a near miss for a challenger clearly worse
            (1, 1, True, 2, [(1, 40, 12, 0, 0), (2, 39, 8, 2, 7)]),
            "chose a1\n    keeps its rollout strategy's choice: in its last round's worlds a2 won 2 that a1 lost "
            "and lost 7 that it won: no better\n    candidates:",
        ),
        (
            (1, 1, False, -1, [(2, 40, 12, 0, 0), (1, 24, 6, 0, 0)]),
            "chose a1\n    keeps its rollout strategy's choice: the most tried, a2, is not better by more than the "
            "deviate margin\n",
        ),
        (
            (2, 1, 3, 2, [(1, 40, 10, 0, 0), (2, 39, 14, 9, 2)]),
            "chose a2\n    overrules its rollout strategy's choice, a1: in its last round's worlds a2 did better in "
            "9 than a1 (a win, or a higher score) and worse in 2\n    candidates:",
        ),
        (
            (1, 1, False, -1, [(1, 40, 12, 0, 0), (2, 24, 6, 0, 0)]),
            "chose a1\n    the most tried, and its rollout strategy's choice\n    candidates:\n      a1: won 30% of 40",
        ),
        (  # a fresh user: why 18% over 23%? UCB1 plays its most tried, which the block now says
            (1, 1, False, -1, [(1, 34, 6, 0, 0), (2, 30, 7, 0, 0)]),
            "chose a1\n    the most tried, and its rollout strategy's choice\n",
        ),
        (
            (2, 1, False, -1, [(2, 40, 16, 0, 0), (1, 24, 6, 0, 0)]),
            "chose a2\n    overrules its rollout strategy's choice, a1: the most tried, and better by more than the "
            "deviate margin\n    candidates:",
        ),
        (  # a fresh user: a first decision tied at 2 rollouts said only "overrules ..., a1", no reason
            (3, 1, False, -1, [(2, 2, 0, 0, 0), (3, 2, 2, 0, 0), (1, 1, 0, 0, 0)]),
            "chose a3\n    overrules its rollout strategy's choice, a1: the most tried (tied: it won more), and "
            "better by more than the deviate margin\n    a weak sign: 2 rollouts against 1\n",
        ),
        (  # a fresh user: five moves at 4 rollouts each, and "the most tried" meant nothing
            (1, 1, False, -1, [(1, 4, 1, 0, 0), (2, 4, 1, 0, 0), (3, 4, 1, 0, 0)]),
            "chose a1\n    tied for the most tried: its rollout strategy's choice keeps a tie\n",
        ),
    ],
)
def test_replay_says_when_and_why_the_search_keeps_or_overrules_its_rollout_strategy(decision, says):
    """A halving search's line gives the last round's paired counts behind playing or refusing its challenger (with
    the score tie-break, halving = 3: the worlds it did better and worse in), and whether a kept choice's challenger
    led too little or did no better; a UCB1 search says why it kept its rollout strategy's choice over the most tried
    one, or left it (the most tried, ties broken by the share of wins)."""
    lines = M.decision_lines(_record((0, *decision)), lambda s: f"seat {s}", lambda a: f"a{a}")
    assert len(lines) == 1 and says in lines[0], lines


def test_provenance_records_every_seat_parameter_as_played_defaults_included():
    """A report must say what was played even after a default changes: the hunters' search `root` and `deviate`
    are defaults in the scenario file, yet provenance.json lists them."""
    from sim.model.scenario import load
    from sim.play.provenance import effective_seats

    seats = effective_seats(load(REPO / "scenarios/treasure_hunters/search-basic-4p.toml"))
    assert seats[0] == {
        "strategy": "search",
        "params": {"budget": 64, "rollout": "weighted", "deviate": 2.0, "root": "halving", "tiebreak": "none"},
    }


def test_provenance_of_a_search_seat_reads_back_as_a_scenario():
    """What provenance records of a search seat leaves out what its root never reads (explore under halving,
    tiebreak under ucb1): given back as the seat's parameters it loads (explore would be refused under halving)."""
    from sim.model.scenario import from_dict, load
    from sim.model.search_spec import UNUSED_WITH_ROOT
    from sim.play.provenance import effective_seats

    for path, seat in (("treasure_hunters/search-basic-4p.toml", 0), ("moor/search-4p.toml", 0)):
        sc = load(REPO / "scenarios" / path)
        params = effective_seats(sc)[seat]["params"]
        unused = {k for k, (root, _, _) in UNUSED_WITH_ROOT.items() if root == params["root"]}
        assert unused and not unused & set(params)
        seats = [{"strategy": s.strategy, "params": dict(s.params)} for s in sc.seats]
        seats[seat]["params"] = params
        doc = {"scenario": {"game": sc.game, "players": sc.players}, "seats": seats}
        assert from_dict(doc, "again").seats[seat].params == params


@pytest.mark.parametrize(
    "mode, seat, given, played",
    [
        ("head_haunter", 1, None, "score"),  # hunters in the Head Haunter game: auto is the score tie-break
        ("head_haunter", 1, "none", "none"),  # a designer's choice stands
        ("head_haunter", 0, None, "none"),  # the Head Haunter itself: auto is none
        ("basic", 1, None, "none"),  # hunters of the co-operative games: none (it did not help there)
        ("basic", 1, "score", "score"),
    ],
)
def test_tiebreak_auto_is_the_games_choice_for_the_table(mode, seat, given, played):
    """`tiebreak = "auto"` (the default) resolves by the game and the seat's role; the kernel's column gets the
    resolved tie-break (TIE_NONE / TIE_SCORE), never TIE_AUTO, and provenance says what was played."""
    from kernels import search as K
    from sim.model.scenario import Seat, load
    from sim.play.provenance import effective_seats

    sc = load(REPO / "scenarios/treasure_hunters/search-head-haunter-4p.toml")
    strategy = "haunter_search" if seat == 0 else "search"
    params = {"root": "halving"} | ({"tiebreak": given} if given else {})
    seats = tuple(Seat(strategy, params) if i == seat else s for i, s in enumerate(sc.seats))
    if seat != 0:
        seats = (Seat("haunter_builder"),) + seats[1:]
    sc = sc.with_changes(params={**sc.params, "mode": mode}, seats=seats)
    if mode == "basic":
        sc = sc.with_changes(seats=tuple(Seat("weighted") if i != seat else s for i, s in enumerate(sc.seats)))
    assert M.tiebreak_played(sc, seat) == played
    code = {"none": K.TIE_NONE, "score": K.TIE_SCORE}[played]
    assert sc.sparams()[seat, M.GENERIC.index("tiebreak")] == code
    assert effective_seats(sc)[seat]["params"]["tiebreak"] == played
