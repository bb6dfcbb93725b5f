"""The one-line "at skill" summary of `sim run-defaults` (`sim.pages.skill_page.one_line`). No game is played."""

from __future__ import annotations

from sim.pages.skill_page import one_line


def _summary(figures: dict) -> dict:
    return {"at_skill": {"status": "played", "strategy": "learned", "games": 1000, "wall_s": 0.5, "figures": figures}}


def test_each_team_win_rate_names_its_team_and_other_figures_drop_their_explanation():
    line = one_line(
        _summary(
            {
                "team_win_rate.haunter": {
                    "words": "team win rate (Head Haunter)",
                    "verdict": "changes with skill: +4.9",
                },
                "team_win_rate.hunter": {"words": "team win rate (hunters)", "verdict": "changes with skill: -4.9"},
                "seat_spread": {"words": "seat spread (highest seat win rate minus the lowest)", "verdict": "x"},
            }
        )
    )
    assert line is not None
    assert "team win rate (Head Haunter): changes with skill: +4.9" in line
    assert "team win rate (hunters): changes with skill: -4.9" in line
    assert "; seat spread: x" in line
