"""`sim rerun REPORT_FOLDER`: a report replayed from what it recorded is identical, also after its board file was
edited or deleted (the report carries the board); in a report without the board's content an edited board file is
named as the cause of a difference; a folder that is not a report is one line and exit 3."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sim.cli.main import EXIT_BAD_INPUT, EXIT_REGRESSION, app
from tests.sim._cli import one_error_line

REPO = Path(__file__).resolve().parents[2]
BOARD = REPO / "scenarios" / "treasure_hunters" / "boards" / "default.toml"
cli = CliRunner()

TH = """
[scenario]
name = "th"
game = "treasure_hunters"
players = 2
games = 400
seed = 3
[params]
mode = "basic"
board = "myboard.toml"
[[seats]]
strategy = "weighted"
[[seats]]
strategy = "weighted"
"""

MOOR = (REPO / "tests" / "data" / "moor-2p-small.toml").read_text()  # 4000 games: the tests play --games 300


def _th(tmp_path) -> Path:
    shutil.copy(BOARD, tmp_path / "myboard.toml")
    p = tmp_path / "th.toml"
    p.write_text(TH)
    return p


@pytest.mark.kernel
def test_rerun_of_a_fresh_report_is_identical(tmp_path):
    p = tmp_path / "m.toml"
    p.write_text(MOOR)
    out = tmp_path / "rep"
    assert (
        cli.invoke(app, ["run", str(p), "--out", str(out), "--games", "300", "--set", "seats.1.w_goal=2.5"]).exit_code
        == 0
    )
    r = cli.invoke(app, ["rerun", str(out), "--json"])
    assert r.exit_code == 0, r.output
    res = json.loads(r.stdout)
    assert res["identical"] and res["differences"] == [] and res["scenario"] == "test-moor-2p--seats.1.w_goal=2.5"
    assert res["games"] == 300
    assert cli.invoke(app, ["rerun", str(out)]).stdout.startswith("identical:")


@pytest.mark.kernel
@pytest.mark.parametrize("skill", [["--at-skill"], ["--skill-games", "120"]])
def test_rerun_of_a_report_with_its_arc_and_its_table_at_skill_is_identical(tmp_path, skill):
    """make run's reports carry the game's arc and the "At skill" table (sized by the scenario's skill_games or
    asked for): the rerun plays both again, as they were sized."""
    p = tmp_path / "m.toml"
    p.write_text(MOOR.replace("games = 4000", "games = 4000\nskill_games = 200"))
    out = tmp_path / "rep"
    made = cli.invoke(app, ["run", str(p), "--out", str(out), "--games", "300", "--arc", *skill])
    assert made.exit_code == 0, made.output
    s = json.loads((out / "summary.json").read_text())
    assert s.get("arc") and s["at_skill"]["status"] == "played"
    r = cli.invoke(app, ["rerun", str(out), "--json"])
    assert r.exit_code == 0, r.output
    res = json.loads(r.stdout)
    assert res["identical"] and res["differences"] == [], res["differences"]


def _edit_th_board(b: Path) -> None:
    b.write_text(
        b.read_text().replace('ghost_start_rooms = ["C", "F", "I", "L"]', 'ghost_start_rooms = ["B", "F", "I", "L"]')
    )


@pytest.mark.kernel
def test_rerun_replays_the_recorded_board_after_the_board_file_was_edited(tmp_path):
    p = _th(tmp_path)
    out = tmp_path / "rep"
    assert cli.invoke(app, ["run", str(p), "--out", str(out)]).exit_code == 0
    prov = json.loads((out / "provenance.json").read_text())
    board = prov["files"]["board"]
    assert board["path"] == str((tmp_path / "myboard.toml").resolve()) and len(board["sha256"]) == 64
    assert board["text"] == (tmp_path / "myboard.toml").read_text()  # the report carries the board itself
    _edit_th_board(tmp_path / "myboard.toml")
    assert cli.invoke(app, ["run", str(p), "--out", str(tmp_path / "new")]).exit_code == 0
    assert (
        json.loads((tmp_path / "new" / "summary.json").read_text())["seats"]
        != json.loads((out / "summary.json").read_text())["seats"]
    )  # the edit does change the result
    r = cli.invoke(app, ["rerun", str(out)])
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("identical:")
    assert "board file" in r.stdout and "edited since" in r.stdout and "recorded in the report" in r.stdout


@pytest.mark.kernel
def test_rerun_replays_the_recorded_board_after_the_board_file_was_deleted(tmp_path):
    p = _th(tmp_path)
    out = tmp_path / "rep"
    assert cli.invoke(app, ["run", str(p), "--out", str(out)]).exit_code == 0
    (tmp_path / "myboard.toml").unlink()
    r = cli.invoke(app, ["rerun", str(out), "--json"])
    assert r.exit_code == 0, r.output
    res = json.loads(r.stdout)
    assert res["identical"] and any("missing now" in n and "recorded in the report" in n for n in res["notes"])


@pytest.mark.kernel
def test_rerun_of_a_report_without_the_board_content_names_an_edited_board(tmp_path):
    p = _th(tmp_path)
    out = tmp_path / "rep"
    assert cli.invoke(app, ["run", str(p), "--out", str(out)]).exit_code == 0
    for f in ("provenance.json", "summary.json"):  # as reports made before they carried their boards
        d = json.loads((out / f).read_text())
        (d.get("provenance", d))["files"]["board"].pop("text")
        (out / f).write_text(json.dumps(d))
    _edit_th_board(tmp_path / "myboard.toml")
    r = cli.invoke(app, ["rerun", str(out)])
    assert r.exit_code == EXIT_REGRESSION, r.output
    assert r.stdout.startswith("DIFFERENT:") and "board file" in r.stdout and "content changed" in r.stdout
    (tmp_path / "myboard.toml").unlink()
    r = cli.invoke(app, ["rerun", str(out)])
    assert r.exit_code == EXIT_BAD_INPUT, r.output
    line = r.stderr.strip()
    assert len(line.splitlines()) == 1 and "is missing now" in line and "no copy of it" in line
    assert "not valid for this code" not in line


@pytest.mark.kernel
@pytest.mark.parametrize(
    "game,edit",
    [
        (
            "turnwall",
            (
                'name = "sombrero", part = "head", cell = [0, 1]',
                'name = "sombrero", part = "head", cell = [0, 3]',
                'name = "diving mask", part = "face", cell = [0, 3]',
                'name = "diving mask", part = "face", cell = [0, 1]',
            ),
        ),
        ("galleon", ('behind = "F0"\nquarter = 0', 'behind = "Q0"\nquarter = 0')),
    ],
)
def test_rerun_replays_the_recorded_board_of_every_board_game(tmp_path, game, edit):
    shutil.copy(REPO / "scenarios" / game / "boards" / "default.toml", tmp_path / "myhouse.toml")
    p = tmp_path / "s.toml"
    p.write_text(
        (REPO / "scenarios" / game / "2p.toml").read_text().replace('board = "default"', 'board = "myhouse.toml"')
    )
    out = tmp_path / "rep"
    assert cli.invoke(app, ["run", str(p), "--out", str(out), "--games", "60"]).exit_code == 0
    b = tmp_path / "myhouse.toml"
    text = b.read_text()
    for old, new in zip(edit[::2], edit[1::2]):
        assert old in text
        text = text.replace(old, new)
    b.write_text(text)
    r = cli.invoke(app, ["rerun", str(out)])
    assert r.exit_code == 0 and r.stdout.startswith("identical:") and "edited since" in r.stdout, r.output
    b.unlink()
    r = cli.invoke(app, ["rerun", str(out)])
    assert r.exit_code == 0 and r.stdout.startswith("identical:") and "missing now" in r.stdout, r.output


@pytest.mark.kernel
def test_rerun_says_when_the_scenario_file_now_says_something_else(tmp_path):
    p = tmp_path / "m.toml"
    p.write_text(MOOR)
    out = tmp_path / "rep"
    assert cli.invoke(app, ["run", str(p), "--out", str(out), "--games", "300"]).exit_code == 0
    p.write_text(MOOR + "[params]\ntrack_len = 31\n")
    r = cli.invoke(app, ["rerun", str(out)])
    assert r.exit_code == 0, r.output  # the recorded parameters are replayed: still identical
    assert "scenario file" in r.stdout and "params.track_len: 30 -> 31" in r.stdout


def test_rerun_refuses_what_is_not_a_report(tmp_path):
    for target in (tmp_path, tmp_path / "nope"):
        r = cli.invoke(app, ["rerun", str(target)])
        assert r.exit_code == EXIT_BAD_INPUT, r.output
        assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.output
    (tmp_path / "summary.json").write_text("{not json")
    r = cli.invoke(app, ["rerun", str(tmp_path)])
    assert r.exit_code == EXIT_BAD_INPUT and "not valid JSON" in r.stderr


@pytest.mark.kernel
def test_rerun_names_a_seed_changed_in_the_scenario_file(tmp_path):
    """A second new user changed `seed` in the scenario file; the rerun (of the recorded seed) said "edited since,
    same parameters", which read as though nothing that matters changed."""
    src = REPO / "scenarios" / "moor" / "4p.toml"
    p = tmp_path / "s.toml"
    p.write_text(src.read_text().replace('name = "moor-4p"', 'name = "s"'))
    out = tmp_path / "rep"
    assert cli.invoke(app, ["run", str(p), "--out", str(out), "--games", "40"]).exit_code == 0
    p.write_text(p.read_text().replace("seed = 20261129", "seed = 7"))
    r = cli.invoke(app, ["rerun", str(out)])
    assert r.exit_code == 0 and r.stdout.startswith("identical:"), r.output
    assert "same parameters" not in r.stdout and "seed" in r.stdout and "now says" in r.stdout


