"""sim compare through the CLI on small scenarios: common random numbers, Holm, --precision, --sprt, bad input."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from sim.cli.main import EXIT_USAGE, app
from sim.model.scenario import load
from sim.play.runner import play_chunk
from sim.stats import compare as C
from sim.stats.measures import PairedSums
from tests.sim._cli import one_error_line

DATA = Path(__file__).resolve().parent.parent / "data"
BASE = DATA / "moor-2p-small.toml"
GHOSTS = DATA / "moor-2p-ghosts.toml"
MIXED4 = DATA / "moor-4p-mixed-small.toml"
SCEN = Path(__file__).resolve().parents[2] / "scenarios" / "treasure_hunters"
ROOT = Path(__file__).resolve().parents[2]


def invoke(*args):
    return CliRunner().invoke(app, ["compare", *map(str, args)])


@pytest.mark.kernel
def test_same_scenario_twice_is_identical_and_never_significant(tmp_path):
    r = invoke(BASE, BASE, "--games", 3000, "--json", "--out", tmp_path / "c")
    assert r.exit_code == 0, r.output
    res = json.loads(r.stdout)
    assert res["games"] == 3000 and res["significant"] == []
    # common random numbers: every paired game is the same game, so every difference is exactly zero
    assert all(m["identical"] and m["diff"] == 0 for m in res["metrics"])
    for f in ("compare.json", "compare.md", "compare.html"):
        assert (tmp_path / "c" / f).exists()


@pytest.mark.kernel
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


@pytest.mark.kernel
def test_table_output_names_both_values_difference_interval_margin_and_verdict(tmp_path):
    r = invoke(BASE, GHOSTS, "--games", 2000, "--out", tmp_path / "c")
    assert r.exit_code == 0, r.output
    for col in (
        "| measure",
        "| A ",
        "| B ",
        "B - A",
        "95% CI",
        "p (B = A), Holm",
        "margin",
        "p (within margin), Holm",
        "verdict",
    ):
        assert col in r.stdout, col
    assert "Verdicts at each measure's margin" in r.stdout and "Holm-corrected over" in r.stdout
    html = (tmp_path / "c" / "compare.html").read_text()
    assert "<svg" in html and "<script" not in html
    assert 'id="caveats"' not in html  # same players and roles: nothing left out, no comparability section


@pytest.mark.kernel
def test_precision_plays_on_until_half_width_is_reached(tmp_path):
    r = invoke(BASE, GHOSTS, "--precision", 0.02, "--chunk", 5000, "--json", "--out", tmp_path / "c")
    assert r.exit_code == 0, r.output
    res = json.loads(r.stdout)
    assert res["stop"]["rule"] == "precision"
    assert res["precision"]["reached"] and res["precision"]["worst_half_width"] <= 0.02
    assert "precision reached" in res["stop"]["message"]
    assert res["games"] == C.MIN_GAMES  # reached at the first check


@pytest.mark.kernel
def test_precision_reports_the_cap(tmp_path):
    r = invoke(
        BASE, GHOSTS, "--precision", 0.0001, "--max-games", 12000, "--chunk", 6000, "--json", "--out", tmp_path / "c"
    )
    res = json.loads(r.stdout)
    assert res["stop"]["rule"] == "cap" and res["games"] == 12000
    assert "game cap of 12000 reached" in res["stop"]["message"]


@pytest.mark.kernel
def test_sprt_stops_early_on_a_clear_effect(tmp_path):
    r = invoke(
        BASE, GHOSTS, "--sprt", -0.5, "--metric", "score.seat0", "--chunk", 2000, "--json", "--out", tmp_path / "c"
    )
    assert r.exit_code == 0, r.output
    res = json.loads(r.stdout)
    assert res["sprt"]["state"] == "H1" and res["stop"]["rule"] == "sprt"
    assert res["games"] == C.MIN_GAMES
    assert res["sprt"]["bounds"] == pytest.approx([-2.944439, 2.944439], abs=1e-6)
    # and accepts H0 when the effect is absent (A vs A has zero variance: use the win rate of a real change)
    r = invoke(BASE, GHOSTS, "--sprt", 0.05, "--chunk", 5000, "--json", "--out", tmp_path / "d")
    res = json.loads(r.stdout)
    assert res["sprt"]["metric"] == "first_player.win" and res["sprt"]["state"] == "H0"


@pytest.mark.kernel
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


@pytest.mark.kernel
@pytest.mark.parametrize(
    "args,code,text",
    [
        (["--precision", "2"], 2, "--precision"),
        (["--metric", "win.seat0"], 2, "--metric needs --sprt"),
        (["--sprt", "0.01", "--metric", "nonsense"], 2, "unknown measure 'nonsense'"),
        (["--alpha", "0"], 2, "--alpha"),
        (["--games", "0"], 2, "--games"),
    ],
)
def test_usage_errors(args, code, text, tmp_path):
    r = invoke(BASE, GHOSTS, *args, "--out", tmp_path / "c")
    assert r.exit_code == code, r.output
    assert text in r.output


@pytest.mark.kernel
def test_bad_input_files(tmp_path):
    r = invoke(BASE, tmp_path / "missing.toml")
    assert r.exit_code == 3 and "no such scenario file" in r.output
    bad = tmp_path / "bad.toml"
    bad.write_text("[scenario\n")
    r = invoke(bad, BASE)
    assert r.exit_code == 3 and "not valid TOML" in r.output


@pytest.mark.kernel
def test_different_games_cannot_be_compared():
    a = load(BASE)
    with pytest.raises(C.CompareError, match="different games"):
        C.check_comparable(a, a.with_changes(game="treasure_hunters"))


# --- SPRT: what was decided, and a change of the opposite sign -------------------------------------------------


@pytest.mark.kernel
def test_sprt_h0_says_what_was_decided_and_flags_an_opposite_sign_estimate(tmp_path):
    # the ghost change lowers seat 0's score by about 2 points; a one-sided SPRT for +0.5 must not read as "no change"
    r = invoke(
        BASE, GHOSTS, "--sprt", 0.5, "--metric", "score.seat0", "--chunk", 5000, "--json", "--out", tmp_path / "c"
    )
    assert r.exit_code == 0, r.output
    sp = json.loads(r.stdout)["sprt"]
    assert sp["state"] == "H0" and not sp["two_sided"] and sp["estimate"] < 0
    assert "no difference" not in sp["message"]
    assert "H0 accepted: the data favour no change over a change of +0.5 in score.seat0" in sp["message"]
    assert "does not rule out smaller or opposite-sign changes" in sp["message"]
    assert sp["opposite_sign"] and sp["opposite_sign_significant"]
    assert "on the other side of 0 from the effect +0.5" in sp["message"] and "--two-sided" in sp["message"]
    md = (tmp_path / "c" / "compare.md").read_text()
    assert "H0: diff = 0 against H1: diff = +0.5 (one-sided)" in md and "opposite-sign" in md


@pytest.mark.kernel
def test_two_sided_sprt_accepts_a_change_of_the_opposite_sign(tmp_path):
    r = invoke(
        BASE,
        GHOSTS,
        "--sprt",
        0.5,
        "--metric",
        "score.seat0",
        "--two-sided",
        "--chunk",
        5000,
        "--json",
        "--out",
        tmp_path / "c",
    )
    assert r.exit_code == 0, r.output
    sp = json.loads(r.stdout)["sprt"]
    assert sp["two_sided"] and sp["state"] == "H1" and sp["direction"] == -1
    assert "the data favour a change of -0.5 in score.seat0 over no change" in sp["message"]
    # each side at alpha / 2: bounds ln(beta / (1 - alpha/2)), ln((1 - beta) / (alpha/2))
    assert sp["bounds"] == pytest.approx([math.log(0.05 / 0.975), math.log(0.95 / 0.025)])
    assert sp["llr"] == pytest.approx(max(sp["llr_up"], sp["llr_down"]))


def _first_decisions(mu: float, sprt: C.Sprt, reps: int = 400, seed: int = 1) -> list[tuple[str, int | None]]:
    """Run the SPRT on ``reps`` synthetic streams of N(mu, 1) paired differences, checking every 50 values from
    200 on (as compare checks per chunk), up to 5000; the first decision of each (or 'continue')."""
    rng = np.random.default_rng(seed)
    x = rng.normal(mu, 1.0, size=(reps, 5000))
    s, q = np.cumsum(x, axis=1), np.cumsum(x * x, axis=1)
    out = []
    for r in range(reps):
        dec = ("continue", None)
        for n in range(200, 5001, 50):
            d = C.sprt_decide(float(s[r, n - 1]), float(q[r, n - 1]), n, sprt)
            if d["state"] != "continue":
                dec = (d["state"], d["direction"])
                break
        out.append(dec)
    return out


def test_two_sided_sprt_error_rates_in_both_directions():
    e = 0.1
    two = C.Sprt("x", e, two_sided=True)
    null = _first_decisions(0.0, two, seed=1)
    assert sum(st == "H1" for st, _ in null) / len(null) <= 0.08  # false alarms: about alpha or less
    for mu, sign in ((e, 1), (-e, -1)):
        res = _first_decisions(mu, two, seed=2 if sign > 0 else 3)
        assert sum(d == ("H1", sign) for d in res) / len(res) >= 0.9  # power about 1 - beta, either way
        assert not any(d == ("H1", -sign) for d in res)  # never the wrong direction
    # the one-sided test cannot see the negative change: it accepts H0 (which is why the message warns)
    one = _first_decisions(-e, C.Sprt("x", e), seed=3)
    assert sum(st == "H0" for st, _ in one) / len(one) >= 0.99


# --- option combinations that make no sense are refused, one line, exit 2, nothing written ----------------------


@pytest.mark.kernel
@pytest.mark.parametrize(
    "args,text",
    [
        (["--sprt", "0.01", "--precision", "0.01"], "--precision and --sprt are two different stopping rules"),
        (["--games", "2000", "--sprt", "0.01"], "--games fixes the game count, --sprt decides when to stop"),
        (["--games", "2000", "--precision", "0.01"], "--games fixes the game count, --precision decides"),
        (["--max-games", "20000"], "--max-games caps a --precision or --sprt run"),
        (["--sprt", "0.01", "--max-games", "500"], "--max-games: 500 is out of range; allowed 10,000.."),
        (["--two-sided"], "--two-sided needs --sprt"),
        (["--metric", "score.seat0"], "--metric needs --sprt"),
        (["--sprt", "0"], "--sprt: 0.0 is not a usable effect size"),
        (["--sprt", "1.5"], "not a possible change of the rate first_player.win"),
        (["--alpha", "1.5"], "--alpha: 1.5 is out of range"),
    ],
)
def test_nonsensical_option_combinations_are_refused_in_one_line(args, text, tmp_path):
    r = invoke(BASE, GHOSTS, *args, "--out", tmp_path / "c")
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and text in lines[0], r.output
    assert "Traceback" not in r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)
    assert not (tmp_path / "c").exists()


# --- scenarios that differ in players or roles: only what means the same on both sides is compared ---------------


@pytest.mark.kernel
def test_different_player_counts_compare_only_game_level_measures(tmp_path):
    r = invoke(BASE, MIXED4, "--games", 300, "--json", "--out", tmp_path / "c")
    assert r.exit_code == 0, r.output
    res = json.loads(r.stdout)
    names = {m["name"] for m in res["metrics"]}
    assert not any(n.startswith(("win.", "first_player.", "score.seat")) or n == "extra.first_seat" for n in names)
    assert {"length.turns", "margin", "tie", "truncated"} <= names
    dm = res["not_compared"]["different_meaning"]
    assert {"win.seat0", "win.seat1", "first_player.win", "score.seat0"} <= set(dm)
    # the start seat (rotation bookkeeping) is no measure of a comparison at all
    assert "extra.first_seat" not in set(dm) | set(res["not_compared"]["only_a"]) | set(res["not_compared"]["only_b"])
    assert "A has 2 players" in dm["win.seat0"] and any("A has 2 players and B 4" in x for x in res["notes"])
    assert "Not compared (different meaning in A and B)" in (tmp_path / "c" / "compare.md").read_text()
    html = (tmp_path / "c" / "compare.html").read_text()
    assert '<section id="caveats">' in html and "A has 2 players and B 4" in html
    assert "Not compared (different meaning in A and B)" in html
    # the SPRT's default measure is one of them: refused, naming --metric; --precision has no win rate to watch
    r = invoke(BASE, MIXED4, "--sprt", 0.01, "--out", tmp_path / "d")
    assert r.exit_code == 2 and "--sprt watches 'first_player.win' by default" in r.output
    assert "--metric" in r.output and not (tmp_path / "d").exists()
    r = invoke(BASE, MIXED4, "--precision", 0.01, "--out", tmp_path / "e")
    assert r.exit_code == 2 and "no win rate is compared" in r.output


@pytest.mark.kernel
def test_head_haunter_against_cooperative_drops_the_seat_whose_role_changed(tmp_path):
    r = invoke(SCEN / "head_haunter-4p.toml", SCEN / "basic-4p.toml", "--games", 100, "--json", "--out", tmp_path / "c")
    assert r.exit_code == 0, r.output
    res = json.loads(r.stdout)
    names = {m["name"] for m in res["metrics"]}
    # seat 0 is the Head Haunter in A and a hunter in B: its score means something else
    assert "score.seat0" not in names and "role differs" in res["not_compared"]["different_meaning"]["score.seat0"]
    assert {"score.seat1", "team.hunter", "length.turns"} <= names
    # what applies to one side only (sim.model.catalogue: the Head Haunter's team, cards and wins; the basic game's losses)
    assert res["not_compared"]["only_a"] == [
        "team.haunter",
        "extra.outcome=win",
        "extra.outcome=haunter_win_hauntings",
        "extra.outcome=haunter_win_stuck",
        "extra.locked_door_turns",
        "extra.rerolls_used",
        "extra.hh_cards_played",
        "extra.six_discards",
        "extra.spooks",
        "extra.jewels_dropped",
        "extra.ghosts_moved",
    ]
    assert res["not_compared"]["only_b"] == ["extra.outcome=six_hauntings", "extra.outcome=hunters_stuck"]
    assert any("team.hunter is compared although the teams differ" in x for x in res["notes"])
    # a measure that is not comparable is refused by --metric with the reason
    r = invoke(
        SCEN / "head_haunter-4p.toml",
        SCEN / "basic-4p.toml",
        "--sprt",
        0.5,
        "--metric",
        "score.seat0",
        "--out",
        tmp_path / "d",
    )
    assert r.exit_code == 2 and "'score.seat0' is not comparable here" in r.output


# --- intervals of rate differences stay within the possible range --------------------------------------------


@pytest.mark.kernel
def test_rate_difference_interval_is_clipped_to_plus_minus_one():
    ps = PairedSums(load(BASE), load(GHOSTS))
    k = next(m.scale for m in ps.measures if m.name == "first_player.win")
    # three games: the start player won in A each time, and in B once: d = -1, -1, 0
    ps.acc["first_player.win"].update(n=3, sa=3 * k, qa=3 * k * k, sb=k, qb=k * k, sd=-2 * k, qd=2 * k * k)
    ps.acc["score.seat0"].update(n=3, sa=30, qa=302, sb=10, qb=40, sd=-20, qd=262)
    rows = {r["name"]: r for r in C.evaluate(ps, 0.05)}
    fp = rows["first_player.win"]
    assert fp["diff"] == pytest.approx(-2 / 3)  # the point estimate is kept
    assert fp["diff_ci95"][0] == -1.0 and -1.0 < fp["diff_ci95"][1] < 0
    assert C.clip_diff([-1.4, 1.2], "rate") == [-1.0, 1.0]
    assert rows["score.seat0"]["diff_ci95"][0] < -10  # means are not clipped


def test_statistics_do_not_lean_on_pages():
    """sim.stats.compare computes only: importing it loads no page module, and the pages import it, never the reverse."""
    import subprocess
    import sys

    code = (
        "import sys, sim.stats.compare; print(sorted(m for m in sys.modules if m in "
        "('sim.pages.html_report', 'sim.pages.compare_page', 'sim.pages.plots', 'sim.pages.tables')))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
    src = (ROOT / "sim" / "stats" / "compare.py").read_text(encoding="utf-8")
    assert "html_report" not in src and "compare_page" not in src.split('"""', 2)[2]
    assert (
        "sim.stats.compare"
        not in (ROOT / "sim" / "pages" / "html_report.py").read_text(encoding="utf-8").split('"""', 2)[2]
    )


