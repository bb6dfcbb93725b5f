"""When a team game tips, in words a designer reads right (`sim.pages.arc_page.tips_sentences`): a side that wins
most games is the favourite from the first round, which is what was measured (its chance never drops to 50% in at
least half its games), not a game decided in round 1. A summary's ``arc.tips`` block by hand: no game is played."""

from __future__ import annotations

from sim.pages import arc_page


def _block(p50: float, lo: float, hi: float, rounds: float, games: int | None = None) -> dict:
    d = {"p50": p50, "ci95": [lo, hi], "p25": p50, "p75": p50, "share_p50": p50 / rounds, "rounds_p50": rounds}
    return d if games is None else {"games": games, **d}


def _summary(house_games: int, house_p50: float) -> dict:
    tips = {
        "games": 8192,
        "prior_games": 4,
        "tipped": _block(1, 1, 1, 30),
        "by_side": {
            "the hunter team": _block(32, 31, 33, 32, 8192 - house_games),
            "the house": _block(house_p50, house_p50, house_p50, 30, house_games),
        },
    }
    return {"arc": {"tips": tips}}


def test_a_house_that_wins_most_games_is_said_to_start_as_the_favourite_not_to_decide_round_1():
    words = arc_page.tips_sentences(_summary(7670, 1))
    assert words[0].startswith(
        "When does the game tip? By the scores alone, the side that goes on to win is the favourite (its chance above "
        "50%) from the first round to the end in at least half the games (95% interval round 1); in the 522 games "
        "the hunter team won, for good only at the end, after round 32, in half of them (95% interval rounds 31-33); "
        "in the 7,670 games the house won, from the first round to the end in at least half of them"
    )
    assert words[1].startswith("The house wins 94% of these games, so it is the favourite before any score is seen")
    assert "not that the game is decided in round 1" in words[1]
    assert "favourite for good from the first round" not in " ".join(words)


def test_no_such_note_where_the_side_that_wins_most_tips_later():
    words = arc_page.tips_sentences(_summary(5000, 12))
    assert not any("before any score is seen" in w for w in words) and "after round 12 of 30" in words[0]


def test_a_span_of_one_round_is_said_round_1_not_rounds_1_1():
    d = {**_block(1, 1, 1, 30), "p25": 1, "p75": 1}
    words = " ".join(arc_page.tips_sentences(_summary(7670, 1)))
    timeline = " ".join(arc_page._tip_sentence({"tipped": d}))
    assert "rounds 1-1" not in words + timeline and "1-1" not in timeline
    assert "(95% interval round 1)" in words
    assert timeline.endswith("(95% interval round 1; quartiles round 1).")
    spread = " ".join(arc_page._tip_sentence({"tipped": {**_block(7, 6, 9, 30), "p25": 5, "p75": 11}}))
    assert spread.endswith("(95% interval rounds 6-9; quartiles rounds 5-11).")
