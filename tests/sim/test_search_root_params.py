"""A search parameter its root does not read is refused where it is given: `explore` with root halving, `tiebreak`
with root ucb1."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from sim.cli.main import EXIT_BAD_INPUT, EXIT_USAGE, app
from sim.model.ladder_spec import LadderError, parse_rung
from sim.model.overrides import OverrideError, load
from sim.model.registry import get
from tests.sim._cli import one_error_line

pytestmark = pytest.mark.kernel  # every test here plays games

REPO = Path(__file__).resolve().parents[2]
MOOR = REPO / "scenarios" / "moor" / "search-4p.toml"  # seat 0: search with root ucb1 given (the default is halving)
HUNTERS = REPO / "scenarios" / "treasure_hunters" / "search-basic-4p.toml"  # hunters: root halving by default
WHY = "unused with root halving"


def test_explore_with_halving_is_one_line_naming_the_field():
    """explore = 1.5 with root = "halving" was accepted and changed nothing (halving never reads it); a sweep of it
    played the same games at every point. It is refused, naming the field, the root and the way out."""
    with pytest.raises(OverrideError) as e:
        load(MOOR, [("seats.0.root", "halving"), ("seats.0.explore", 1.5)])
    msg = str(e.value)
    assert msg.startswith("--set seats.0.explore=1.5: seats[0].params.explore: unused with root halving (")
    assert msg.endswith("remove explore, or give root ucb1 to use it") and "\n" not in msg
    with pytest.raises(OverrideError, match=f"seats\\[0\\].params.explore: {WHY}, search's default here"):
        load(HUNTERS, [("seats.0.explore", 1.5)])  # the hunters' default root
    load(MOOR, [("seats.0.explore", 1.5)])  # ucb1 reads it
    load(HUNTERS, [("seats.0.explore", 1.5), ("seats.0.root", "ucb1")])
    load(HUNTERS, [("seats.0.budget", 32)])  # halving without explore


def test_a_scenario_file_a_sweep_a_tune_and_a_rung_refuse_it_alike(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(MOOR.read_text().replace('root = "ucb1"', 'root = "halving", explore = 1.0'))
    line = one_error_line(r := CliRunner().invoke(app, ["run", str(bad)]))
    assert r.exit_code == EXIT_BAD_INPUT and f"seats[0].params.explore: {WHY}" in line
    r = CliRunner().invoke(
        app, ["sweep", str(HUNTERS), "--set", "seats.0.explore=0.5,1", "--games", "2", "--out", str(tmp_path / "s")]
    )
    assert r.exit_code == EXIT_USAGE and WHY in one_error_line(r) and not (tmp_path / "s").exists()
    r = CliRunner().invoke(
        app,
        [
            "tune",
            str(HUNTERS),
            "--param",
            "seats.0.explore=0.1..2.0",
            "--target",
            "team_win_rate=50%",
            "--trials",
            "2",
            "--games",
            "2",
            "--out",
            str(tmp_path / "t"),
        ],
    )
    assert WHY in one_error_line(r)
    with pytest.raises(LadderError, match=f"--strategies search:root=halving,explore=2: explore: {WHY}"):
        parse_rung(get("moor"), "search:root=halving,explore=2", ("player",))
    r = CliRunner().invoke(app, ["ladder", "moor", "--strategies", "random;search:root=halving,explore=2"])
    assert r.exit_code == EXIT_USAGE and WHY in one_error_line(r)
    assert parse_rung(get("moor"), "search:root=ucb1,explore=2", ("player",)).params == (
        ("root", "ucb1"),
        ("explore", 2.0),
    )


def test_tiebreak_with_ucb1_is_one_line_naming_the_field():
    """The tie-break settles halving's paired worlds; UCB1 never reads it: score given with root ucb1 (Moor's search
    scenario gives it) it is refused with the way out, and accepted with halving."""
    with pytest.raises(OverrideError) as e:
        load(MOOR, [("seats.0.tiebreak", "score")])
    msg = str(e.value)
    assert msg.startswith("--set seats.0.tiebreak=score: seats[0].params.tiebreak: unused with root ucb1 (UCB1 ")
    assert msg.endswith("remove tiebreak, or give root halving to use it") and "\n" not in msg
    load(MOOR, [("seats.0.tiebreak", "score"), ("seats.0.root", "halving")])
    load(MOOR, [("seats.0.tiebreak", "none")])  # no tie-break is what ucb1 plays: no mistake to say so
    load(MOOR, [("seats.0.tiebreak", "auto")])  # the default given explicitly (the error's own example)
    load(HUNTERS, [("seats.0.tiebreak", "none")])  # the hunters' default root is halving


def test_a_grid_sweep_names_the_combination_that_is_refused(tmp_path):
    """A grid of root x explore refused explore at root halving with '--set seats.0.explore=1,2: value 1: ...':
    value 1 is fine at root ucb1, and the line did not say at which point it failed. It names the point (and
    that a grid plays every combination); a one-axis sweep keeps 'value V'."""
    sets = ["--set", "seats.0.root=ucb1,halving", "--set", "seats.0.explore=1,2"]
    r = CliRunner().invoke(app, ["sweep", str(MOOR), *sets, "--games", "2", "--out", str(tmp_path / "s")])
    line = one_error_line(r)
    assert r.exit_code == EXIT_USAGE and line.startswith(
        "error: --set seats.0.explore=1,2: at seats.0.root=halving, seats.0.explore=1: seats[0].params.explore: "
    ), line
    assert WHY in line and line.endswith(
        "(a grid plays every combination of the values; --mode zip pairs them instead)"
    )
    fixed = ["--set", "seats.0.root=ucb1,halving", "--set", "seats.0.explore=2"]  # explore fixed: named after the axes
    line = one_error_line(CliRunner().invoke(app, ["sweep", str(MOOR), *fixed, "--out", str(tmp_path / "s")]))
    assert line.startswith("error: --set seats.0.explore=2: at seats.0.root=halving, seats.0.explore=2: "), line
    one = ["--set", "seats.0.explore=0.5,1"]
    line = one_error_line(CliRunner().invoke(app, ["sweep", str(HUNTERS), *one, "--out", str(tmp_path / "s")]))
    assert line.startswith("error: --set seats.0.explore=0.5,1: value 0.5: seats[0].params.explore: "), line
    assert not (tmp_path / "s").exists()
