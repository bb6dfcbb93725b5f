"""sim compare through the CLI on small scenarios: common random numbers, Holm, --precision, --sprt, bad input."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sim import compare as C
from sim.cli import app
from sim.measures import PairedSums
from sim.runner import play_chunk
from sim.scenario import load

DATA = Path(__file__).resolve().parent.parent / "data"
BASE = DATA / "moor-2p-small.toml"
GHOSTS = DATA / "moor-2p-ghosts.toml"


def invoke(*args):
    return CliRunner().invoke(app, ["compare", *map(str, args)])


def test_same_scenario_twice_is_identical_and_never_significant(tmp_path):
    r = invoke(BASE, BASE, "--games", 3000, "--json", "--out", tmp_path / "c")
    assert r.exit_code == 0, r.output
    res = json.loads(r.stdout)
    assert res["games"] == 3000 and res["significant"] == []
    # common random numbers: every paired game is the same game, so every difference is exactly zero
    assert all(m["identical"] and m["diff"] == 0 for m in res["metrics"])
    for f in ("compare.json", "compare.md", "compare.html"):
        assert (tmp_path / "c" / f).exists()


def test_rule_change_is_significant_with_paired_intervals(tmp_path):
    r = invoke(BASE, GHOSTS, "--games", 4000, "--json", "--out", tmp_path / "c")
    assert r.exit_code == 0, r.output
    res = json.loads(r.stdout)
    rows = {m["name"]: m for m in res["metrics"]}
    assert {"win.seat0", "first_player.win", "score.seat0", "length.turns"} <= set(rows)
    s0 = rows["score.seat0"]
    # ghosts 6 and 7 worth 9 and 12: scores drop, and the drop is significant after Holm
    assert s0["diff"] < 0 and s0["diff_ci95"][1] < 0 and s0["significant"]
    assert s0["b"] - s0["a"] == pytest.approx(s0["diff"])
    # the pairing sharpens the interval (same dice in game g of A and B)
    assert s0["pairing_gain"] > 2
    # Holm: adjusted p >= raw p, significance decided on the adjusted value
    for m in res["metrics"]:
        if m["p"] is not None:
            assert m["p_holm"] >= m["p"]
            assert m["significant"] == (m["p_holm"] <= res["alpha"])
    assert res["correction"] == "holm"


def test_table_output_names_both_values_difference_interval_and_significance(tmp_path):
    r = invoke(BASE, GHOSTS, "--games", 2000, "--out", tmp_path / "c")
    assert r.exit_code == 0, r.output
    for col in ("| measure", "| A ", "| B ", "B - A", "95% CI", "p (Holm)", "significant"):
        assert col in r.stdout, col
    assert "Significant after Holm correction" in r.stdout
    html = (tmp_path / "c" / "compare.html").read_text()
    assert "<svg" in html and "<script" not in html


def test_precision_plays_on_until_half_width_is_reached(tmp_path):
    r = invoke(BASE, GHOSTS, "--precision", 0.02, "--chunk", 5000, "--json", "--out", tmp_path / "c")
    assert r.exit_code == 0, r.output
    res = json.loads(r.stdout)
    assert res["stop"]["rule"] == "precision"
    assert res["precision"]["reached"] and res["precision"]["worst_half_width"] <= 0.02
    assert "precision reached" in res["stop"]["message"]
    assert res["games"] == C.MIN_GAMES                      # reached at the first check


def test_precision_reports_the_cap(tmp_path):
    r = invoke(BASE, GHOSTS, "--precision", 0.0001, "--max-games", 12000, "--chunk", 6000, "--json",
               "--out", tmp_path / "c")
    res = json.loads(r.stdout)
    assert res["stop"]["rule"] == "cap" and res["games"] == 12000
    assert "game cap of 12000 reached" in res["stop"]["message"]


def test_sprt_stops_early_on_a_clear_effect(tmp_path):
    r = invoke(BASE, GHOSTS, "--sprt", -0.5, "--metric", "score.seat0", "--chunk", 2000, "--json",
               "--out", tmp_path / "c")
    assert r.exit_code == 0, r.output
    res = json.loads(r.stdout)
    assert res["sprt"]["state"] == "H1" and res["stop"]["rule"] == "sprt"
    assert res["games"] == C.MIN_GAMES
    assert res["sprt"]["bounds"] == pytest.approx([-2.944439, 2.944439], abs=1e-6)
    # and accepts H0 when the effect is absent (A vs A has zero variance: use the win rate of a real change)
    r = invoke(BASE, GHOSTS, "--sprt", 0.05, "--chunk", 5000, "--json", "--out", tmp_path / "d")
    res = json.loads(r.stdout)
    assert res["sprt"]["metric"] == "first_player.win" and res["sprt"]["state"] == "H0"


def test_paired_sums_match_direct_per_game_arrays():
    a, b = load(BASE), load(GHOSTS)
    ps = PairedSums(a, b)
    oa, ob = play_chunk(a, 0, 500), play_chunk(b, 0, 500)
    ps.add(oa, ob)
    fin = (oa.status == 0) & (ob.status == 0)
    acc = ps.acc["score.seat1"]
    assert acc["n"] == int(fin.sum())
    assert acc["sd"] == int((ob.scores[fin, 1].astype(int) - oa.scores[fin, 1]).sum())
    assert acc["sa"] == int(oa.scores[fin, 1].sum())


@pytest.mark.parametrize("args,code,text", [
    (["--precision", "2"], 2, "--precision"),
    (["--metric", "win.seat0"], 2, "--metric needs --sprt"),
    (["--sprt", "0.01", "--metric", "nonsense"], 2, "unknown measure 'nonsense'"),
    (["--alpha", "0"], 2, "--alpha"),
    (["--games", "0"], 2, "--games"),
])
def test_usage_errors(args, code, text, tmp_path):
    r = invoke(BASE, GHOSTS, *args, "--out", tmp_path / "c")
    assert r.exit_code == code, r.output
    assert text in r.output


def test_bad_input_files(tmp_path):
    r = invoke(BASE, tmp_path / "missing.toml")
    assert r.exit_code == 3 and "no such scenario file" in r.output
    bad = tmp_path / "bad.toml"
    bad.write_text("[scenario\n")
    r = invoke(bad, BASE)
    assert r.exit_code == 3 and "not valid TOML" in r.output


def test_different_games_cannot_be_compared():
    a = load(BASE)
    with pytest.raises(C.CompareError, match="different games"):
        C.check_comparable(a, a.with_changes(game="treasure_hunters"))
