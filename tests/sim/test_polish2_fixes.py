"""Fifth round of what a first-time user hit: a bad option exited 2 on `sim run` but 3 on `sim sweep`; the same
`--set` name given twice silently played the last one; `sim compare --set-b players=3` (and `sim run --set
players=3`) on a 4-player scenario was refused as a bad file instead of dropping the fourth seat; "(s)" plurals in
the replays ("1 ghost(s) removed", "2 move(s) left") and in `sim bench`."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sim.api import core as api
from sim.cli.main import EXIT_BAD_INPUT, EXIT_USAGE, app
from sim.model import overrides
from sim.model.scenario import load
from tests.sim._cli import one_error_line

REPO = Path(__file__).resolve().parents[2]
MOOR4 = REPO / "scenarios" / "moor" / "4p.toml"
TH = REPO / "scenarios" / "treasure_hunters"
cli = CliRunner()


def _invoke(*args):
    return cli.invoke(app, [str(a) for a in args])


# --- 1. one exit code per class of bad option, on every command that takes the option ----------------------------

def _base(command: str, tmp_path: Path) -> list:
    """The command with valid arguments (the bad option is added after them; a sweep has an axis, so only the bad
    option can stop it)."""
    return {"run": ["run", MOOR4, "--out", tmp_path / "o"], "report": ["report", MOOR4, "--out", tmp_path / "o"],
            "replay": ["replay", MOOR4], "compare": ["compare", MOOR4, MOOR4, "--out", tmp_path / "o"],
            "check": ["check", MOOR4], "sweep": ["sweep", MOOR4, "--set", "die_faces=4,6", "--out", tmp_path / "o"],
            "run-defaults": ["run-defaults"], "baselines": ["baselines", MOOR4, "--out", tmp_path / "o"],
            "rerun": ["rerun", tmp_path], "list": ["list"], "bench": ["bench"],
            "board show": ["board", "show", REPO / "scenarios" / "galleon" / "boards" / "default.toml"]}[command]


SETTERS = ["run", "report", "replay", "compare", "check", "sweep"]
BAD_OPTIONS = [                                   # (the bad option, every command that takes it)
    (["--set", "nosuch=1"], SETTERS),                               # unknown name
    (["--set", "track_len=abc"], SETTERS),                          # a value the parameter does not allow
    (["--set", "track_len"], SETTERS),                              # no '='
    (["--set", "seats.7.strategy=runner"], SETTERS),                # no such seat
    (["--games", "0"], ["run", "report", "compare", "check", "sweep"]),
    (["--games", "abc"], ["run", "report", "compare", "check", "sweep", "run-defaults"]),   # Click's own
    (["--threads", "0"], ["run", "report", "compare", "check", "sweep", "baselines", "rerun"]),
    (["--seed", "-1"], ["run", "report", "replay", "compare", "check", "sweep"]),
    (["--workers", "0"], ["run", "sweep"]),
    (["--bogus"], ["run", "report", "replay", "compare", "check", "sweep", "run-defaults", "baselines", "rerun",
                   "list", "bench", "board show"]),
]


@pytest.mark.parametrize("bad, commands", BAD_OPTIONS, ids=[" ".join(b) for b, _ in BAD_OPTIONS])
def test_the_same_bad_option_exits_2_on_every_command_that_takes_it(tmp_path, bad, commands):
    """`sim sweep --set nosuch=1` exited 3 where `sim run --set nosuch=1` exited 2."""
    codes = {}
    for c in commands:
        r = _invoke(*_base(c, tmp_path), *bad)
        one_error_line(r)
        codes[c] = r.exit_code
    assert codes == {c: EXIT_USAGE for c in commands}
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("bad", [["--mode", "diagonal"], ["--measure", "no_such_measure"],
                                 ["--target", "first_player_advantage"], ["--target", "first_player_advantage=x"],
                                 ["--mode", "zip", "--set", "die_faces=4,6,8"], ["--scheduler", " "]])
def test_a_bad_sweep_option_exits_2_like_every_bad_option(tmp_path, bad):
    r = _invoke("sweep", MOOR4, "--set", "track_len=26,28", "--games", 10, "--out", tmp_path / "o", *bad)
    assert r.exit_code == EXIT_USAGE and one_error_line(r).startswith(f"error: {bad[0]}")
    assert not (tmp_path / "o").exists()


def test_a_sweep_without_an_axis_exits_2_like_compare_without_b(tmp_path):
    """Nothing to sweep: a missing option (no --set, no [sweep] table), as compare's missing scenario B is."""
    sweep, comp = _invoke("sweep", MOOR4, "--games", 10), _invoke("compare", MOOR4)
    assert (sweep.exit_code, comp.exit_code) == (EXIT_USAGE, EXIT_USAGE)
    assert "nothing to sweep" in one_error_line(sweep) and "missing scenario B" in one_error_line(comp)


