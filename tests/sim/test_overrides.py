"""Named parameters (card mixes by name, die faces by name, move_die as one table) and --set NAME=VALUE overrides:
the module's API, the scenario loader, and the CLI (one line and exit 2 for a bad override, no traceback)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sim.cli.main import EXIT_BAD_INPUT, EXIT_USAGE, app
from sim.model import overrides
from sim.model import overrides as ov
from sim.model.overrides import load
from sim.model.scenario import ScenarioError, from_dict
from sim.model.scenario import load as load_file
from tests.sim._cli import one_error_line

REPO = Path(__file__).resolve().parents[2]
TH = REPO / "scenarios" / "treasure_hunters" / "basic-4p.toml"
cli = CliRunner()

MOOR = """
[scenario]
name = "m"
game = "moor"
players = 3
games = 200
seed = 5
[[seats]]
strategy = "random"
[[seats]]
strategy = "collector"
[[seats]]
strategy = "weighted"
params = { w_goal = 2.0 }
"""


def th(extra: str = "", mode: str = "advanced") -> dict:
    import tomllib

    return tomllib.loads(f"""
[scenario]
game = "treasure_hunters"
players = 2
[params]
mode = "{mode}"
{extra}
[[seats]]
strategy = "weighted"
[[seats]]
strategy = "weighted"
""")


def one_line_error(r, code: int, *needles: str):
    assert r.exit_code == code, r.output
    err = r.stderr.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in r.output, err
    for n in needles:
        assert n in err, err


# --- named parameters in scenario files ---------------------------------------------------------------------------


@pytest.mark.kernel
def test_card_mix_by_name_equals_positional_form():
    named = from_dict(th("[params.ghost_cards]\nshuffle = 2\nblue_door = 1"))
    positional = from_dict(th("ghost_cards = [1, 2, 1, 1, 1, 2]"))
    assert named.params["ghost_cards"] == positional.params["ghost_cards"] == [1, 2, 1, 1, 1, 2]
    assert (named.prm() == positional.prm()).all()


@pytest.mark.kernel
def test_card_mix_unknown_name_is_one_line_naming_the_allowed_names():
    with pytest.raises(
        ScenarioError,
        match=r"^params.ghost_cards: unknown name 'shufle'; did you mean 'shuffle'\? allowed: each_room, "
        r"shuffle, draw_2_shuffle",
    ):
        from_dict(th("[params.ghost_cards]\nshufle = 2"))


@pytest.mark.kernel
def test_card_mix_value_out_of_range_names_the_card():
    with pytest.raises(ScenarioError, match=r"^params.hh_cards.spook: 13 is out of range; allowed 0..12"):
        from_dict(th("[params.hh_cards]\nspook = 13", mode="head_haunter"))


@pytest.mark.kernel
def test_move_die_as_one_table_of_faces_and_ghost_icons():
    sc = from_dict(th("move_die = { faces = [1, 2, 3, 4], ghost = [1, 1, 0, 0] }"))
    assert sc.params["move_die"] == [1, 2, 3, 4] and sc.params["move_die_ghost"] == [1, 1, 0, 0]
    with pytest.raises(
        ScenarioError, match=r"^params.move_die: unknown key 'ghosts'; did you mean 'ghost'\? allowed: faces, ghost"
    ):
        from_dict(th("move_die = { faces = [1, 2], ghosts = [1, 0] }"))
    with pytest.raises(ScenarioError, match="given twice"):
        from_dict(th("move_die = { ghost = [1, 1, 1, 1, 1, 1] }\nmove_die_ghost = [1, 1, 1, 1, 1, 0]"))


@pytest.mark.kernel
def test_die_faces_by_name():
    sc = from_dict(th('fight_die = ["ghost", "ghost", "haunting", "blank"]'))
    assert sc.params["fight_die"] == [1, 1, 2, 0]
    with pytest.raises(
        ScenarioError,
        match=r"^params.fight_die\[1\]: unknown name \"ghoul\"; allowed: blank, ghost, "
        r"haunting",
    ):
        from_dict(th('fight_die = ["ghost", "ghoul"]'))


@pytest.mark.kernel
def test_moor_space_symbols_by_treasure_name():
    import tomllib

    d = tomllib.loads(MOOR)
    d["params"] = {"track_len": 19, "space_symbols": ["bone", "axe", "coin", "mask", "urn"] * 3 + ["bone"] * 4}
    assert from_dict(d).params["space_symbols"][:6] == [0, 1, 2, 3, 4, 0]


# --- the overrides module -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, want",
    [
        ("games=2000", ("games", 2000)),
        ("seats.2.strategy=runner", ("seats.2.strategy", "runner")),
        ("seats.2.w_goal=1.5", ("seats.2.w_goal", 1.5)),
        ("ghost_cards.shuffle=2", ("ghost_cards.shuffle", 2)),
        ("move_die=[1, 2, 3]", ("move_die", [1, 2, 3])),
        ('tiebreak="shared"', ("tiebreak", "shared")),
        ("fight_optional=true", ("fight_optional", True)),
        ("name = x", ("name", "x")),
    ],
)
def test_parse_set(text, want):
    assert ov.parse_set(text) == want


@pytest.mark.parametrize(
    "text, needle",
    [
        ("games", "expected NAME=VALUE"),
        ("=2", "not a parameter name"),
        ("games=", "no value"),
        ("a b=1", "not a parameter name"),
        ("x=[1, 2", "not a TOML value"),
        ("x=1979-05-27", "date"),
        ("track_len=20..60", r"20\.\.60 is a range; give one value here \(a range is for sim sweep\)"),
        ("track_len=20..60 step 5", "is a range; give one value here"),
    ],
)
def test_parse_set_refuses_malformed(text, needle):
    with pytest.raises(ov.OverrideError, match=needle) as e:
        ov.parse_set(text)
    assert str(e.value).startswith(f"--set {text}:") and "\n" not in str(e.value)


@pytest.mark.kernel
def test_apply_overrides_turns_a_positional_mix_into_names_and_keeps_the_input():
    raw = th("ghost_cards = [1, 1, 1, 1, 2, 2]")
    out = ov.apply_overrides(raw, [("ghost_cards.shuffle", 3), ("seats.*.w_dist", 2.0), ("seed", 9)])
    assert raw["params"]["ghost_cards"] == [1, 1, 1, 1, 2, 2]  # not modified in place
    assert out["params"]["ghost_cards"]["shuffle"] == 3 and out["scenario"]["seed"] == 9
    sc = from_dict(out)
    assert sc.params["ghost_cards"] == [1, 3, 1, 1, 2, 2] and all(s.params["w_dist"] == 2.0 for s in sc.seats)


@pytest.mark.kernel
def test_a_field_of_a_broken_positional_mix_is_refused_not_hidden():
    with pytest.raises(ov.OverrideError, match="the file's params.ghost_cards has 2 values"):
        ov.apply_overrides(th("ghost_cards = [1, 2]"), [("ghost_cards.shuffle", 2)])


@pytest.mark.kernel
def test_a_new_strategy_drops_the_old_strategys_parameters():
    import tomllib

    sc = from_dict(ov.apply_overrides(tomllib.loads(MOOR), [("seats.2.strategy", "runner")]))
    assert sc.seats[2].strategy == "runner" and sc.seats[2].params == {}


@pytest.mark.kernel
def test_a_new_strategy_drops_a_parameter_of_the_same_name_and_another_meaning():
    # weighted's w_jewel (a planner's room value) is not the learned hunter's w_jewel (a policy weight): switching
    # the tuned advanced team to learned must play the shipped policy, not a weight of 11.5 on one feature
    adv = REPO / "scenarios" / "treasure_hunters" / "advanced-4p.toml"
    sc = load(adv, [("seats.*.strategy", "learned")])
    assert [s.params for s in sc.seats] == [{}] * 4
    kept = load(adv, [("seats.*.strategy", "weighted")])  # the same strategy: the same meaning, kept
    assert [s.params for s in kept.seats] == [{"w_jewel": 11.5}] * 4


@pytest.mark.kernel
@pytest.mark.parametrize(
    "sets, needle",
    [
        (["foo=1"], "unknown name 'foo'; allowed: name, players, games"),
        (
            ["ghost_cards.shufle=2"],
            "ghost_cards has no name 'shufle'; did you mean 'shuffle'? allowed: each_room, shuffle",
        ),
        (["seats.7.strategy=runners"], "no seat 7: the scenario has 4 seats (0..3)"),
        (["seats.x.strategy=runners"], "'x' is not a seat number"),
        (["seats.0.w_goal=1"], "seat 0 plays weighted, which has no parameter 'w_goal'; allowed: strategy, w_dist"),
        (["game=moor"], "the game cannot be changed"),
        (["max_turns.x=1"], "max_turns is one value"),
        (["move_die.edge=1"], "move_die has no part 'edge'; allowed: faces, ghost"),
        (["ghost_cards.shuffle=99"], "params.ghost_cards.shuffle: 99 is out of range; allowed 0..8"),
        (["hauntings=true"], "params.hauntings: expected an integer"),
        (["seats.1.strategy=runner"], "seats[1].strategy: unknown hunter strategy 'runner'"),
        (["games=0"], "scenario.games: 0 is out of range"),
    ],
)
def test_bad_override_is_one_line_naming_it(sets, needle):
    with pytest.raises(ov.OverrideError) as e:
        load(TH, [ov.parse_set(t) for t in sets])
    msg = str(e.value)
    assert msg.startswith(f"--set {sets[-1]}:") and needle in msg and "\n" not in msg, msg


@pytest.mark.kernel
def test_file_errors_stay_the_files(tmp_path):
    p = tmp_path / "bad.toml"
    p.write_text(MOOR + "[params]\ntrack_len = 3\n")
    with pytest.raises(ScenarioError) as e:
        load(p, [("seed", 3)])
    assert not isinstance(e.value, ov.OverrideError) and str(e.value).startswith(f"{p}: params.track_len")


@pytest.mark.kernel
def test_variant_name_never_the_plain_name():
    assert ov.variant_name("a", []) == "a"
    assert ov.variant_name("a", [("ghost_cards.shuffle", 2)]) == "a--ghost_cards.shuffle=2"
    assert ov.variant_name("a", [("seats.1.strategy", "runner")]) == "a--seats.1.strategy=runner"
    odd = ov.variant_name("a", [("move_die", [1, 2])])
    assert odd.startswith("a--set-") and odd != ov.variant_name("a", [("move_die", [1, 3])])
    sc = load(TH, [("ghost_cards.shuffle", 2)])
    assert sc.name == "th-basic-4p--ghost_cards.shuffle=2" and sc.overrides == (("ghost_cards.shuffle", 2),)
    assert load(TH, [("name", "mine"), ("seed", 2)]).name == "mine"  # a name set by the user stays


@pytest.mark.kernel
def test_games_replaces_the_files_value_before_validation(tmp_path):
    p = tmp_path / "huge.toml"
    p.write_text(MOOR.replace("games = 200", "games = 1000000000000"))
    with pytest.raises(ScenarioError, match="scenario.games"):
        load(p)
    sc = load(p, games=50)
    assert sc.games == 50 and sc.name == "m"


# --- the CLI -------------------------------------------------------------------------------------------------------


@pytest.mark.kernel
def test_cli_run_with_set_records_the_variant_in_its_own_folder(tmp_path):
    p = tmp_path / "m.toml"
    p.write_text(MOOR)
    r = cli.invoke(
        app,
        [
            "run",
            str(p),
            "--set",
            "seats.2.w_goal=3.5",
            "--set",
            "tiebreak=shared",
            "--json",
            "--games",
            "100",
            "--out",
            str(tmp_path / "v"),
        ],
    )
    assert r.exit_code == 0, r.output
    s = json.loads(r.stdout[r.stdout.index("{") :])
    assert s["scenario"]["name"] == "m--seats.2.w_goal=3.5--tiebreak=shared"
    assert s["scenario"]["overrides"] == [
        {"name": "seats.2.w_goal", "value": 3.5},
        {"name": "tiebreak", "value": "shared"},
    ]
    assert s["scenario"]["params"]["tiebreak"] == "shared" and s["scenario"]["seats"][2]["params"]["w_goal"] == 3.5
    prov = json.loads((tmp_path / "v" / "provenance.json").read_text())
    assert prov["overrides"] == s["scenario"]["overrides"] and len(prov["scenario_sha256"]) == 64


@pytest.mark.kernel
def test_cli_run_default_folder_of_a_variant_differs(tmp_path, monkeypatch):
    monkeypatch.setattr("sim.model.paths.REPORTS", tmp_path / "reports")
    p = tmp_path / "m.toml"
    p.write_text(MOOR)
    for extra in ([], ["--set", "seed=6"]):
        r = cli.invoke(app, ["run", str(p), "--games", "50"] + extra)
        assert r.exit_code == 0, r.output
    assert sorted(x.name for x in (tmp_path / "reports").iterdir() if x.is_dir()) == ["m", "m--seed=6"]


@pytest.mark.kernel
def test_cli_games_replaces_a_refused_file_value(tmp_path):
    p = tmp_path / "huge.toml"
    p.write_text(MOOR.replace("games = 200", "games = 1000000000000"))
    one_line_error(cli.invoke(app, ["run", str(p), "--out", str(tmp_path / "a")]), EXIT_BAD_INPUT, "scenario.games")
    r = cli.invoke(app, ["run", str(p), "--games", "60", "--json", "--out", str(tmp_path / "b")])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout[r.stdout.index("{") :])["games"]["played"] == 60


@pytest.mark.kernel
@pytest.mark.parametrize("cmd", ["run", "replay", "report", "check", "compare"])
@pytest.mark.parametrize(
    "bad, needle",
    [("nope=1", "unknown name 'nope'"), ("seats.0.strategy=3", "seats[0].strategy"), ("games", "expected NAME=VALUE")],
)
def test_cli_bad_set_is_one_line_exit_2(tmp_path, cmd, bad, needle):
    p = tmp_path / "m.toml"
    p.write_text(MOOR)
    args = [cmd, str(p)] + ([str(p)] if cmd == "compare" else []) + ["--set", bad]
    one_line_error(cli.invoke(app, args), EXIT_USAGE, f"--set {bad}", needle)


@pytest.mark.kernel
def test_cli_compare_a_with_a_changed_by_set_b(tmp_path):
    p = tmp_path / "m.toml"
    p.write_text(MOOR)
    out = tmp_path / "c"
    r = cli.invoke(
        app, ["compare", str(p), "--set-b", "tiebreak=shared", "--games", "300", "--json", "--out", str(out)]
    )
    assert r.exit_code == 0, r.output
    res = json.loads((out / "compare.json").read_text())
    text = json.dumps(res)
    assert "m--tiebreak=shared" in text
    one_line_error(cli.invoke(app, ["compare", str(p)]), EXIT_USAGE, "--set-b")


@pytest.mark.kernel
def test_cli_replay_with_set(tmp_path):
    p = tmp_path / "m.toml"
    p.write_text(MOOR)
    r = cli.invoke(app, ["replay", str(p), "--game", "3", "--set", "seats.0.strategy=runner"])
    assert r.exit_code == 0, r.output
    assert "seat 0 (runner)" in r.stdout


def test_cli_report_folder_refuses_set(tmp_path):
    one_line_error(cli.invoke(app, ["report", str(tmp_path), "--set", "seed=1"]), EXIT_USAGE, "--set")


@pytest.mark.kernel
def test_list_shows_card_mixes_by_name():
    r = cli.invoke(app, ["list", "treasure_hunters"])
    assert r.exit_code == 0, r.output
    assert "ghost_cards = { each_room = 1, shuffle = 1, draw_2_shuffle = 1" in r.stdout
    assert "move_die = { faces = [1, 2, 3, 4, 5, 6], ghost = [1, 1, 1, 1, 1, 0] }" in r.stdout
    assert 'fight_die = ["ghost", "ghost", "ghost", "haunting", "haunting", "blank"]' in r.stdout


# --- the parameter table of reports ----------------------------------------------------------------------------------


@pytest.mark.kernel
def test_parameter_table_names_cards_and_puts_changed_first():
    from sim.model import params_table

    rows = params_table.rows("treasure_hunters", {"ghost_cards": [1, 2, 1, 1, 2, 2], "hauntings": 5})
    assert [r["name"] for r in rows[:2]] == ["ghost_cards.shuffle", "hauntings"]
    assert rows[0] == {
        "name": "ghost_cards.shuffle",
        "value": "2",
        "default": "1",
        "changed": True,
        "help": "Shuffle (ghost_cards)",
    }
    assert not any(r["changed"] for r in rows[2:]) and "move_die_ghost" not in {r["name"] for r in rows}
    assert any(r["name"] == "move_die" and r["value"].startswith("{ faces = [1, 2") for r in rows)
    md = params_table.markdown(rows)
    assert md.splitlines()[2].startswith("| **ghost_cards.shuffle** | **2** | 1 |")


@pytest.mark.kernel
def test_report_scenario_section_lists_changed_parameters_by_name_and_the_overrides():
    from sim.pages.scenario_words import scenario_items

    sc = load(TH, [("ghost_cards.shuffle", 2)])
    items = dict(scenario_items({"scenario": sc.to_dict(), "seats": []}))
    assert items["parameters"].startswith("ghost_cards.shuffle = 2 (changed; default 1); ")
    assert items["parameters"].endswith("1 differ from the default: ghost_cards.shuffle")
    assert items["changed by --set"] == "ghost_cards.shuffle=2"


@pytest.mark.kernel
def test_compare_names_the_card_that_differs():
    from sim.pages.scenario_words import scenario_differences

    a, b = load(TH), load(TH, [("ghost_cards.shuffle", 2)])
    assert scenario_differences(a.to_dict(), b.to_dict()) == ["ghost_cards.shuffle: A 1, B 2"]


TH_DIR = REPO / "scenarios" / "treasure_hunters"


def _invoke(*args):
    return cli.invoke(app, [str(a) for a in args])


MOOR4 = REPO / "scenarios" / "moor" / "4p.toml"


@pytest.mark.parametrize("command", ["run", "report", "replay", "check"])
def test_a_set_name_given_twice_is_refused_naming_it(tmp_path, command):
    """`--set mode=advanced --set mode=basic` silently played basic."""
    base = (
        [command, TH_DIR / "basic-4p.toml", "--out", tmp_path / "o"]
        if command in ("run", "report")
        else [command, TH_DIR / "basic-4p.toml"]
    )
    r = _invoke(*base, "--set", "mode=advanced", "--set", "mode=basic")
    line = one_error_line(r)
    assert r.exit_code == EXIT_USAGE
    assert line.startswith("error: --set mode: given twice (--set mode=advanced, --set mode=basic)"), line
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize(
    "sets, says",
    [
        (["track_len=30", "params.track_len=32"], "--set params.track_len: given twice"),  # two spellings
        (
            ["seats.2.w_goal=1.5", "seats.*.w_goal=2"],
            "--set seats.*.w_goal=2: replaces all that the earlier --set seats.2.w_goal=1.5 set",
        ),
        (["seed=4", "scenario.seed=5"], "--set scenario.seed: given twice"),
    ],
)
def test_a_set_that_replaces_an_earlier_one_is_refused(tmp_path, sets, says):
    args = ["run", MOOR4, "--out", tmp_path / "o"]
    for s in sets:
        args += ["--set", s]
    r = _invoke(*args)
    assert r.exit_code == EXIT_USAGE and one_error_line(r).startswith(f"error: {says}")
    assert not (tmp_path / "o").exists()


@pytest.mark.kernel
def test_a_set_that_refines_an_earlier_one_is_allowed():
    """Every seat, then one seat: seat 2 differs (the other order would throw seat 2's value away)."""
    sc = load_file(MOOR4)
    ov = overrides.parse_sets(("--set", ["seats.*.w_goal=2", "seats.2.w_goal=1.5"]))
    got = overrides.load(MOOR4, ov)
    assert [s.params.get("w_goal") for s in got.seats] == [2.0, 2.0, 1.5, 2.0] and len(sc.seats) == 4


@pytest.mark.parametrize("option, value", [("games", "50"), ("seed", "7")])
def test_games_or_seed_given_as_option_and_as_set_is_refused(tmp_path, option, value):
    """`--games 50 --set games=60`: one of them silently lost."""
    r = _invoke("run", MOOR4, f"--{option}", value, "--set", f"{option}=60", "--out", tmp_path / "o")
    assert r.exit_code == EXIT_USAGE
    assert one_error_line(r).startswith(f"error: --set {option}: given twice (--{option} {value}, --set {option}=60)")


@pytest.mark.kernel
def test_run_with_fewer_players_plays_the_files_first_seats(tmp_path):
    """`--set players=3` on a 4-player file: '[[seats]]: 4 seats for players = 3' (exit 3, as if the file were bad)."""
    r = _invoke("run", MOOR4, "--set", "players=3", "--games", 60, "--out", tmp_path / "o", "--json")
    assert r.exit_code == 0, r.output
    s = json.loads((tmp_path / "o" / "summary.json").read_text())
    file_seats = load_file(MOOR4).to_dict()["seats"]
    assert s["scenario"]["players"] == 3 and s["scenario"]["seats"] == file_seats[:3]
    assert len(s["seats"]) == 3


@pytest.mark.kernel
def test_head_haunter_with_fewer_players_keeps_the_head_haunter_seat():
    sc = overrides.load(TH_DIR / "head_haunter-4p.toml", [("players", 2)])
    assert sc.players == 2 and [s.strategy for s in sc.seats] == ["haunter_builder", "weighted"]


@pytest.mark.kernel
def test_more_players_than_seats_says_which_seat_needs_a_strategy(tmp_path):
    r = _invoke("run", MOOR4, "--set", "players=5", "--out", tmp_path / "o")
    line = one_error_line(r)
    assert r.exit_code == EXIT_USAGE and line.startswith(
        "error: --set players=5: the scenario file has 4 seats, so seat 4 has no strategy"
    )
    assert "--set seats.4.strategy=NAME" in line and not (tmp_path / "o").exists()
    sc = overrides.load(MOOR4, [("players", 5), ("seats.4.strategy", "runner")])
    assert [s.strategy for s in sc.seats] == ["weighted"] * 4 + ["runner"]


@pytest.mark.kernel
def test_a_seat_beyond_the_new_player_count_is_named_as_missing():
    with pytest.raises(
        overrides.OverrideError,
        match=r"--set seats\.3\.strategy=runner: no seat 3: the scenario "
        r"has 3 seats",
    ):
        overrides.load(MOOR4, [("players", 3), ("seats.3.strategy", "runner")])


@pytest.mark.kernel
def test_players_out_of_range_is_still_named_by_its_range():
    with pytest.raises(overrides.OverrideError, match=r"--set players=9: scenario\.players: 9 is out of range"):
        overrides.load(MOOR4, [("players", 9)])


@pytest.mark.kernel
@pytest.mark.parametrize(
    "players, says",
    [
        ("6", "--set players=6: scenario.players: 6 is out of range for moor; allowed 2..5"),
        ("x", '--set players=x: scenario.players: expected an integer, got string "x"'),
    ],
)
def test_a_bad_players_override_is_named_before_the_seat_it_would_have_made(players, says):
    """`--set players=6 --set seats.4.strategy=runner` on a 4-seat Moor file: the root cause is the player count,
    not "no seat 4" (the seat exists only if the count were allowed)."""
    r = CliRunner().invoke(
        app,
        [
            "run",
            "scenarios/moor/4p.toml",
            "--set",
            f"players={players}",
            "--set",
            "seats.4.strategy=runner",
            "--games",
            "10",
        ],
    )
    assert r.exit_code == EXIT_USAGE, r.output
    assert r.stderr.strip() == f"error: {says}"


@pytest.mark.kernel
def test_the_budget_limit_reads_the_same_in_every_message(tmp_path):
    """A search seat's budget: 'expected an integer in 1..65536' for a word, 'allowed 1..65,536' for a number out
    of range; every message now writes the limit one way, as does a sweep's count of values."""
    search = REPO / "scenarios" / "moor" / "search-4p.toml"
    says = []
    for value in ("abc", "70000"):
        with pytest.raises(overrides.OverrideError) as e:
            overrides.load(search, [("seats.0.budget", ov.parse_value(value))])
        says.append(str(e.value))
    assert "expected an integer in 1..65,536, got" in says[0] and "allowed 1..65,536" in says[1], says
    assert not any("65536" in s for s in says)
    r = cli.invoke(app, ["sweep", str(search), "--set", "seats.0.budget=1..20000", "--out", str(tmp_path / "s")])
    assert one_error_line(r).endswith("'1..20000' has 20,000 values; at most 10,000"), r.stderr


@pytest.mark.kernel
@pytest.mark.parametrize(
    "args, example",
    [
        (["run", "{s}", "--set", "seats.0.rollout=nope"], "(e.g. --set seats.0.rollout=learned)"),
        (["compare", "{s}", "--set-b", "seats.0.rollout=nope"], "(e.g. --set-b seats.0.rollout=learned)"),
        (["sweep", "{s}", "--set", "seats.0.rollout=runner,nope"], "(e.g. --set seats.0.rollout=learned)"),
        (
            ["tune", "{s}", "--param", "seats.0.rollout=runner,nope", "--target", "first_player_advantage=0"],
            "(e.g. --param seats.0.rollout=learned)",
        ),
    ],
)
def test_a_bad_choice_on_the_command_line_gets_a_command_line_example(args, example, tmp_path):
    """--set seats.0.rollout=nope ended '(a quoted string, e.g. rollout = "runner")': a scenario file's TOML, and
    an option takes the bare word. The example is written as the option was; a file keeps the TOML one."""
    search = str(REPO / "scenarios" / "moor" / "search-4p.toml")
    r = cli.invoke(app, [a.format(s=search) for a in args] + ["--out", str(tmp_path / "o")])
    line = one_error_line(r)
    assert line.endswith(example) and "quoted" not in line, line
    bad = tmp_path / "bad.toml"
    bad.write_text(Path(search).read_text().replace('rollout = "runner"', 'rollout = "nope"'))
    line = one_error_line(cli.invoke(app, ["run", str(bad)]))
    assert line.endswith('(a quoted string, e.g. rollout = "learned")'), line  # (the example: the default)


@pytest.mark.kernel
@pytest.mark.parametrize(
    "args, head, fix",
    [
        (["run", str(TH), "--set", "mode=head_haunter"], "--set mode=head_haunter: ", "--set seats.0.strategy="),
        (["compare", str(TH), str(TH), "--set-b", "mode=head_haunter"], "--set-b mode=head_haunter: ", "--set-b "),
        (["sweep", str(TH), "--set", "mode=head_haunter", "--set", "hauntings=4,5"], "--set mode=head_haunter: ", ""),
        (["sweep", str(TH), "--set", "mode=basic,head_haunter"], "--set mode=basic,head_haunter: ", ""),
    ],
)
def test_a_mode_that_gives_seat_0_another_role_names_the_set_and_the_fix(args, head, fix, tmp_path):
    """A fresh user's `sim run basic-4p.toml --set mode=head_haunter` was a file error (exit 3) about seat 0's
    strategy: the file is fine, the mode made seat 0 the Head Haunter. It is the --set's error (exit 2), saying
    what seat 0 needs and how to set it, with the strategies allowed there."""
    r = cli.invoke(app, [*args, "--games", "5", "--out", str(tmp_path / "o")])
    line = one_error_line(r)
    assert r.exit_code == EXIT_USAGE and line.startswith("error: " + head), line
    assert "mode=head_haunter needs seat 0 to play a Head Haunter strategy" in line, line
    assert "seats.0.strategy=haunter_builder" in line and fix in line, line
    assert (
        "allowed: haunter_random, haunter_builder, haunter_trapper, haunter_weighted, haunter_learned, haunter_search"
        in line
    )
    assert not (tmp_path / "o").exists()


@pytest.mark.kernel
def test_a_seat_strategy_error_of_the_file_itself_stays_the_files():
    """The blame goes to an override only when the file alone is valid and that override alone breaks the seat."""
    hh = REPO / "scenarios" / "treasure_hunters" / "head_haunter-4p.toml"
    with pytest.raises(ov.OverrideError, match=r"^--set mode=basic: mode=basic needs seat 0 to play a hunter"):
        load(hh, [("mode", "basic")])
    # the example is the best scripted hunter strategy, not the first listed (passive)
    with pytest.raises(ov.OverrideError, match=r"e\.g\. --set seats\.0\.strategy=weighted "):
        load(hh, [("mode", "basic")])
    raw = ov.read(TH)
    raw["seats"][0]["strategy"] = "haunter_builder"  # the file's own mistake: no override to blame
    e = pytest.raises(ScenarioError, from_dict, raw).value
    assert e.role_clash is not None and ov.role_blame(raw, [("hauntings", 5)], e) is None


MOOR_SEARCH = REPO / "scenarios" / "moor" / "search-4p.toml"


@pytest.mark.kernel
@pytest.mark.parametrize(
    "path, sets, says",
    [
        (MOOR_SEARCH, ["budget=32"], "did you mean --set seats.0.budget=32 (seat 0 plays search, a strategy with"),
        (REPO / "scenarios" / "moor" / "4p.toml", ["w_goal=2"], "did you mean --set seats.*.w_goal=2 (every seat's"),
        (
            REPO / "scenarios" / "moor" / "4p.toml",
            ["budget=32"],
            "budget is a parameter of strategy search, which no seat plays: set a seat's strategy first "
            "(--set seats.I.strategy=search --set seats.I.budget=32)",
        ),
    ],
)
def test_an_unknown_name_that_is_a_seats_strategy_parameter_says_how_to_set_it(path, sets, says, tmp_path):
    """A fresh user's `--set budget=32` on a search scenario got 'unknown name' and the rule parameters, with no
    word of seats.0.budget."""
    r = cli.invoke(app, ["run", str(path), *[a for s in sets for a in ("--set", s)], "--out", str(tmp_path / "o")])
    line = one_error_line(r)
    assert r.exit_code == EXIT_USAGE and says in line and "allowed: name, players" in line, line


@pytest.mark.kernel
def test_a_swept_seat_parameter_given_as_a_rule_name_gets_the_whole_values_in_the_fix(tmp_path):
    r = cli.invoke(app, ["sweep", str(MOOR_SEARCH), "--set", "budget=16,32", "--out", str(tmp_path / "o")])
    line = one_error_line(r)
    assert r.exit_code == EXIT_USAGE and "did you mean --set seats.0.budget=16,32 (" in line, line


@pytest.mark.kernel
def test_moors_tiebreak_is_the_rule_and_a_bad_value_names_the_search_seats_tiebreak(tmp_path):
    """Moor's rule parameter and search's seat parameter are both `tiebreak`: --set tiebreak is the rule, and a
    value only the seat's takes says where the seat's is set."""
    assert load(MOOR_SEARCH, [("tiebreak", "shared")]).params["tiebreak"] == "shared"
    assert (
        load(MOOR_SEARCH, [("seats.0.root", "halving"), ("seats.0.tiebreak", "score")]).seats[0].params["tiebreak"]
        == "score"
    )
    for cmd in (
        ["run", str(MOOR_SEARCH), "--set", "tiebreak=score"],
        ["sweep", str(MOOR_SEARCH), "--set", "tiebreak=score,none"],
    ):
        line = one_error_line(cli.invoke(app, [*cmd, "--out", str(tmp_path / "o")]))
        assert "allowed: rulebook, shared" in line and line.endswith(
            "; tiebreak here is the rule parameter; seat 0's search tiebreak is --set seats.0.tiebreak=... "
            "(auto, none, score)"
        ), line
    line = one_error_line(
        cli.invoke(app, ["run", str(REPO / "scenarios" / "moor" / "4p.toml"), "--set", "tiebreak=score"])
    )
    assert line.endswith("(e.g. --set tiebreak=rulebook)"), line  # no search seat: no note


@pytest.mark.kernel
def test_a_huge_whole_number_is_shown_short_when_out_of_range():
    """1e99 reads as a whole number; its message showed all of its 100 digits (a fresh user's find)."""
    with pytest.raises(overrides.OverrideError, match=r"params\.track_len: 1e\+99 is out of range; allowed 19\.\.62$"):
        overrides.load(MOOR4, [("track_len", 1e99)])


@pytest.mark.parametrize(
    "given, line",
    [
        (
            "max_turns=2.5e2",
            "error: --set max_turns=250.0: max_turns takes a whole number, and 250.0 is written as a decimal; "
            "write --set max_turns=250",
        ),
        ("params.max_turns=2.5", "error: --set params.max_turns=2.5: 2.5 is not a whole number (max_turns takes one)"),
    ],
)
def test_a_decimal_for_a_whole_number_parameter_is_refused_on_the_command_line(tmp_path, given, line):
    """`--set max_turns=2.5e2` ran as 250 (a fresh user): a decimal where a count goes is refused in the CLI's words
    for a wrong type; a scenario file's 250.0 (or a sweep range's) is still taken (`overrides.not_whole`)."""
    r = cli.invoke(app, ["run", str(REPO / "scenarios/moor/2p.toml"), "--set", given, "--out", str(tmp_path / "o")])
    assert r.exit_code == EXIT_USAGE and one_error_line(r) == line
    assert not (tmp_path / "o").exists()
    import tomllib

    doc = tomllib.loads((REPO / "scenarios/moor/2p.toml").read_text())
    doc.setdefault("params", {})["max_turns"] = 250.0
    taken = from_dict(doc).params["max_turns"]
    assert taken == 250 and isinstance(taken, int)


def test_a_seats_strategy_applies_before_its_parameters_in_any_order():
    """`--set seats.0.budget=2 --set seats.0.strategy=search` was refused ("seat 0 plays weighted, which has no
    parameter 'budget'", a fresh user): a seat's strategy is set before its parameters, whatever their order; two
    strategies for one seat still let the later win."""
    from sim.model.overrides import load as load_with

    moor = Path(__file__).resolve().parents[2] / "scenarios" / "moor" / "4p.toml"
    sc = load_with(moor, [("seats.0.budget", 2), ("seats.0.strategy", "search")])
    assert sc.seats[0].strategy == "search" and sc.seats[0].params["budget"] == 2
    sc = load_with(moor, [("seats.0.strategy", "search"), ("seats.0.strategy", "runner")])
    assert sc.seats[0].strategy == "runner"
