"""The API as a notebook uses it (`sim.api.notebook`): unknown keywords are the API's own error, messages name
keywords as Python does, every LadderError says what is allowed, and a long call shows its progress where a person
watches."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

import sim
from sim.api import notebook

MOOR = Path(__file__).resolve().parents[2] / "scenarios" / "moor" / "4p.toml"


@pytest.mark.kernel  # sim.ladder's and sim.load's module imports load a game's kernels
@pytest.mark.parametrize("name", ["load", "run", "compare", "sweep", "check", "tune", "ladder"])
def test_an_unknown_keyword_is_an_option_error_naming_it_and_the_keywords_allowed(name):
    with pytest.raises(sim.OptionError) as e:
        getattr(sim, name)(MOOR, gamez=10)
    assert str(e.value).startswith(f"gamez: not a keyword of sim.{name}; allowed: ")
    assert e.value.field == "gamez" and e.value.given == "gamez" and "seed" in e.value.allowed
    assert not isinstance(e.value, TypeError)


@pytest.mark.kernel
@pytest.mark.parametrize("name", ["run", "compare", "sweep"])
def test_an_out_that_is_not_a_path_is_an_option_error_naming_it(name, tmp_path):
    """`out=123` was pathlib's TypeError from deep inside the call (a fresh user's find)."""
    with pytest.raises(sim.OptionError, match=r"^out: expected a folder path .*, got int 123$") as e:
        getattr(sim, name)(MOOR, games=10, out=123)
    assert e.value.field == "out"


@pytest.mark.kernel
def test_too_many_positional_arguments_are_an_option_error_too():
    with pytest.raises(sim.OptionError, match=r"^sim.load: too many positional arguments"):
        sim.load(MOOR, None, None, None, None, None)


@pytest.mark.parametrize(
    "line, words",
    [
        ("--games: 0 is out of range; allowed 1..10", "games=0 is out of range; allowed 1..10"),
        ("--set players=6: scenario.players: 6 is out of range", "set: players=6: scenario.players: 6 is out of range"),
        ("--set-b track_len=9: no", "set_b: track_len=9: no"),
        ("--balance-games: 0 is out of range", "balance_games=0 is out of range"),
        ("--out: /x is a file; give --out another folder", "out=/x is a file; give out= another folder"),
        ("GAME: 'chess' is neither a game", "game: 'chess' is neither a game"),
        ("scenario.players: 9 is out of range", "scenario.players: 9 is out of range"),
        (
            "missing scenario B: give B (a scenario file), or --set-b NAME=VALUE to compare A with A changed so (see "
            "sim compare --help)",
            'missing scenario B: give B (a scenario file), or set_b={"NAME": VALUE} to compare A with A changed so '
            "(see help(sim.compare))",
        ),
    ],
)
def test_a_command_line_message_in_python_words(line, words):
    assert notebook.python_words(line) == words


def test_the_signature_and_docstring_survive_the_wrapping():
    import inspect

    from sim.api import public

    assert inspect.signature(sim.run) == inspect.signature(public.run) and sim.run.__doc__ == public.run.__doc__


@pytest.mark.kernel  # the game's registry entry imports its kernels
@pytest.mark.parametrize(
    "kw",
    [
        {"game": "moor", "strategies": ["random"]},
        {"game": "moor", "strategies": ["random", "random"]},
        {"game": "chess"},
        {"game": "moor", "players": "x"},
        {"game": "treasure_hunters", "strategies": ["random", "runner"]},
        {"game": "moor", "strategies": ["random:x=1", "weighted"]},
        {"game": "moor", "strategies": ["weighted:w_tile=abc", "random"]},
        {"game": "moor", "games": 0},
        {"game": "moor", "balance_games": 0},
        {"game": "moor", "seed": -1},
        {"game": "moor", "players": 9},
    ],
)
def test_every_ladder_error_says_what_is_allowed(kw):
    with pytest.raises(sim.LadderError) as e:
        sim.ladder(**kw)
    assert e.value.allowed and "--" not in str(e.value), str(e.value)


def test_progress_lines_name_the_games_the_rate_and_the_time_left(monkeypatch):
    clock = iter([0.0, 3.0, 3.5, 6.0])
    monkeypatch.setattr(notebook.time, "monotonic", lambda: next(clock))
    lines: list[str] = []
    ctx = notebook.default_progress("run", 100_000, lines.append)
    assert ctx.progress is not None
    ctx.progress(30_000)  # 3 s in: shown
    ctx.progress(10_000)  # 0.5 s later: too soon
    ctx.progress(20_000)  # 3 s after the last line: shown
    assert lines == [
        "sim.run: 30,000 of 100,000 games (30%), 10,000 games/s, about 7 s left",
        "sim.run: 60,000 of 100,000 games (60%), 10,000 games/s, about 4 s left",
    ]


@pytest.mark.kernel
def test_a_long_call_shows_its_progress_where_a_person_watches(monkeypatch):
    err = io.StringIO()
    monkeypatch.setattr(notebook, "watching", lambda: True)
    monkeypatch.setattr(notebook, "PROGRESS_AFTER_S", 0.0)
    monkeypatch.setattr(notebook, "PROGRESS_EVERY_S", 0.0)
    monkeypatch.setattr(notebook.sys, "stderr", err)
    sim.run(MOOR, games=3000, threads=1)
    assert "sim.run: " in err.getvalue() and "of 3,000 games" in err.getvalue()
    err.truncate(0)
    sim.run(MOOR, games=3000, threads=1, ctx=sim.RunContext(threads=1))  # the caller's own context: silent
    assert err.getvalue().strip("\x00") == ""


def test_nobody_watching_a_script_or_the_suite_gets_no_progress_lines():
    assert notebook.watching() is False  # pytest captures stderr: no terminal, no ipykernel


def test_compare_without_b_answers_in_python_words():
    """`sim.compare(a)` said "or set_b= NAME=VALUE ... (see sim compare help=)": the command line's words half
    turned."""
    with pytest.raises(sim.OptionError) as e:
        sim.compare(MOOR)
    assert 'set_b={"NAME": VALUE}' in str(e.value) and "help(sim.compare)" in str(e.value)
    assert "--" not in str(e.value) and "help=" not in str(e.value) and e.value.field == "b"


@pytest.mark.kernel  # the calls load a game's kernels before they refuse
@pytest.mark.parametrize(
    "call, field",
    [
        (lambda: sim.compare(MOOR, set_b={"track_len": 30}, margins=["bogus"]), "margins"),
        (lambda: sim.check([MOOR], margins={"win.seat0": -1}), "margins"),
        (lambda: sim.sweep(MOOR, set={"track_len": "20..30 step 10"}, margins=["bogus"]), "margins"),
        (lambda: sim.sweep(MOOR, set={"track_len": "20..30 step 10"}, measures=["nope"]), "measures"),
        (lambda: sim.sweep(MOOR, set={"nope": "20..30 step 10"}), "set"),
        (lambda: sim.tune(MOOR, {"track_len": "20..60"}, "bogus", trials=2), "targets"),
        (lambda: sim.run(MOOR.parent / "none.toml"), "scenario"),
        (lambda: sim.run(""), "scenario"),
        (lambda: sim.load(MOOR.parent), "scenario"),
        (lambda: sim.compare(MOOR.parent / "none.toml", MOOR), "a"),
        (lambda: sim.compare(MOOR, MOOR.parent / "none.toml"), "b"),
        (lambda: sim.check([MOOR, MOOR.parent / "none.toml"]), "scenarios"),
        (lambda: sim.check([MOOR], baselines=Path("/nonexistent-baselines")), "baselines"),
        (lambda: sim.check([MOOR], baseline=Path("/nonexistent.json")), "baseline"),
        (lambda: sim.executor(workers=0), "workers"),
    ],
)
def test_an_error_names_the_argument_the_caller_passed(call, field):
    """`margins=["bogus"]` named the field 'margin' (the command line's repeated --margin) and a missing scenario
    file named its path, not the argument that gave it (a fresh user's find): every field is a keyword of the
    call, and a message that names an option names that keyword."""
    with pytest.raises(sim.SimError) as e:
        call()
    assert e.value.field == field, (e.value.field, str(e.value))
    line = str(e.value).split("`")[0]  # (a quoted shell command keeps its options)
    assert "--" not in line and not line.startswith(("margin:", "measure:", "target:")), str(e.value)


@pytest.mark.parametrize(
    "line, keywords, words",
    [
        ("--margin: 'x': expected KEY=VALUE", ("margins",), "margins: 'x': expected KEY=VALUE"),
        ("--target: x: expected", ("targets",), "targets: x: expected"),
        ("--target: x: expected", ("target",), "target: x: expected"),
        ("--out: /x is a file", ("folder",), "folder=/x is a file"),
        (
            "x: make it with `sim baselines F --out DIR`; check with --baselines DIR",
            (),
            ("x: make it with `sim baselines F --out DIR`; check with baselines= DIR"),
        ),
    ],
)
def test_an_option_is_named_by_the_functions_own_keyword(line, keywords, words):
    assert notebook.python_words(line, keywords) == words


def test_the_executor_refuses_a_bad_value_at_the_call_not_at_with():
    with pytest.raises(sim.OptionError) as e:
        sim.executor(workers=0)
    assert e.value.field == "workers" and str(e.value).startswith("workers=0 is out of range")


@pytest.mark.parametrize("name", ["run", "compare", "sweep", "check"])
def test_help_describes_the_python_arguments_not_an_options_record(name):
    """help(sim.compare) sent the reader to `CompareOptions`, a record a Python caller never passes (a fresh
    user's find): each verb's docstring says what each of its own arguments is."""
    import inspect

    fn = getattr(sim, name)
    doc = inspect.getdoc(fn) or ""
    assert "Options`" not in doc, doc
    described = {m for line in doc.splitlines() for m in re.findall(r"(?:^|[;,] )(\w+): ", line.strip())}
    missing = [p for p in inspect.signature(fn).parameters if p not in described]
    assert not missing, f"sim.{name}: {missing} not described in its docstring"


def test_a_scenario_field_stays_itself_beside_a_folder_argument():
    """A field inside the scenario ("scenario.players") is not a file of the folder ``out=`` names."""
    import inspect

    from sim.api import public

    bound = inspect.signature(public.run).bind("x.toml", out=".")
    e = sim.ScenarioError("scenario.players: 9 is out of range for moor; allowed 2..5")
    assert notebook.field_keyword(e, bound) == "scenario.players"
    missing = sim.ScenarioError("reports/x/summary.json: no such file")
    assert notebook.field_keyword(missing, inspect.signature(public.run).bind("x.toml", out="reports")) == "out"


def test_one_text_given_alone_is_one_item_not_its_letters():
    """`margins="seat_spread=1"` was read letter by letter ("margins: 's': expected KEY=VALUE") though help(sim.compare)
    says margins takes "MEASURE=VALUE" texts."""
    from sim.api.basics import margin_texts, texts

    assert margin_texts("seat_spread=1") == ("seat_spread=1",)
    assert margin_texts(["seat_spread=1", "length.rounds=2"]) == ("seat_spread=1", "length.rounds=2")
    assert texts("win.seat0") == ("win.seat0",)


@pytest.mark.kernel  # the call loads a game's kernels before it refuses
def test_a_bad_margin_given_alone_is_named_whole():
    with pytest.raises(sim.OptionError) as e:
        sim.compare(MOOR, set_b={"track_len": 30}, margins="bogus")
    assert "'bogus'" in str(e.value) and e.value.field == "margins"


def test_ladder_strategies_given_as_one_text_are_split_as_the_command_line_splits_them():
    """`sim.ladder("moor", strategies="random,weighted")` failed with "unknown strategy 'r'": the text was read as
    its letters."""
    from sim.api.ladder import rung_texts

    assert rung_texts("random,weighted") == ["random", "weighted"]
    assert rung_texts("random;planner:recall_own=0.5,recall_table=0.5") == [
        "random",
        "planner:recall_own=0.5,recall_table=0.5",
    ]
    assert rung_texts(["random", "weighted"]) == ["random", "weighted"]
    with pytest.raises(sim.LadderError) as e:
        rung_texts(["random", 5])
    assert e.value.field == "strategies" and "5 is not a rung" in str(e.value)


@pytest.mark.parametrize("bad", [5, [1, 2], None.__class__])
def test_margins_that_are_not_texts_or_a_mapping_are_one_line_naming_margins(bad):
    from sim.api.basics import margin_texts

    with pytest.raises(sim.OptionError) as e:
        margin_texts(bad)
    assert e.value.field == "margins" and "is not a margin" in str(e.value)


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda: sim.sweep(MOOR, set={"track_len": [21, 22]}, margins=5), "margins"),
        (lambda: sim.sweep(MOOR, set={"track_len": [21, 22]}, measures=5), "measures"),
        (lambda: sim.check(MOOR, margins=5), "margins"),
        (lambda: sim.ladder("moor", margin=5), "margin"),
    ],
)
def test_a_list_argument_that_is_not_text_is_one_line_naming_it(call, field):
    """`sim.sweep(margins=5)` and `sim.check(margins=5)` raised TypeError from deep inside; every list argument is
    now checked where it is read (`sim.api.basics.texts` / `margin_texts`)."""
    with pytest.raises(sim.SimError) as e:
        call()
    assert e.value.field == field and str(e.value).startswith(f"{field}: 5 is not ")


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda: sim.run(MOOR, set=5, games=10), "set"),
        (lambda: sim.run(MOOR, set=[5], games=10), "set"),
        (lambda: sim.run(MOOR, set={"seats.0.w_goal": None}, games=10), "set"),  # was read as the text 'None'
        (lambda: sim.compare(MOOR, set_b={"seats.0.w_goal": None}, games=10), "set_b"),
        (lambda: sim.ladder("moor", strategies=5), "strategies"),
        (lambda: sim.ladder("moor", strategies=""), "strategies"),
        (lambda: sim.ladder("moor", seed="x"), "seed"),
        (lambda: sim.run(MOOR, scheduler=5, games=10), "scheduler"),
        (lambda: sim.check(5), "scenarios"),
        (lambda: sim.check([5]), "scenarios"),
        (lambda: sim.check(MOOR, baselines=5), "baselines"),
        (lambda: sim.tune(5), "scenario"),
    ],
)
def test_an_argument_of_the_wrong_type_is_one_line_naming_it(call, field):
    """A fresh user's odd types (set=5, strategies=5, seed="x", sim.check(5), ...) raised TypeError or
    AttributeError from deep inside; each is now one SimError naming the argument."""
    with pytest.raises(sim.SimError) as e:
        call()
    assert e.value.field in (field, f"--{field}"), (str(e.value), e.value.field)