@pytest.mark.kernel
def test_compare_opens_with_plain_verdict_sentences(tmp_path):
    """sim compare opens with sentences for the headline measures ('X instead of Y: +d points [lo, hi],
    changed by ... / unchanged within ... / cannot tell yet ...'), in the terminal, compare.md and compare.html; no
    bold wall of identifiers."""
    r = invoke(BASE, GHOSTS, "--games", 3000, "--out", tmp_path / "c")
    assert r.exit_code == 0, r.output
    res = json.loads((tmp_path / "c" / "compare.json").read_text())
    md = (tmp_path / "c" / "compare.md").read_text()
    page = (tmp_path / "c" / "compare.html").read_text()
    verdict = md.split("## Verdict")[1].split("##")[0]
    assert md.index("## Verdict") < md.index("## What differs")
    s0 = next(m for m in res["metrics"] if m["name"] == "win.seat0")
    line = next(x for x in verdict.splitlines() if x.startswith("- Seat 0 ("))
    assert f"{100 * s0['b']:.1f}% [" in line and f"instead of {100 * s0['a']:.1f}% [" in line
    assert f"{100 * s0['diff']:+.1f} points [" in line
    said = {"changed": "changed by", "unchanged": "unchanged within ±1.0", "cannot_tell": "cannot tell yet at ±1.0"}
    assert said[s0["verdict"]] in line
    assert "no difference" not in verdict and "holds" not in verdict
    assert any(x.startswith("- The start player wins") for x in verdict.splitlines())
    assert "win.seat0" not in verdict and "extra." not in verdict  # labels, not identifiers
    assert verdict.strip() in r.stdout.replace("\r", "") or "- Seat 0 (" in r.stdout
    sec = page.split('<section id="verdict">')[1].split("</section>")[0]
    assert "<b>" not in sec and "Seat 0 (" in sec and said[s0["verdict"]] in sec
    assert page.index('id="verdict"') < page.index('id="differences"')


