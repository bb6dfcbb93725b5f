"""Plain verdicts of a run (sim.pages.verdicts): `sim run` opens with sentences (the start player against the fair share,
each team's win rate, how games end and last) and the scope they hold for, in the terminal, summary.md, balance.md
and summary.html."""

from __future__ import annotations

import html
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sim.api import core as api
from sim.cli.main import app
from sim.model.scenario import load
from sim.model.words import with_sign
from sim.pages import verdicts

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
TH = ROOT / "scenarios" / "treasure_hunters"


@pytest.mark.kernel
def test_run_opens_with_the_start_player_against_the_fair_share(tmp_path):
    r = CliRunner().invoke(
        app, ["run", str(DATA / "moor-4p-mixed-small.toml"), "--games", "2000", "--json", "--out", str(tmp_path / "m")]
    )
    assert r.exit_code == 0, r.output
    import json

    s = json.loads(r.stdout[r.stdout.index("{") :])
    fp = s["first_player"]
    want = (
        f"The start player wins {100 * fp['win']['rate']:.1f}% against a fair 25.0%: "
        f"{with_sign(100 * fp['advantage'], 1)} points [{with_sign(100 * fp['advantage_ci95'][0], 1)}, "
        f"{with_sign(100 * fp['advantage_ci95'][1], 1)}], "
    )
    lines = verdicts.run_sentences(s)
    assert lines[0].startswith(want)
    assert any(
        w in lines[0] for w in ("fair within +/-1 point (equivalence", "beyond the +/-1 point", "cannot tell yet")
    )
    assert "within chance" not in lines[0]
    scope = verdicts.scope_line(s)
    assert scope.startswith("Scope: per-seat and per-strategy win rates hold for this seating and turn order")
    for f in ("summary.md", "balance.md", "summary.html"):
        text = html.unescape((tmp_path / "m" / f).read_text(encoding="utf-8"))
        assert "Verdict" in text and want in text and scope in text, f
        assert text.index("Verdict") < text.index("Scenario"), f
    r = CliRunner().invoke(
        app, ["run", str(DATA / "moor-4p-mixed-small.toml"), "--games", "500", "--out", str(tmp_path / "t")]
    )
    assert "## Verdict" in r.stdout and "The start player wins" in r.stdout


@pytest.mark.kernel
def test_team_game_verdict_states_the_team_rate_and_how_games_end():
    s, _ = api.run_scenario(load(TH / "basic-4p.toml"), 200, write=False)
    lines = verdicts.run_sentences(s)
    t = s["team"]["hunter"]
    assert lines[0] == (
        f"Hunters win {100 * t['rate']:.1f}% [{100 * t['ci95'][0]:.1f}, {100 * t['ci95'][1]:.1f}] "
        f"of the {s['games']['finished']:,} finished games."
    )
    assert lines[1].startswith("How the game ended: ")
    assert not any("start player" in x for x in lines)
    assert "unverified" in verdicts.scope_line(s)


@pytest.mark.kernel
def test_no_finished_game_verdict():
    s, _ = api.run_scenario(load(DATA / "moor-2p-small.toml").with_changes(), 50, write=False)
    s["games"]["finished"] = 0
    assert verdicts.run_sentences(s)[0].startswith("No game finished")


@pytest.mark.kernel
def test_scope_line_says_why_seats_differ_where_a_seat_keeps_its_own_place():
    """Turnwall corners and Galleon hideouts stay with their seat while the start player rotates: the scope line says
    so; Moor seats differ only by turn order, so its line does not."""
    from sim.pages.verdicts import scope_line

    tw = {"scenario": {"game": "turnwall", "seats": [{"strategy": "planner"}] * 4, "params": {}}}
    ga = {"scenario": {"game": "galleon", "seats": [{"strategy": "treasure"}] * 4, "params": {}}}
    mo = {"scenario": {"game": "moor", "seats": [{"strategy": "weighted"}] * 4, "params": {}}}
    assert "own corner" in scope_line(tw)
    assert "own hideout" in scope_line(ga)
    assert scope_line(mo) is None


def test_a_difference_interval_end_near_zero_keeps_its_side():
    """A compare summary read '+0.1 percentage points [0.0, +0.2]' for an interval of [-0.02, +0.17] points: the
    lower end rounded to zero and hid that the interval holds zero. An end that would round to zero but is not zero
    gets one more decimal."""
    from sim.pages.verdicts import _ci

    assert _ci((-0.0002, 0.0017), "rate", signed=True) == "[-0.02, +0.2]"
    assert _ci((0.0, 0.0017), "rate", signed=True) == "[0.0, +0.2]"
    assert _ci((-0.004, 0.3), "mean", signed=True) == "[-0.004, +0.30]"
    assert _ci((-0.0012, 0.0017), "rate", signed=True) == "[-0.1, +0.2]"


def test_run_verdict_calls_the_start_player_fair_only_where_the_equivalence_test_says_so():
    """The first-player advantage in the three verdicts at the 1-point margin: a precise +0.8 is real yet fair within
    it, a precise +3 is beyond it, a wide +0.4 cannot be told yet (never "within chance")."""
    import math

    def words(d, n):
        se = math.sqrt(0.25 * 0.75 / n)
        from sim.stats.metrics import diff_test

        return verdicts.advantage_verdict(d, se, n, diff_test(d, se))

    assert words(0.008, 200_000).startswith("more than chance explains (p < 1e-9) but fair within +/-1 point")
    assert words(0.03, 20_000).startswith("an edge beyond the +/-1 point margin")
    w = words(0.004, 2_000)
    assert w.startswith("cannot tell yet whether it is fair within +/-1 point") and "more games would decide" in w


def test_run_verdict_on_seats_says_equal_only_within_the_margin():
    n = 200_000
    assert verdicts.seats_verdict([n / 4] * 4, n).startswith("every seat fair within +/-1 point")
    assert verdicts.seats_verdict([500, 500, 500, 500], 2000).startswith(
        "cannot tell yet whether every seat is fair within +/-1 point on 2,000 games, chi-square"
    )
    assert verdicts.seats_verdict([600, 450, 450, 500], 2000).startswith("the seats differ more than chance")


def test_scope_line_says_what_an_unverified_candidate_layout_means_for_the_designer():
    s = {"scenario": {"game": "turnwall", "players": 2, "params": {"board": "default"}, "seats": []}}
    assert (verdicts.scope_line(s) or "").endswith(
        "; everything holds for the board played, an unverified candidate layout (a best guess at the printed "
        "board, not checked against it: a figure may differ on the real board)."
    )
