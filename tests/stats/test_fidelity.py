"""Fidelity of the proxy (sim.stats.fidelity): the verdicts on hand-made compare rows (agrees / differs / cannot tell),
the figures taken from compare's rows, the report lines, and `sim fidelity`'s one-line refusals of bad input."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from sim.cli.main import EXIT_USAGE, app
from sim.pages.fidelity_page import render_markdown
from sim.stats import fidelity as F
from sim.stats.fidelity import report_lines
from tests.sim._cli import one_error_line


def _fig(key: str, d: float, se: float, n: int = 2000, value: float = 0.05, p: float | None = None) -> F.Figure:
    """A figure whose difference is ``d`` with standard error ``se`` (p from the normal test unless given)."""
    from scipy import stats

    p = float(2 * stats.norm.sf(abs(d) / se)) if p is None else p
    a = {"value": value, "ci95": [value - 0.02, value + 0.02], "n": n}
    b = {"value": value + d, "ci95": [value + d - 0.02, value + d + 0.02], "n": n}
    return F.Figure(key, a, b, d, se, n, True, p)


def test_agrees_only_where_the_equivalence_test_says_so():
    # +0.2 points +/- 0.4 (se): the 90% interval [-0.46, +0.86] lies inside +/-2 points
    j = F.judge([_fig("first_player_advantage", 0.002, 0.004)])["first_player_advantage"]
    assert j.kind == F.AGREES and j.margin == pytest.approx(0.02)
    assert F.verdict_words("first_player_advantage", j) == "agrees within +/-2.00 points"
    # the same estimate with a wide interval: no verdict
    j = F.judge([_fig("first_player_advantage", 0.002, 0.02)])["first_player_advantage"]
    assert j.kind == F.CANNOT_TELL and j.more_games is not None and j.more_games > 2000
    assert F.verdict_words("first_player_advantage", j).startswith("cannot tell yet (2,000 games; about ")


def test_differs_where_the_difference_is_significant():
    j = F.judge([_fig("first_player_advantage", 0.05, 0.01)])["first_player_advantage"]
    assert j.kind == F.DIFFERS and j.ci95[0] == pytest.approx(0.05 - 1.96 * 0.01, abs=1e-4)
    assert F.verdict_words("first_player_advantage", j) == "differs: +5.00 points [+3.04, +6.96]"
    # significant but inside the margin, and confined there: agreement wins (the figure is within M)
    assert F.judge([_fig("first_player_advantage", 0.004, 0.001)])["first_player_advantage"].kind == F.AGREES


def test_holm_over_the_figures_can_withhold_a_verdict():
    # p = 0.03 alone is significant; beside a second figure of p = 0.04 Holm adjusts both to 0.06
    alone = F.judge([_fig("first_player_advantage", 0.03, 0.05, p=0.03)])
    assert alone["first_player_advantage"].kind == F.DIFFERS
    two = F.judge([_fig("first_player_advantage", 0.03, 0.05, p=0.03), _fig("seat_spread", 0.03, 0.05, p=0.04)])
    assert {j.kind for j in two.values()} == {F.CANNOT_TELL}
    assert two["first_player_advantage"].p_holm == pytest.approx(0.06)


def test_identical_pairs_agree_as_compare_judges_them():
    # every paired game the same outcome: compare leaves p None (no difference to find); the figure is tested, and
    # a zero spread of the differences confines the difference to 0, inside any margin
    row = _row("team.hunter", 0.3, 0.3, 0.0, 0.0, p=None)
    figs = F.figures([row, _row("length.turns", 90, 90, 0.0, 0.0, p=None)], 4, ["hunter"])
    assert figs[0].p == 1.0
    assert {j.kind for j in F.judge(figs).values()} == {F.AGREES}
    few = F.figures([{**row, "too_few_games": True, "n": 10}], 4, ["hunter"])
    assert few[0].p is None and F.judge(few)["team_win_rate.hunter"].kind == F.CANNOT_TELL


def test_too_few_games_is_cannot_tell_and_length_margin_is_a_share():
    few = F.judge([_fig("first_player_advantage", 0.0, 0.001, n=10)])["first_player_advantage"]
    assert few.kind == F.CANNOT_TELL and few.p_holm is None
    # a fresh user read "+0.1 turns [-0.3, +0.4] against +/-5.5: cannot tell yet (20 games)" without the reason
    assert (
        F.verdict_words("first_player_advantage", few)
        == "cannot tell yet (10 games; a verdict needs at least 30 games)"
    )
    j = F.judge([_fig("length_turns", 0.5, 0.2, value=100.0)])["length_turns"]
    assert j.margin == pytest.approx(5.0) and j.kind == F.AGREES
    assert F.judge([_fig("length_turns", 0.5, 0.2, value=100.0)], {"length_turns": 0.4})["length_turns"].margin == 0.4
    assert F.judge([_fig("first_player_advantage", 0.0, 0.01)], {"first_player_advantage": 3})[
        "first_player_advantage"
    ].margin == pytest.approx(0.03)


def _row(name: str, a: float, b: float, diff: float, se: float, n: int = 1000, p: float | None = 0.5) -> dict:
    return {
        "name": name,
        "n": n,
        "a": a,
        "a_ci95": [a - 0.01, a + 0.01],
        "b": b,
        "b_ci95": [b - 0.01, b + 0.01],
        "diff": diff,
        "se_paired": se,
        "p": p,
    }


def _spread_row(diff: float, se: float, ci: list[float], p_equiv: float, margin: float = 0.02) -> dict:
    """compare's seat spread row (`sim.stats.compare._spread_row`, judged at ``margin``): the paired bootstrap's."""
    return {
        **_row("seat_spread", 0.05, 0.05 + diff, diff, se, p=0.5),
        "diff_ci95": ci,
        "identical": False,
        "margin": margin,
        "p_equiv": p_equiv,
    }


def test_figures_from_compare_rows():
    rows = [_row(f"win.seat{s}", 0.25, 0.25, 0.0, 0.01) for s in range(4)]
    rows[0] = _row("win.seat0", 0.30, 0.26, -0.04, 0.01)
    rows += [_row("first_player.win", 0.30, 0.26, -0.04, 0.01), _row("length.turns", 110.0, 112.0, 2.0, 0.5)]
    rows.insert(5, _spread_row(-0.04, 0.012, [-0.07, -0.02], 0.9))
    figs = {f.key: f for f in F.figures(rows, 4, [])}
    assert list(figs) == ["first_player_advantage", "seat_spread", "length_turns"]
    fpa = figs["first_player_advantage"]
    assert fpa.learned["value"] == pytest.approx(0.05) and fpa.search["value"] == pytest.approx(0.01) and fpa.paired
    team = F.figures([_row("team.hunter", 0.4, 0.45, 0.05, 0.01), _row("length.turns", 90, 91, 1, 0.5)], 4, ["hunter"])
    assert [f.key for f in team] == ["team_win_rate.hunter", "length_turns"]


def test_the_seat_spread_is_compares_paired_bootstrap_not_two_independent_tables():
    """The seat spread's difference, standard error, percentile interval and equivalence test are compare's paired
    bootstrap's (`sim.stats.spread_compare`), not the two tables' spreads as independent samples (whose standard
    error the shared dice make too wide)."""
    rows = [_row(f"win.seat{s}", 0.25, 0.25, 0.0, 0.01) for s in range(4)]
    rows += [_spread_row(0.004, 0.006, [-0.009, 0.013], 0.003)]
    (sp,) = [f for f in F.figures(rows, 4, []) if f.key == "seat_spread"]
    assert sp.paired and (sp.d, sp.se, sp.ci95) == (0.004, 0.006, (-0.009, 0.013))
    j = F.judge([sp])["seat_spread"]
    assert j.ci95 == (-0.009, 0.013)  # the percentile interval, not d +/- 1.96 se
    assert j.kind == F.AGREES and j.p_equiv_holm == pytest.approx(0.003)  # the bootstrap's TOST at 2 points
    # another margin than the bootstrap's: the normal TOST from its standard error
    other = F.judge([sp], {"seat_spread": 1.0})["seat_spread"]
    assert other.p_equiv_holm == pytest.approx(F.V.tost_p(0.004, 0.006, 0.01))
    # without compare's row (no joint table of winners) no seat spread is made up from the seats' rates
    assert "seat_spread" not in {f.key for f in F.figures(rows[:4], 4, [])}


def test_the_fidelity_page_says_how_the_seat_spread_was_judged_and_reads_the_shipped_files_as_made():
    from sim.model.fidelity import shipped

    doc = _doc()
    doc["figures"]["seat_spread"] |= {"paired": True, "method": F.SPREAD_METHODS[True]}
    assert "Seat spread: the paired bootstrap of sim compare" in render_markdown(doc)
    del doc["figures"]["seat_spread"]["method"]
    doc["figures"]["seat_spread"]["paired"] = False  # a file made before: two independent tables
    assert "Seat spread: the two tables' spreads as independent samples." in render_markdown(doc)
    files = [p for g in ("moor", "turnwall", "galleon", "treasure_hunters") for p in shipped(g)]
    assert len(files) >= 6
    for p in files:
        assert render_markdown(json.loads(p.read_text())) == p.with_suffix(".md").read_text(), p.name


def _doc() -> dict:
    return {
        "scenario": "moor-4p",
        "search": "search@64",
        "budget": 64,
        "games": 2000,
        "seed": 1,
        "command": "sim fidelity scenarios/moor/4p.toml --games 2000 --budget 64 --seed 1 --install",
        "rules_version": 1,
        "policies": {
            "player": {
                "strategy": "learned",
                "digest": "ab",
                "feature_set": "x",
                "feature_version": 1,
                "rules_version": 1,
            }
        },
        "created_utc": "2026-12-06T00:00:00+00:00",
        "git_commit": "abc",
        "wall_s": 10.0,
        "figures": {
            "first_player_advantage": {
                "words": "first-player advantage",
                "learned": {"value": 0.01, "ci95": [0.0, 0.02]},
                "search": {"value": 0.012, "ci95": [0.0, 0.024]},
                "kind": "agrees",
                "verdict": "agrees within +/-2.00 points",
                "estimate": 0.002,
                "ci95": [-0.006, 0.01],
                "margin": 0.02,
            },
            "length_turns": {
                "words": "game length (mean turns)",
                "learned": {"value": 100.0, "ci95": [99.0, 101.0]},
                "search": {"value": 112.0, "ci95": [111.0, 113.0]},
                "kind": "differs",
                "verdict": "differs: +12.0 turns [+8.0, +16.0]",
                "estimate": 12.0,
                "ci95": [8.0, 16.0],
                "margin": 5.0,
            },
            "seat_spread": {
                "words": "seat spread",
                "learned": {"value": 0.03, "ci95": [0.0, 0.05]},
                "search": {"value": 0.035, "ci95": [0.0, 0.06]},
                "kind": "cannot_tell",
                "verdict": "cannot tell yet (2,000 games; about 9,100 in all would decide)",
                "estimate": 0.005,
                "ci95": [-0.021, 0.031],
                "margin": 0.02,
                "more_games": 9057,
            },
        },
    }


def test_report_lines_name_each_figure_and_its_verdict():
    lines = report_lines(_doc())
    assert lines == [
        "Learned players tell the same story as search@64 on first-player advantage: search minus learned +0.20 "
        "points [-0.60, +1.00], within ±2.00 points (2,000 games each).",
        "Learned players differ from search@64 on game length (mean turns): search minus learned +12.0 turns [+8.0, "
        "+16.0] (2,000 games each).",
        "Cannot tell yet whether learned players tell search@64's story on seat spread: search minus learned +0.50 "
        "points [-2.10, +3.10] on 2,000 games each; about 9,100 games each would decide.",
    ]
    # a file or summary made before the games that would decide were kept: the line without them
    old = {k: {f: v for f, v in x.items() if f != "more_games"} for k, x in _doc()["figures"].items()}
    assert report_lines({**_doc(), "figures": old})[2].endswith("on 2,000 games each.")
    md = render_markdown(_doc())
    assert "sim fidelity scenarios/moor/4p.toml" in md and "| game length (mean turns) | 100.0 turns" in md


def test_the_fidelity_page_says_how_many_games_each_verdict_counts_where_some_had_no_winner():
    doc = _doc()
    assert "Games each verdict counts" not in render_markdown(doc)  # no count given: every game counted
    for k, n in (("first_player_advantage", 1_960), ("seat_spread", 1_960), ("length_turns", 2_000)):
        doc["figures"][k]["learned"]["n"] = n
    md = render_markdown(doc)
    assert (
        "- Games each verdict counts: first-player advantage 1,960, game length (mean turns) 2,000, seat spread "
        "1,960 of the 2,000" in md
    )
    assert report_lines(doc)[0].endswith("(1,960 games each).")
    assert report_lines(doc)[1].endswith("(2,000 games each).")


def test_the_at_skill_section_quotes_a_current_file_and_says_why_not_otherwise():
    from sim.pages import skill_page

    d = _doc()
    block = {"status": "current", "file": "kernels/moor/policies/fidelity-moor-4p.json", **d}
    s = {"at_skill": {"status": "played", "fidelity": block}}
    lines = skill_page.fidelity_lines(s)
    assert len(lines) == 3 and lines[0].startswith("Learned players tell the same story as search@64")
    assert not any("kernels/" in x or ".json" in x for x in lines)  # no repository path: the caption says whence
    s["at_skill"]["fidelity"] = {"status": "stale", "why": "made with the player policy ab, the game now ships cd"}
    assert skill_page.fidelity_lines(s) == [
        "Fidelity to search: made with the player policy ab, the game now ships cd."
    ]
    assert skill_page.fidelity_lines({"at_skill": {"status": "not played"}}) == []


cli = CliRunner()


@pytest.mark.parametrize(
    "args, said",
    [
        (["--games", "0"], "--games: 0 is out of range; allowed 1..10,000,000,000"),
        (
            ["--games", "99999999999999999999"],
            "--games: 99999999999999999999 is out of range; allowed 1..10,000,000,000",
        ),
        (["--budget", "0"], "--budget: 0 is out of range; allowed 1..65,536 rollouts a decision"),
        (["--budget", "70000"], "--budget: 70000 is out of range; allowed 1..65,536"),
        (["--threads", "0"], "--threads: 0 is out of range; allowed >= 1"),
        (["--margin", "foo=1"], "--margin: 'foo' is not a figure"),
        (
            ["--margin", "length_turns=-1"],
            "--margin length_turns: -1 is not a margin; allowed: a positive, finite number",
        ),
        (["--games", "abc"], "--games: 'abc' is not a whole number"),
        (  # a figure of another game's table was dropped silently (a fresh user)
            ["--margin", "team_win_rate.hunter=1"],
            "--margin: moor-4p judges no figure 'team_win_rate.hunter'; allowed: first_player_advantage, seat_spread, "
            "length_turns",
        ),
        (
            ["--margin", "first_player_advantage=1e9"],
            "--margin first_player_advantage: 1e+09 points is more than a rate can differ; allowed: up to 100 points",
        ),
        (  # a fresh user's: a million turns went through, a traceback for the seed (2026-12-07)
            ["--margin", "length_turns=1e6"],
            "--margin length_turns: 1e+06 turns is more than a game of moor-4p can last; allowed: up to its max_turns",
        ),
        (["--seed", "-1"], "--seed: -1 is out of range; allowed 0..2^64-1"),
        (["--seed", str(2**64)], "--seed: 18446744073709551616 is out of range; allowed 0..2^64-1"),
    ],
)
def test_cli_refuses_bad_input_in_one_line(args, said, tmp_path):
    r = cli.invoke(app, ["fidelity", "scenarios/moor/4p.toml", *args, "--out", str(tmp_path / "f")])
    assert r.exit_code == EXIT_USAGE
    assert said in one_error_line(r)
    assert not (tmp_path / "f").exists()


def test_a_stopped_fidelity_run_leaves_no_folder_it_made(tmp_path, monkeypatch):
    """A fresh user's Ctrl-C left an empty --out folder under "nothing half-written left" (2026-12-07)."""
    from sim.api import fidelity as api

    def stop(*_a, **_k):
        raise KeyboardInterrupt

    monkeypatch.setattr(api, "fidelity", stop)
    r = cli.invoke(app, ["fidelity", "scenarios/moor/4p.toml", "--games", "40", "--out", str(tmp_path / "f")])
    assert r.exit_code == 130 and not (tmp_path / "f").exists()
    (tmp_path / "mine").mkdir()  # a folder that was there before is kept
    r = cli.invoke(app, ["fidelity", "scenarios/moor/4p.toml", "--games", "40", "--out", str(tmp_path / "mine")])
    assert r.exit_code == 130 and (tmp_path / "mine").is_dir()