HUNTERS_WIN = {  # a compared row: the hunters' win rate, changed by +22.7 points
    "name": "team.hunter",
    "label": "hunters win",
    "kind": "rate",
    "a": 0.33,
    "a_ci95": [0.326, 0.334],
    "b": 0.557,
    "b_ci95": [0.552, 0.561],
    "diff": 0.227,
    "diff_ci95": [0.221, 0.233],
    "p": 1e-30,
    "p_holm": 1e-29,
    "significant": True,
    "identical": False,
    "margin": 0.01,
    "verdict": "changed",
    "p_equiv_holm": 1.0,
}


@pytest.mark.kernel
def test_compare_sentence_words():
    """Each of the three verdicts in words: changed (significant and beyond the margin), unchanged (the equivalence
    test), cannot tell yet with the games that would decide; never "no difference detected"."""
    from sim.model import catalogue
    from sim.pages import verdicts

    cat = catalogue.View("treasure_hunters", "basic", ["weighted"] * 4, True)
    r = dict(HUNTERS_WIN)
    assert verdicts.compare_sentence(r, cat) == (
        "Hunters win 55.7% [55.2, 56.1] instead of 33.0% [32.6, 33.4]: "
        "+22.7 points [+22.1, +23.3], changed by +22.7 points (p < 1e-9 after Holm; margin "
        "±1.0 points)"
    )
    r.update(significant=False, p_holm=0.41, verdict="unchanged", p_equiv_holm=0.003)
    assert verdicts.compare_sentence(r, cat).endswith(
        "unchanged within ±1.0 points (equivalence test p = 0.003 after Holm)"
    )
    r.update(verdict="cannot_tell", more_games=33_412)
    assert verdicts.compare_sentence(r, cat).endswith(
        "cannot tell yet at ±1.0 points: about 34,000 more games would decide"
    )


