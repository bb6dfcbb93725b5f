"""The verdict's "At skill" point (`sim.pages.skill_page.points`): a head line and one short line per figure
beneath it, not one run-on sentence of every figure and its verdict (a fresh user). No game is played."""

from __future__ import annotations

from sim.pages import skill_page
from sim.pages.points import Point, md_points


def _figure(words: str, scripted: float, skill: float, verdict: str) -> dict:
    return {"words": words, "scripted": {"value": scripted}, "skill": {"value": skill}, "verdict": verdict}


SUMMARY = {
    "at_skill": {
        "status": "played",
        "strategy": "learned",
        "games": 4000,
        "figures": {
            "first_player_advantage": _figure(
                "first-player advantage",
                0.002,
                0.0045,
                "cannot tell yet at ±1.0 points: about 19,000 games at skill would decide, against the 4,000 played "
                "(from weighted to learned); to play them, write skill_games = 19000 under [scenario] in the scenario file",
            ),
            "length_turns": _figure(
                "game length (mean turns)",
                111.6185,
                111.71075,
                "holds for skill: unchanged within ±2.2 turns from weighted to learned",
            ),
        },
    }
}


def test_the_at_skill_point_says_each_figure_on_a_short_line_of_its_own():
    (p,) = skill_page.points(SUMMARY)
    assert p.text == "At skill (learned at every seat, 4,000 games):"
    assert p.under == (
        "First-player advantage: +0.20 -> +0.45 points. Cannot tell yet at ±1.0 points: about 19,000 games at skill "
        "would decide, against the 4,000 played (from weighted to learned). To play them, write skill_games = 19000 "
        "under [scenario] in the scenario file.",
        "Game length: 111.6 -> 111.7 turns. Holds for skill: unchanged within ±2.2 turns from weighted to learned.",
    )
    assert md_points([p]) == ["- " + p.text] + ["  - " + x for x in p.under]
    assert p.flat().startswith("At skill (learned at every seat, 4,000 games): First-player advantage: +0.20 ->")


def test_a_table_not_played_at_skill_is_one_point_and_none_is_asked_none():
    (p,) = skill_page.points({"at_skill": {"status": "not played", "why": "skill_games = 0"}})
    assert p == Point("At skill: not played; skill_games = 0.")
    assert skill_page.points({}) == []


def test_the_section_speaks_to_a_designer_not_in_field_names():
    """A fresh user read "[scenario] skill_games sizes the table (0: none)" and "judged on its own" as jargon: the
    section says what to write where, and why seat spread has no change."""
    from sim.pages import skill_page

    s = {
        "scenario": {"players": 4},
        "at_skill": {"status": "played", "strategy": "learned", "games": 7204, "why": "enough for +/-1 point"},
    }
    text = skill_page.intro(s)
    assert "write skill_games = N under [scenario] in the scenario file (0: no games at skill)" in text
    assert "sizes the table" not in text
    assert skill_page.change_text("seat_spread", {"estimate": 0.01, "ci95": [0, 0.02]}) == (
        "none: judged against the fair share"
    )


def test_the_section_says_how_many_games_at_skill_were_left_unfinished():
    """A fresh user saw "at skill (985 games)" under "1,000 games" with no word of the 15 that reached the turn cap
    (Galleon 2p's learned pirates, 2026-12-07)."""
    from sim.pages import skill_page

    b = {"status": "played", "strategy": "learned", "games": 1000, "why": "what it affords"}
    text = skill_page.intro({"scenario": {"players": 2}, "at_skill": b | {"finished": 985, "truncated": 15}})
    assert (
        "15 of the games at skill reached the turn cap unfinished and are left out of its figures (985 counted)" in text
    )
    assert "turn cap" not in skill_page.intro({"scenario": {"players": 2}, "at_skill": b | {"truncated": 0}})


def test_a_markdown_table_keeps_every_cell_whole():
    """The At-skill table's Markdown cut a 240-character verdict at 200 characters with "…" (Polars' string limit)."""
    import polars as pl

    from sim.pages.tables import md

    long = "cannot tell yet at ±1.0 points: " + "x" * 200 + " under [scenario] in the scenario file"
    out = md(pl.DataFrame({"figure": ["first-player advantage"], "verdict": [long]}))
    assert long in out and "…" not in out


def test_a_change_at_skill_that_a_search_table_does_not_share_is_said_beside_its_verdict():
    """Galleon's At skill page said "198.8 -> 109.9 turns, changes with skill" above the fidelity line "a search
    table plays +110 turns longer" without tying them (a fresh user, 2026-12-07): where the current fidelity file
    finds the learned table unlike search on a figure, that figure's verdict says so."""
    fid = {
        "status": "current",
        "search": "search@64",
        "games": 300,
        "figures": {
            "length_turns": {"words": "game length (mean turns)", "kind": "differs", "estimate": 110.4,
                             "ci95": [97.6, 123.2], "margin": 5.6, "more_games": None, "n": 300},
            "first_player_advantage": {"words": "first-player advantage", "kind": "cannot_tell", "estimate": 0.02,
                                       "ci95": [-0.05, 0.09], "margin": 0.02, "more_games": None, "n": 296},
        },
    }  # fmt: skip
    assert skill_page.unlike_search({"fidelity": fid}) == {
        "length_turns": "; but a table of search@64 players differs on this figure"  # a summary made before the values
    }
    fid["figures"]["length_turns"] |= {"learned_value": 111.7, "search_value": 222.1}
    assert skill_page.unlike_search({"fidelity": fid}) == {
        "length_turns": "; but a table of search@64 players differs on this figure: 222.1 turns against the learned "
        "table's 111.7 turns on the same 300 games"
    }
    assert skill_page.unlike_search({"fidelity": fid | {"status": "stale"}}) == {}
    lines = skill_page.fidelity_lines({"at_skill": {"status": "played", "fidelity": fid}})
    assert lines[0].startswith("Learned players differ from search@64 on game length")
    assert "296 games each" in lines[1]  # the games its verdict counts, not the 300 played
    b = SUMMARY["at_skill"] | {"fidelity": fid}
    (p,) = skill_page.points({"at_skill": b})
    assert p.under[1].endswith(
        "from weighted to learned. But a table of search@64 players differs on this figure: 222.1 turns against the "
        "learned table's 111.7 turns on the same 300 games."
    )
    assert "search players" not in p.under[0]
    # the report's table says where the search table's line is: below it
    summary = {"at_skill": b, "games": {"played": 4000, "finished": 4000, "truncated": 0}}
    assert skill_page.rows(summary)[1]["verdict"].endswith(
        "from weighted to learned; but a table of search@64 players differs on this figure: 222.1 turns against the "
        "learned table's 111.7 turns on the same 300 games (below)"
    )


def test_a_team_win_rate_point_names_its_team():
    """A fresh user read "Team win rate: 90.2% -> 88.9%" and "Team win rate: 9.8% -> 11.1%" in a Head Haunter
    report with no team named (2026-12-07): each point names the team, as the terminal line does."""
    figs = {
        f"team_win_rate.{r}": _figure(f"team win rate ({t})", a, b, "holds for skill: unchanged within ±1.0 points")
        for r, t, a, b in (("haunter", "Head Haunter", 0.902, 0.889), ("hunter", "hunter", 0.098, 0.111))
    }
    (p,) = skill_page.points({"at_skill": {"status": "played", "strategy": "learned", "games": 100, "figures": figs}})
    assert p.under[0].startswith("Team win rate (Head Haunter): 90.2% -> 88.9%.")
    assert p.under[1].startswith("Team win rate (hunter): 9.8% -> 11.1%.")
