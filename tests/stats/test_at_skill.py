"""Balance at skill (`sim.stats.at_skill`, `sim.model.skill_spec.target_games`): the headline figures of two run
summaries side by side with the ladder's skill verdicts, on summaries built by hand (no kernel)."""

from __future__ import annotations

import math
import re

import pytest

from sim.model.skill_spec import target_games
from sim.output.report import AT_SKILL_SCHEMA
from sim.stats import at_skill


def summary(n: int, fp: float, seats: list[float], turns: float, sd: float = 5.0, team: dict | None = None) -> dict:
    """A run summary with the fields the figures read: ``n`` finished games, the start player's win share ``fp``,
    each seat's win share, mean turns (sd ``sd``); ``team``: {role: win share} for a team game."""
    p = len(seats)
    return {
        "games": {"finished": n},
        "first_player": {"win": {"wins": fp * n}, "fair_share": None if team else 1 / p},
        "seats": [{"strategy": "weighted", "win": {"wins": w * n}} for w in seats],
        "length": {"turns": {"mean": turns, "std": sd, "n": n}},
        "team": {r: {"wins": w * n} for r, w in team.items()} if team else None,
    }


def test_the_same_figures_hold_at_skill_and_say_so():
    fair = [0.25] * 4
    got = at_skill.compare(summary(200_000, 0.25, fair, 110.0), summary(40_000, 0.25, fair, 110.0), "learned")
    assert list(got) == ["first_player_advantage", "seat_spread", "length_turns"]
    assert {f["kind"] for f in got.values()} == {"unchanged"}
    assert got["first_player_advantage"]["verdict"].startswith("holds for skill: unchanged within ±1.0 points")
    assert "from weighted to learned" in got["length_turns"]["verdict"]


def test_a_first_player_advantage_that_grows_at_skill_is_changed_with_its_difference():
    fair = [0.25] * 4
    got = at_skill.compare(summary(200_000, 0.25, fair, 110.0), summary(7_204, 0.30, fair, 110.0), "learned")
    f = got["first_player_advantage"]
    assert f["kind"] == "changed" and f["verdict"].startswith("changes with skill: +5.0 points")
    assert f["estimate"] == pytest.approx(0.05) and f["ci95"][0] > 0.01  # the interval past the 1-point margin
    assert f["scripted"]["n"] == 200_000 and f["skill"]["n"] == 7_204


def test_a_small_difference_with_few_games_cannot_be_told_and_says_what_would_decide():
    fair = [0.25] * 4
    got = at_skill.compare(summary(200_000, 0.25, fair, 110.0), summary(800, 0.255, fair, 110.0), "learned")
    f = got["first_player_advantage"]
    assert f["kind"] == "cannot_tell"
    assert 10_000 <= f["more_games"] < 100_000
    more = -(-f["more_games"] // 1000)  # the games that would decide, rounded up to two digits as written
    assert re.fullmatch(
        r"cannot tell yet at ±1\.0 points: about [0-9,]+ games at skill would decide, against the 800 played "
        rf"\(from weighted to learned\); to play them, write skill_games = {more}000 under \[scenario\] in the "
        r"scenario file",
        f["verdict"],
    ), f["verdict"]
    assert "(skill_games)" not in f["verdict"]  # a field name in brackets read as jargon (a fresh user)
    few = at_skill.compare(summary(20, 0.25, fair, 110.0), summary(20, 0.25, fair, 110.0), "learned")
    assert few["length_turns"]["verdict"] == (
        "cannot tell yet: 20 games at skill are too few for the tests (they need at least 30); to play more, write "
        "skill_games = 30 or more under [scenario] in the scenario file"
    )


def test_a_team_game_judges_each_team_win_rate_and_has_no_first_player_advantage():
    team = {"hunter": 0.40}
    got = at_skill.compare(
        summary(40_000, 0.0, [0.4] * 4, 60.0, team=team),
        summary(9_604, 0.0, [0.55] * 4, 60.0, team={"hunter": 0.55}),
        "learned",
    )
    assert list(got) == ["team_win_rate.hunter", "length_turns"]
    assert got["team_win_rate.hunter"]["kind"] == "changed"
    assert got["team_win_rate.hunter"]["words"] == "team win rate (hunter)"


def test_a_figure_without_a_value_is_json_safe():
    s = summary(1, 0.25, [0.25] * 4, 110.0)  # one game: no standard error of the length
    got = at_skill.compare(s, s, "learned")
    sc = got["length_turns"]["scripted"]
    assert sc["se"] is None and all(v is None or math.isfinite(v) for v in sc["ci95"])


def test_the_frame_rows_have_the_parquet_schema():
    fair = [0.25] * 4
    figs = at_skill.compare(summary(20_000, 0.25, fair, 110.0), summary(7_204, 0.26, fair, 111.0), "learned")
    rows = at_skill.frame_rows({"figures": figs})
    assert [r["figure"] for r in rows] == list(figs) and all(list(r) == list(AT_SKILL_SCHEMA) for r in rows)
    assert at_skill.frame_rows({"status": "not played"}) == []


@pytest.mark.parametrize(
    "players, team, want",
    [(2, False, 9_604), (3, False, 8_538), (4, False, 7_204), (5, False, 6_150), (4, True, 9_604)],
)
def test_the_default_size_is_a_one_point_interval_at_the_fair_share(players, team, want):
    n = target_games(players, team)
    assert n == want and n % players == 0
    p = 0.5 if team else 1 / players
    assert 1.96 * math.sqrt(p * (1 - p) / n) <= 0.01 < 1.96 * math.sqrt(p * (1 - p) / (n - players))