@pytest.mark.kernel
def test_a_significant_shift_not_shown_beyond_its_margin_says_what_is_known():
    """A bare "cannot tell yet" for a shift significant after Holm (p 0.015) but not shown past its 1-point margin
    hid what is known: B differs from A; whether it matters is what cannot be told yet. The verdict stays."""
    from sim.model import catalogue
    from sim.pages import verdicts

    cat = catalogue.View("treasure_hunters", "basic", ["weighted"] * 4, True)
    r = dict(HUNTERS_WIN, b=0.345, b_ci95=[0.340, 0.350], diff=0.015, diff_ci95=[0.003, 0.027], p=0.005)
    r.update(p_holm=0.015, verdict="cannot_tell", p_equiv_holm=0.8, more_games=33_412, n=8000)
    assert verdicts.compare_sentence(r, cat).endswith(
        "cannot tell yet whether it matters at ±1.0 points: B differs from A more than chance explains "
        "(p = 0.015 after Holm), but the difference is not shown beyond the margin at the level Holm's correction "
        "leaves it (a wider interval than its own 95% one); about 34,000 more games would "
        "decide"
    )
    res = {
        "a": {
            "game": "treasure_hunters",
            "scenario": {"params": {"mode": "basic"}, "seats": [{"strategy": "weighted"}] * 4},
        },
        "metrics": [r],
    }
    assert verdicts.compare_sentences(res)[-1] == (
        "Of the 1 measure compared, 0 unchanged within their margins, 1 cannot be told yet (hunters win differs from A "
        "more than chance explains, not shown beyond its margin; about 34,000 more games would decide them all)."
    )


