"""The game's arc (issue 39), `sim arc`: a scenario played with the game's arc recorded (each seat's progress by
round: the cheap curves and their measures, `sim.stats.arc`), then win-probability timelines of a sample of its
games by rollouts (`sim.play.arc`), written into its report folder with the section "How the game unfolds"."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from sim.api.core import _summary, default_what, report_folder, write_report
from sim.api.options import OptionError, in_range
from sim.model.scenario import Scenario
from sim.output import report
from sim.play import runner, work
from sim.play.context import RunContext

DEFAULT_SAMPLE = 200  # games whose timelines are estimated (`make run` sized: Moor's take about 20 s on 2 cores)
DEFAULT_ROLLOUTS = 32  # rollouts per state: a state's estimate is within about 17 points at 50% (95%)
MAX_SAMPLE = 100_000
MAX_ROLLOUTS = 4096


def check_arc_options(sample: int | None, rollouts: int | None, games: int | None) -> None:
    """--sample 0..min(games, MAX_SAMPLE) (0: no timelines), --rollouts 1..MAX_ROLLOUTS. Raises OptionError."""
    in_range("sample", sample, 0, MAX_SAMPLE)
    in_range("rollouts", rollouts, 1, MAX_ROLLOUTS)
    if sample is not None and games is not None and sample > games:
        raise OptionError(f"--sample: at most the games played (--games {games}), got {sample}")


def team_groups(sc: Scenario) -> dict[str, list[int]] | None:
    """A team game's teams ({label: seats}) for its timelines (one chance per team), None for a competitive one
    (`sim.stats.arc_tips.team_groups`: a team holding every seat plays against the game itself, its house)."""
    from sim.stats.arc_tips import team_groups as groups

    return groups(sc.spec, sc.params, sc.players)


def arc_run(
    sc: Scenario,
    games: int | None = None,
    sample: int = DEFAULT_SAMPLE,
    rollouts: int = DEFAULT_ROLLOUTS,
    seed: int | None = None,
    threads: int | None = None,
    out_dir: str | Path | None = None,
    ctx: RunContext | None = None,
    on_played: Callable[[], None] | None = None,
    on_sample: Callable[[int], None] | None = None,
    skilled: bool = False,
) -> tuple[dict, Path]:
    """Play ``sc`` with its arc recorded and write its report folder with the section "How the game unfolds":
    the cheap per-round curves and measures of every game, and (``sample`` > 0) the win-probability timelines of
    games 0 .. sample - 1 estimated with ``rollouts`` rollouts a state. ``on_played()`` once the games are played,
    ``on_sample(k)`` as timelines are done; ``skilled``: the game's learned players play the rollouts
    (`sim.play.arc.rollout_table`). Returns (summary dict, report folder). Raises OptionError (a bad option, timelines
    asked of a scenario that has none: a search seat, or skilled rollouts of a game without learned players),
    OutputError, and KeyboardInterrupt when stopped (nothing left behind then)."""
    from sim.play.arc import timelines
    from sim.stats.arc import timeline_summary

    games = sc.games if games is None else games
    seed = sc.seed if seed is None else seed
    if not sc.spec.arc_len:
        raise OptionError(f"sim arc: {sc.spec.title} records no arc (its game module declares no arc_len)")
    check_arc_sample(sc, sample, rollouts, games)
    if skilled:
        check_skilled(sc, sample)
    sc = sc.with_changes(games=games, seed=seed)
    ctx = (ctx or RunContext(threads=threads)).with_(arc=True)
    final = report_folder(sc, out_dir)
    with report.staged_dir(final, default_what(sc, out_dir)) as tmp:
        res = work.play_games(sc, games, seed, runner.DEFAULT_CHUNK, None, ctx)
        if on_played is not None:
            on_played()
        s = _summary(sc, res, runner.DEFAULT_CHUNK)
        if sample and s.get("arc"):
            import time

            t0 = time.perf_counter()
            tl = timelines(sc, sample, rollouts, seed, ctx.threads, on_sample, skilled)
            s["arc"]["timeline"] = timeline_summary(tl, sc.players, rollouts, team_groups(sc))
            s["arc"]["timeline"]["rollout_players"] = "learned" if skilled else "table"
            s["arc"]["timeline"]["seconds"] = round(time.perf_counter() - t0, 2)
        write_report(tmp, s)
    return s, final


def check_skilled(sc: Scenario, sample: int) -> None:
    """--skilled needs timelines (--sample > 0) and a learned player for every role of ``sc``. Raises OptionError."""
    from sim.play.arc import rollout_table

    if not sample:
        raise OptionError("--skilled: the learned players play the timelines' rollouts; give --sample > 0")
    try:
        rollout_table(sc)
    except ValueError as e:
        raise OptionError(f"--skilled: {e}") from None


def check_arc_sample(sc: Scenario, sample: int, rollouts: int, games: int) -> None:
    """Whether ``sc`` can have ``sample`` timelines of ``rollouts`` rollouts a state among ``games`` games: the
    options' ranges (`check_arc_options`), a game that records an arc, no search seat. Raises OptionError."""
    from sim.model.search import has_search

    check_arc_options(sample, rollouts, games)
    if sample and not sc.spec.arc_len:
        raise OptionError(f"--sample: {sc.spec.title} records no arc (its game module declares no arc_len)")
    if sample and has_search(sc):
        raise OptionError("--sample: a scenario with a search seat has no timelines yet (give --sample 0)")


def compare_arc(
    sa: Scenario,
    sb: Scenario,
    sample: int,
    rollouts: int,
    seed: int,
    alpha: float,
    margins: dict[str, float],
    threads: int | None = None,
) -> dict:
    """`sim compare --arc --sample`: the win-probability timelines of games 0 .. sample - 1 of A and of B (the same
    games and rollout seeds: common random numbers), their rollout measures compared game by game with verdicts
    (`sim.stats.arc.compare_timelines`); ``seconds`` what the timelines took."""
    import time

    from sim.play.arc import timelines
    from sim.stats.arc import compare_timelines

    t0 = time.perf_counter()
    ta = timelines(sa, sample, rollouts, seed, threads)
    tb = timelines(sb, sample, rollouts, seed, threads)
    out = compare_timelines(ta, tb, sa.players, rollouts, team_groups(sa), alpha, margins)
    out["seconds"] = round(time.perf_counter() - t0, 2)
    return out
