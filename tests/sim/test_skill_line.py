"""The one-line "at skill" summary of `sim run-defaults` (`sim.pages.skill_page.one_line`). No game is played."""

from __future__ import annotations

from sim.pages.skill_page import one_line


def _summary(figures: dict) -> dict:
    return {"at_skill": {"status": "played", "strategy": "learned", "games": 1000, "wall_s": 0.5, "figures": figures}}


def _fig(words: str, kind: str, estimate: float, margin: float, more: int | None = None) -> dict:
    return {"words": words, "kind": kind, "estimate": estimate, "margin": margin, "more_games": more, "verdict": "..."}


def test_each_team_win_rate_names_its_team_and_other_figures_drop_their_explanation():
    line = one_line(
        _summary(
            {
                "team_win_rate.haunter": _fig("team win rate (Head Haunter)", "changed", 0.049, 0.01),
                "team_win_rate.hunter": _fig("team win rate (hunters)", "changed", -0.049, 0.01),
                "seat_spread": _fig("seat spread (highest seat win rate minus the lowest)", "unchanged", 0.004, 0.01),
            }
        )
    )
    assert line is not None
    assert "team win rate (Head Haunter) changes: +4.9 points" in line
    assert "team win rate (hunters) changes: -4.9 points" in line
    assert "; seat spread holds within ±1.0 points" in line


def test_the_terminal_line_says_each_verdict_in_a_few_words():
    """A fresh user met terminal lines of up to 736 characters (every figure's whole verdict sentence, the games
    that would decide and the scenario line that plays them, three times over): the line now gives each verdict in
    a few words and leaves the sentence to the report."""
    figures = {
        "first_player_advantage": _fig(
            "first-player advantage (seat 0 minus the fair share)", "cannot_tell", 0.01, 0.01, 4_987_654
        ),
        "seat_spread": _fig("seat spread (highest seat win rate minus the lowest)", "cannot_tell", 0.02, 0.01, 35_000),
        "length_turns": _fig("game length (mean turns)", "changed", 12.3, 4.1),
    }
    line = one_line(_summary(figures))
    assert line == (
        "at skill (learned, 1,000 games, 0.5 s): first-player advantage cannot tell yet: about 5,000,000 games would "
        "decide; seat spread cannot tell yet: about 35,000 games would decide; game length changes: +12.3 turns "
        "(the report says more)"
    )
    assert len(line) < 240
