"""`sim replay`: one game step by step, from its seed and index."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from sim.cli import shared
from sim.cli.common import (
    check_run_options,
    in_range,
    interruptible,
)
from sim.cli.shared import ReplaySets


def replay(
    scenario: Annotated[Path, typer.Argument(help="scenario TOML file")],
    game: Annotated[int | None, typer.Option(help="game index (as in a batch run; default 0, said on stderr)")] = None,
    seed: Annotated[int | None, typer.Option(help="master seed (default: the scenario's)")] = None,
    sets: ReplaySets = None,
):
    """Print one game turn by turn in words.

    Identical to game GAME of a batch run with the same seed (and the same
    --set); it ends with the scores, how a tied top score was settled and the
    winner.

    Example:

        sim replay scenarios/moor/4p.toml --game 7
    """
    chosen = game is not None
    game = 0 if game is None else game
    in_range("game", game, 0, 2**62 - 1)
    check_run_options(seed=seed)
    sc = shared.load_scenario(scenario, sets, seed=seed, command="sim replay")
    if not chosen:  # not refused: any game is a fair sample, but the reader is told which one
        typer.echo(
            "note: no --game given, so this is game 0 (the first of a batch run); --game I replays game I", err=True
        )
    if seed is not None:
        sc = sc.with_changes(seed=seed)
    from sim.api import core as api
    from sim.play import progress

    with (
        interruptible("nothing written (a replay prints the game, it writes no file)"),
        progress.said_if_slow(
            "loading or compiling the replay kernel (up to about 20 s on the first run after a change) ..."
        ),
    ):
        lines = api.replay(sc, game)
    typer.echo("\n".join(lines))