@pytest.mark.parametrize("where", ["a file", "under a file"])
def test_cli_refuses_an_out_it_cannot_write_before_playing(where, tmp_path):
    """A fresh user's --out of an existing file was refused only after every game was played (16 minutes at the
    defaults): now in one line naming --out, before the first game."""
    blocker = tmp_path / "afile"
    blocker.write_text("mine")
    out = blocker if where == "a file" else blocker / "sub"
    r = cli.invoke(app, ["fidelity", "scenarios/moor/4p.toml", "--games", "10", "--out", str(out)])
    assert r.exit_code != 0
    line = one_error_line(r)
    assert line.startswith("error: --out: ") and "afile is a file, not a folder" in line, line
    assert "games in" not in r.output and blocker.read_text() == "mine"


def test_the_recorded_command_is_the_runs_own():
    """A fresh user's `sim fidelity ... --out F` recorded `--install` it was not given (copied, it would overwrite the
    file beside the shipped policies) and no `--out`."""
    from sim.api.fidelity import command_line

    assert command_line("scenarios/moor/4p.toml", 100, 8, 1, [], "/tmp/f", install=False) == (
        "sim fidelity scenarios/moor/4p.toml --games 100 --budget 8 --seed 1 --out /tmp/f"
    )
    assert command_line("scenarios/moor/4p.toml", 2000, 64, 1, ["seat_spread=3"]).endswith(
        "--seed 1 --margin seat_spread=3 --install"
    )


