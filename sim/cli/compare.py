"""`sim compare`: two scenarios on common random numbers, a verdict per measure."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from sim.cli import shared
from sim.cli import sweep as cli_sweep
from sim.cli.common import (
    EXIT_USAGE,
    after_write,
    fail,
    interruptible,
    run_context,
    usage,
)


def compare(  # --help lists them so: A and B, when to stop, the verdict, the arc, the output, where it plays
    a: Annotated[Path, typer.Argument(help="scenario A (TOML)")],
    b: Annotated[
        Path | None, typer.Argument(help="scenario B (TOML), same game (default: A, changed by --set-b)")
    ] = None,
    sets_a: Annotated[list[str] | None, typer.Option("--set-a", help="NAME=VALUE: override in A only")] = None,
    sets_b: Annotated[
        list[str] | None,
        typer.Option("--set-b", help="NAME=VALUE: override in B only; without B: compare A with A changed so"),
    ] = None,
    sets: Annotated[
        list[str] | None, typer.Option("--set", help="NAME=VALUE: override in both A and B (see sim run --help)")
    ] = None,
    games: Annotated[
        int | None,
        typer.Option(help="games each (default: A's); not with --precision or --sprt (they decide when to stop)"),
    ] = None,
    precision: Annotated[
        float | None,
        typer.Option(help="play on until every win-rate difference's 95% interval half-width is <= this (e.g. 0.005)"),
    ] = None,
    sprt: Annotated[
        float | None,
        typer.Option(
            help="SPRT effect size: H0 diff = 0 vs H1 diff = this "
            "(one-sided), alpha = beta = 0.05 (e.g. 0.01 = +1 "
            "point); not with --precision"
        ),
    ] = None,
    metric: Annotated[
        str | None, typer.Option(help="measure the SPRT watches (default: first_player.win, or the team win rate)")
    ] = None,
    two_sided: Annotated[
        bool, typer.Option("--two-sided", help="SPRT against a change of +|effect| or -|effect| (each side at alpha/2)")
    ] = False,
    max_games: Annotated[int | None, typer.Option(help="game cap for --precision / --sprt (default 2000000)")] = None,
    alpha: Annotated[float, typer.Option(help="family-wise significance level (Holm)")] = 0.05,
    margin: Annotated[
        list[str] | None,
        typer.Option(
            "--margin",
            help="MEASURE=VALUE: the change that matters for a measure (percentage points for rates, seat_spread and "
            "first_player_advantage too; default 1 point for rates, 2% for lengths, 5% for counts)",
        ),
    ] = None,
    arc: Annotated[
        bool, typer.Option("--arc", help="also compare the game's arc measures (lead changes, comebacks, ...)")
    ] = False,
    sample: Annotated[
        int,
        typer.Option(
            help="with --arc: also the win-probability timelines of this many games of A and B, their rollout "
            "measures (decided at, tips at, comebacks by chance) compared game by game (0: none)"
        ),
    ] = 0,
    rollouts: Annotated[int, typer.Option(help="with --sample: rollouts a state (as sim arc)")] = 32,
    seed: Annotated[int | None, typer.Option(help="common seed (default: A's)")] = None,
    out: Annotated[Path | None, typer.Option(help="report folder (default: reports/compare-<A>-vs-<B>)")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="print the comparison JSON to stdout")] = False,
    threads: Annotated[int | None, typer.Option(help="Numba threads (default: all cores)")] = None,
    chunk: Annotated[int, typer.Option(help="games per chunk (stopping rules are checked per chunk)")] = 10_000,
    workers: Annotated[int | None, typer.Option(help=cli_sweep.WORKERS_HELP)] = None,
    scheduler: Annotated[str | None, typer.Option(help=cli_sweep.SCHEDULER_HELP)] = None,
):
    """Did a rule change matter? Compare two scenarios on common random numbers.

    Per measure both values, B - A with its paired 95% interval and a verdict:
    unchanged within its margin (an equivalence test), changed (significant
    after Holm, its interval past the margin), or cannot tell yet (with about how many
    more games would decide). The seat spread (highest seat win rate minus
    the lowest) is judged by a paired bootstrap over the games. Writes
    compare.html, compare.md and compare.json. One stopping rule: --games,
    --precision or --sprt.

    Example:

        sim compare scenarios/moor/4p.toml --set-b tiebreak=shared --games 50000
        sim compare scenarios/moor/4p.toml scenarios/moor/mixed.toml --sprt 0.01
    """
    import sim.api.public as api
    from sim.output.report import OutputError, prepare_output
    from sim.pages import compare_page
    from sim.play import progress
    from sim.stats import compare as cmp

    opts = usage(
        api.CompareOptions(
            games=games,
            seed=seed,
            precision=precision,
            sprt=sprt,
            metric=metric,
            two_sided=two_sided,
            max_games=max_games,
            alpha=alpha,
            threads=threads,
            chunk=chunk,
            workers=workers,
            scheduler=scheduler,
            margins=tuple(margin or ()),
            sample=sample,
            rollouts=rollouts,
        ).validate
    )
    if sample and not arc:
        fail("--sample: the arc's timelines are compared with --arc; add --arc", EXIT_USAGE)
    if b is None and not sets_b:
        fail(
            "missing scenario B: give B (a scenario file), or --set-b NAME=VALUE to compare A with A changed so (see sim "
            "compare --help)",
            EXIT_USAGE,
        )
    if b is not None:  # two games: said before either game's kernels load (that can take a minute)
        named = [_game_named(p) for p in (a, b)]
        if None not in named and named[0] != named[1]:
            fail(f"cannot compare different games: A is '{named[0]}', B is '{named[1]}'")
    sa = shared.load_scenario(a, sets, games, seed, (("--set-a", sets_a),), "sim compare")
    sb = shared.load_scenario(b or a, sets, games, seed, (("--set-b", sets_b),), "sim compare")
    try:
        cmp.check_comparable(sa, sb)
    except cmp.CompareError as e:
        fail(str(e))
    if sample:
        from sim.api.arc import check_arc_sample

        for sc in (sa, sb):
            usage(check_arc_sample, sc, sample, rollouts, sa.games if games is None else games)
    folder, what = api.compare_folder(sa, sb, out)
    try:
        prepare_output(folder, what)  # refuse a bad or unwritable --out (a full disk) before playing
    except OutputError as e:
        fail(str(e))
    total = opts.cap() if opts.adaptive else (sa.games if games is None else games)
    prog, adv, side = progress.compare_bar(total, f"{sa.name} vs {sb.name}")  # each side's games/s apart
    with interruptible():  # Ctrl-C / SIGTERM: one line, exit 130 / 143, nothing written
        try:
            with cli_sweep.cluster(workers, scheduler, threads) as ex, prog:  # the games line, then the pages' time
                res = api.compare(
                    sa,
                    sb,
                    **opts.keywords(),
                    out=folder,
                    ctx=run_context(threads, adv, side).with_(arc=arc),
                    executor=ex,
                    on_played=lambda: prog.played("the comparison"),
                ).raw
        except cmp.CompareError as e:
            fail(str(e), EXIT_USAGE)
    after_write(folder)
    typer.echo(json.dumps(res, indent=2) if json_out else compare_page.render_markdown(res))
    typer.echo(f"comparison written to {folder}", err=True)


def _game_named(path: Path) -> str | None:
    """The game a scenario file names (its [scenario] game), read without loading it; None when the file cannot be
    read so (the load that follows says why, in its own words)."""
    from sim.model.scenario import ScenarioError, read

    try:
        game = read(path).get("scenario", {}).get("game")
    except (ScenarioError, AttributeError):
        return None
    return game if isinstance(game, str) else None
