"""A run's "At skill" block: its scenario played again with every seat on the game's learned player, and each
headline figure beside the scripted one with a verdict (`sim.model.skill_spec` sizes and seats the table,
`sim.stats.at_skill` judges it). What `sim run --at-skill`, `sim run-defaults` and ``sim.run(..., at_skill=True)``
add to summary.json (``at_skill``), at_skill.parquet, the report and the terminal."""

from __future__ import annotations

import time
from collections.abc import Callable

from sim.model.fidelity import for_scenario
from sim.model.scenario import Scenario
from sim.model.skill_spec import SKILL_GAMES_KEY, skill_table
from sim.play.context import RunContext
from sim.play.work import Executor
from sim.stats.records import SummaryFigures


def at_skill(
    sc: Scenario,
    s: dict,
    games: int | None = None,
    chunk: int | None = None,
    executor: Executor | None = None,
    ctx: RunContext | None = None,
    margins: dict[str, float] | None = None,
) -> dict:
    """The ``at_skill`` block of run summary ``s`` of ``sc`` (as played: its games and seed). ``games``: the table's
    games (None: the scenario's ``skill_games`` or the default size; 0: none). Plays through the one play path
    (`sim.api.core.play_scenario`, not written; the seed and game indices 0..n-1 of the run: the same dice), on
    ``executor`` with ``ctx``'s threads and cancellation (no progress, no arc).

    Returns {status: "played" | "not played", why (one line), strategy, games, target_games (+/-1 point),
    trained_players, seed, figures (`sim.stats.at_skill.compare`), seats [{seat, strategy, win rate, ci95}],
    wall_s, fidelity (`sim.model.fidelity.for_scenario`: the committed check against a search table)}. Raises KeyboardInterrupt (`Cancelled`) when stopped."""
    from sim.api import core
    from sim.play import runner
    from sim.stats import at_skill as stats

    t = skill_table(sc, games)
    base = {"target_games": t.target, "why": t.why, "key": SKILL_GAMES_KEY}
    if t.scenario is None:
        return {"status": "not played", "games": 0, **base}
    t0 = time.perf_counter()
    run_ctx = (ctx or RunContext()).with_(progress=None, progress_sides=None, arc=False)
    sk, _, _ = core.play_scenario(
        t.scenario, t.games, sc.seed, chunk=chunk or runner.DEFAULT_CHUNK, write=False, executor=executor, ctx=run_ctx
    )
    strategy = sorted({seat.strategy for seat in t.scenario.seats})
    name = strategy[0] if len(strategy) == 1 else " / ".join(strategy)
    figures = stats.compare(s, sk, name, margins, sc.spec.role_title, SKILL_GAMES_KEY)
    counts = SummaryFigures.of(sk).games
    return {
        "status": "played",
        "strategy": name,
        "games": t.games,
        "finished": counts.finished,
        "truncated": counts.truncated,
        "trained_players": list(t.trained_players),
        "seed": sc.seed,
        "figures": figures,
        "seats": [
            {"seat": r["seat"], "strategy": r["strategy"], "role": r["role"], "win": r["win"]} for r in sk["seats"]
        ],
        "team": sk.get("team"),
        "wall_s": round(time.perf_counter() - t0, 3),
        "fidelity": for_scenario(sc),  # the committed check against a search table (sim fidelity)
        **base,
    }


def extender(
    games: int | None, chunk: int | None, executor: Executor | None, ctx: RunContext | None
) -> Callable[[Scenario, dict], None]:
    """What adds the "At skill" block to a run's summary (`core.play_scenario`'s ``extend``): `at_skill` of the
    scenario as played, with ``games`` (None: its skill_games or the default size), ``chunk``, ``executor``, ``ctx``."""

    def extend(played: Scenario, s: dict) -> None:
        s["at_skill"] = at_skill(played, s, games, chunk, executor, ctx)

    return extend
