"""What a new user hit (rerun round), one test per fix:

1. (tests/sim/test_rerun.py) `sim rerun` could not replay a report once its board file was edited or moved.
2. `sim replay scenarios/moor/4p.toml --game 7` ended "seat 0 4, seat 1 4, ... winner: seat 1": no unit, and no word
   of the tie-break (R17) that decided it; without `--game` it quietly played game 0.
"""
from __future__ import annotations

import re

from pathlib import Path

from typer.testing import CliRunner

from sim.cli.main import app

REPO = Path(__file__).resolve().parents[2]
MOOR4 = str(REPO / "scenarios" / "moor" / "4p.toml")
cli = CliRunner()


# --- 2. sim replay says how a tied game was won, with units; and which game it plays without --game --------------------

def test_replay_of_a_tied_moor_game_names_the_tie_break_and_the_points():
    r = cli.invoke(app, ["replay", MOOR4, "--game", "7"])
    assert r.exit_code == 0, r.output
    tail = r.stdout.strip().splitlines()[-3:]
    assert tail[0].endswith("seat 0 4 points, seat 1 4 points, seat 2 1 point, seat 3 3 points")
    assert tail[1].startswith("tie: seats 0 and 1 have 4 points each; tie-break (R17): most plank tiles")
    assert "still tied, so the tied player latest in turn order wins" in tail[1] and tail[1].endswith("seat 1")
    assert tail[2] == "winner: seat 1 (weighted)"


def test_tie_break_line_r17_most_planks_then_latest_in_turn_order_and_c9_shared():
    from sim.games.moor import tiebreak_lines
    assert tiebreak_lines([5, 3, 4], [0, 0, 0], 0, 0) == []                 # one top score: nothing to settle
    # planks are by turn position: seat 2 started, so seat 2 is position 0 and seat 1 position 2; seat 2 holds more
    line, = tiebreak_lines([2, 6, 6], [2, 0, 1], 2, 0)
    assert line.endswith("most plank tiles wins (seat 2: 2, seat 1: 1): seat 2")
    line, = tiebreak_lines([2, 6, 6], [0, 1, 3], 2, 0)
    assert line.endswith("most plank tiles wins (seat 2: 0, seat 1: 3): seat 1")
    line, = tiebreak_lines([6, 6, 2], [1, 1, 0], 0, 0)
    assert "still tied" in line and line.endswith("(seat 0 started): seat 1")
    line, = tiebreak_lines([6, 6, 6], [0, 0, 0], 1, 1)
    assert line == "tie: seats 1, 2 and 0 have 6 points each; tiebreak = shared (C9): they share the win"


def test_tie_break_line_names_the_winner_of_every_tied_game():
    import numpy as np
    from kernels.moor import play
    from kernels.moor import rules as R
    from sim.games.moor import tiebreak_lines
    from sim.model.overrides import load
    sc = load(MOOR4, ())
    n, prm, ties = sc.players, sc.prm(), 0
    for g in range(60):
        *_, scores, w, status, _, _, st = play.trace_game(np.uint64(sc.seed), np.uint64(0), g, n, prm, sc.sids(),
                                                           sc.sparams(), 200_000, with_state=True)
        planks = [int(st[R.S_HOLD + q * R.N_KINDS + R.K_PLANK]) for q in range(n)]
        lines = tiebreak_lines(scores[:n], planks, g % n, int(prm[R.P_TIEBREAK]))
        if status == 0 and lines:
            ties += 1
            assert w == 1 << int(lines[0].rsplit("seat ", 1)[1]), (g, lines)
    assert ties >= 3


def test_replay_without_game_says_it_plays_game_0():
    r = cli.invoke(app, ["replay", MOOR4])
    assert r.exit_code == 0, r.output
    assert r.stderr.startswith("note: no --game given, so this is game 0")
    assert r.stdout == cli.invoke(app, ["replay", MOOR4, "--game", "0"]).stdout
    assert "no --game" not in cli.invoke(app, ["replay", MOOR4, "--game", "0"]).stderr


# --- 3. a run of too few games says so instead of degenerate intervals; plurals; the Scores plot -----------------------

def test_a_one_game_run_says_too_few_games_and_draws_its_scores(tmp_path):
    out = tmp_path / "rep"
    r = cli.invoke(app, ["run", MOOR4, "--games", "1", "--threads", "1", "--out", str(out)])
    assert r.exit_code == 0, r.output
    one_games = re.compile(r"\b1 games\b")              # not the "611 games/s" of a speed
    assert "moor-4p: 1 game in " in r.stderr and not one_games.search(r.output)
    md = (out / "summary.md").read_text()
    assert "· 1 game ·" in md and "on 1 thread" in md and not one_games.search(md)
    bal = (out / "balance.md").read_text()
    assert "[+100.00, +100.00]" not in bal and "chi-square p" not in bal and not one_games.search(bal)
    assert "Only 1 finished game: too few for the intervals and tests" in bal
    row = next(ln for ln in bal.splitlines() if ln.startswith("| seat balance"))
    assert "none: too few games" in row and "chi-square test of equal seats" in row
    verdict = bal[bal.index("## Verdict"):bal.index("## Balance at a glance")]
    assert "p = " not in verdict and "within chance" not in verdict and "beyond chance" not in verdict
    assert (out / "plots" / "scores.svg").is_file()
    page = (out / "summary.html").read_text()
    assert 'id="scores"' in page and "final score distribution" in page[page.index('id="scores"'):]


