"""Pages a newcomer trusts: every parameter has a label (and a unit where it counts something) that sweep pages and
summaries use instead of its code name; game length is also given in minutes from a rule-less seconds_per_turn that
changes no result; the board legends say what a symbol means in play."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from sim.model import registry
from sim.model.scenario import load
from sim.model.sweep_axis import axis_words

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("moor", "treasure_hunters", "turnwall", "galleon")
DEFAULT = {"moor": "4p", "treasure_hunters": "basic-4p", "turnwall": "4p", "galleon": "4p"}


# --- 1. labels and units ---------------------------------------------------------------------------------------------


@pytest.mark.kernel
@pytest.mark.parametrize("game", GAMES)
def test_every_parameter_and_strategy_parameter_has_a_label(game):
    spec = registry.get(game)
    missing = [p.name for p in spec.params if not p.label]
    missing += [f"{st.name}.{p.name}" for st in spec.strategies for p in st.params if not p.label]
    assert missing == []
    for p in spec.params + tuple(q for st in spec.strategies for q in st.params):
        assert p.label != p.name and "_" not in p.label, (p.name, p.label)  # words, not the code name


def test_a_parameter_without_a_label_is_named_by_its_name():
    p = registry.ParamSpec("my_knob", "int", 1, (0, 3), "a plugin game's knob")
    assert (p.label, p.unit, p.title()) == ("", "", "my_knob")


@pytest.mark.kernel
def test_swept_names_in_words():
    moor = load(ROOT / "scenarios" / "moor" / "4p.toml")
    assert axis_words(moor, "track_len") == ("track length", "spaces")
    assert axis_words(moor, "params.track_len") == ("track length", "spaces")
    assert axis_words(moor, "die_faces") == ("die faces", "")
    assert axis_words(moor, "seats.2.w_goal") == ("seat 2: weight on goal tokens", "")
    assert axis_words(moor, "seats.*.w_goal") == ("every seat: weight on goal tokens", "")
    assert axis_words(moor, "seats.1.strategy") == ("seat 1: strategy", "")
    assert axis_words(moor, "players") == ("players", "")
    gal = load(ROOT / "scenarios" / "galleon" / "2p.toml")
    assert axis_words(gal, "gold_target") == ("gold to win", "gold")
    th = load(ROOT / "scenarios" / "treasure_hunters" / "basic-4p.toml")
    assert axis_words(th, "ghost_cards.shuffle") == ("green ghost cards: Shuffle", "cards")
    assert axis_words(th, "move_die.faces") == ("movement die faces", "spaces")
    tw = load(ROOT / "scenarios" / "turnwall" / "4p.toml")
    assert axis_words(tw, "moves_per_turn") == ("moves per turn", "")


@pytest.mark.kernel
def test_sweep_page_and_summary_name_the_axis_by_its_label_and_unit(tmp_path):
    from sim.pages.sweep_page import plot_list

    out = tmp_path / "s"
    r = CliRunner().invoke(
        app(),
        [
            "sweep",
            str(ROOT / "scenarios" / "moor" / "2p.toml"),
            "--set",
            "track_len=20,30",
            "--set",
            "seats.1.w_goal=0.5,2",
            "--games",
            "100",
            "--out",
            str(out),
        ],
    )
    assert r.exit_code == 0, r.output
    doc = json.loads((out / "sweep.json").read_text())
    axes = {a["name"]: a for a in doc["axes"]}
    assert (axes["track_len"]["label"], axes["track_len"]["unit"]) == ("track length", "spaces")
    assert axes["seats.1.w_goal"]["label"] == "seat 1: weight on goal tokens"
    # the summary lines: labels and units, not code names
    assert "track length = 20 spaces, seat 1: weight on goal tokens = 0.5" in r.stdout
    assert "track_len =" not in r.stdout
    html = (out / "sweep.html").read_text()
    assert "track length (spaces)" in html  # an x axis or legend title
    assert "seat 1: weight on goal tokens (seats.1.w_goal)" in html  # the swept line and the table header
    assert "track length (track_len)" in html  # the code name kept once for --set
    captions = [cap for _, cap, _ in plot_list(doc)]
    assert any(c.startswith("first-player advantage against track length") for c in captions), captions
    assert not any("track_len" in c for c in captions)
    from sim.pages.sweep_page import point_rows

    assert "track length (track_len)" in point_rows(doc)[0]


def app():
    from sim.cli.main import app as a

    return a


# --- 2. game length in minutes ---------------------------------------------------------------------------------------


@pytest.mark.kernel
@pytest.mark.parametrize("game", GAMES)
def test_seconds_per_turn_changes_neither_the_kernel_vector_nor_the_digest(game):
    from sim.stats.check import digest

    sc = load(ROOT / "scenarios" / game / f"{DEFAULT[game]}.toml")
    ps = sc.spec.param(registry.SECONDS_PER_TURN)
    assert ps is not None and ps.kind == "float" and not ps.rules and ps.domain == (1.0, 600.0)
    other = sc.with_changes(params={**sc.params, registry.SECONDS_PER_TURN: ps.default * 2})
    assert np.array_equal(sc.prm(), other.prm())
    assert digest(sc) == digest(other)
    changed = sc.with_changes(params={**sc.params, "max_turns": sc.params["max_turns"] + 1})
    assert digest(changed) != digest(sc)  # a rule parameter still counts


@pytest.mark.kernel
@pytest.mark.parametrize("game", GAMES)
def test_the_default_seconds_put_a_default_game_inside_the_box(game):
    """The default seconds_per_turn reproduces the box's stated time for the game's default scenario (its mean turns
    from the shipped statistical baseline); where no time is stated, the help text says it is an assumption."""
    spec = registry.get(game)
    ps = spec.param(registry.SECONDS_PER_TURN)
    b = json.loads((ROOT / "reports" / "baselines" / game / f"{DEFAULT[game]}.json").read_text())
    m = b["statistical"]["measures"]["length.turns"]
    minutes = m["sum"] / m["scale"] / m["n"] * ps.default / 60
    assert spec.box_source
    if spec.box_minutes is None:
        assert "ASSUMPTION" in ps.help and "no playing time" in ps.help
    else:
        lo, hi = spec.box_minutes
        assert lo - 1 <= minutes <= hi + 1, minutes
    rules = (ROOT / spec.rules_file).read_text()
    assert "seconds_per_turn" in rules  # the game's RULES.md lists the assumption


def _summary(game: str = "moor", name: str = "4p", games: int = 400, **params):
    from sim.play import work
    from sim.stats.summary import summarize

    sc = load(ROOT / "scenarios" / game / f"{name}.toml")
    if params:
        sc = sc.with_changes(params={**sc.params, **params})
    return summarize(sc, work.run(sc, games=games).agg)


@pytest.mark.kernel
def test_summary_reports_length_in_minutes_with_its_source():
    s = _summary()
    m = s["length"]["minutes"]
    t = s["length"]["turns"]
    assert m["seconds_per_turn"] == 13.0 and m["default"] is True
    assert m["mean"] == pytest.approx(t["mean"] * 13.0 / 60)
    assert m["median"] == pytest.approx(t["quantiles"]["p50"] * 13.0 / 60)
    assert "box" in m["source"] and m["box"]["minutes"] == [20, 30] and "publisher" in m["box"]["source"]
    s2 = _summary(seconds_per_turn=26.0)
    assert s2["length"]["minutes"]["mean"] == pytest.approx(2 * m["mean"])
    assert s2["length"]["minutes"]["default"] is False and "set in the scenario" in s2["length"]["minutes"]["source"]
    assert s2["length"]["turns"] == t  # the same games


@pytest.mark.kernel
def test_verdict_balance_page_and_markdown_give_the_minutes():
    from sim.pages import balance_figures, html_report, tables, verdicts

    s = _summary()
    mean = s["length"]["minutes"]["mean"]
    length = next(x for x in verdicts.run_sentences(s) if x.startswith("Game length"))
    assert f"about {mean:.0f} min" in length and "seconds_per_turn" in length and "the box says 20-30 min" in length
    rows = {r["figure"]: r for r in balance_figures.balance_rows(s)}
    assert rows["playing time (estimate)"]["value"] == f"{mean:.2f} min"
    md = tables.render_markdown(s)
    assert "minutes (estimate: turns x 13 s / 60)" in md and f"about {mean:.0f} min a game" in md
    sec = next(x for x in html_report.sections(s) if x["id"] == "length")
    assert "seconds_per_turn: 13 s puts" in sec["intro"]


@pytest.mark.kernel
def test_sweep_gives_each_point_its_playing_time_in_minutes(tmp_path):
    """Each point's minutes are its own mean turns x its own seconds_per_turn / 60 (a swept seconds_per_turn is
    honoured: the same games, twice the minutes), in the terminal, sweep.json, the page's table and the parquet."""
    import polars as pl

    out = tmp_path / "s"
    r = CliRunner().invoke(
        app(),
        ["sweep", str(ROOT / "scenarios" / "moor" / "2p.toml"), "--set", "seconds_per_turn=13,26"]
        + ["--games", "200", "--out", str(out)],
    )
    assert r.exit_code == 0, r.output
    doc = json.loads((out / "sweep.json").read_text())
    a, b = (p["minutes"] for p in doc["points"])
    turns = doc["points"][0]["measures"]["length.turns"]
    assert a["value"] == pytest.approx(turns["value"] * 13 / 60) and b["value"] == pytest.approx(2 * a["value"])
    assert b["ci95"] == pytest.approx([2 * c for c in a["ci95"]])
    assert f"playing time about {a['value']:.1f} min" in r.stdout and "at 26 s a turn" in r.stdout
    from sim.pages.sweep_page import point_rows

    assert point_rows(doc)[1]["playing time (turns x seconds_per_turn)"].startswith(f"{b['value']:.1f} min")
    frame = pl.read_parquet(out / "sweep.parquet")
    assert frame["minutes"].to_list() == pytest.approx([a["value"], b["value"]])


