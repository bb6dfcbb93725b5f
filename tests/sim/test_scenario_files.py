"""Files named inside a scenario (Treasure Hunters' `board`) are found relative to the scenario file's folder first,
then among the shipped boards; a board found nowhere is one line naming params.board and the paths tried."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kernels.treasure_hunters import board as B
from sim.cli.main import EXIT_BAD_INPUT, EXIT_USAGE, app
from sim.model.scenario import ScenarioError, load
from tests.sim._cli import one_error_line

SCENARIO = """
[scenario]
name = "th-local-board"
game = "treasure_hunters"
players = 2
games = 40
seed = 3
[params]
mode = "basic"
board = "{board}"
[[seats]]
strategy = "weighted"
[[seats]]
strategy = "weighted"
"""
DEFAULT = (B.BOARDS_DIR / "default.toml").read_text(encoding="utf-8")
# the default house with one extra corridor: loads as a different board, so a test can tell which file was used
SHORTCUT = DEFAULT.replace('name = "', 'name = "shortcut ', 1).replace(
    '["H1", "H2"], ', '["H1", "H2"], ["H1", "H22"], '
)


def scenario(folder: Path, board: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    p = folder / "s.toml"
    p.write_text(SCENARIO.format(board=board), encoding="utf-8")
    return p


@pytest.fixture
def elsewhere(tmp_path, monkeypatch):
    """Run from a folder that is neither the scenario's nor the repository: the rule must not depend on the cwd."""
    d = tmp_path / "elsewhere"
    d.mkdir()
    monkeypatch.chdir(d)
    return d


@pytest.mark.kernel
@pytest.mark.parametrize(
    "ref,file",
    [
        ("my-board.toml", "my-board.toml"),
        ("my-board", "my-board.toml"),
        ("boards/house.toml", "boards/house.toml"),
        ("../up.toml", "../up.toml"),
    ],
)
def test_relative_board_is_found_next_to_the_scenario(tmp_path, elsewhere, ref, file):
    folder = tmp_path / "designs"
    target = (folder / file).resolve()
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(SHORTCUT, encoding="utf-8")
    sc = load(scenario(folder, ref))
    assert Path(sc.params["board"]) == target
    assert B.load_board(sc.params["board"]).name.startswith("shortcut")
    assert sc.prm().shape[0] > 0


@pytest.mark.kernel
def test_the_scenario_folder_comes_before_the_shipped_boards(tmp_path, elsewhere):
    folder = tmp_path / "designs"
    folder.mkdir()
    (folder / "default.toml").write_text(SHORTCUT, encoding="utf-8")
    sc = load(scenario(folder, "default.toml"))
    assert Path(sc.params["board"]) == folder / "default.toml"


@pytest.mark.kernel
def test_shipped_board_by_bare_name_still_works(tmp_path, elsewhere):
    sc = load(scenario(tmp_path / "designs", "default"))
    assert sc.params["board"] == "default"  # unchanged: reports and baselines stay as they were
    assert B.load_board(sc.params["board"]).path == str(B.BOARDS_DIR / "default.toml")
    sc = load(scenario(tmp_path / "designs", "default.toml"))
    assert sc.params["board"] == "default.toml"


@pytest.mark.kernel
def test_missing_board_is_one_line_naming_the_field_and_the_paths_tried(tmp_path, elsewhere):
    folder = tmp_path / "designs"
    p = scenario(folder, "my-board.toml")
    with pytest.raises(ScenarioError) as e:
        load(p)
    msg = str(e.value)
    assert "\n" not in msg and "params.board: no such board file 'my-board.toml'" in msg, msg
    assert str(folder.resolve() / "my-board.toml") in msg and str(B.BOARDS_DIR / "my-board.toml") in msg, msg
    out = tmp_path / "rep"
    r = CliRunner().invoke(app, ["run", str(p), "--out", str(out)])
    assert r.exit_code == EXIT_BAD_INPUT and "Traceback" not in r.output
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and "params.board" in lines[0] and "tried" in lines[0]
    assert not out.exists()


@pytest.mark.kernel
def test_sim_run_and_replay_with_a_board_next_to_the_scenario(tmp_path, elsewhere):
    folder = tmp_path / "designs"
    folder.mkdir()
    (folder / "my-board.toml").write_text(SHORTCUT, encoding="utf-8")
    p = scenario(folder, "my-board.toml")
    out = tmp_path / "rep"
    r = CliRunner().invoke(app, ["run", str(p), "--out", str(out), "--json"])
    assert r.exit_code == 0, r.output
    s = json.loads((out / "summary.json").read_text())
    assert s["games"]["played"] == 40
    r = CliRunner().invoke(app, ["replay", str(p), "--game", "3"])
    assert r.exit_code == 0, r.output
    assert "board shortcut" in r.stdout


