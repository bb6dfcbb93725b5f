"""One word for a difference of two rates: "points" after its number in every verdict, sentence and table cell
(`sim.model.words.POINTS`; never "percentage points" after a number), and a game's score never bare "points" where
it can meet one: Moor's score and the winner's margin are in "score points" (the rulebook's word), another game's
margin in its own score unit. Rows by hand: no game is played (a fresh user's find)."""

from __future__ import annotations

import re

from sim.model import catalogue
from sim.pages import verdicts

AFTER_A_NUMBER = re.compile(r"\d\s+percentage points?\b")
RATE = {
    "name": "win.seat0",
    "kind": "rate",
    "a": 0.25,
    "a_ci95": [0.24, 0.26],
    "b": 0.28,
    "b_ci95": [0.27, 0.29],
    "diff": 0.03,
    "diff_ci95": [0.02, 0.04],
    "p": 1e-12,
    "p_holm": 1e-11,
    "significant": True,
    "identical": False,
    "margin": 0.01,
    "verdict": "changed",
    "p_equiv_holm": 1.0,
}


def test_every_verdict_of_a_rate_says_points_after_its_numbers():
    cat = catalogue.View("moor", None, ["weighted"] * 4, False)
    said = []
    for change in (
        {},
        {"verdict": "unchanged", "significant": False, "p_equiv_holm": 0.003},
        {"verdict": "cannot_tell", "significant": False, "more_games": 30_000, "n": 2000},
        {"verdict": "cannot_tell", "significant": True, "p_holm": 0.01, "more_games": 30_000, "n": 2000},
    ):
        r = {**RATE, **change}
        said += [verdicts.compare_sentence(r, cat), verdicts.verdict_text(r, cat), verdicts.margin_text(r, cat)]
    assert not [x for x in said if AFTER_A_NUMBER.search(x)], said
    assert said[0].endswith(
        "+3.0 points [+2.0, +4.0], changed by +3.0 points (p < 1e-9 after Holm; margin ±1.0 points)"
    )


def test_moor_scores_and_margins_are_score_points_and_other_games_their_own_unit():
    moor = catalogue.View("moor", None, ["weighted"] * 4, False)
    assert moor.unit("score.seat0") == moor.unit("margin") == "score points"
    turnwall = catalogue.View("turnwall", None, ["weighted"] * 4, False)
    assert turnwall.unit("margin") == turnwall.unit("score.seat0") == "body parts"
    r = {**RATE, "name": "margin", "kind": "points", "diff": 0.5, "margin": 0.21, "verdict": "changed"}
    assert verdicts.margin_text(r, moor) == "0.21 score points"
    assert verdicts.verdict_text(r, moor).startswith("changed by +0.50 score points")