# --- 3. board legends in a player's words ----------------------------------------------------------------------------


def _legend_texts(game: str, monkeypatch) -> list[str]:
    from sim.pages import board_svg

    got = []
    monkeypatch.setattr(board_svg, "to_svg", lambda fig: got.append(fig) or "<svg/>")
    board_svg.show(ROOT / "scenarios" / game / "boards" / "default.toml")
    (fig,) = got
    return [t.get_text().replace("\n", " ") for leg in fig.legends for t in leg.get_texts()]


@pytest.mark.kernel
def test_castle_legend_says_what_a_magnet_does(monkeypatch):
    texts = _legend_texts("turnwall", monkeypatch)
    words = " ".join(texts)
    assert "slider cell k" not in words and "+ pulled out" not in words
    assert any(t.startswith("magnet on a slider") and "holds the ghost" in t for t in texts), texts
    assert "start of seat 0: the green ghost's corner" in texts
    assert any(t.startswith("plug:") for t in texts)


@pytest.mark.kernel
def test_house_legend_says_when_a_door_is_locked(monkeypatch):
    texts = _legend_texts("treasure_hunters", monkeypatch)
    assert "blue door: locked while a blue Door card is out" in texts
    assert any(t.startswith("outside:") for t in texts)


@pytest.mark.kernel
def test_bay_legend_names_pirates_and_steps_not_pips(monkeypatch):
    texts = _legend_texts("galleon", monkeypatch)
    assert not any(t in ("one pip", "stairs (one pip)") for t in texts)
    assert any(t.startswith("the red pirate's hideout (seat 0)") for t in texts), texts
    assert any("captain's cabin: keys" in t for t in texts)
    assert any(t.startswith("cannon 0: the ghost fires it from") for t in texts)


def test_a_narrow_interval_is_said_with_the_decimals_that_tell_its_ends_apart():
    """The playing time of many games showed "[24.18, 24.18]": an interval that read as having no width."""
    from sim.pages.balance_figures import SAME_LENGTH, span_text

    assert span_text(24.1812, 24.1839) == "[24.181, 24.184]"
    assert span_text(24.15, 24.22) == "[24.15, 24.22]"
    assert span_text(111.6, 111.6) == SAME_LENGTH == "none: every finished game lasted as long"
