"""The one catalogue of measures (sim.model.catalogue): every measure declared once with label, unit, kind, where it applies
and a definition; every counter a registered game emits has an entry; the reports, compare, check, summary and
sweeps read their words from it; measures that cannot apply to a scenario are not shown."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sim.api import core as api
from sim.cli.main import app
from sim.model import catalogue, registry
from sim.model.scenario import load
from sim.stats.check import _integers
from sim.stats.measures import PairedSums, measures, shown

ROOT = Path(__file__).resolve().parents[2]
TH = ROOT / "scenarios" / "treasure_hunters"
DATA = ROOT / "tests" / "data"


@pytest.mark.kernel
@pytest.mark.parametrize("game", registry.names())
def test_every_counter_column_of_every_game_has_a_catalogue_entry(game):
    """A new game (or a new kernel counter) must declare its counters in GameSpec.measures (sim.model.catalogue.counter,
    share, curve) before its reports can name them."""
    spec = registry.get(game)
    assert catalogue.missing(spec) == [], f"{game}: declare these in sim/games/{game}.py measures=..."


@pytest.mark.kernel
@pytest.mark.parametrize("game", registry.names())
def test_every_counter_entry_of_every_game_names_a_column_its_kernel_writes(game):
    """The counters are named once, by kernels/<game>/columns.py EXTRA_COLUMNS (the spec's extra_columns): an entry
    keyed by a renamed or dropped column would describe a number no report has."""
    import importlib

    spec = registry.get(game)
    kernel_columns = importlib.import_module(spec.kernel_module).EXTRA_COLUMNS
    assert spec.extra_columns is kernel_columns or spec.extra_columns == kernel_columns
    assert catalogue.stale(spec) == [], f"{game}: these entries of sim/games/{game}.py name no column"


@pytest.mark.kernel
def test_a_stale_counter_entry_is_found():
    from dataclasses import replace

    spec = registry.get("moor")
    cut = replace(spec, extra_columns=tuple(c for c in spec.extra_columns if c != "planks_laid"))
    assert catalogue.stale(cut) == ["extra.planks_laid"]
    assert catalogue.stale(spec) == []


@pytest.mark.kernel
@pytest.mark.parametrize("game", registry.names())
def test_every_entry_has_a_label_unit_kind_and_definition_and_known_modes(game):
    spec = registry.get(game)
    mode = spec.param("mode")
    modes = set(mode.domain) if mode is not None else set()
    for e in catalogue.entries(game):
        assert e.label and e.definition and e.kind in catalogue.KINDS, e
        assert e.unit, e
        assert set(e.modes) <= modes, f"{e.key}: modes {e.modes} not among {sorted(modes)}"
        assert e.definition.endswith("."), e.key  # one sentence


@pytest.mark.kernel
@pytest.mark.parametrize("game", registry.names())
def test_shown_labels_are_unique_within_a_game(game):
    """A designer tells measures apart by their labels: no two shown measures of a game share one."""
    spec = registry.get(game)
    labels = [e.label for _, e in catalogue.listing(spec)]
    dup = sorted({x for x in labels if labels.count(x) > 1})
    assert dup == []


@pytest.mark.kernel
def test_lookup_fills_pattern_entries_and_a_game_overrides_the_generic_one():
    e = catalogue.lookup("win.seat2", "moor", ["a", "b", "collector"])
    assert e.label == "seat 2 (collector) wins" and "seat 2" in e.definition
    assert catalogue.lookup("team.hunter", "treasure_hunters").label == "hunters win"
    assert catalogue.lookup("team.hunter", "moor").label == "team win rate (hunter)"  # generic
    assert catalogue.lookup("score.seat1", "turnwall").unit == "body parts"
    assert (
        catalogue.lookup("extra.lost_jewels_out=lost with 3 out", "treasure_hunters").label
        == "hunters lose with 5 jewels still in the house"
    )
    assert catalogue.describe("extra.nothing", "moor").label == "nothing"  # fallback


@pytest.mark.kernel
def test_measures_that_cannot_apply_are_not_shown():
    basic, hh, adv = (load(TH / f) for f in ("basic-4p.toml", "head_haunter-4p.toml", "advanced-4p.toml"))
    names = {m.name for m in shown(basic)}
    assert "extra.spooks" not in names and "extra.locked_door_turns" not in names  # Head Haunter / doors
    assert "extra.outcome=jewels_cannot_leave" not in names  # advanced only
    assert "first_player.win" not in names and "extra.first_seat" not in names  # team game, bookkeeping
    assert {"team.hunter", "extra.outcome=six_hauntings", "extra.fights"} <= names
    assert {"extra.spooks", "team.haunter", "extra.outcome=haunter_win_stuck"} <= {m.name for m in shown(hh)}
    assert "extra.outcome=six_hauntings" not in {m.name for m in shown(hh)}
    assert "extra.outcome=jewels_cannot_leave" in {m.name for m in shown(adv)}
    # the regression baselines keep every measure the kernel outputs (their exact tier stays as committed)
    assert "extra.spooks" in {m.name for m in measures(basic)}
    ps = PairedSums(basic, adv)
    assert "extra.locked_door_turns" in ps.only_b and "extra.spooks" not in ps.only_a + ps.only_b
    moor = load(DATA / "moor-2p-small.toml")
    assert {"first_player.win", "margin", "extra.tiles_lost"} <= {m.name for m in shown(moor)}


@pytest.mark.kernel
def test_measure_labels_come_from_the_catalogue():
    sc = load(TH / "basic-4p.toml")
    by = {m.name: m for m in measures(sc)}
    assert by["team.hunter"].label == "hunters win"
    assert by["extra.hauntings_end"].label == catalogue.lookup("extra.hauntings_end", "treasure_hunters").label


@pytest.mark.kernel
def test_summary_json_has_a_measures_block(tmp_path):
    s, folder = api.run_scenario(load(DATA / "moor-2p-small.toml"), 300, out_dir=tmp_path / "m")
    block = json.loads((folder / "summary.json").read_text())["measures"]
    assert block["first_player.win"] == {
        "label": "the start player wins",
        "unit": "% of finished games",
        "kind": "rate",
        "definition": catalogue.lookup("first_player.win").definition,
    }
    assert block["win.seat0"]["label"].startswith("seat 0 (")
    assert "first_player_advantage" in block and "extra.tiles_lost" in block
    assert "extra.first_seat" not in block and "team_win_rate" not in block
    for v in block.values():
        assert set(v) == {"label", "unit", "kind", "definition"} and v["kind"] in catalogue.KINDS


@pytest.mark.kernel
def test_team_game_summary_block_has_no_competitive_measures():
    s, _ = api.run_scenario(load(TH / "basic-4p.toml"), 40, write=False)
    assert "first_player_advantage" not in s["measures"] and "first_player.win" not in s["measures"]
    assert s["measures"]["team.hunter"]["label"] == "hunters win"
    assert "extra.spooks" not in s["measures"] and "curve.hauntings" in s["measures"]


@pytest.mark.kernel
def test_sim_list_game_lists_the_measures_with_their_definitions():
    r = CliRunner().invoke(app, ["list", "moor"])
    assert r.exit_code == 0, r.output
    text = r.output.split("measures (")[-1]
    assert "extra.tiles_lost: tiles lost [tiles per game]: Discarded tiles" in text
    assert "first_player_advantage: first-player advantage" in text and "extra.first_seat" not in text
    r = CliRunner().invoke(app, ["list", "treasure_hunters"])
    text = r.output.split("measures (")[-1]
    assert "team.hunter: hunters win" in text and "mode head_haunter" in text
    assert "first_player.win" not in text  # no competitive measure in a team game


def test_the_exact_tier_ignores_the_words():
    """A label is words from the catalogue, not behaviour: the exact regression tier compares the integers only."""
    assert _integers({"m": {"n": 3, "sum": 2, "label": "old words", "cubes": 1.0}}) == {"m": {"n": 3, "sum": 2}}


LABEL_USERS = [
    "sim/stats/summary.py",
    "sim/stats/arc.py",
    "sim/pages/arc_page.py",
    "sim/pages/tables.py",
    "sim/pages/html_report.py",
    "sim/pages/plots.py",
    "sim/stats/compare.py",
    "sim/stats/check.py",
    "sim/stats/measures.py",
    "sim/stats/sweep_table.py",
    "sim/pages/sweep_page.py",
    "sim/output/sweep_output.py",
    "sim/pages/verdicts.py",
    "sim/pages/compare_page.py",
]


def _literals(src: str) -> list[str]:
    """The string literals of a module's code (docstrings left out: they may explain a measure in words)."""
    tree = ast.parse(src)
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docs.add(id(first.value))
    return [
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs
    ]


@pytest.mark.kernel
def test_no_module_spells_a_catalogue_label_itself():
    """grep for hard-coded labels: the modules that report measures hold none of the catalogue's labels as a string
    literal (they ask the catalogue)."""
    labels = {e.label for e in catalogue.GENERIC if "{" not in e.label}
    for game in registry.names():
        labels |= {e.label for e in registry.get(game).measures if "{" not in e.label and len(e.label) > 12}
    for rel in LABEL_USERS:
        p = ROOT / rel
        if not p.exists():
            continue
        literals = _literals(p.read_text(encoding="utf-8"))
        for lab in labels:
            hits = [x for x in literals if lab in x]
            assert not hits, f"{rel} spells the label {lab!r}: {hits[:2]}"


@pytest.mark.kernel
def test_how_a_head_haunter_game_ends_shows_all_three_ends_and_a_co_op_game_hides_the_team_win():
    """A new user saw only how the hunters lost under "How games end" of a Head Haunter game: the hunters' win was
    hidden as the co-op team win rate and an end no game reached was missing. Now each end shows, 0 games included;
    a co-op game still shows its win once, as the team win rate."""
    counts = {"win": 279, "haunter_win_hauntings": 1721}
    hh = catalogue.View("treasure_hunters", "head_haunter", ["hunter"] * 4, True)
    assert hh.category_values("outcome", counts) == [
        ("win", 279),
        ("haunter_win_hauntings", 1721),
        ("haunter_win_stuck", 0),
    ]
    coop = catalogue.View("treasure_hunters", "basic", ["hunter"] * 4, True)
    assert coop.category_values("outcome", {"win": 10, "six_hauntings": 5}) == [
        ("six_hauntings", 5),
        ("hunters_stuck", 0),
    ]


REPO = Path(__file__).resolve().parents[2]


BASE = DATA / "moor-2p-small.toml"
cli = CliRunner()


@pytest.mark.kernel
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


@pytest.mark.kernel
def test_a_counter_declared_a_share_is_a_rate_measure_and_a_percentage():
    """Moor's `tiebreak_decided` (0/1 a game, catalogue unit '% of finished games'): a rate for sim compare and
    sim sweep (B - A in points, not '-0.09 % of finished games'), a percentage in the counters table."""
    from sim.model.scenario import load
    from sim.pages import tables
    from sim.stats import measures

    m = {x.name: x for x in measures.measures(load(BASE))}["extra.tiebreak_decided"]
    assert (m.kind, m.binary) == ("rate", True)
    s = {
        "scenario": {"game": "moor", "players": 2, "seats": [{"strategy": "weighted"}] * 2},
        "extras": {
            "tiebreak_decided": {"n": 100, "mean": 0.0937, "std": 0.29, "quantiles": {"p50": 0}, "max": 1},
            "planks_laid": {"n": 100, "mean": 26.8, "std": 5.6, "quantiles": {"p50": 27}, "max": 48},
        },
    }
    rows = {r["column"]: r for r in tables.counter_rows(s)}
    assert rows["tiebreak_decided"]["mean"] == "9.37%"
    assert rows["planks_laid"]["mean"] == "26.800"


@pytest.mark.kernel
def test_galleon_margin_definition_explains_a_negative_margin():
    """Galleon reports showed winner's margins down to -4 under the words 'winner's score minus the best score of a
    non-winner' and counted them as 'close games won by at most 1': a win there is gold brought home."""
    from sim.model import catalogue

    margin, close = catalogue.lookup("margin", "galleon"), catalogue.lookup("close_games", "galleon")
    assert "negative when a rival held more gold" in margin.definition and margin.unit == "gold"
    assert "or more" in close.definition
    assert "negative" not in catalogue.lookup("margin", "moor").definition


def test_a_game_module_that_fails_to_import_is_an_error_not_generic_labels(monkeypatch):
    from sim.model import catalogue, registry

    def broken(name):
        raise ImportError(f"sim.games.{name}: a bug in the game module")

    monkeypatch.setattr(registry, "get", broken)
    with pytest.raises(ImportError, match="a bug in the game module"):
        catalogue.entries("moor")
    monkeypatch.setattr(registry, "get", lambda name: None)  # a game whose code is not here: generic entries
    assert catalogue.entries("chess") == list(catalogue.GENERIC)


def test_a_broken_game_module_is_an_error_in_the_board_words_too(monkeypatch):
    from sim.model import registry
    from sim.pages.scenario_words import board_description

    def broken(name):
        raise ImportError(f"sim.games.{name}: a bug in the game module")

    monkeypatch.setattr(registry, "get", broken)
    with pytest.raises(ImportError, match="a bug in the game module"):
        board_description("default", "galleon")
    monkeypatch.setattr(registry, "get", lambda name: None)  # a game whose code is not here: said, not raised
    assert board_description("default", "chess") == "default (board file not readable here: no board spec for 'chess')"


def _spec_with(measures):
    from sim.model.registry import GameSpec

    return GameSpec(
        name="tiny",
        title="Tiny",
        rules_version=1,
        min_players=2,
        max_players=2,
        params=(),
        strategies=(),
        kernel_module="none",
        check=lambda values, players, given: None,
        pack=lambda values, players: None,
        replay=lambda scenario, game: [],
        extra_columns=("moves",),
        measures=measures,
    )


def test_game_spec_measures_are_catalogue_entries_or_a_clear_error():
    from sim.model import catalogue

    entry = catalogue.counter("moves", "moves made", "Moves made, per game.")
    assert _spec_with((entry,)).measures == (entry,)
    with pytest.raises(TypeError, match=r"GameSpec tiny: measures\[1\] is a dict; allowed: a tuple of catalogue"):
        _spec_with((entry, {"key": "extra.moves"}))
    with pytest.raises(TypeError, match="GameSpec tiny: measures is a list; allowed"):
        _spec_with([entry])
