"""Every number has its unit: the compare table and the sweep summaries write a margin or a counter with the unit
the catalogue of measures gives it ("4.394 gold", "39.5 rounds"), not bare; counted axes (game length) have
whole-number ticks, and the caption of a length histogram cut short says where and how many games it leaves out."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sim.cli.main import app

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"


@pytest.mark.kernel
def test_compare_table_and_sweep_summary_name_the_unit_of_a_mean(tmp_path):
    from sim.pages import compare_page

    r = CliRunner().invoke(
        app,
        [
            "compare",
            str(ROOT / "scenarios" / "galleon" / "2p.toml"),
            "--set-b",
            "ghost_die=pirate_moves_other_die",
            "--games",
            "200",
            "--out",
            str(tmp_path / "c"),
        ],
    )
    assert r.exit_code == 0, r.output
    res = json.loads((tmp_path / "c" / "compare.json").read_text())
    rows = {row["measure"]: row for row in compare_page.frame(res).to_dicts()}
    margin = next(v for k, v in rows.items() if k.startswith("winner's margin"))
    assert margin["A"].endswith(" gold") and margin["B - A"].endswith(" gold"), margin
    length = next(v for k, v in rows.items() if k == "game length (rounds)")
    assert length["A"].endswith(" rounds")
    win = next(v for k, v in rows.items() if k.endswith("wins") or "%" in v["A"])
    assert win["A"].endswith("%") and not win["A"].endswith("gold")
    r = CliRunner().invoke(
        app,
        [
            "sweep",
            str(ROOT / "scenarios" / "galleon" / "2p.toml"),
            "--set",
            "ghost_die=pirate_stays,pirate_moves_other_die",
            "--games",
            "100",
            "--out",
            str(tmp_path / "s"),
        ],
    )
    assert r.exit_code == 0, r.output
    assert "winner's margin (decisiveness) " in r.stdout and " gold [" in r.stdout
    assert " rounds [" in r.stdout


@pytest.mark.kernel
def test_length_histograms_have_whole_number_ticks_and_say_what_they_cut_off():
    import matplotlib

    matplotlib.use("Agg")
    from sim.pages import plots

    counts = [0] * 5 + [1000] * 10 + [0] * 100 + [1] * 3  # three games far longer than the rest: cut off
    s = {
        "scenario": {"game": "moor", "seats": [{"strategy": "weighted"}] * 2, "params": {}},
        "length": {k: {"hist": {"lo": 0, "counts": counts}, "mean": 10.0} for k in ("turns", "rounds")},
        "games": {"finished": sum(counts)},
        "measures": {},
    }
    fig = plots.length(s)
    for ax in fig.axes:
        ticks = [t for t in ax.get_xticks() if ax.get_xlim()[0] <= t <= ax.get_xlim()[1]]
        assert all(float(t).is_integer() for t in ticks), ticks
        label = ax.get_xlabel()
        assert "cut off at" in label and "longest games" in label and "not drawn" in label, label