cli = CliRunner()


def _name_error(name: str) -> str:
    r = cli.invoke(app, ["run", "scenarios/moor/4p.toml", "--games", "8", "--set", f"name={name}"])
    assert r.exit_code == EXIT_USAGE, r.output
    return one_error_line(r)


@pytest.mark.kernel
def test_name_index_html_is_refused_as_the_reports_index():
    line = _name_error('"index.html"')
    assert "scenario.name" in line and "--out" not in line and "index of the reports" in line


@pytest.mark.kernel
def test_name_too_long_says_the_length_limit():
    line = _name_error("a" * 300)
    assert "scenario.name" in line and "300 characters; at most 100" in line and "use letters" not in line
    assert len(line) < 300  # the name is not echoed whole


@pytest.mark.kernel
def test_name_starting_with_a_dot_is_refused():
    for name in ('".hidden"', '".moor-4p.partial-99999"'):
        line = _name_error(name)
        assert "scenario.name" in line and "starting with '.'" in line


@pytest.mark.kernel
def test_name_from_a_file_named_index_html_gets_another_name_offered(tmp_path):
    import pytest

    from sim.model.scenario import ScenarioError, load

    f = tmp_path / "index.html.toml"
    f.write_text(open("scenarios/moor/4p.toml").read().replace('name = "moor-4p"', ""))
    with pytest.raises(ScenarioError, match='add name = "my-scenario"'):
        load(f)


@pytest.mark.kernel
def test_an_accented_scenario_name_is_refused_saying_letters_without_accents(tmp_path):
    """A new user named a scenario "ünï" and was told to "use letters": the rule now says which letters."""
    from sim.model.scenario import ScenarioError, load

    src = Path(__file__).resolve().parents[2] / "scenarios/moor/4p.toml"
    f = tmp_path / "acc.toml"
    f.write_text(src.read_text().replace('name = "moor-4p"', 'name = "ünï"'), encoding="utf-8")
    with pytest.raises(ScenarioError, match="scenario.name.*a-z and A-Z without accents"):
        load(f)


def test_duplicate_toml_key_names_the_file_once(tmp_path):
    p = tmp_path / "dup.toml"
    p.write_text('[scenario]\ngame = "moor"\n[params]\ntrack_len = 30\ntrack_len = 31\n')
    for cmd in (["run", str(p)], ["sweep", str(p), "--set", "track_len=20,30"]):
        r = cli.invoke(app, cmd)
        assert r.exit_code == 3, r.output
        assert r.stderr.count(str(p)) == 1 and "not valid TOML" in r.stderr, r.stderr


def test_a_scenario_file_that_is_not_utf8_names_the_line_and_column_and_says_utf8(tmp_path):
    """A file saved as Latin-1 (é as the single byte 0xe9) is refused in one line naming where the byte is and that
    the file must be UTF-8, not Python's "'utf-8' codec can't decode byte 0xe9 in position 22"."""
    p = tmp_path / "latin1.toml"
    p.write_bytes('[scenario]\ngame = "moor"\nname = "café"\n'.encode("latin-1"))
    r = CliRunner().invoke(app, ["run", str(p)])
    assert r.exit_code == EXIT_BAD_INPUT
    assert r.stderr.strip() == (
        f"error: {p}: not UTF-8 text (byte 0xe9 at line 3, column 12); save the file as UTF-8"
    ), r.stderr


@pytest.mark.kernel
def test_a_board_file_that_is_not_utf8_is_refused_the_same_way(tmp_path):
    board = tmp_path / "latin1-board.toml"
    board.write_bytes(("# salle à manger\n" + DEFAULT).encode("latin-1"))
    with pytest.raises(
        ScenarioError, match=r"not UTF-8 text \(byte 0xe0 at line 1, column 9\); save the file as UTF-8"
    ):
        load(scenario(tmp_path, board.name))


@pytest.mark.kernel  # loading a Treasure Hunters scenario imports its kernels (compiled at import)
def test_a_scenario_without_a_name_is_named_after_its_file_even_when_it_sets_parameters(tmp_path):
    """The default name is the file's stem, not the last [params] key (a loop variable once made it 'board')."""
    src = Path(__file__).resolve().parents[2] / "scenarios/treasure_hunters/advanced-2p.toml"
    f = tmp_path / "my-house.toml"
    f.write_text(src.read_text(encoding="utf-8").replace('name = "th-advanced-2p"', ""), encoding="utf-8")
    sc = load(f)
    assert "board" in sc.params and sc.name == "my-house"
