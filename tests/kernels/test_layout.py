"""kernels.layout: each game's flat vectors declared field by field, the offsets following from the sizes."""

import importlib

import pytest

from kernels.layout import Field, Layout

# (rules module, layout variable, constant prefix, length constant) of every vector declared with `Layout`
DECLARED = [
    ("kernels.treasure_hunters.rules", "_S", "S_", "S_SIZE"),
    ("kernels.treasure_hunters.rules", "_P", "P_", "P_SIZE"),
    ("kernels.galleon.rules", "_S", "S_", "S_SIZE"),
    ("kernels.galleon.rules", "_P", "P_", "P_SIZE"),
]


def _constants(module, prefix):
    return {k: v for k, v in vars(module).items() if k.startswith(prefix) and isinstance(v, int)}


@pytest.mark.parametrize("module_name, var, prefix, size_name", DECLARED)
def test_a_games_vector_is_its_declared_fields_without_overlap_gap_or_hand_written_offset(
    module_name, var, prefix, size_name
):
    m = importlib.import_module(module_name)
    layout = getattr(m, var)
    assert layout.problems(_constants(m, prefix), size_name) == []
    assert layout.closed


def test_fields_follow_each_other_and_a_gap_is_declared():
    lay = Layout("t")
    a = lay.field()
    b = lay.field(3)
    lay.reserve(2)
    c = lay.field(4)
    size = lay.end()
    assert (a, b, c, size) == (0, 1, 6, 10)
    assert lay.fields[2] == Field(4, 2, True)
    assert lay.problems({"T_A": a, "T_B": b, "T_C": c, "T_SIZE": size}, "T_SIZE") == []


def test_problems_name_a_hand_written_offset_an_alias_an_unnamed_field_and_a_wrong_size():
    lay = Layout("t")
    a = lay.field(2)
    lay.field()  # declared but given no name
    size = lay.end()
    got = lay.problems({"T_A": a, "T_A2": a, "T_MID": a + 1, "T_SIZE": size + 1}, "T_SIZE")
    assert got == [
        "t: T_SIZE is 4, the layout's size 3",
        "t: T_A2 and T_A name the same field at 0",
        "t: T_MID = 1 is not the offset of a declared field",
        "t: the field at 2 has no name",
    ]


def test_problems_name_an_overlap_and_an_unclosed_layout():
    lay = Layout("t")
    lay.field(4)
    lay.fields.append(Field(2, 2, False))  # as a hand edit of the table would
    lay.size = 4
    got = lay.problems({"T_A": 0, "T_B": 2, "T_SIZE": 4}, "T_SIZE")
    assert "t: field at 2 should start at 4 (overlap or gap)" in got
    assert "t: end() never called" in got


def test_a_declaration_after_end_or_of_no_entries_is_refused():
    lay = Layout("t")
    with pytest.raises(ValueError, match="field size must be at least 1, got 0"):
        lay.field(0)
    lay.field()
    lay.end()
    with pytest.raises(RuntimeError, match="declared after end"):
        lay.field()