def test_a_figure_at_its_margin_says_no_practical_number_of_games_settles_it():
    """A fidelity figure whose estimate sits at its margin needs more games than any run plays ("more than a
    trillion games would decide", a fresh user): it now says why, as compare's and check's verdicts do."""
    j = F.Judged(F.CANNOT_TELL, 0.02, (0.0, 0.04), 0.02, 0.5, 0.5, 300, 10**13)
    said = F.verdict_words("seat_spread", j)
    assert said.startswith("cannot tell yet (300 games; more than a trillion in all would decide; the figure sits ")
    assert "where no practical number of games settles which side" in said
    near = F.Judged(F.CANNOT_TELL, 0.002, (-0.02, 0.024), 0.02, 0.5, 0.5, 2000, 9100)
    assert (
        F.verdict_words("first_player_advantage", near)
        == "cannot tell yet (2,000 games; about 9,100 in all would decide)"
    )


def test_a_search_that_played_every_game_as_the_learned_table_is_said_so():
    """At budget 2 Moor's search (halving, deviate 1) never leaves the learned move: every figure "agrees" with a
    difference of exactly 0 (a fresh user). The file records it (`same_games`) and its page and the terminal say
    that 'agrees' then says nothing; a difference in any game's length or winner is no such table."""
    from sim.api.fidelity import same_games
    from sim.pages.fidelity_page import same_games_lines

    rows = [{"name": n, "identical": True} for n in ("length.turns", "win.seat0", "win.seat1", "first_player.win")]
    assert same_games(rows)
    assert not same_games([*rows[:-1], {"name": "win.seat2", "identical": False}])
    assert not same_games([{"name": "first_player.win", "identical": True}])  # nothing that tells the games apart
    said = same_games_lines({"same_games": True, "search": "search@2", "games": 300})
    assert said and "played each of the 300 games as the learned table did" in said[0]
    assert same_games_lines({"search": "search@64", "games": 1000}) == []  # a file made before the record
