"""The registered GameSpec, the default scenarios and the replay in words."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kernels.treasure_hunters import play as PL
from kernels.treasure_hunters import rules as R
from kernels.treasure_hunters import strategies as S
from sim.model import registry
from sim.model.scenario import from_dict, load

SCENARIOS = sorted((Path(__file__).resolve().parents[3] / "scenarios" / "treasure_hunters").glob("*.toml"))


def test_spec_is_registered():
    spec = registry.get("treasure_hunters")
    assert spec is not None and spec.kernel_module == "kernels.treasure_hunters.play"
    assert spec.extra_columns == PL.EXTRA_COLUMNS
    assert spec.categorical == {"outcome": R.OUTCOME_LABELS, "lost_jewels_out": PL.LOST_JEWELS_LABELS}
    assert spec.curves == ("hauntings", "ghosts") and spec.curve_len == PL.CURVE_LEN
    assert spec.team_roles == ("hunter",) and spec.rules_version == R.RULES_VERSION
    assert (spec.min_players, spec.max_players) == (2, 5) and spec.n_sparams >= S.N_HW
    names = [s.name for s in spec.strategies]
    assert len(names) == len(set(names))
    assert {s.name for s in spec.strategies if s.role == "hunter"} == {
        "passive",
        "random",
        "runners",
        "busters",
        "weighted",
        "learned",
        "search",
    }
    assert {s.name for s in spec.strategies if s.role == "haunter"} == {
        "haunter_random",
        "haunter_builder",
        "haunter_trapper",
        "haunter_weighted",
        "haunter_learned",
        "haunter_search",
    }
    assert spec.roles({"mode": "head_haunter"}, 4) == ["haunter", "hunter", "hunter", "hunter"]
    assert spec.roles({"mode": "advanced"}, 3) == ["hunter"] * 3
    assert Path(spec.rules_file).name == "RULES.md"


def test_default_scenarios_cover_every_mode_and_player_count():
    seen = set()
    for f in SCENARIOS:
        sc = load(f)
        seen.add((sc.params["mode"], sc.players))
    assert {("basic", p) for p in (2, 3, 4)} <= seen
    assert {("advanced", p) for p in (2, 3, 4)} <= seen
    assert {("head_haunter", p) for p in (2, 3, 4, 5)} <= seen


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_default_scenario_plays(path):
    """200 games of each default scenario end well; of a search scenario 8, as each of its decisions plays 64
    rollout games to the end (200 of them took minutes; tests/kernels/test_batch_digests.py pins their outputs)."""
    from sim.model.search import has_search
    from sim.play import runner

    sc = load(path)
    n = 8 if has_search(sc) else 200
    out = runner.play_chunk(sc, 0, n)
    assert (out.status == 0).all() and (out.turns > 0).all()
    assert out.extra.shape == (n, len(PL.EXTRA_COLUMNS)) and out.curves.shape == (n, 2, PL.CURVE_LEN)


@pytest.mark.parametrize(
    "mode,players,seats",
    [
        ("basic", 2, ["weighted", "busters"]),
        ("advanced", 4, ["runners", "weighted", "random", "busters"]),
        ("head_haunter", 4, ["haunter_trapper", "weighted", "busters", "random"]),
    ],
)
def test_replay_in_words_matches_the_batch(mode, players, seats):
    sc = from_dict(
        {
            "scenario": {"name": "replay-test", "game": "treasure_hunters", "players": players, "games": 10, "seed": 5},
            "params": {"mode": mode},
            "seats": [{"strategy": s} for s in seats],
        }
    )
    from sim.play import runner

    out = runner.play_chunk(sc, 0, 4)
    for g in range(4):
        lines = sc.spec.replay(sc, g)
        assert lines[0].startswith(f"Game {g} of replay-test: {mode}")
        label = R.OUTCOME_LABELS[int(out.extra[g, PL.EXTRA_COLUMNS.index("outcome")])]
        why = " (all 6 haunting pieces on the board)" if label in ("six_hauntings", "haunter_win_hauntings") else ""
        assert f"END: {label}{why}" in lines
        assert sum(1 for x in lines if x.startswith("turn ")) == int(out.turns[g])
        assert lines[-1].startswith("winner:")
    _ = np


def test_replay_says_how_many_haunting_pieces_ended_the_game():
    """`six_hauntings` keeps the rulebook's name; with hauntings = 3 the replay says all 3 pieces were down."""
    sc = from_dict(
        {
            "scenario": {"name": "haunt3", "game": "treasure_hunters", "players": 4, "games": 10, "seed": 5},
            "params": {"mode": "basic", "hauntings": 3},
            "seats": [{"strategy": "passive"}] * 4,
        }
    )
    from sim.play import runner

    out = runner.play_chunk(sc, 0, 10)
    col = PL.EXTRA_COLUMNS.index("outcome")
    g = next(g for g in range(10) if int(out.extra[g, col]) == R.OUT_SIX)
    assert "END: six_hauntings (all 3 haunting pieces on the board)" in sc.spec.replay(sc, g)
