"""A run "at skill" (`sim run --at-skill`, ``sim.run(..., at_skill=True)``, every default scenario of make run): the
scenario played again with every seat on the game's learned player, each headline figure beside the scripted one
with its verdict, in summary.json, at_skill.parquet, the report, the terminal and the API result."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

import sim.api.public as api
from sim.cli.main import app
from sim.model.scenario import ScenarioError, Seat
from sim.model.skill_spec import skill_table

DATA = Path(__file__).resolve().parents[1] / "data"
SCEN = Path(__file__).resolve().parents[2] / "scenarios"


@pytest.mark.kernel
def test_a_run_at_skill_plays_the_learned_table_on_the_same_seeds():
    r = api.run(DATA / "moor-2p-small.toml", games=600, at_skill=True)
    b = r.raw["at_skill"]
    assert b["status"] == "played" and b["strategy"] == "learned" and b["games"] == 600  # at most the run's games
    assert b["target_games"] == 9_604 and "a +/-1-point interval needs 9,604" in b["why"]
    assert list(b["figures"]) == ["first_player_advantage", "seat_spread", "length_turns"]
    # the table at skill is the scenario with learned seats, its seed and its first games: the same numbers
    sc = api.load(DATA / "moor-2p-small.toml")
    alone = api.run(sc.with_changes(seats=(Seat("learned"), Seat("learned"))), games=600).raw
    fig = b["figures"]["length_turns"]
    assert fig["skill"]["value"] == alone["length"]["turns"]["mean"]
    assert fig["scripted"]["value"] == r.raw["length"]["turns"]["mean"]
    frame = r.at_skill
    assert frame["figure"].to_list() == list(b["figures"]) and frame["skill_games"].to_list() == [600] * 3
    assert any(
        line.startswith("At skill (learned at every seat, 600 games): First-player advantage: ") for line in r.verdicts
    )
    # trained at 4 players, played at 2: the page says so
    from sim.pages import skill_page

    assert "trained at 4 players; here it plays at 2" in skill_page.intro(r.raw)
    # one seat spread on the page: the scripted row is Balance at a glance's, value and interval alike
    from sim.pages import balance_figures

    glance = dict(balance_figures.balance_items(r.raw))["seat_spread"]
    scripted = skill_page.value_text("seat_spread", b["figures"]["seat_spread"]["scripted"])
    assert scripted == f"{glance['value']} {glance['interval']}"
    assert "seat balance" not in skill_page.intro(r.raw)


@pytest.mark.kernel
def test_the_scenario_sizes_or_switches_off_the_table_at_skill():
    sc = api.load(DATA / "moor-2p-small.toml", set={"skill_games": 0})
    assert api.run(sc, games=60, at_skill=True).raw["at_skill"] == {
        "status": "not played",
        "games": 0,
        "target_games": 9_604,
        "why": "switched off (skill_games = 0)",
        "key": "skill_games",
    }
    sized = api.load(DATA / "moor-2p-small.toml", set={"skill_games": 120})
    assert skill_table(sized).games == 120 and skill_table(sized, 40).games == 40  # the option wins
    assert api.run(sized, games=60).raw.get("at_skill") is None  # not asked: not played
    with pytest.raises(ScenarioError, match=r"scenario.skill_games: -1 is out of range; allowed 0\.\."):
        api.load(DATA / "moor-2p-small.toml", set={"skill_games": -1})


@pytest.mark.kernel
@pytest.mark.parametrize(
    "scenario, says",
    [
        ("turnwall/4p.toml", "The Ghosts of Castle Turnwall has no learned player for its players yet"),
        ("treasure_hunters/head_haunter-4p.toml", "has no learned player for the"),
    ],
)
def test_a_game_without_a_learned_player_says_so_plainly(scenario, says, monkeypatch):
    """Every game has one now; a game module without its `Learner` records (as a new game starts) is one line."""
    import dataclasses

    from sim.model import registry

    sc = api.load(SCEN / scenario)
    bare, real = dataclasses.replace(sc.spec, learners=()), registry.get
    monkeypatch.setattr(registry, "get", lambda name: bare if name == sc.game else real(name))
    t = skill_table(sc)
    assert t.scenario is None and says in t.why and t.why.endswith("so no figure is played at skill")


@pytest.mark.kernel
def test_the_cli_writes_the_section_the_parquet_and_the_terminal_lines(tmp_path):
    out = tmp_path / "r"
    res = CliRunner().invoke(
        app, ["run", str(DATA / "moor-2p-small.toml"), "--games", "400", "--at-skill", "--out", str(out)]
    )
    assert res.exit_code == 0, res.output
    assert "## At skill" in res.output and "At skill (learned at every seat, 400 games)" in res.output
    s = json.loads((out / "summary.json").read_text())
    assert s["at_skill"]["status"] == "played"
    frame = pl.read_parquet(out / "at_skill.parquet")
    assert frame.height == 3 and set(frame["verdict"]) <= {"unchanged", "changed", "cannot_tell"}
    html = (out / "summary.html").read_text()
    assert '<section id="at-skill"><h2>At skill</h2>' in html and '<a href="#at-skill">At skill</a>' in html
    # the verdict's point at skill: a line per figure beneath it, in the page and in summary.md
    assert "<p>At skill (learned at every seat, 400 games):</p><ul><li>First-player advantage: " in html
    md = (out / "summary.md").read_text()
    assert "- At skill (learned at every seat, 400 games):\n  - First-player advantage: " in md
    bad = CliRunner().invoke(app, ["run", str(DATA / "moor-2p-small.toml"), "--skill-games", "-1"])
    assert bad.exit_code == 2 and "--skill-games: -1 is out of range; allowed 0.." in bad.output
    assert "Traceback" not in bad.output