@pytest.mark.kernel
def test_rerun_of_a_sweep_folder_says_how_to_replay_a_sweep(tmp_path):
    """A second new user gave `sim rerun` a sweep folder and got the generic "summary.json: no such file"."""
    out = tmp_path / "sw"
    r = cli.invoke(
        app,
        [
            "sweep",
            str(REPO / "scenarios" / "moor" / "4p.toml"),
            "--set",
            "die_faces=4,6",
            "--games",
            "20",
            "--out",
            str(out),
        ],
    )
    assert r.exit_code == 0, r.output
    r = cli.invoke(app, ["rerun", str(out)])
    assert r.exit_code == EXIT_BAD_INPUT and "a sweep (sim sweep); run the sweep command again" in r.stderr, r.output


@pytest.mark.parametrize(
    "kind, what", [("compare", "a comparison"), ("ladder", "a skill ladder"), ("tune", "a tuning study")]
)
def test_rerun_of_another_commands_folder_names_that_command(tmp_path, kind, what):
    """Every folder another command writes (its <command>.json, no summary.json) is named, with the command that
    plays it again: the same table `sim report` reads (`sim.api.rerun.OTHER_REPORTS`)."""
    (tmp_path / f"{kind}.json").write_text("{}", encoding="utf-8")
    r = cli.invoke(app, ["rerun", str(tmp_path)])
    assert r.exit_code == EXIT_BAD_INPUT, r.output
    assert f"{what} (sim {kind}); run the {kind} command again: " in one_error_line(r), r.output


DATA = REPO / "tests" / "data"
BASE = DATA / "moor-2p-small.toml"
MOOR4 = REPO / "scenarios" / "moor" / "4p.toml"


def _invoke(*args):
    return cli.invoke(app, [str(a) for a in args])


def test_rerun_of_a_scenario_file_says_it_wants_the_report_folder():
    r = cli.invoke(app, ["rerun", str(BASE)])
    line = one_error_line(r)
    assert r.exit_code == EXIT_BAD_INPUT and "not a report folder" in line and "/summary.json" not in line


@pytest.mark.kernel
def test_a_players_report_reruns_identically(tmp_path):
    r = _invoke("run", MOOR4, "--set", "players=3", "--games", 40, "--out", tmp_path / "o")
    assert r.exit_code == 0, r.output
    r = _invoke("rerun", tmp_path / "o")
    assert r.exit_code == 0 and "identical" in r.stdout, r.output
