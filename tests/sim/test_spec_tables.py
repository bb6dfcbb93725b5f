"""The ``[sweep]`` and ``[tune]`` tables' options, checked against their declared schema (`sim.model.schema`): each
bad value is one line naming the option, what is allowed and what was given, before anything runs; the command
line's counts against the same bounds. No game is played (the fast tier)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from sim.cli import main as cli_main
from sim.cli.common import EXIT_BAD_INPUT
from sim.model import sweep_spec, tune_spec
from tests.sim._cli import one_error_line

MOOR_2P = Path(__file__).resolve().parents[1] / "data" / "moor-2p-small.toml"


def _file(tmp_path: Path, table: str, lines: str, first: str = "") -> Path:
    p = tmp_path / "spec.toml"
    p.write_text(first + MOOR_2P.read_text() + (f"\n[{table}]\n{lines}\n" if table else ""), encoding="utf-8")
    return p


TUNE = 'track_len = "20..30"\ntarget = "length.rounds=5"\n'


@pytest.mark.parametrize(
    "line, message",
    [
        ("trials = 0", "[tune] trials: 0 is out of range; allowed 1..10,000"),
        ("trials = true", "[tune] trials: expected a positive integer, got true"),
        ("games = 2.5", "[tune] games: expected a positive integer, got 2.5"),
        ("games = 0", "[tune] games: 0 is out of range; allowed 1..10,000,000,000"),
        ("confirm = 51", "[tune] confirm: 51 is out of range; allowed 1..50"),
        ("confirm_games = 0", "[tune] confirm_games: 0 is out of range; allowed 1..10,000,000,000"),
        ('batch = "4"', '[tune] batch: expected a positive integer, got "4"'),
        ("batch = 257", "[tune] batch: 257 is out of range; allowed 1..256"),
    ],
)
def test_a_bad_tune_option_is_one_line_naming_it(tmp_path, line, message):
    with pytest.raises(tune_spec.TuneError) as e:
        tune_spec.build(_file(tmp_path, "tune", TUNE + line))
    assert str(e.value) == message and not e.value.usage


def test_a_bad_tune_target_type_shows_the_whole_value(tmp_path):
    with pytest.raises(tune_spec.TuneError) as e:
        tune_spec.build(_file(tmp_path, "tune", 'track_len = "20..30"\ntarget = ["length.rounds=5", 2]'))
    assert str(e.value) == (
        "[tune] target: expected a string or an array of strings MEASURE=VALUE, e.g. target = "
        '"first_player_advantage=0", got ["length.rounds=5", 2]'
    )


def test_a_tune_table_that_is_no_table_is_refused(tmp_path):
    with pytest.raises(tune_spec.TuneError, match=r"^\[tune\]: expected a table, got 5$"):
        tune_spec.build(_file(tmp_path, "", "", first="tune = 5\n"))


def test_the_files_bad_count_is_refused_also_when_the_option_replaces_it(tmp_path):
    with pytest.raises(tune_spec.TuneError, match=r"^\[tune\] trials: 0 is out of range"):
        tune_spec.build(_file(tmp_path, "tune", TUNE + "trials = 0"), trials=5)


@pytest.mark.parametrize(
    "option, message",
    [
        ({"trials": 0}, "--trials: 0 is out of range; allowed 1..10,000"),
        ({"batch": 300}, "--batch: 300 is out of range; allowed 1..256"),
        ({"confirm": 51}, "--confirm: 51 is out of range; allowed 1..50"),
        ({"confirm_games": 0}, "--confirm-games: 0 is out of range; allowed 1..10,000,000,000"),
    ],
)
def test_a_bad_tune_count_option_is_the_command_lines_fault(tmp_path, option, message):
    with pytest.raises(tune_spec.TuneError) as e:
        tune_spec.build(_file(tmp_path, "tune", TUNE), **option)
    assert str(e.value) == message and e.value.usage


def test_the_tune_tables_options_and_parameters_are_read(tmp_path):
    t = tune_spec.build(_file(tmp_path, "tune", TUNE + "trials = 7\ngames = 300\nconfirm = 2\nbatch = 2"), confirm=1)
    assert (t.trials, t.games, t.confirm, t.confirm_games, t.batch) == (7, 300, 1, 1200, 2)
    assert [p.name for p in t.params] == ["track_len"] and [x.measure for x in t.targets] == ["length.rounds"]


SWEEP = 'track_len = "24..25"\n'


@pytest.mark.parametrize(
    "line, message",
    [
        ('mode = "zipp"', "[sweep] mode: 'zipp' is not allowed; allowed: grid, zip"),
        ("mode = 3", "[sweep] mode: 3 is not allowed; allowed: grid, zip"),
        ("games = true", "[sweep] games: expected a positive integer, got true"),
        ("independent = 1", "[sweep] independent: expected true or false, got 1"),
        ('measures = ["length.rounds", 1]', '[sweep] measures: expected an array of measure names, e.g. measures = '
         '["first_player_advantage", "length.rounds"], got ["length.rounds", 1]'),
    ],
)  # fmt: skip
def test_a_bad_sweep_option_is_one_line_naming_it(tmp_path, line, message):
    with pytest.raises(sweep_spec.SweepError) as e:
        sweep_spec.build(_file(tmp_path, "sweep", SWEEP + line))
    assert str(e.value) == message and not e.value.usage


def test_a_sweep_table_that_is_no_table_is_refused(tmp_path):
    with pytest.raises(sweep_spec.SweepError, match=r"^\[sweep\]: expected a table, got 5$"):
        sweep_spec.build(_file(tmp_path, "", "", first="sweep = 5\n"))


def test_a_bad_mode_option_is_the_command_lines_fault(tmp_path):
    with pytest.raises(sweep_spec.SweepError) as e:
        sweep_spec.build(_file(tmp_path, "sweep", SWEEP), mode="zap")
    assert str(e.value) == "--mode: 'zap' is not allowed; allowed: grid, zip" and e.value.usage


def test_the_sweep_tables_options_and_axes_are_read(tmp_path):
    lines = SWEEP + 'mode = "zip"\ngames = 30\nindependent = true\nmeasures = ["length.rounds"]\ntarget = "x=0"'
    sw = sweep_spec.build(_file(tmp_path, "sweep", lines))
    assert (sw.mode, sw.games, sw.independent, sw.measures, sw.target_text) == (
        "zip",
        30,
        True,
        ["length.rounds"],
        "x=0",
    )
    assert [(a.name, a.values) for a in sw.axes] == [("track_len", (24, 25))] and len(sw.points) == 2


@pytest.mark.parametrize(
    "command, table, line, says",
    [
        ("sweep", "sweep", SWEEP + 'mode = "zipp"', "[sweep] mode: 'zipp' is not allowed; allowed: grid, zip"),
        ("tune", "tune", TUNE + "batch = 0", "[tune] batch: 0 is out of range; allowed 1..256"),
    ],
)
def test_the_cli_refuses_a_bad_table_option_in_one_line_and_writes_nothing(tmp_path, command, table, line, says):
    f = _file(tmp_path, table, line)
    r = CliRunner().invoke(cli_main.app, [command, str(f), "--out", str(tmp_path / "o")])
    assert r.exit_code == EXIT_BAD_INPUT and says in one_error_line(r)
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize(
    "table, lines, key, meant",
    [
        ("tune", 'track_len = "20..30"\ntargt = "length.rounds=5"', "targt", "target"),
        ("tune", TUNE + "trails = 7", "trails", "trials"),
        ("sweep", SWEEP + 'mdoe = "zip"', "mdoe", "mode"),
        ("sweep", SWEEP + "game = 30", "game", "games"),
        ("sweep", SWEEP + 'measure = ["length.rounds"]', "measure", "measures"),
    ],
)
def test_a_misspelt_table_option_is_named_with_the_option_it_is_close_to(tmp_path, table, lines, key, meant):
    """`targt = "..."` was read as a parameter to tune ("'...' is not a range"): a key that names no setting of the
    game but is close to one of the table's options is that option misspelt."""
    f = _file(tmp_path, table, lines)
    build = tune_spec.build if table == "tune" else sweep_spec.build
    with pytest.raises(sweep_spec.SweepError) as e:
        build(f)
    assert str(e.value).startswith(f"{f}: unknown key '{key}' in [{table}]; did you mean '{meant}'? (its options: ")
    assert not e.value.usage