def test_a_bad_sweep_table_in_the_file_still_exits_3(tmp_path):
    """The README's table: 3 for a bad input file, the [sweep] table included."""
    p = tmp_path / "s.toml"
    p.write_text(MOOR4.read_text() + "\n[sweep]\ntrack_len = [30, 99]\n")
    r = _invoke("sweep", p, "--games", 10, "--out", tmp_path / "o")
    assert r.exit_code == EXIT_BAD_INPUT and "[sweep] track_len" in one_error_line(r)


def test_the_readme_exit_code_table_says_what_the_commands_do():
    text = " ".join((REPO / "README.md").read_text().split())
    assert ("Exit codes of every command: 0 ok, 1 regression found (`sim check`) or a report not reproduced "
            "(`sim rerun`), 2 bad option") in text
    assert "a bad value: one line naming the sweep entry, exit 3" not in text
    assert "exit 2 for a bad `--set`, `--mode`, `--measure` or `--target`" in text


# --- 2. a --set name given twice is refused ----------------------------------------------------------------------------

@pytest.mark.parametrize("command", ["run", "report", "replay", "check"])
def test_a_set_name_given_twice_is_refused_naming_it(tmp_path, command):
    """`--set mode=advanced --set mode=basic` silently played basic."""
    base = ([command, TH / "basic-4p.toml", "--out", tmp_path / "o"] if command in ("run", "report")
            else [command, TH / "basic-4p.toml"])
    r = _invoke(*base, "--set", "mode=advanced", "--set", "mode=basic")
    line = one_error_line(r)
    assert r.exit_code == EXIT_USAGE
    assert line.startswith("error: --set mode: given twice (--set mode=advanced, --set mode=basic)"), line
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("sets, says", [
    (["track_len=30", "params.track_len=32"], "--set params.track_len: given twice"),       # two spellings
    (["seats.2.w_goal=1.5", "seats.*.w_goal=2"], "--set seats.*.w_goal=2: replaces all that the earlier "
                                                 "--set seats.2.w_goal=1.5 set"),
    (["seed=4", "scenario.seed=5"], "--set scenario.seed: given twice"),
])
def test_a_set_that_replaces_an_earlier_one_is_refused(tmp_path, sets, says):
    args = ["run", MOOR4, "--out", tmp_path / "o"]
    for s in sets:
        args += ["--set", s]
    r = _invoke(*args)
    assert r.exit_code == EXIT_USAGE and one_error_line(r).startswith(f"error: {says}")
    assert not (tmp_path / "o").exists()


def test_a_set_that_refines_an_earlier_one_is_allowed():
    """Every seat, then one seat: seat 2 differs (the other order would throw seat 2's value away)."""
    sc = load(MOOR4)
    ov = overrides.parse_sets(("--set", ["seats.*.w_goal=2", "seats.2.w_goal=1.5"]))
    got = overrides.load(MOOR4, ov)
    assert [s.params.get("w_goal") for s in got.seats] == [2.0, 2.0, 1.5, 2.0] and len(sc.seats) == 4


@pytest.mark.parametrize("option, value", [("games", "50"), ("seed", "7")])
def test_games_or_seed_given_as_option_and_as_set_is_refused(tmp_path, option, value):
    """`--games 50 --set games=60`: one of them silently lost."""
    r = _invoke("run", MOOR4, f"--{option}", value, "--set", f"{option}=60", "--out", tmp_path / "o")
    assert r.exit_code == EXIT_USAGE
    assert one_error_line(r).startswith(f"error: --set {option}: given twice (--{option} {value}, --set {option}=60)")


