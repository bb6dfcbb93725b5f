"""The shared pieces of English every page and message uses (sim.model.words)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from sim.model.words import with_sign


def test_a_difference_that_rounds_to_zero_has_no_sign():
    """A compare interval read "[-0.0, +0.2]": a value that rounds to zero is written "0.0", others keep their sign."""
    assert with_sign(-0.0004, 1) == "0.0"
    assert with_sign(0.04, 1) == "0.0"
    assert with_sign(0.0, 2) == "0.00"
    assert with_sign(-0.06, 1) == "-0.1"
    assert with_sign(0.2, 1) == "+0.2"


@pytest.mark.kernel
def test_a_count_of_one_takes_the_singular_everywhere_a_count_is_said(tmp_path):
    """A replay ended '6 hauntings, 1 ghosts on the board'; 'sim check my.toml' said 'PASS: 1 scenarios checked',
    a one-game compare 'played the requested 1 games', a one-point sweep '1 points x 1 games'. Every count said
    with a noun takes the singular for one (words.count; with thousands separators where the number had them)."""
    import json

    from typer.testing import CliRunner

    from sim.cli.main import app
    from sim.cli.sweep import default_sweep_line, summary_text
    from sim.model.words import count
    from sim.play.progress import Lines
    from sim.stats import check_report as check

    assert count(1, "game", grouped=True) == "1 game" and count(20000, "game", grouped=True) == "20,000 games"
    res = {"tiers": ["exact"], "ok": True, "scenarios": [], "seed": 1}
    res["scenarios"] = [
        {
            "file": "a.toml",
            "baseline": "b.json",
            "findings": [],
            "notes": [],
            "n_tests": 1,
            "exact": {"identical": True, "games": 1},
        }
    ]
    assert check.render(res).splitlines()[-1] == "PASS: 1 scenario checked (exact)"
    assert "(1 game)" in check.render(res)

    base = Path(__file__).resolve().parents[1] / "data" / "moor-2p-small.toml"
    r = CliRunner().invoke(app, ["compare", str(base), str(base), "--games", "1", "--out", str(tmp_path / "c")])
    assert r.exit_code == 0, r.output
    md = (tmp_path / "c" / "compare.md").read_text()
    assert "· 1 game each ·" in md and "played the requested 1 game." in md and "1 games" not in md

    r = CliRunner().invoke(
        app, ["sweep", str(base), "--set", "track_len=24", "--games", "1", "--json", "--out", str(tmp_path / "s")]
    )
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert summary_text(doc).splitlines()[0].startswith("sweep test-moor-2p: 1 point x 1 game (")
    assert default_sweep_line("x", doc, tmp_path, 1).startswith("x: 1 point x 1 game in ")

    buf = io.StringIO()
    lines = Lines(1, "slow", buf, every_s=float("inf"))
    with lines:
        lines._status(lines.clock())
    assert buf.getvalue().startswith("slow: 0% (0 of 1 game;")


def test_a_difference_of_rates_is_in_points_in_every_line_page_and_cell():
    """Percentage points were written "pts", "pp" and "points": one word now (`sim.model.words.POINTS`), after
    the number in sentences and table cells alike."""
    from sim.pages import balance_figures, tune_page, verdicts
    from sim.pages.sweep_words import fmt
    from sim.web import view

    said = [
        fmt("points", 0.008),
        tune_page.fmt_dist("rate", 0.044),
        verdicts.margin_text({"kind": "rate", "margin": 0.01}),
        balance_figures.pts(0.019),
        view.diff(0.0033, "rate"),
        view.interval(-0.0012, 0.0109, "rate", True),
    ]
    assert said == ["+0.80 points", "4.40 points", "1.0 points", "+1.90 points", "+0.33 points",
                    "-0.12 points … +1.09 points"]  # fmt: skip