def test_a_parameter_of_the_game_is_read_as_one_not_as_a_misspelt_option(tmp_path):
    t = tune_spec.build(_file(tmp_path, "tune", TUNE + 'seats.0.w_goal = "0.5..2.0"'))
    assert [p.name for p in t.params] == ["track_len", "seats.0.w_goal"]


@pytest.mark.parametrize(
    "command, table, line, says",
    [
        ("sweep", "sweep", SWEEP + 'mode = "zipp"', "[sweep] mode: 'zipp' is not allowed"),
        ("tune", "tune", TUNE + "batch = 0", "[tune] batch: 0 is out of range"),
        ("tune", "tune", 'hauntings = "1..2"\ntarget = "length.rounds=5"', "[tune] hauntings: "),
        ("tune", "tune", 'track_len = "20..30"\ntarget = "nosuch=5"', "[tune] target nosuch=5: 'nosuch' is not a "),
    ],
)
def test_an_error_of_the_table_names_its_file_first_in_sweep_and_tune_alike(tmp_path, command, table, line, says):
    f = _file(tmp_path, table, line)
    r = CliRunner().invoke(cli_main.app, [command, str(f), "--out", str(tmp_path / "o")])
    assert one_error_line(r).startswith(f"error: {f}: {says}")


NOT_A_RANGE = (
    "'a..b' is not a range; write LO..HI or LO..HI step S with a number at each end (e.g. 20..60, 0.5..2.0, "
    "20..60 step 5), or "
)


@pytest.mark.parametrize(
    "given, where, instead",
    [
        ("--set", "--set track_len=a..b", "a list of values a,b,c"),
        ("[sweep]", "[sweep] track_len", "an array of values"),
        ("--param", "--param track_len=a..b", "two or more choices a,b,c"),
        ("[tune]", "[tune] track_len", "an array of choices"),
    ],
)
def test_a_bad_range_is_worded_alike_in_sweeps_and_tunes(tmp_path, given, where, instead):
    """`a..b` got three wordings (sweep's table, tune's option, tune's table) and --set took it as a text value:
    one wording now (`sweep_spec.not_a_range`), each naming what else its entry takes."""
    target = 'target = "length.rounds=5"\n'
    with pytest.raises(sweep_spec.SweepError) as e:
        if given == "--set":
            sweep_spec.build(_file(tmp_path, "", ""), sets=["track_len=a..b"])
        elif given == "[sweep]":
            sweep_spec.build(_file(tmp_path, "sweep", 'track_len = "a..b"'))
        elif given == "--param":
            tune_spec.build(_file(tmp_path, "tune", target), params=["track_len=a..b"])
        else:
            tune_spec.build(_file(tmp_path, "tune", target + 'track_len = "a..b"'))
    assert str(e.value) == f"{where}: {NOT_A_RANGE}{instead}"