@pytest.mark.parametrize("sets", [["--set", "track_len=30", "--set-b", "track_len=32"],
                                  ["--set-b", "track_len=30", "--set-b", "track_len=32"],
                                  ["--set-a", "track_len=30", "--set", "tiebreak=shared", "--set-a",
                                   "params.track_len=31"]])
def test_compare_refuses_a_name_given_twice_for_one_scenario(tmp_path, sets):
    r = _invoke("compare", MOOR4, MOOR4, "--games", 50, "--out", tmp_path / "o", *sets)
    line = one_error_line(r)
    assert r.exit_code == EXIT_USAGE and "track_len: given twice" in line and "--set-a or --set-b for one" in line
    assert not (tmp_path / "o").exists()


def test_compare_takes_one_name_once_for_each_scenario(tmp_path):
    r = _invoke("compare", MOOR4, "--games", 50, "--out", tmp_path / "o", "--json", "--set-a", "track_len=30",
                "--set-b", "track_len=32")
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize("sets, says", [
    (["track_len=26,28", "params.track_len=30"], "--set params.track_len: given twice"),
    (["seats.2.w_goal=1,2", "seats.*.w_goal=3,4"], "--set seats.*.w_goal=3,4: replaces every value of "
                                                   "--set seats.2.w_goal=1,2"),
])
def test_sweep_refuses_an_axis_given_twice_or_replaced(tmp_path, sets, says):
    args = ["sweep", MOOR4, "--games", 10, "--out", tmp_path / "o"]
    for s in sets:
        args += ["--set", s]
    r = _invoke(*args)
    assert r.exit_code == EXIT_USAGE and one_error_line(r).startswith(f"error: {says}")


# --- 3. --set players=N plays the first N seats -------------------------------------------------------------------------

def test_run_with_fewer_players_plays_the_files_first_seats(tmp_path):
    """`--set players=3` on a 4-player file: '[[seats]]: 4 seats for players = 3' (exit 3, as if the file were bad)."""
    r = _invoke("run", MOOR4, "--set", "players=3", "--games", 60, "--out", tmp_path / "o", "--json")
    assert r.exit_code == 0, r.output
    s = json.loads((tmp_path / "o" / "summary.json").read_text())
    file_seats = load(MOOR4).to_dict()["seats"]
    assert s["scenario"]["players"] == 3 and s["scenario"]["seats"] == file_seats[:3]
    assert len(s["seats"]) == 3


def test_compare_set_b_players_3_compares_a_with_b_on_three_seats(tmp_path):
    r = _invoke("compare", MOOR4, "--set-b", "players=3", "--games", 60, "--json", "--out", tmp_path / "o")
    assert r.exit_code == 0, r.output
    res = json.loads(r.stdout)
    assert res["a"]["scenario"]["players"] == 4 and res["b"]["scenario"]["players"] == 3
    assert "A has 4 players, B 3" in r.stdout


def test_a_players_report_reruns_identically(tmp_path):
    r = _invoke("run", MOOR4, "--set", "players=3", "--games", 40, "--out", tmp_path / "o")
    assert r.exit_code == 0, r.output
    r = _invoke("rerun", tmp_path / "o")
    assert r.exit_code == 0 and "identical" in r.stdout, r.output


def test_head_haunter_with_fewer_players_keeps_the_head_haunter_seat():
    sc = overrides.load(TH / "head_haunter-4p.toml", [("players", 2)])
    assert sc.players == 2 and [s.strategy for s in sc.seats] == ["haunter_builder", "weighted"]


def test_more_players_than_seats_says_which_seat_needs_a_strategy(tmp_path):
    r = _invoke("run", MOOR4, "--set", "players=5", "--out", tmp_path / "o")
    line = one_error_line(r)
    assert r.exit_code == EXIT_USAGE and line.startswith("error: --set players=5: the scenario file has 4 seats, "
                                                         "so seat 4 has no strategy")
    assert "--set seats.4.strategy=NAME" in line and not (tmp_path / "o").exists()
    sc = overrides.load(MOOR4, [("players", 5), ("seats.4.strategy", "runner")])
    assert [s.strategy for s in sc.seats] == ["weighted"] * 4 + ["runner"]