@pytest.mark.kernel
def test_verdict_says_team_mates_identical_results_once():
    """In a team game the hunters' scores are one result: the verdict names 'seats 0-3's score' once."""
    from sim.pages import verdicts

    row = {
        "kind": "mean",
        "a": 6.6,
        "b": 7.2,
        "diff": 0.6,
        "diff_ci95": [0.5, 0.7],
        "a_ci95": [6.5, 6.7],
        "b_ci95": [7.1, 7.3],
        "p": 1e-20,
        "p_holm": 1e-19,
        "significant": True,
        "identical": False,
        "margin": 0.33,
        "verdict": "changed",
    }
    res = {
        "a": {
            "game": "treasure_hunters",
            "scenario": {"params": {"mode": "basic"}, "seats": [{"strategy": "weighted"}] * 4},
        },
        "metrics": [dict(row, name=f"score.seat{i}", label=f"seat {i}'s score") for i in range(4)],
    }
    lines = verdicts.compare_sentences(res)
    also = next(x for x in lines if x.startswith("Also changed"))
    assert also.startswith("Also changed beyond their margins: seats 0-3's score (+0.60 jewels)")
    assert "seat 1's score" not in also


REPO = Path(__file__).resolve().parents[2]


cli = CliRunner()
MOOR4 = REPO / "scenarios" / "moor" / "4p.toml"


def _invoke(*args):
    return cli.invoke(app, [str(a) for a in args])


@pytest.mark.kernel
def test_compare_states_a_rate_counter_difference_in_points(tmp_path):
    r = cli.invoke(
        app, ["compare", str(BASE), "--set-b", "tiebreak=shared", "--games", "2000", "--out", str(tmp_path / "c")]
    )
    assert r.exit_code == 0, r.output
    md = (tmp_path / "c" / "compare.md").read_text()
    row = next(ln for ln in md.splitlines() if ln.startswith("| top score tied, settled by the tie-break"))
    assert " points " in row and "%" in row and " pts" not in row, row


@pytest.mark.kernel
@pytest.mark.parametrize(
    "sets",
    [
        ["--set", "track_len=30", "--set-b", "track_len=32"],
        ["--set-b", "track_len=30", "--set-b", "track_len=32"],
        ["--set-a", "track_len=30", "--set", "tiebreak=shared", "--set-a", "params.track_len=31"],
    ],
)
def test_compare_refuses_a_name_given_twice_for_one_scenario(tmp_path, sets):
    r = _invoke("compare", MOOR4, MOOR4, "--games", 50, "--out", tmp_path / "o", *sets)
    line = one_error_line(r)
    assert r.exit_code == EXIT_USAGE and "track_len: given twice" in line and "--set-a or --set-b for one" in line
    assert not (tmp_path / "o").exists()


@pytest.mark.kernel
def test_compare_takes_one_name_once_for_each_scenario(tmp_path):
    r = _invoke(
        "compare",
        MOOR4,
        "--games",
        50,
        "--out",
        tmp_path / "o",
        "--json",
        "--set-a",
        "track_len=30",
        "--set-b",
        "track_len=32",
    )
    assert r.exit_code == 0, r.output


@pytest.mark.kernel
def test_compare_set_b_players_3_compares_a_with_b_on_three_seats(tmp_path):
    r = _invoke("compare", MOOR4, "--set-b", "players=3", "--games", 60, "--json", "--out", tmp_path / "o")
    assert r.exit_code == 0, r.output
    res = json.loads(r.stdout)
    assert res["a"]["scenario"]["players"] == 4 and res["b"]["scenario"]["players"] == 3
    assert "A has 4 players, B 3" in r.stdout


def test_compare_table_uses_one_number_format_per_column():
    from sim.pages.compare_page import _fmt, _fmt_d

    assert f"[{_fmt_d(-0.3, 'mean')}, {_fmt_d(-0.008042, 'mean')}]" == "[-0.300, -0.008]"
    assert _fmt(4.26, "mean") == "4.260" and _fmt_d(0.3112, "mean") == "+0.311"
    assert _fmt_d(0.0048, "rate") == "+0.48"


