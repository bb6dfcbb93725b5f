"""`sim run-defaults --games N`: N is for the scripted scenarios (and the sweeps' points); a scenario with a search
seat keeps its file's few hundred games unless --search-games says otherwise (N = 20,000 there once announced
"3 h 05 min to go")."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.kernel  # loading a scenario loads its game's module
def test_games_apply_to_scripted_scenarios_and_search_ones_keep_their_own_unless_asked():
    from sim.api.public import load
    from sim.cli.run import default_games

    scripted, search = load(ROOT / "scenarios/moor/4p.toml"), load(ROOT / "scenarios/moor/search-4p.toml")
    assert default_games(scripted, 20_000, None) == 20_000
    assert default_games(search, 20_000, None) == search.games < 1_000
    assert default_games(search, 20_000, 1_000) == 1_000
    assert default_games(scripted, None, 1_000) == scripted.games
    assert (default_games(scripted, None, None), default_games(search, None, None)) == (scripted.games, search.games)
