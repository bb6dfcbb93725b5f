"""The Galleon board file (RULES.md B1..B9): the default loads; every broken-file kind is refused with one line
naming the field; `sim board show` draws it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kernels.galleon import board as B
from sim.cli.main import app

DEFAULT = (B.BOARDS_DIR / "default.toml").read_text(encoding="utf-8")


def load_text(tmp_path: Path, text: str) -> B.Board:
    p = tmp_path / "b.toml"
    p.write_text(text, encoding="utf-8")
    return B.load_board(str(p))


def refused(tmp_path, text: str) -> str:
    with pytest.raises(B.BoardError) as e:
        load_text(tmp_path, text)
    msg = str(e.value)
    assert "\n" not in msg
    return msg


def test_b1_default_board_has_every_part_of_the_bay_and_ship():
    b = B.load_board("default")
    assert len(b.hideouts) == 4 and len(b.cabins) == 6 and len(b.cannons) == 4 and len(b.whirlpools) == 4
    assert sum(k == B.K_CAVE for k in b.kinds) == 4
    assert b.kinds[b.captain] == B.K_CAPTAIN
    assert all(b.kinds[d] in B.WALK_DECK for d in b.doors)
    d = b.distances()
    for h in b.hideouts:  # every hideout reaches the captain's cabin
        assert d[h, b.captain] < B.FAR


def test_b2_caves_join_every_entrance_by_one_pip():
    b = B.load_board("default")
    caves = [v for v in range(b.n) if b.kinds[v] == B.K_CAVE]
    for x in caves:
        for y in caves:
            if x != y:
                assert y in b.neighbours(x)


def test_b3_hideout_that_cannot_reach_the_ship_is_refused(tmp_path):
    text = DEFAULT.replace('["P03", "P04"], ', "")  # path 0 cut before its cave entrance
    assert re.search(r"hideout 'H0' \(seat 0\) cannot reach the ship", refused(tmp_path, text))


def test_b4_cabin_without_a_door_is_refused(tmp_path):
    text = DEFAULT.replace('["C0", "M00"], ', "").replace('["C0", "M00"],', "")
    assert "cabin 'C0' needs exactly one door" in refused(tmp_path, text)


def test_b5_cannon_without_a_quarter_is_refused(tmp_path):
    text = DEFAULT.replace('behind = "F0"\nquarter = 0', 'behind = "F0"')
    assert "cannons[0].quarter: cannon behind 'F0' has no quarter" in refused(tmp_path, text)


def test_b6_whirlpool_without_its_rock_is_refused(tmp_path):
    text = DEFAULT.replace('rock = "R0"\n', "")
    assert "whirlpools[0].rock: whirlpool 'W0' has no rock" in refused(tmp_path, text)
    text = DEFAULT.replace('rock = "R0"', 'rock = "W1"')
    assert "has no rock" in refused(tmp_path, text)


def test_b7_unknown_space_kind_is_refused(tmp_path):
    text = DEFAULT.replace('{ id = "PL", kind = "plank"', '{ id = "PL", kind = "crows_nest"')
    msg = refused(tmp_path, text)
    assert "unknown space kind 'crows_nest' (PL); allowed: land," in msg


def test_b8_boarding_only_between_arrow_spaces(tmp_path):
    text = DEFAULT.replace('["LA0", "DA0"]', '["P07", "M10"]')
    assert "boarding only between a land_arrow and a deck_arrow" in refused(tmp_path, text)


def test_b9_other_broken_files_are_one_line(tmp_path):
    assert "unknown space 'NOPE'" in refused(tmp_path, DEFAULT.replace('["F0", "F1"]', '["F0", "NOPE"]'))
    assert "appears twice" in refused(tmp_path, DEFAULT.replace('id = "F1"', 'id = "F0"'))
    assert "quarter" in refused(tmp_path, DEFAULT.replace(", quarter = 0 }", " }", 1))
    assert "not valid TOML" in refused(tmp_path, DEFAULT + "\n[[[")
    assert "two cave groups" in refused(
        tmp_path, DEFAULT.replace('cave_groups = [["P04"', 'cave_groups = [["P04", "P14"], ["P04"')
    )


def test_b2_keirat_two_caves_option_loads(tmp_path):
    text = DEFAULT.replace(
        'cave_groups = [["P04", "P14", "P24", "P34"]]', 'cave_groups = [["P04", "P14"], ["P24", "P34"]]'
    )
    b = load_text(tmp_path, text)
    assert len(b.cave_links) == 2


def test_sim_board_show_draws_the_galleon_board(tmp_path):
    out = tmp_path / "g.svg"
    r = CliRunner().invoke(app, ["board", "show", str(B.BOARDS_DIR / "default.toml"), "--out", str(out)])
    assert r.exit_code == 0, r.output
    svg = out.read_text()
    assert svg.startswith("<?xml") or "<svg" in svg[:400]
    assert "cannon 0: the ghost fires it from F0 at the top-left" in svg and "CC" in svg


def test_sim_board_show_refuses_a_broken_galleon_board_with_one_line(tmp_path):
    p = tmp_path / "bad.toml"
    p.write_text(DEFAULT.replace('rock = "R0"\n', ""), encoding="utf-8")
    r = CliRunner().invoke(app, ["board", "show", str(p)])
    assert r.exit_code == 3
    assert "has no rock" in r.output and len(r.output.strip().splitlines()) == 1
