"""The workbench's errors in the form's words (`sim.web.words`): the API's line, the same content, each option
named as the form names its field. Strings only (the fast tier); the pages that show them: test_http."""

from __future__ import annotations

import pytest

from sim.web.words import form_words


@pytest.mark.parametrize(
    "line, kind, said",
    [
        (
            "--set track_len=5: params.track_len: 5 is out of range; allowed 19..62",
            "run",
            "track_len: 5 is out of range; allowed 19..62",
        ),
        (
            "--set seats.0.w_goal=x: seats[0].params.w_goal: expected a number, got 'x'",
            "compare",
            "seats.0.w_goal: expected a number, got 'x'",
        ),
        (  # the value not said again after the field: kept in the head
            '--set track_len="<b>": params.track_len: expected an integer in 19..62',
            "run",
            'track_len="<b>": expected an integer in 19..62',
        ),
        (
            "--set budget=32: unknown name 'budget'; did you mean --set seats.0.budget=32 (seat 0 plays search)?",
            "run",
            "budget=32: unknown name 'budget'; did you mean seats.0.budget=32 (seat 0 plays search)?",
        ),
        ("--set track_len=a..b: 'a..b' is not a range", "sweep", "track_len=a..b: 'a..b' is not a range"),
        ("--games: 0 is out of range; allowed 1..", "ladder", "games a table: 0 is out of range; allowed 1.."),
        ("--balance-games: 0 is out of range", "ladder", "games of each rung's own table: 0 is out of range"),
        ("--strategies random;nope: unknown strategy 'nope'", "ladder", "rungs random;nope: unknown strategy 'nope'"),
        ("--margin length: 'x' is not a number", "ladder", "margins length: 'x' is not a number"),
        ("--games: 0 is out of range; allowed 1..", "tune", "games a trial: 0 is out of range; allowed 1.."),
        ("--target: no target; give --target MEASURE=VALUE", "tune", "targets: no target; give targets MEASURE=VALUE"),
        ("--param track_len=a..b: 'a..b' is not a range", "tune", "parameters track_len=a..b: 'a..b' is not a range"),
        (
            "scenario: 'x.toml' is outside the scenarios folder",
            "run",
            "scenario: 'x.toml' is outside the scenarios folder",
        ),
    ],
)
def test_an_api_line_is_said_in_the_forms_words(line, kind, said):
    assert form_words(line, kind) == said