def test_a_seat_beyond_the_new_player_count_is_named_as_missing():
    with pytest.raises(overrides.OverrideError, match=r"--set seats\.3\.strategy=runner: no seat 3: the scenario "
                                                      r"has 3 seats"):
        overrides.load(MOOR4, [("players", 3), ("seats.3.strategy", "runner")])


def test_players_out_of_range_is_still_named_by_its_range():
    with pytest.raises(overrides.OverrideError, match=r"--set players=9: scenario\.players: 9 is out of range"):
        overrides.load(MOOR4, [("players", 9)])


def test_a_sweep_over_fewer_players_plays_each_count_on_the_first_seats():
    from sim.api.sweep import build
    sw = build(MOOR4, ["players=2,3,4"], games=10)
    assert [(p.scenario.players, len(p.scenario.seats)) for p in sw.points] == [(2, 2), (3, 3), (4, 4)]


# --- 4. singular and plural in words, not "(s)" -------------------------------------------------------------------------

def test_count_says_singular_and_plural():
    from sim.model.words import count
    assert [count(0, "ghost"), count(1, "ghost"), count(2, "ghost")] == ["0 ghosts", "1 ghost", "2 ghosts"]
    assert count(1, "hunter player") == "1 hunter player" and count(3, "hunter player") == "3 hunter players"


@pytest.mark.parametrize("scenario", ["treasure_hunters/basic-4p.toml", "treasure_hunters/head_haunter-5p.toml",
                                      "turnwall/4p.toml", "turnwall/mixed.toml", "galleon/4p.toml",
                                      "galleon/mixed.toml", "moor/4p.toml"])
def test_replays_write_no_parenthesised_plurals(scenario):
    """'fights alone: ghost -> 1 ghost(s) removed', '(1 move(s) left)', '1 pirate(s) knocked down'."""
    sc = load(REPO / "scenarios" / scenario)
    text = "\n".join(line for g in range(4) for line in api.replay(sc, g))
    assert not re.search(r"\w\((s|es)\)", text), re.search(r".*\w\((s|es)\).*", text).group(0)


def test_replay_counts_read_as_english():
    text = "\n".join(line for g in range(4) for line in api.replay(load(TH / "basic-4p.toml"), g))
    assert "-> 1 ghost removed" in text and "-> 0 ghosts removed" in text


def test_bench_says_1_thread_and_2_threads():
    from sim.api import bench
    from tests.sim.test_bench import _res
    out = bench.render(_res(120_000, 11.0))
    assert "  1 thread: " in out and "  2 threads: " in out and "(s)" not in out


@pytest.mark.parametrize("drop, says", [("L", "missing room L;"), ("KL", "missing rooms K, L;")])
def test_a_board_missing_rooms_names_them_in_the_right_number(drop, says):
    import tomllib

    from kernels.treasure_hunters import board as B
    doc = tomllib.loads((TH / "boards" / "default.toml").read_text())
    doc["board"]["rooms"] = [r for r in doc["board"]["rooms"] if r not in drop]
    with pytest.raises(Exception, match=says):
        B.parse_board(doc)


# --- a sweep over seed or games was silently ignored (every point played the sweep's own) -------------------------
@pytest.mark.parametrize("axis, how", [("seed=1,2", "--seed"), ("scenario.seed=1,2", "--seed"),
                                       ("games=100,200", "--games or [sweep] games")])
def test_a_sweep_over_seed_or_games_is_refused(tmp_path, axis, how):
    r = _invoke("sweep", MOOR4, "--games", "10", "--set", axis, "--out", tmp_path / "o")
    key = axis.split("=")[0].removeprefix("scenario.")
    assert r.exit_code == EXIT_USAGE, r.output
    assert one_error_line(r) == (f"error: --set {axis}: every point plays the sweep's {key} (common random numbers); "
                                 f"give it once with {how}" + (", or run one sweep per seed" if key == "seed" else ""))
    assert not (tmp_path / "o").exists()


def test_a_sweep_table_over_seed_is_a_bad_file(tmp_path):
    f = tmp_path / "s.toml"
    f.write_text(MOOR4.read_text() + "\n[sweep]\nseed = [1, 2]\n")
    r = _invoke("sweep", f, "--games", "10", "--out", tmp_path / "o")
    assert r.exit_code == EXIT_BAD_INPUT, r.output
    assert "every point plays the sweep's seed" in one_error_line(r)