@pytest.mark.kernel
def test_sprt_of_a_rate_speaks_in_percentage_points_as_the_table(tmp_path):
    import json

    p = REPO / "tests" / "data" / "moor-2p-small.toml"
    r = cli.invoke(
        app,
        [
            "compare",
            str(p),
            "--set-b",
            "tiebreak=shared",
            "--sprt",
            "0.01",
            "--max-games",
            "10000",
            "--out",
            str(tmp_path / "c"),
            "--json",
        ],
    )
    assert r.exit_code == 0, r.output
    sp = json.loads(r.stdout)["sprt"]
    assert "H1: diff = +1 point (one-sided)" in sp["hypotheses"]
    assert re.search(r"B - A = [+-]\d+\.\d\d \[[+-]\d+\.\d\d, [+-]\d+\.\d\d\] points", sp["message"]), sp["message"]
    assert "+0.01" not in sp["message"] + sp["hypotheses"]


@pytest.mark.kernel
def test_sprt_on_identical_games_stops_at_once_saying_why(tmp_path):
    same = tmp_path / "same.toml"
    same.write_text(BASE.read_text().replace('name = "test-moor-2p"', 'name = "same"'))
    r = cli.invoke(app, ["compare", str(BASE), str(same), "--sprt", "0.01", "--json", "--out", str(tmp_path / "c")])
    assert r.exit_code == 0, r.output
    res = json.loads(r.stdout)
    from sim.stats.compare import MIN_GAMES

    assert res["games"] == MIN_GAMES and res["sprt"]["state"] == "zero_variance" and res["stop"]["rule"] == "sprt"
    assert "never stop" in res["stop"]["message"] and "identical games" in res["stop"]["message"]


@pytest.mark.kernel
def test_a_seat_whose_strategy_b_changed_is_labelled_with_both(tmp_path):
    """--set-b seats.0.strategy=runner: the table, the verdict and the forest plot said 'seat 0 (weighted) wins' of
    a seat that plays runner in B. Such a seat names both strategies; a seat B kept is labelled as before."""
    r = invoke(BASE, "--set-b", "seats.0.strategy=runner", "--games", 40, "--json", "--out", tmp_path / "c")
    assert r.exit_code == 0, r.output
    rows = {m["name"]: m["label"] for m in json.loads(r.stdout)["metrics"]}
    assert rows["win.seat0"] == "seat 0 (A weighted, B runner) wins"
    assert rows["win.seat1"] == "seat 1 (weighted) wins"
    md = (tmp_path / "c" / "compare.md").read_text()
    html = (tmp_path / "c" / "compare.html").read_text()
    assert "Seat 0 (A weighted, B runner) wins" in md and "seat 0 (weighted)" not in md.lower()
    assert "seat 0 (A weighted, B runner) wins" in html and "seat 0 (weighted)" not in html


@pytest.mark.kernel
@pytest.mark.parametrize(
    "args,head",
    [
        (["--set-b", "track_len=abc"], "--set-b track_len=abc: params.track_len: expected an integer"),
        (["--set-b", "nosuch=1"], "--set-b nosuch=1: unknown name 'nosuch'"),
        (["--set-b", "seats.0.w_nope=1"], "--set-b seats.0.w_nope=1: seat 0 plays weighted"),
        (["--set-b", "track_len"], "--set-b track_len: expected NAME=VALUE (e.g. --set-b ghost_cards.shuffle=2"),
        (["--set-b", "track_len=[1"], "--set-b track_len=[1: not a TOML value"),
        (["--set-b", "players=3"], "--set-b players=3: "),
        (["--set-b", "games=5", "--games", "10"], "--set-b games: given twice (--games 10, --set-b games=5)"),
        (["--set-a", "track_len=abc", "--set-b", "tiebreak=shared"], "--set-a track_len=abc: params.track_len"),
        (["--set", "track_len=abc", "--set-b", "tiebreak=shared"], "--set track_len=abc: params.track_len"),
    ],
)
def test_an_override_error_names_the_option_it_came_from(args, head, tmp_path):
    """A bad --set-b value was said as '--set track_len=abc: ...', an option the user had not typed (and --set means
    both scenarios); each error names its own option, also in the fix it suggests."""
    r = invoke(BASE, *args, "--out", tmp_path / "c")
    line = one_error_line(r)
    assert r.exit_code == EXIT_USAGE and line.startswith(f"error: {head}"), line
    if "players=3" in args:  # the fix it suggests, with the option typed
        assert "give it one with --set-b seats.2.strategy=NAME" in line and "--set " not in line


