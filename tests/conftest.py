"""Shared fixtures: small scenarios built in memory."""

from __future__ import annotations

import pytest

from sim.model import scenario


def moor(players: int = 4, strategies=("weighted",), games: int = 2000, seed: int = 7, **params):
    seats = [{"strategy": strategies[i % len(strategies)]} for i in range(players)]
    return scenario.from_dict(
        {
            "scenario": {"game": "moor", "players": players, "games": games, "seed": seed},
            "params": params,
            "seats": seats,
        },
        name=f"moor-test-{players}p",
    )


@pytest.fixture
def moor_sc():
    return moor
