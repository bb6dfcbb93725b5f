"""`sim bench`: speed figures (games/s, decisions/s, compile and start-up times)."""

from __future__ import annotations

from typing import Annotated

import typer


def bench(
    games: Annotated[int, typer.Option(help="games per timing")] = 200_000,
    quick: Annotated[bool, typer.Option(help="smaller runs (smoke test)")] = False,
):
    """Speed benchmark: games/s, decisions/s, compile and start-up times.

    Games/s and decisions/s on 1 and 2 threads, the cold compile, the warm start
    and the kernel against the C reference program; each game's table of learned
    players against its scripted table (games/s, cold compile).

    Example:

        sim bench --quick
    """
    from sim.api import bench as b
    from sim.cli.common import in_range
    from sim.model.scenario import MAX_GAMES

    in_range("games", games, 1, MAX_GAMES)
    res = b.run_all(games=20_000 if quick else games, quick=quick)
    typer.echo(b.render(res))


# --- balance reports, A/B comparisons and regression checks (sim.pages.html_report, sim.stats.compare, sim.stats.check) -----------
