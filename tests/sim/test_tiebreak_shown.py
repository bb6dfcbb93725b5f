"""A search seat's `tiebreak = "auto"` is said with what the game resolved it to wherever the seat's parameters are
shown: compare's "What differs" (auto against the score it plays is no difference), compare.json, the summary's
seats, the replay header and ladder.json's rungs. One source: `sim.model.search.seats_as_played` (provenance.json)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.api import core as api
from sim.api import ladder as api_ladder
from sim.model.overrides import load
from sim.output import ladder_output
from sim.pages import compare_page
from sim.pages.scenario_words import scenario_items
from sim.play.provenance import effective_seats
from sim.stats import compare as C

REPO = Path(__file__).resolve().parents[2]
HH = REPO / "scenarios" / "treasure_hunters" / "search-head-haunter-4p.toml"
# seat 1 a search hunter (root halving by default): in the Head Haunter game its auto tie-break is score
HUNTER = [("seats.0.budget", 16), ("seats.1.strategy", "search"), ("seats.1.budget", 16)]


def _differs(b_sets: list) -> list[str]:
    a, b = load(HH, HUNTER), load(HH, HUNTER + b_sets)
    return compare_page.difference_lines({"a": C.side_info(a), "b": C.side_info(b)})


@pytest.mark.kernel
def test_what_differs_compares_the_tiebreak_as_played():
    lines = _differs([("seats.1.tiebreak", "score")])
    assert lines[0].startswith("nothing: A and B play the same rules")
    assert lines[1:] == [
        "seat 1: A search (budget = 16, tiebreak = auto (plays score)), B search (budget = 16, tiebreak = score): "
        "the same play"
    ]
    # a tie-break that does change the play is a difference, said with what auto plays
    assert _differs([("seats.1.tiebreak", "none")]) == [
        "seat 1: A search (budget = 16, tiebreak = auto (plays score)), B search (budget = 16, tiebreak = none)"
    ]


@pytest.mark.kernel
def test_compare_json_records_each_seat_as_played():
    side = C.side_info(load(HH, HUNTER))
    assert side["seats_played"] == effective_seats(load(HH, HUNTER))
    assert side["seats_played"][1]["params"]["tiebreak"] == "score"
    assert "tiebreak" not in side["scenario"]["seats"][1]["params"]  # as given: left to auto


@pytest.mark.kernel
def test_summary_seats_say_what_auto_plays():
    sc = load(HH, HUNTER)
    items = dict(scenario_items({"scenario": sc.to_dict(), "seats": [], "provenance": {"seats": effective_seats(sc)}}))
    assert items["seat 1"] == (
        "search with budget = 16 (default 256), rollout = learned (default), deviate = 2 (default), "
        "root = halving (default), tiebreak = auto (plays score)"
    )  # how it searched (halving here) though the file left it to the defaults: a fresh user
    assert "tiebreak" not in items["seat 0"]  # the haunter's search runs ucb1 here: no tie-break read
    assert "root = ucb1 (default halving)" in items["seat 0"]  # the file gives ucb1, the game's default is halving
    assert items["seat 2"] == "weighted, default weights"  # a scripted seat's defaults are not listed
    # a report read back without provenance seats says what was given
    items = dict(scenario_items({"scenario": sc.to_dict(), "seats": []}))
    assert items["seat 1"] == "search with budget = 16 (default 256)"


@pytest.mark.kernel
def test_replay_header_names_each_search_seats_parameters_as_played():
    lines = api.replay(load(HH, HUNTER), 0)
    assert lines[1] == (
        "  seat 0 searches with haunter_search: budget = 16, explore = 0.7, rollout = haunter_weighted, "
        "deviate = 0, root = ucb1"
    )
    assert lines[2] == (
        "  seat 1 searches with search: budget = 16, rollout = learned, deviate = 2, root = halving, "
        "tiebreak = auto (plays score)"
    )
    assert not any("searches with" in x for x in api.replay(load(REPO / "scenarios" / "moor" / "4p.toml"), 0))


@pytest.mark.kernel
def test_ladder_rungs_record_the_tiebreak_each_role_plays():
    hh = api_ladder.build(
        "scenarios/treasure_hunters/head_haunter-4p.toml",
        strategies=["haunter_weighted", "weighted", "search:budget=16"],
        games=10,
    )
    coop = api_ladder.build("treasure_hunters", players=3, strategies=["weighted", "search:budget=16"], games=10)
    assert ladder_output._played(hh, 2)["tiebreak"] == "score"
    assert ladder_output._played(coop, 1)["tiebreak"] == "none"


def test_a_search_seats_defaults_are_said_as_played_and_a_scripted_seats_are_not():
    """`defaults_text`: the parameters a search seat left to their defaults, as played, not those the scenario gave
    nor the tie-break (`tiebreak_text` says it); nothing for a scripted seat."""
    from sim.model.search_spec import defaults_text

    played = {"budget": 16, "rollout": "weighted", "deviate": 2.0, "root": "halving", "tiebreak": "score"}
    assert defaults_text({"budget": 16}, played) == [
        "rollout = weighted (default)",
        "deviate = 2 (default)",
        "root = halving (default)",
    ]
    assert defaults_text({"budget": 16, "root": "halving"}, played)[-1] == "deviate = 2 (default)"
    assert defaults_text({}, {"greed": 0.5}) == [] and defaults_text({}, None) == []


@pytest.mark.kernel
def test_what_differs_says_the_default_a_side_played_where_the_other_gave_another():
    """A compare of Moor's default search against ucb1 said "A search (budget = 16, ...), B search (budget = 16, root =
    ucb1, deviate = 0)": nothing said A played halving with deviate 1 (a fresh user). A side that left a parameter
    to its default now says the default it played, where the two sides play it differently."""
    moor = REPO / "scenarios" / "moor" / "4p.toml"
    search = [("seats.0.strategy", "search"), ("seats.0.budget", 16)]
    a, b = load(moor, search), load(moor, search + [("seats.0.root", "ucb1"), ("seats.0.deviate", 0)])
    lines = compare_page.difference_lines({"a": C.side_info(a), "b": C.side_info(b)})
    assert lines == [
        "seat 0: A search (budget = 16, deviate = 1 (default), root = halving (default), tiebreak = auto (plays none)), "
        "B search (budget = 16, root = ucb1, deviate = 0)"
    ]


@pytest.mark.kernel
def test_what_differs_says_every_default_a_search_seat_played_against_another_strategy():
    """ "A learned, B search (budget = 3, ...)" left out B's root, margin and rollouts (a fresh user): a search seat
    against a seat of another strategy now says every parameter it left to its default."""
    moor = REPO / "scenarios" / "moor" / "4p.toml"
    a = load(moor, [("seats.0.strategy", "learned")])
    b = load(moor, [("seats.0.strategy", "search"), ("seats.0.budget", 3)])
    lines = compare_page.difference_lines({"a": C.side_info(a), "b": C.side_info(b)})
    assert lines == [
        "seat 0: A learned, B search (budget = 3, rollout = learned (default), deviate = 1 (default), root = halving "
        "(default), tiebreak = auto (plays none))"
    ]
