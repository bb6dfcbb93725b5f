"""The board file: the default house loads; broken files and broken scenarios are rejected with ONE clear line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kernels.treasure_hunters import board as B
from sim.model.scenario import ScenarioError, from_dict

DEFAULT = (B.BOARDS_DIR / "default.toml").read_text()


def write(tmp_path, text, name="house.toml") -> str:
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def edit(old, new, count=1):
    assert old in DEFAULT, old
    return DEFAULT.replace(old, new, count)


BAD = [
    ("unknown top-level key", DEFAULT + "\n[extra]\nx = 1\n", r"top level: unknown key 'extra'"),
    ("no board table", "x = 1\n", r"top level: unknown key 'x'"),
    (
        "unknown board key",
        edit('name = "candidate"', 'name = "candidate"\nwindows = 3'),
        r"board: unknown key 'windows'",
    ),
    ("duplicate letter", edit('"K", "L"]\njewel', '"K", "K"]\njewel'), r"board.rooms\[11\]: letter 'K' appears twice"),
    ("unknown letter", edit('"K", "L"]\njewel', '"K", "M"]\njewel'), r"board.rooms\[11\]: 'M' is not a room letter"),
    ("missing room", edit('"K", "L"]\njewel', '"K"]\njewel'), r"board.rooms: missing room L;"),
    ("seven jewel rooms", edit('jewel_rooms = ["A", ', "jewel_rooms = ["), r"board.jewel_rooms: needs exactly 8"),
    (
        "unknown start room",
        edit('ghost_start_rooms = ["C"', 'ghost_start_rooms = ["Q"'),
        r"board.ghost_start_rooms\[0\]: 'Q' is not a room",
    ),
    (
        "start room twice",
        edit('ghost_start_rooms = ["C", "F"', 'ghost_start_rooms = ["C", "C"'),
        r"board.ghost_start_rooms\[1\]: room 'C' appears twice",
    ),
    ("hallway clash", edit('hallway = ["H1"', 'hallway = ["A"'), r"board.hallway\[0\]: 'A' clashes"),
    ("hallway twice", edit('"H2", "H3"', '"H2", "H2"'), r"board.hallway\[2\]: 'H2' appears twice"),
    ("no front door", edit('front_door = "H1"\n', ""), r"board.front_door: missing"),
    ("bad front door", edit('front_door = "H1"', 'front_door = "H99"'), r"board.front_door: 'H99' is not"),
    ("corridor to a room", edit('["H1", "H2"]', '["H1", "A"]'), r"board.corridors\[0\]: 'A' is not a hallway square"),
    ("corridor unknown", edit('["H1", "H2"]', '["H1", "H77"]'), r"board.corridors\[0\]: 'H77' is not a hallway"),
    (
        "bad colour",
        edit('colour = "green" }', 'colour = "red" }'),
        r"board.doors\[0\].colour: 'red' is not a known colour",
    ),
    (
        "door between squares",
        edit('between = ["A", "H22"]', 'between = ["H21", "H23"]'),
        r"board.doors\[0\].between: a door needs a room",
    ),
    (
        "door unknown node",
        edit('between = ["A", "H22"]', 'between = ["A", "cellar"]'),
        r"board.doors\[0\].between: 'cellar' is not",
    ),
    (
        "door unknown key",
        edit(
            '{ between = ["A", "H22"], colour = "green" }',
            '{ between = ["A", "H22"], colour = "green", locked = true }',
        ),
        r"board.doors\[0\]: unknown key 'locked'",
    ),
    (
        "duplicate link",
        edit(
            '{ between = ["A", "B"], colour = "none" },',
            '{ between = ["A", "B"], colour = "none" },\n    { between = ["B", "A"] },',
        ),
        r"board.doors\[14\]: duplicate link",
    ),
    (
        "room unreachable",
        edit('{ between = ["A", "H22"], colour = "green" },', "").replace(
            '{ between = ["A", "B"], colour = "none" },', ""
        ),
        r"room A is not reachable from outside",
    ),
    ("square unreachable", edit('["H22", "H23"], ', ""), r"hallway square H23 is not reachable from outside"),
    ("not toml", "[board\nrooms = 3", r"not valid TOML"),
    ("rooms not strings", edit('rooms = ["A", "B"', 'rooms = [1, "B"'), r"board.rooms: expected an array of strings"),
]


@pytest.mark.parametrize("what,text,pattern", BAD, ids=[b[0] for b in BAD])
def test_bad_board_is_one_clear_line(tmp_path, what, text, pattern):
    path = write(tmp_path, text)
    with pytest.raises(B.BoardError) as e:
        B.load_board(path)
    msg = str(e.value)
    assert "\n" not in msg and path in msg and re.search(pattern, msg), msg
    assert isinstance(e.value, ValueError)


def test_too_many_links(tmp_path):
    extra = "".join(f'    {{ between = ["A", "H{i}"], colour = "none" }},\n' for i in range(1, 9))
    text = edit("doors = [\n", "doors = [\n" + extra)
    with pytest.raises(B.BoardError, match=r"room A has 10 links; at most 8"):
        B.load_board(write(tmp_path, text))


def test_missing_board_file():
    with pytest.raises(B.BoardError, match=r"no such board file"):
        B.load_board("no-such-house")


def test_resolve_path(tmp_path):
    assert B.resolve_path("default") == B.BOARDS_DIR / "default.toml"
    assert B.resolve_path("default.toml") == B.BOARDS_DIR / "default.toml"
    p = write(tmp_path, DEFAULT, "copy.toml")
    assert B.resolve_path(p) == Path(p)
    assert B.load_board(p).n_nodes == 36


def test_an_edited_house_changes_the_distances(tmp_path):
    text = edit('["H1", "H2"], ', '["H1", "H2"], ["H1", "H22"], ')  # a shortcut corridor
    b = B.load_board(write(tmp_path, text))
    d = B.compile_board(b)["dist"]
    assert d[0, 0, 1 + B.N_ROOMS + 21] == 2


def scenario(board, players=4, mode="basic"):
    return {
        "scenario": {"game": "treasure_hunters", "players": players, "games": 10},
        "params": {"mode": mode, "board": board},
        "seats": [{"strategy": "runners"}] * players,
    }


def test_bad_board_through_a_scenario_is_one_line(tmp_path):
    path = write(tmp_path, edit('colour = "green" }', 'colour = "purple" }'))
    with pytest.raises(ScenarioError) as e:
        from_dict(scenario(path))
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith("params.board: board ") and "'purple'" in msg
    with pytest.raises(ScenarioError, match=r"params.board: board 'nowhere': no such board file"):
        from_dict(scenario("nowhere"))
    sc = from_dict(scenario(write(tmp_path, DEFAULT, "ok.toml")))
    assert sc.prm().shape[0] > 0


@pytest.mark.parametrize(
    "doc,pattern",
    [
        (scenario("default", players=5), r"scenario.players: 5 players cannot play mode basic; allowed 2..4"),
        ({**scenario("default"), "params": {"mode": "expert"}}, r"params.mode: 'expert' is not allowed"),
        (
            {**scenario("default"), "params": {"move_die": [1, 2, 3], "move_die_ghost": [1, 1]}},
            r"params.move_die_ghost: needs one flag per move_die face \(3\), got 2",
        ),
        ({**scenario("default"), "params": {"hh_cards": [1, 2]}}, r"params.hh_cards: needs exactly 10 integers"),
        ({**scenario("default"), "params": {"fight_die": [1, 3]}}, r"params.fight_die\[1\]: 3 is out of range"),
        ({**scenario("default"), "params": {"windows": 2}}, r"params: unknown key 'windows'"),
        (
            {**scenario("default", mode="head_haunter"), "seats": [{"strategy": "runners"}] * 4},
            r"seats\[0\].strategy: unknown haunter strategy 'runners'; allowed: haunter_random",
        ),
        (
            {
                **scenario("default", mode="head_haunter"),
                "seats": [{"strategy": "haunter_builder"}, {"strategy": "haunter_trapper"}]
                + [{"strategy": "busters"}] * 2,
            },
            r"seats\[1\].strategy: unknown hunter strategy 'haunter_trapper'",
        ),
        (
            {**scenario("default"), "seats": [{"strategy": "weighted", "params": {"w_ghost": 1}}] * 4},
            r"seats\[0\].params: unknown key 'w_ghost' for strategy weighted",
        ),
    ],
)
def test_bad_scenario_is_one_line(doc, pattern):
    with pytest.raises(ScenarioError) as e:
        from_dict(doc)
    assert "\n" not in str(e.value) and re.search(pattern, str(e.value)), str(e.value)
