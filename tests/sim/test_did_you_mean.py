"""A misspelt name gets "did you mean '...'?" before the names allowed (`sim.model.words.did_you_mean`, the helper of
the [sweep] / [tune] keys): a --set parameter, a seat's strategy parameter, a scenario file's key, game or strategy,
a measure named by --margin or --metric. A name close to none gets no guess. No game is played (the fast tier)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sim.cli.main import EXIT_USAGE, app
from sim.model.scenario import ScenarioError, from_dict
from sim.model.words import did_you_mean
from sim.stats.compare import CompareError, resolve_margins
from tests.sim._cli import one_error_line

MOOR_2P = Path(__file__).resolve().parents[1] / "data" / "moor-2p-small.toml"


def test_the_helper_guesses_only_a_close_name():
    assert did_you_mean("tiebrak", ["track_len", "tiebreak"]) == "did you mean 'tiebreak'? "
    assert did_you_mean("colour", ["track_len", "tiebreak"]) == ""


@pytest.mark.parametrize(
    "sets, line",
    [
        ("tiebrak=shared", "error: --set tiebrak=shared: unknown name 'tiebrak'; did you mean 'tiebreak'? allowed: "),
        ("gmes=10", "error: --set gmes=10: unknown name 'gmes'; did you mean 'games'? allowed: "),
        (
            "seats.0.w_gaol=1",
            "error: --set seats.0.w_gaol=1: seat 0 plays weighted, which has no parameter 'w_gaol'; "
            "did you mean 'w_goal'? allowed: strategy, ",
        ),
        ("nosuch=1", "error: --set nosuch=1: unknown name 'nosuch'; allowed: "),
    ],
)
def test_a_misspelt_set_name_is_guessed(tmp_path, sets, line):
    r = CliRunner().invoke(app, ["run", str(MOOR_2P), "--set", sets, "--out", str(tmp_path / "o")])
    assert r.exit_code == EXIT_USAGE and one_error_line(r).startswith(line)


@pytest.mark.parametrize(
    "old, new, line",
    [
        ("games = 4000", "gmaes = 4000", "scenario: unknown key 'gmaes'; did you mean 'games'? allowed: "),
        ('game = "moor"', 'game = "mor"', "scenario.game: unknown game 'mor'; did you mean 'moor'? allowed: "),
        (
            "[[seats]]",
            "[params]\ntrack_lne = 30\n\n[[seats]]",
            "params: unknown key 'track_lne'; did you mean 'track_len'?",
        ),
        (
            'strategy = "weighted"',
            'strategy = "wieghted"',
            "unknown player strategy 'wieghted'; did you mean 'weighted'?",
        ),
        ('strategy = "weighted"', 'strategy = "weighted"\nparams = { w_gaol = 1.0 }', "did you mean 'w_goal'? allowed"),
    ],
)
def test_a_misspelt_scenario_key_is_guessed(old, new, line):
    doc = tomllib.loads(MOOR_2P.read_text().replace(old, new, 1))
    with pytest.raises(ScenarioError) as e:
        from_dict(doc)
    assert line in str(e.value)


def test_a_misspelt_measure_is_guessed():
    with pytest.raises(CompareError) as e:
        resolve_margins({"lenght.rounds": 1.0}, ["length.rounds", "win.seat0"])
    assert str(e.value) == (
        "--margin: 'lenght.rounds' is not a compared measure; did you mean 'length.rounds'? allowed: "
        "length.rounds, win.seat0"
    )


def test_a_rollout_measure_without_its_timelines_gets_no_guess():
    with pytest.raises(CompareError) as e:
        resolve_margins({"arc.decided_share": 60.0}, ["arc.decided_by_score", "arc.decided_by_score_share"])
    assert "did you mean" not in str(e.value)


@pytest.mark.parametrize(
    "args, says",
    [
        (["list", "mooor"], "error: GAME: unknown game 'mooor'; did you mean 'moor'? allowed: "),
        (["run-defaults", "--game", "mooor"], "error: --game: unknown game 'mooor'; did you mean 'moor'? allowed: "),
        (["train", "mooor"], "error: game: unknown game 'mooor'; did you mean 'moor'? allowed: "),
        (["ladder", "mooor"], "nor a scenario file; did you mean 'moor'?"),
    ],
)
def test_a_misspelt_game_on_the_command_line_is_guessed(args, says):
    r = CliRunner().invoke(app, args)
    assert r.exit_code == EXIT_USAGE and says in one_error_line(r), r.output


def test_sim_bench_refuses_a_games_count_below_one():
    r = CliRunner().invoke(app, ["bench", "--games", "-1"])
    assert r.exit_code == EXIT_USAGE and "--games: -1 is out of range" in one_error_line(r), r.output


def test_a_misspelt_ladder_rung_is_guessed():
    """`sim ladder moor --strategies 'random;runnr'` (a fresh user): the other name checks guessed, this one did
    not. Refused before anything is played."""
    r = CliRunner().invoke(app, ["ladder", "moor", "--strategies", "random;runnr"])
    assert r.exit_code == EXIT_USAGE
    assert one_error_line(r).startswith(
        "error: --strategies runnr: unknown strategy 'runnr' for moor; did you mean 'runner'? allowed: random, "
    )