@pytest.mark.kernel
def test_too_few_games_are_not_judged_a_real_difference(tmp_path):
    """2 paired games whose game-length differences are all +1 round (zero variance) used to read 'a real difference
    (p < 1e-9)'; below sim run's MIN_GAMES_FOR_TESTS nothing is tested and the verdict says so, on every page."""
    from sim.stats import metrics

    r = _invoke("compare", MOOR4, "--set-b", "track_len=32", "--games", 2, "--json", "--out", tmp_path / "c")
    assert r.exit_code == 0, r.output
    res = json.loads(r.stdout)
    rows = {m["name"]: m for m in res["metrics"]}
    rounds = rows["length.rounds"]
    assert rounds["diff"] != 0 and rounds["diff_ci95"][0] == rounds["diff_ci95"][1]  # the degenerate sample
    assert res["significant"] == [] and res["too_few_games"] and res["min_games_for_tests"] == 30
    assert rounds["too_few_games"] and rounds["p"] is None and not rounds["significant"]
    assert all(m["identical"] or m["too_few_games"] for m in res["metrics"])
    md = (tmp_path / "c" / "compare.md").read_text()
    verdict = md.split("## Verdict")[1].split("##")[0]
    assert "real difference" not in verdict and "p < 1e-9" not in md
    first = verdict.strip().splitlines()[0]
    assert first.startswith("- Only 2 paired games: too few for the intervals and tests below to mean anything")
    assert f"at least {metrics.MIN_GAMES_FOR_TESTS}" in first and "cannot tell whether A and B differ" in first
    assert "Game length (rounds)" in verdict and "too few games to judge" in verdict
    assert "Not tested: too few games" in md and "| too few games |" in md
    html = (tmp_path / "c" / "compare.html").read_text()
    assert "Only 2 paired games" in html and "a real difference" not in html
    # from 30 paired games on, the measures are tested again
    r = _invoke("compare", MOOR4, "--set-b", "track_len=32", "--games", 30, "--json", "--out", tmp_path / "d")
    res = json.loads(r.stdout)
    assert not res["too_few_games"] and all(m["p"] is not None or m["identical"] for m in res["metrics"])


@pytest.mark.kernel
def test_too_few_identical_games_are_not_judged_the_same_either(tmp_path):
    """`--set-b tiebreak=shared --games 2`: every paired game happened to give the same value, and compare said
    'identical' with no warning, though at 50,000 games shared wins differ by +9 points. Below MIN_GAMES_FOR_TESTS
    sameness is not judged either: the warning opens the verdict and each such measure says too few games."""
    r = _invoke("compare", MOOR4, "--set-b", "tiebreak=shared", "--games", 2, "--json", "--out", tmp_path / "c")
    assert r.exit_code == 0, r.output
    res = json.loads(r.stdout)
    assert res["too_few_games"] and all(m["too_few_games"] for m in res["metrics"])
    assert any(m["identical"] for m in res["metrics"])
    md = (tmp_path / "c" / "compare.md").read_text()
    verdict = md.split("## Verdict")[1].split("##")[0]
    assert verdict.strip().splitlines()[0].startswith("- Only 2 paired games: too few")
    assert "every paired game gave the same value, too few games to judge (2 paired games)" in md
    assert "Not tested: too few games" in md


@pytest.mark.kernel
def test_head_haunter_score_is_said_in_hauntings_the_hunters_in_jewels(tmp_path):
    """Seat 0 of a Head Haunter game is the haunter: its score counts hauntings, not jewels (catalogue role_units)."""
    from sim.model import catalogue

    hh = SCEN / "head_haunter-4p.toml"
    r = _invoke("compare", hh, "--set-b", "seats.1.strategy=runners", "--games", 40, "--json", "--out", tmp_path / "c")
    assert r.exit_code == 0, r.output
    rows = {m["name"]: m for m in json.loads(r.stdout)["metrics"]}
    assert rows["score.seat0"]["unit"] == "hauntings"
    assert {rows[f"score.seat{i}"]["unit"] for i in (1, 2, 3)} == {"jewels"}
    md = (tmp_path / "c" / "compare.md").read_text()
    assert "| seat 0's score" in md and "hauntings" in md.split("| seat 0's score")[1].split("\n")[0]
    view = catalogue.View("treasure_hunters", "head_haunter", ["haunter_weighted"] + ["weighted"] * 3, True)
    assert (view.unit("score.seat0"), view.unit("score.seat1")) == ("hauntings", "jewels")


@pytest.mark.kernel
def test_margin_sets_what_counts_as_unchanged(tmp_path):
    """--margin MEASURE=VALUE (percentage points for a rate) moves a measure between the verdicts: the same games
    read 'unchanged' at a wide margin and not at a narrow one; the margin is recorded in compare.json."""
    wide = invoke(
        BASE,
        BASE,
        "--games",
        3000,
        "--out",
        tmp_path / "w",
        "--set-b",
        "seats.1.strategy=random",
        "--margin",
        "first_player_advantage=40",
    )
    assert wide.exit_code == 0, wide.output
    res = json.loads((tmp_path / "w" / "compare.json").read_text())
    row = next(m for m in res["metrics"] if m["name"] == "first_player.win")
    assert row["margin"] == 0.4 and row["verdict"] == "unchanged" and res["margins"] == {"first_player.win": 40.0}
    narrow = invoke(
        BASE,
        BASE,
        "--games",
        3000,
        "--out",
        tmp_path / "n",
        "--set-b",
        "seats.1.strategy=random",
        "--margin",
        "first_player.win=0.01",
    )
    res = json.loads((tmp_path / "n" / "compare.json").read_text())
    row = next(m for m in res["metrics"] if m["name"] == "first_player.win")
    assert narrow.exit_code == 0 and row["verdict"] != "unchanged"


@pytest.mark.kernel
@pytest.mark.parametrize(
    "margin,message",
    [
        ("first_player_advantage", "--margin: 'first_player_advantage': expected KEY=VALUE"),
        (
            "first_player_advantage=-1",
            "--margin first_player_advantage: -1 is not a margin; allowed: a positive, finite number",
        ),
        ("nothing=1", "--margin: 'nothing' is not a compared measure; allowed: "),
    ],
)
def test_a_bad_margin_is_one_line_naming_it(tmp_path, margin, message):
    r = invoke(BASE, GHOSTS, "--games", 100, "--out", tmp_path / "c", "--margin", margin)
    assert r.exit_code != 0
    assert message in one_error_line(r)
    assert not (tmp_path / "c" / "compare.json").exists()


