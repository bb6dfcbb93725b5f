"""Third round of what a first-time user hit (fresh clone, README only, then bad input on purpose): the reports'
words (no raw {seat} in a definition, a rate counter as a percentage, the lead line under --set, long-tailed length
histograms), the index page's games and sweep headlines, and one clear line naming the field for a board folder, a
board --out, a typo'd sweep range, an unquoted `step`, an unwritable sweep --out, a bad --target, a scenario file
given to rerun, and a sweep stopped by Ctrl-C (its finished points kept on purpose)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from sim.cli import common as cli_common
from sim.cli.main import EXIT_BAD_INPUT, EXIT_INTERRUPTED, EXIT_USAGE, app
from tests.sim._cli import one_error_line

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data"
BASE = DATA / "moor-2p-small.toml"
cli = CliRunner()


# --- the reports' words ---------------------------------------------------------------------------------------------

def test_seat_win_definition_is_said_of_every_seat_never_a_raw_placeholder(tmp_path):
    """Definitions list (summary.html, balance.md) and the 'Win rate by seat' intro (summary.md): 'the seat', not
    'seat {seat}' (a template leaked) nor 'seat 0' (one seat's sentence over the whole table)."""
    r = cli.invoke(app, ["run", str(BASE), "--games", "300", "--out", str(tmp_path / "r")])
    assert r.exit_code == 0, r.output
    for page in ("summary.html", "balance.md", "summary.md"):
        text = (tmp_path / "r" / page).read_text()
        assert "{seat}" not in text and "{strategy}" not in text, page
        assert "Share of finished games the seat wins" in text, page
        assert "Share of finished games seat 0 wins" not in text, page


def test_a_counter_declared_a_share_is_a_rate_measure_and_a_percentage():
    """Moor's `tiebreak_decided` (0/1 a game, catalogue unit '% of finished games'): a rate for sim compare and
    sim sweep (B - A in points, not '-0.09 % of finished games'), a percentage in the counters table."""
    from sim.model.scenario import load
    from sim.pages import tables
    from sim.stats import measures
    m = {x.name: x for x in measures.measures(load(BASE))}["extra.tiebreak_decided"]
    assert (m.kind, m.binary) == ("rate", True)
    s = {"scenario": {"game": "moor", "players": 2, "seats": [{"strategy": "weighted"}] * 2},
         "extras": {"tiebreak_decided": {"n": 100, "mean": 0.0937, "std": 0.29, "quantiles": {"p50": 0}, "max": 1},
                    "planks_laid": {"n": 100, "mean": 26.8, "std": 5.6, "quantiles": {"p50": 27}, "max": 48}}}
    rows = {r["column"]: r for r in tables.counter_rows(s)}
    assert rows["tiebreak_decided"]["mean"] == "9.37%"
    assert rows["planks_laid"]["mean"] == "26.800"


def test_compare_states_a_rate_counter_difference_in_points(tmp_path):
    r = cli.invoke(app, ["compare", str(BASE), "--set-b", "tiebreak=shared", "--games", "2000",
                         "--out", str(tmp_path / "c")])
    assert r.exit_code == 0, r.output
    md = (tmp_path / "c" / "compare.md").read_text()
    row = next(ln for ln in md.splitlines() if ln.startswith("| top score tied, settled by the tie-break"))
    assert " pts " in row and "%" in row, row


def test_lead_line_says_game_and_table_once_and_names_the_overrides():
    from sim.pages.scenario_words import lead_line
    s = {"game_title": "Ghosts of the Moor", "scenario": {
        "game": "moor", "players": 4, "description": "4 players, all seats the weighted heuristic."}}
    assert lead_line(s) == "Ghosts of the Moor. 4 players, all seats the weighted heuristic."
    s["scenario"]["description"] = "The Ghosts of the Moor, 4 players: every seat weighted"
    s["game_title"] = "The Ghosts of the Moor"
    assert lead_line(s).count("Ghosts of the Moor") == 1 and lead_line(s).count("4 players") == 1
    s["scenario"]["overrides"] = [{"name": "seats.3.strategy", "value": "runner"}, {"name": "track_len", "value": 32}]
    line = lead_line(s)
    assert "Changed by --set: seats.3.strategy=runner, track_len=32" in line
    assert "the description above is the scenario file's" in line


def test_length_histogram_leaves_out_a_long_thin_tail_and_says_so():
    from sim.pages.plots import tail_cut
    body = np.r_[np.full(10, 100.0), np.zeros(200), [1.0]]        # 1,000 games in 10 bins, one game 200 bins later
    assert tail_cut(body) == 10
    assert tail_cut(np.full(50, 10.0)) == 50                         # no long tail: every bin drawn
    assert tail_cut(np.zeros(5)) == 5


# --- the index page ---------------------------------------------------------------------------------------------------

def test_index_games_column_says_played_and_finished():
    from sim.pages.index_page import _games
    assert _games({"played": 5000, "finished": 4994}) == "5,000 (4,994 finished)"
    assert _games({"played": 200000, "finished": 200000}) == "200,000"


def test_a_sweep_without_target_has_a_headline_with_figures():
    from sim.pages.sweep_page import range_text
    def pt(i, v, lo, hi):
        return {"index": i, "values": {"gold_target": 3 + i}, "labels": {"gold_target": str(3 + i)},
                "measures": {"first_player_advantage": {"value": v, "ci95": [lo, hi]}}}
    d = {"chosen": [{"name": "first_player_advantage", "label": "first-player advantage", "kind": "rate"}],
         "points": [pt(0, 0.02, 0.01, 0.03), pt(1, -0.01, -0.02, 0.0), pt(2, 0.005, -0.005, 0.015)]}
    text = range_text(d)
    assert text.startswith("first-player advantage from -1.00%") and "(gold_target = 4)" in text
    assert "to 2.00%" in text and "(gold_target = 3)" in text and "95% interval" in text


# --- one clear line naming the field ------------------------------------------------------------------------------

def test_board_show_of_a_folder_and_a_bad_out_name_the_argument(tmp_path):
    board = REPO / "scenarios" / "turnwall" / "boards" / "default.toml"
    (tmp_path / "adir").mkdir()
    r = cli.invoke(app, ["board", "show", str(tmp_path / "adir")])
    assert r.exit_code == EXIT_BAD_INPUT and "is a folder; give a board .toml file" in one_error_line(r)
    r = cli.invoke(app, ["board", "show", str(board), "--out", str(tmp_path / "adir")])
    assert r.exit_code == EXIT_BAD_INPUT and one_error_line(r).startswith("error: --out: ")
    r = cli.invoke(app, ["board", "show", str(board), "--out", str(tmp_path / "nodir" / "x.svg")])
    line = one_error_line(r)
    assert r.exit_code == EXIT_BAD_INPUT and line.startswith("error: --out: ") and "does not exist" in line


def test_params_board_naming_a_folder_says_it_is_a_folder(tmp_path):
    text = (REPO / "scenarios" / "turnwall" / "4p.toml").read_text()
    (tmp_path / "castles").mkdir()
    p = tmp_path / "s.toml"
    assert 'board = "default"' in text
    p.write_text(text.replace('board = "default"', 'board = "castles"', 1))
    r = cli.invoke(app, ["run", str(p), "--games", "10", "--out", str(tmp_path / "r")])
    line = one_error_line(r)
    assert r.exit_code == EXIT_BAD_INPUT and "params.board: 'castles' is a folder" in line
    assert not (tmp_path / "r").exists()


def test_turnwall_board_size_as_text_is_refused_as_not_an_integer(tmp_path):
    src = (REPO / "scenarios" / "turnwall" / "boards" / "default.toml").read_text()
    p = tmp_path / "b.toml"
    p.write_text(src.replace("size = 7", 'size = "7"', 1))
    r = cli.invoke(app, ["board", "show", str(p), "--out", str(tmp_path / "b.svg")])
    line = one_error_line(r)
    assert r.exit_code == EXIT_BAD_INPUT and "board.size: expected an integer" in line


def test_a_typo_in_a_sweep_range_is_refused_not_played_as_floats():
    """'20...60' once played 41 points track_len = 20.0, 21.0, ...; a path value with '..' is still a value."""
    from sim.model.sweep_spec import SweepError, parse_set
    with pytest.raises(SweepError, match="is not a range"):
        parse_set("track_len=20...60")
    assert parse_set("track_len=20..24 step 2").values == (20, 22, 24)
    assert parse_set('board="../my-board.toml"').values == ("../my-board.toml",)


def test_an_unquoted_step_gets_a_hint_to_quote_the_range():
    r = cli.invoke(app, ["sweep", str(BASE), "--set", "track_len=20..60", "step", "5", "--games", "10"])
    line = one_error_line(r)
    assert r.exit_code == EXIT_USAGE and "quote it" in line and "'track_len=20..60 step 5'" in line


def test_an_unwritable_sweep_out_is_one_line_naming_out(tmp_path):
    (tmp_path / "f").write_text("a file")
    r = cli.invoke(app, ["sweep", str(BASE), "--set", "track_len=24,28", "--games", "10",
                         "--out", str(tmp_path / "f" / "x")])
    line = one_error_line(r)
    assert r.exit_code == EXIT_BAD_INPUT and line.startswith(f"error: --out: {tmp_path / 'f'} is a file, not a folder")


@pytest.mark.parametrize("opt,value,where", [("--target", "nope=0", "--target nope=0"),
                                             ("--measure", "nope", "--measure"), ("--mode", "spiral", "--mode")])
def test_a_bad_sweep_option_names_the_option(opt, value, where):
    r = cli.invoke(app, ["sweep", str(BASE), "--set", "track_len=24,28", "--games", "10", opt, value])
    assert r.exit_code == EXIT_USAGE and one_error_line(r).startswith(f"error: {where}")


def test_rerun_of_a_scenario_file_says_it_wants_the_report_folder():
    r = cli.invoke(app, ["rerun", str(BASE)])
    line = one_error_line(r)
    assert r.exit_code == EXIT_BAD_INPUT and "not a report folder" in line and "/summary.json" not in line


def test_a_sweep_stopped_by_ctrl_c_says_its_points_are_kept(tmp_path, monkeypatch):
    import sim.api.sweep
    monkeypatch.setattr(cli_common, "_STOP_SAID", [])

    def stop(*a, **k):
        raise KeyboardInterrupt
    monkeypatch.setattr(sim.api.sweep, "run_sweep", stop)
    r = cli.invoke(app, ["sweep", str(BASE), "--set", "track_len=24,28", "--games", "10",
                         "--out", str(tmp_path / "s")])
    assert r.exit_code == EXIT_INTERRUPTED and "Traceback" not in r.output
    line = [ln for ln in r.stderr.splitlines() if ln.startswith("interrupted")]
    assert len(line) == 1 and str(tmp_path / "s" / "points") in line[0] and "same command again" in line[0]
    assert "a report folder appears only when complete" not in line[0]


def test_progress_line_during_start_up_gives_no_made_up_time_left():
    """A fresh clone: the first step of 256 games took 30 s of compiling; the line said '8 games/s, about 1 h 23 min
    left'. Now it says it is starting up, and later lines count games/s from the end of the first step."""
    import io

    from sim.play import progress as PG
    now, buf = [0.0], io.StringIO()
    lines = PG.Lines(40000, "th-advanced-2p", buf, every_s=30, clock=lambda: now[0])
    with lines:
        now[0] = 31
        lines.advance(256)                      # compile + first games
        for _ in range(6):
            now[0] += 10
            lines.advance(4000)                 # 400 games/s once compiled
    out = buf.getvalue().splitlines()
    assert out[0].startswith("th-advanced-2p: 1% (256 of 40,000 games; starting up") and "left" not in out[0]
    assert out[1] == "th-advanced-2p: 31% (12,256 of 40,000 games, 400 games/s, about 1 min 09 s left)"


def test_galleon_margin_definition_explains_a_negative_margin():
    """Galleon reports showed winner's margins down to -4 under the words 'winner's score minus the best score of a
    non-winner' and counted them as 'close games won by at most 1': a win there is gold brought home."""
    from sim.model import catalogue
    margin, close = catalogue.lookup("margin", "galleon"), catalogue.lookup("close_games", "galleon")
    assert "negative when a rival held more gold" in margin.definition and margin.unit == "gold"
    assert "or more" in close.definition
    assert "negative" not in catalogue.lookup("margin", "moor").definition


def test_every_committed_baseline_records_the_measure_kinds_the_code_has_now():
    """Changing a measure's kind (tiebreak_decided: mean -> rate) makes the exact tier of `sim check` fail on the
    shipped scenarios until `make baselines` is rerun; this catches it without playing a game."""
    import json

    from sim.model.scenario import load
    from sim.stats import measures
    for f in sorted((REPO / "reports" / "baselines").glob("*/*.json")):
        b = json.loads(f.read_text())
        sc_file = REPO / "scenarios" / f.parent.name / f"{f.stem}.toml"
        if not sc_file.is_file():
            continue
        now = {m.name: (m.kind, m.binary) for m in measures.measures(load(sc_file))}
        for tier in ("exact", "statistical"):
            for name, rec in b[tier]["measures"].items():
                if name in now:
                    assert (rec["kind"], rec["binary"]) == now[name], f"{f.relative_to(REPO)} {tier} {name}"


def test_index_headline_is_the_pages_verdict_with_intervals(tmp_path):
    import json

    from sim.pages.index_page import headline
    r = cli.invoke(app, ["run", str(BASE), "--games", "300", "--out", str(tmp_path / "r")])
    assert r.exit_code == 0, r.output
    s = json.loads((tmp_path / "r" / "summary.json").read_text())
    h = headline(s)
    assert h.startswith("The start player wins ") and "[" in h and "chance" in h and "Most wins: " in h


def test_a_sweep_with_nothing_to_sweep_says_so(tmp_path):
    """`sim sweep my.toml` without --set or [sweep] once played the scenario alone and wrote a one-point sweep."""
    r = cli.invoke(app, ["sweep", str(BASE), "--games", "10", "--out", str(tmp_path / "s")])
    line = one_error_line(r)
    assert r.exit_code == EXIT_USAGE and "nothing to sweep" in line and "--set" in line
    assert not (tmp_path / "s").exists()
