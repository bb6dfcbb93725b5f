"""`sim train` (thin over `sim.api.train`): expert iteration for a game's learned player (kept out of
sim/cli/main.py, which registers it)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from sim.cli.common import EXIT_BAD_INPUT, EXIT_USAGE, fail, interruptible
from sim.model.values import out_of_range


def train(
    game: Annotated[str, typer.Argument(help="the game whose learned player to train")],
    role: Annotated[str | None, typer.Option(help="the role to train (default: the game's first learned role)")] = None,
    seed: Annotated[int, typer.Option(help="master seed: the weights depend only on it and the options below")] = 1,
    iterations: Annotated[int, typer.Option(help="expert iterations (search, record, fit, repeat)")] = 4,
    games: Annotated[int, typer.Option(help="training games per iteration, every seat of the role searching")] = 40,
    budget: Annotated[int, typer.Option(help="the search's rollouts per decision in training games")] = 64,
    eval_games: Annotated[
        int,
        typer.Option(
            help="games per iteration measuring the learned player against the best scripted strategy (one learned "
            "seat; for a team or a one-seat role, its win rate against the scripted one's on the same games); as "
            "many again for the self-play figure and for each step the step search tries"
        ),
    ] = 20_000,
    l2: Annotated[float, typer.Option(help="L2 penalty of the fit (softmax, or the action values' ridge)")] = 1e-3,
    states: Annotated[
        str,
        typer.Option(
            metavar="search|learned",
            help="who plays the training games from the second iteration on: search (its choices) or learned (the "
            "previous iteration's policy plays, the search only labels the states it reaches: DAgger)",
        ),
    ] = "search",
    threads: Annotated[int, typer.Option(help="threads playing training games (the weights do not depend on it)")] = 1,
    out: Annotated[
        Path | None, typer.Option(help="report and checkpoint folder (default: reports/train/<game>-<role>)")
    ] = None,
    install: Annotated[
        bool, typer.Option(help="also write the policy as the game's shipped weights (kernels/<game>/policies/)")
    ] = False,
    workers: Annotated[
        int | None, typer.Option(help="play the training games on a Dask LocalCluster of N worker processes")
    ] = None,
    scheduler: Annotated[
        str | None,
        typer.Option(help="play them on an existing Dask cluster (tcp://HOST:8786; default: $DASK_SCHEDULER_ADDRESS)"),
    ] = None,
):
    """Train a game's learned player by expert iteration.

    Each iteration plays games where search decides (its rollouts played by the
    current policy), records the features of every legal action and the search's
    visit counts and rollout wins, fits the policy to them (a softmax policy
    imitating the search, or, in Galleon and for the Treasure Hunters' hunters,
    each action's rollout win rate, each iteration to its own decisions, then
    from the second iteration on the step toward that fit that wins most) and
    makes it the next rollout policy. Writes a training report (strength per
    iteration against the best scripted strategy, with Wilson intervals, and where
    every seat is of the role and no team, from the second iteration on, in
    self-play against the iteration before) and a
    checkpoint per iteration: run
    the same command again after Ctrl-C to carry on. The trained policy is
    written to the --out folder (policy.json); --install also makes it the
    game's shipped weights (kernels/<game>/policies/, a change to the
    repository: retrain after a rules change, then commit it). --workers N or
    --scheduler plays the training games on Dask (one task a game): the same
    weights as in this process. --states learned (DAgger): from the second
    iteration on, the previous iteration's policy plays the training games and
    the search only labels the decisions it meets.

    Example:

        sim train moor --seed 1 --iterations 4 --games 40 --budget 64
        sim train moor --seed 1 --iterations 4 --games 40 --budget 64 --workers 2
        sim train moor --seed 1 --iterations 4 --games 40 --states learned
    """
    from sim.api.train import TrainConfig, TrainError, TrainOutError
    from sim.api.train import train as run

    cfg = TrainConfig(game, role or "", seed, iterations, games, budget, eval_games, l2, states)
    try:
        from sim.api.train import learner_of

        _, learner = learner_of(game, role)
        cfg = TrainConfig(game, learner.role, seed, iterations, games, budget, eval_games, l2, states)
        if threads < 1:
            raise TrainError(out_of_range("--threads", threads, 1))
        from sim.api.train import check_config
        from sim.cli.sweep import cluster

        check_config(cfg)  # before a cluster starts
        from sim.api.train import default_out

        state = (out or default_out(cfg)) / "checkpoint" / "state.json"

        def kept() -> str:  # what a stop leaves: the checkpoint of the iterations finished, or none yet
            if not state.exists():
                return "no iteration had finished, so none is kept: the same command starts again"
            return "the iterations finished so far are kept in the checkpoint: run the same command to go on"

        with interruptible(kept), cluster(workers, scheduler, 1) as ex:
            run(cfg, out, threads, install, say=lambda line: typer.echo(line, err=True), executor=ex)
    except TrainOutError as e:
        fail(str(e), EXIT_BAD_INPUT)  # as every command's refused --out
    except TrainError as e:
        fail(str(e), EXIT_USAGE)
    sys.stderr.flush()
