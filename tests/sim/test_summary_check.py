"""`sim.output.summary_check.problem`: the first field of a summary.json its report cannot be drawn from, named with
what it takes and what the file holds; a summary written before the optional blocks existed is still drawn."""

from __future__ import annotations

import copy

import pytest

from sim.output.summary_check import problem

SEAT = {
    "strategy": "weighted",
    "win": {"wins": 5.0, "games": 10, "rate": 0.5, "ci95": [0.24, 0.76]},
    "sole_wins": 5,
    "shared_wins": 0,
    "score": {},
}
GOOD = {
    "schema": 1,
    "scenario": {"game": "moor", "players": 2},
    "games": {"played": 10, "finished": 10, "truncated": 0, "errors": 0, "truncated_rate": 0.0},
    "seats": [copy.deepcopy(SEAT), copy.deepcopy(SEAT)],  # (two objects: deepcopy keeps a shared one shared)
    "length": {"turns": {}, "rounds": {}},
    "ties": {},
    "first_player": {},
    "team": None,
    "arc": None,
}


def test_a_whole_summary_and_one_without_the_optional_blocks_pass():
    assert problem(GOOD) is None
    old = {k: v for k, v in GOOD.items() if k not in ("team", "arc")}  # written before the arc existed
    assert problem(old) is None


@pytest.mark.parametrize(
    "path, value, says",
    [
        (("games", "played"), -1, "field games.played: a whole number, 0 or more; got -1"),
        (("games", "played"), True, "field games.played: a whole number, 0 or more; got True"),
        (("scenario", "players"), "2", "field scenario.players: a whole number of players, 1 or more; got '2'"),
        (("arc",), [], "field arc: an object, or null for a run without the game's arc; got a list"),
        (("seats",), "x" * 60, "field seats: a list of seat objects; got 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..."),
        (("curves",), [1], "field curves: an object of per-round curve objects; got a list"),
        (("extras",), {"a": "b"}, "field extras: an object of counter objects; got an object"),
        (("provenance",), 3, "field provenance: an object (how and where the run was played); got 3"),
    ],
)
def test_a_bad_field_is_named_with_what_it_takes_and_what_it_holds(path, value, says):
    s = copy.deepcopy(GOOD)
    d = s
    for k in path[:-1]:
        d = d[k]
    d[path[-1]] = value
    assert problem(s) == says


def test_a_seats_field_is_named_by_its_index():
    s = copy.deepcopy(GOOD)
    s["seats"][1]["win"]["ci95"] = [0.9, 0.1]
    assert problem(s) == "field seats[1].win.ci95: two shares [low, high] from 0 to 1; got a list"
    del s["seats"][1]["win"]
    assert problem(s) == "field seats[1].win: an object (wins, games, rate, ci95); it is missing"


def test_an_unknown_game_is_named_not_drawn_with_another_games_words():
    """scenario.game = "chess" passed as a game's name and the report was drawn with generic labels."""
    s = copy.deepcopy(GOOD)
    s["scenario"]["game"] = "chess"
    line = problem(s)
    assert line is not None and line.startswith("field scenario.game: unknown game 'chess'; allowed: ")
    assert "moor" in line and "turnwall" in line