# --- the seat spread (sim.stats.spread_compare): a paired bootstrap over the games ----------------------------


@pytest.mark.kernel
def test_a_weaker_seat_changes_the_seat_spread_and_the_pages_show_it(tmp_path):
    """Seat 1 playing at random against a weighted player: the spread between the seats grows far past its
    1-point margin, the first-player advantage is said beside the start player's win rate."""
    r = invoke(BASE, BASE, "--games", 3000, "--set-b", "seats.1.strategy=random", "--out", tmp_path / "c")
    assert r.exit_code == 0, r.output
    res = json.loads((tmp_path / "c" / "compare.json").read_text())
    rows = {m["name"]: m for m in res["metrics"]}
    sp = rows["seat_spread"]
    assert sp["verdict"] == "changed" and sp["diff"] > 0.2 and sp["diff_ci95"][0] > 0.01
    assert sp["test"].startswith("paired bootstrap") and sp["p_holm"] is not None and sp["significant"]
    # its estimate is the seats' win rates read off the same games
    a = abs(rows["win.seat0"]["a"] - rows["win.seat1"]["a"])
    b = abs(rows["win.seat0"]["b"] - rows["win.seat1"]["b"])
    assert sp["a"] == pytest.approx(a) and sp["b"] == pytest.approx(b)
    md = (tmp_path / "c" / "compare.md").read_text()
    assert "| seat spread (highest seat win rate minus the lowest) |" in md
    assert "- Seat spread (highest seat win rate minus the lowest) " in md and "paired bootstrap over the games" in md
    assert "The start player wins" in md and "(first-player advantage " in md
    html = (tmp_path / "c" / "compare.html").read_text()
    assert "seat spread (highest seat win rate minus the lowest)" in html


@pytest.mark.kernel
def test_the_same_scenario_against_itself_has_an_unchanged_seat_spread(tmp_path):
    r = invoke(BASE, BASE, "--games", 3000, "--margin", "seat_spread=1", "--json", "--out", tmp_path / "c")
    assert r.exit_code == 0, r.output
    res = json.loads(r.stdout)
    sp = next(m for m in res["metrics"] if m["name"] == "seat_spread")
    assert sp["verdict"] == "unchanged" and sp["margin"] == 0.01 and res["margins"]["seat_spread"] == 1.0


@pytest.mark.kernel
def test_the_seat_spread_is_not_compared_between_different_player_counts(tmp_path):
    b = ("--set-b", "players=3", "--set-b", "seats.2.strategy=weighted")
    r = invoke(BASE, BASE, "--games", 200, *b, "--json", "--out", tmp_path / "c")
    assert r.exit_code == 0, r.output
    res = json.loads(r.stdout)
    assert "seat_spread" not in {m["name"] for m in res["metrics"]}
    assert "players" in res["not_compared"]["different_meaning"]["seat_spread"]


@pytest.mark.kernel
@pytest.mark.parametrize(
    "a,margin,message",
    [
        (BASE, "seat_spread=abc", "--margin seat_spread: 'abc' is not a number; allowed: a positive number"),
        (BASE, "seat_spread=0", "--margin seat_spread: 0 is not a margin; allowed: a positive, finite number"),
        (BASE, "seat_sprad=1", "--margin: 'seat_sprad' is not a compared measure; did you mean 'seat_spread'?"),
        (SCEN / "basic-4p.toml", "seat_spread=1", "--margin: 'seat_spread' is not a compared measure; allowed: "),
    ],
)
def test_a_bad_seat_spread_margin_is_one_line(tmp_path, a, margin, message):
    r = invoke(a, a, "--games", 100, "--out", tmp_path / "c", "--margin", margin)
    assert r.exit_code != 0
    assert message in one_error_line(r)
    assert not (tmp_path / "c" / "compare.json").exists()


@pytest.mark.kernel
def test_the_count_of_measures_compared_adds_up_with_the_changed_ones():
    """ "Of the 21 measures compared, 14 unchanged within their margins, 1 cannot be told yet" left out the 6 that
    changed (a fresh user): the counts add up to the measures compared."""
    from sim.pages import verdicts

    base = dict(HUNTERS_WIN, p=0.5, n=8000)
    rows = [
        dict(base, name="team.hunter", verdict="changed", p_holm=1e-10, significant=True, diff=0.2),
        dict(base, name="length.turns", label="game length", verdict="unchanged", p_holm=0.4),
        dict(base, name="team.house", label="house wins", verdict="cannot_tell", p_holm=0.4, more_games=1000),
    ]
    res = {
        "a": {
            "game": "treasure_hunters",
            "scenario": {"params": {"mode": "basic"}, "seats": [{"strategy": "weighted"}] * 4},
        },
        "metrics": rows,
    }
    last = verdicts.compare_sentences(res)[-1]
    assert last.startswith(
        "Of the 3 measures compared, 1 changed, 1 unchanged within their margins, 1 cannot be told yet"
    )