def test_enough_games_keep_their_intervals_and_tests():
    from sim.pages import html_report, verdicts
    s = {"scenario": {"game": "moor", "params": {}, "seats": [{"strategy": "weighted"}] * 2, "name": "x"},
         "game": "moor", "games": {"played": 40, "finished": 40, "truncated": 0, "errors": 0, "truncated_rate": 0.0},
         "seats": [{"seat": i, "strategy": "weighted", "win": {"rate": r, "wins": 40 * r, "ci95": [0.3, 0.7]}}
                   for i, r in enumerate((0.6, 0.4))],
         "first_player": {}, "ties": {"tie_rate": 0.0, "shared_games": 0}, "decisiveness": None,
         "length": {k: {"n": 0} for k in ("turns", "rounds")}}
    rows = dict(html_report.balance_items(s))
    assert "chi-square p = " in rows["seat_balance"]["note"] and rows["seat_balance"]["interval"].startswith("[")
    assert not verdicts.run_sentences(s)[0].startswith("Only")
    s["games"].update(played=29, finished=29)
    rows = dict(html_report.balance_items(s))
    assert rows["seat_balance"]["interval"] == "none: too few games"
    assert verdicts.run_sentences(s)[0].startswith("Only 29 finished games: too few")


# --- 4. wording: units once, one number format per column, SPRT in the table's units, one path, the real thread limit,
#        board show on a terminal ----------------------------------------------------------------------------------------

def test_an_interval_of_points_does_not_repeat_the_unit():
    from sim.pages import html_report
    assert html_report.pts(0.019) == "+1.90 pts" and html_report.ci_pts([0.0034, 0.0352]) == "[+0.34, +3.52]"


def test_compare_table_uses_one_number_format_per_column():
    from sim.pages.compare_page import _fmt, _fmt_d
    assert f"[{_fmt_d(-0.3, 'mean')}, {_fmt_d(-0.008042, 'mean')}]" == "[-0.300, -0.008]"
    assert _fmt(4.26, "mean") == "4.260" and _fmt_d(0.3112, "mean") == "+0.311"
    assert _fmt_d(0.0048, "rate") == "+0.48"


def test_sprt_of_a_rate_speaks_in_percentage_points_as_the_table(tmp_path):
    import json
    import re
    p = REPO / "tests" / "data" / "moor-2p-small.toml"
    r = cli.invoke(app, ["compare", str(p), "--set-b", "tiebreak=shared", "--sprt", "0.01", "--max-games", "10000",
                         "--out", str(tmp_path / "c"), "--json"])
    assert r.exit_code == 0, r.output
    sp = json.loads(r.stdout)["sprt"]
    assert "H1: diff = +1 point (one-sided)" in sp["hypotheses"]
    assert re.search(r"B - A = [+-]\d+\.\d\d \[[+-]\d+\.\d\d, [+-]\d+\.\d\d\] points", sp["message"]), sp["message"]
    assert "+0.01" not in sp["message"] + sp["hypotheses"]


def test_duplicate_toml_key_names_the_file_once(tmp_path):
    p = tmp_path / "dup.toml"
    p.write_text('[scenario]\ngame = "moor"\n[params]\ntrack_len = 30\ntrack_len = 31\n')
    for cmd in (["run", str(p)], ["sweep", str(p), "--set", "track_len=20,30"]):
        r = cli.invoke(app, cmd)
        assert r.exit_code == 3, r.output
        assert r.stderr.count(str(p)) == 1 and "not valid TOML" in r.stderr, r.stderr


def test_threads_warning_names_numba_num_threads_when_it_is_the_limit(monkeypatch):
    import numba
    from sim.play import runner
    monkeypatch.setattr(numba.config, "NUMBA_DEFAULT_NUM_THREADS", 2)
    monkeypatch.setattr(numba.config, "NUMBA_NUM_THREADS", 1)
    monkeypatch.setenv("NUMBA_NUM_THREADS", "1")
    said = []
    assert runner.resolve_threads(64, said.append) == 1
    assert said == ["warning: --threads 64: NUMBA_NUM_THREADS=1 allows 1 thread (the machine has 2 cores; unset it "
                    "or raise it to use more); using 1 thread"]
    monkeypatch.delenv("NUMBA_NUM_THREADS")
    monkeypatch.setattr(numba.config, "NUMBA_NUM_THREADS", 2)
    said.clear()
    assert runner.resolve_threads(64, said.append) == 2 and said == ["warning: --threads 64: only 2 cores available; using 2 threads"]


def test_board_show_on_a_terminal_writes_a_file_and_says_where(tmp_path, monkeypatch):
    from sim.cli import main as C
    board = REPO / "scenarios" / "galleon" / "boards" / "default.toml"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(C, "stdout_is_terminal", lambda: True)
    r = cli.invoke(app, ["board", "show", str(board)])
    assert r.exit_code == 0 and "<svg" not in r.stdout, r.output
    out = tmp_path / "galleon-default.board.svg"          # GAME-NAME: every game ships a default.toml
    assert out.read_text().startswith("<svg") and f"drawn to {out}" in r.stderr
    monkeypatch.setattr(C, "stdout_is_terminal", lambda: False)      # piped or redirected: the SVG on stdout
    assert cli.invoke(app, ["board", "show", str(board)]).stdout.startswith("<svg")
