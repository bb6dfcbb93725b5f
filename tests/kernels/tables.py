"""Helpers the games' kernel tests share: a table built in memory, and every per-game output of a batch run."""

from __future__ import annotations

import numpy as np

from sim.model.scenario import Scenario, from_dict
from sim.play import work


def table(game: str, tag: str, n: int, strategies, games: int, seed: int, params=None, seat_params=None) -> Scenario:
    """An ``n``-player scenario of ``game`` in memory: strategies repeat round the table, each seat with its
    ``seat_params`` entry (default none)."""
    seat_params = seat_params or [{}] * n
    return from_dict(
        {
            "scenario": {"name": f"{tag}-test-{n}p", "game": game, "players": n, "games": games, "seed": seed},
            "params": params or {},
            "seats": [{"strategy": strategies[i % len(strategies)], "params": seat_params[i]} for i in range(n)],
        }
    )


def per_game_outputs(sc: Scenario, threads: int, chunk: int) -> dict[str, np.ndarray]:
    """scores, winners, turns, status and extra of every game of ``sc``, played on ``threads`` in chunks of
    ``chunk`` (the determinism tests compare two of these)."""
    seen: dict[str, list] = {}

    def keep(out):
        for name in ("scores", "winners", "turns", "status", "extra"):
            seen.setdefault(name, []).append(getattr(out, name).copy())

    work.run(sc, threads=threads, chunk=chunk, on_chunk=keep)
    return {k: np.concatenate(v) for k, v in seen.items()}
