"""B1..B8: the castle file is validated field by field; every kind of broken board is one line naming the field."""

from __future__ import annotations

import copy
import tomllib

import pytest

from kernels.turnwall import board as B

DEFAULT = tomllib.loads((B.BOARDS_DIR / "default.toml").read_text())


def _parse(mutate):
    d = copy.deepcopy(DEFAULT)
    mutate(d)
    return B.parse_board(d, "x.toml")


def _refused(mutate, field: str, words: str):
    with pytest.raises(B.BoardError) as e:
        _parse(mutate)
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith("board x.toml: ")
    assert field in msg and words in msg, msg


def test_b1_default_board_loads_with_12_rooms_and_20_garments():
    b = B.load_board("default")
    assert b.n_rooms == 12 and len(b.garment_cells) == 20 and len(set(b.garment_cells)) == 20
    assert b.room_of[B.PLUG] == -1 and b.corners == (0, 6, 48, 42)
    assert b.tunnels == (0, 2, 3, 4, 6) and b.slider_tunnels == (0, 2, 4) and b.max_out == 2


def test_b2_walls_derive_rooms_and_a_wrong_room_count_is_refused():
    def open_wall(d):  # remove the wall between A [1,1] and D [1,2]: rooms A and D merge
        v = list(d["board"]["v_walls"][1])
        v[1] = "."
        d["board"]["v_walls"][1] = "".join(v)

    _refused(open_wall, "board.h_walls/v_walls", "the walls make 11 rooms; board.rooms declares 12")
    _refused(lambda d: d["board"].update(rooms=13), "board.h_walls/v_walls", "12 rooms; board.rooms declares 13")


def test_b2_room_count_can_be_declared():
    def merge(d):
        v = list(d["board"]["v_walls"][1])
        v[1] = "."
        d["board"]["v_walls"][1] = "".join(v)
        d["board"]["rooms"] = 11

    assert _parse(merge).n_rooms == 11


def test_b2_malformed_wall_rows_are_refused():
    _refused(lambda d: d["board"]["h_walls"].pop(), "board.h_walls", "expected 6 strings")
    _refused(lambda d: d["board"]["v_walls"].__setitem__(0, ".x...."), "board.v_walls[0]", "'#' (wall) or '.'")


def test_b3_plug_must_be_the_centre():
    _refused(lambda d: d["board"].update(plug=[2, 3]), "board.plug", "must be the centre cell")


def test_b4_corners_distinct_and_on_the_board():
    _refused(lambda d: d["board"]["corners"].__setitem__(1, [0, 0]), "board.corners[1]", "distinct")
    _refused(lambda d: d["board"]["corners"].__setitem__(2, [7, 7]), "board.corners[2]", "off the board")


def test_b5_garment_on_the_plug_is_refused():
    _refused(lambda d: d["board"]["garments"][0].update(cell=[3, 3]), "board.garments[0].cell", "on the plug")


def test_b5_garment_on_a_corner_is_refused():
    _refused(lambda d: d["board"]["garments"][5].update(cell=[6, 0]), "board.garments[5].cell", "corner start space")


def test_b5_body_part_without_exactly_four_garments_is_refused():
    _refused(
        lambda d: d["board"]["garments"][0].update(part="face"),
        "board.garments",
        "body part 'head' has 3 garments; each part needs exactly 4",
    )
    _refused(lambda d: d["board"]["garments"].pop(), "board.garments", "has 3 garments")


def test_b5_garment_names_cells_and_parts_are_checked():
    _refused(lambda d: d["board"]["garments"][1].update(name="sombrero"), "board.garments[1].name", "twice")
    _refused(lambda d: d["board"]["garments"][1].update(cell=[0, 1]), "board.garments[1].cell", "shares its cell")
    _refused(lambda d: d["board"]["garments"][1].update(part="tail"), "board.garments[1].part", "not a body part")


def test_b6_tunnels_must_be_five_distinct_columns():
    _refused(lambda d: d["floor"].update(tunnels=[0, 2, 3, 3, 6]), "floor.tunnels", "5 distinct floor columns")
    _refused(lambda d: d["floor"].update(max_out=9), "floor.max_out", "0..6")


def test_b7_magnet_outside_its_slider_is_refused():
    _refused(
        lambda d: d["floor"]["sliders"][1].update(magnets=[2, 7]),
        "floor.sliders[1].magnets",
        "magnet at cell 7 is outside the slider",
    )


def test_b7_slider_in_a_tunnel_that_does_not_exist_is_refused():
    _refused(lambda d: d["floor"]["sliders"][2].update(tunnel=5), "floor.sliders[2].tunnel", "no such tunnel")


def test_b7_two_sliders_in_one_tunnel_are_refused():
    _refused(
        lambda d: d["floor"]["sliders"][2].update(tunnel=0),
        "floor.sliders[2].tunnel",
        "tunnel 0 already holds slider 0",
    )


def test_b8_unknown_keys_and_missing_tables_are_one_line():
    _refused(lambda d: d["board"].update(colour="red"), "board", "unknown key 'colour'")
    _refused(lambda d: d.pop("floor"), "[floor]", "missing table")
    with pytest.raises(B.BoardError, match="no such board file"):
        B.load_board("nope")


def test_b8_scenario_with_a_broken_board_is_one_error_line(tmp_path):
    from sim.model.scenario import ScenarioError, load

    bad = (B.BOARDS_DIR / "default.toml").read_text().replace("plug = [3, 3]", "plug = [3, 4]")
    (tmp_path / "bad.toml").write_text(bad)
    (tmp_path / "s.toml").write_text(
        '[scenario]\ngame = "turnwall"\nplayers = 2\n[params]\nboard = "bad.toml"\n'
        '[[seats]]\nstrategy = "random"\n[[seats]]\nstrategy = "random"\n'
    )
    with pytest.raises(ScenarioError) as e:
        load(tmp_path / "s.toml")
    assert "params.board" in str(e.value) and "board.plug" in str(e.value) and "\n" not in str(e.value)
