"""`sim run` and `sim run-defaults`: play a scenario (or every default one) and write its report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from sim.cli import ladder as cli_ladder
from sim.cli import shared
from sim.cli import sweep as cli_sweep
from sim.cli import tune as cli_tune
from sim.cli.common import (
    EXIT_USAGE,
    SCENARIOS,
    after_write,
    check_run_options,
    fail,
    in_range,
    interruptible,
    known_game,
    run_context,
    usage,
)
from sim.cli.shared import Sets, progress_bar, warn_if_replacing
from sim.stats.records import GameCounts, SummaryFigures


def run(
    scenario: Annotated[Path, typer.Argument(help="scenario TOML file")],
    games: Annotated[int | None, typer.Option(help="games to play (default: the scenario's)")] = None,
    seed: Annotated[int | None, typer.Option(help="master seed (default: the scenario's)")] = None,
    threads: Annotated[int | None, typer.Option(help="Numba threads (default: all cores)")] = None,
    chunk: Annotated[int, typer.Option(help="games per chunk (memory bound; results do not depend on it)")] = 1 << 16,
    out: Annotated[Path | None, typer.Option(help="report folder (default: reports/<scenario name>)")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="print the summary JSON to stdout")] = False,
    per_game: Annotated[bool, typer.Option("--per-game", help="also write per-game rows to games.parquet")] = False,
    workers: Annotated[int | None, typer.Option(help=cli_sweep.WORKERS_HELP)] = None,
    scheduler: Annotated[str | None, typer.Option(help=cli_sweep.SCHEDULER_HELP)] = None,
    arc: Annotated[
        bool, typer.Option("--arc", help="also record the game's arc: the report's \"How the game unfolds\" (sim arc)")
    ] = False,
    at_skill: Annotated[
        bool,
        typer.Option(
            "--at-skill",
            help="also play it with every seat on the game's learned player: the report's \"At skill\" section",
        ),
    ] = False,
    skill_games: Annotated[
        int | None,
        typer.Option(
            help="games at skill (implies --at-skill; default: the scenario's skill_games, else enough for +/-1 "
            "point, at most the scenario's games; 0: none)"
        ),
    ] = None,
    sets: Sets = None,
):
    """Play a scenario and write its report.

    The report folder, reports/<scenario name>/ or --out: summary.json,
    summary.md, summary.html (the balance report), balance.md, plots/,
    provenance.json, and games.parquet with --per-game. The numbers depend only
    on the seed, the scenario and the game index: not on threads, chunk size or
    machine.

    Example:

        sim run scenarios/moor/4p.toml --games 20000
        sim run scenarios/moor/4p.toml --set seats.3.strategy=runner --set track_len=32
        sim run scenarios/moor/4p.toml --at-skill
    """
    check_run_options(games, threads, chunk, seed)
    from sim.api.options import RunOptions

    usage(RunOptions(skill_games=skill_games).validate)
    sc = shared.load_scenario(scenario, sets, games, seed, command="sim run")
    import sim.api.public as api
    from sim.pages import tables

    n = sc.games if games is None else games
    warn_if_replacing(sc, out, games, seed)
    prog, adv = progress_bar(n, f"{sc.name}")
    with interruptible(), cli_sweep.cluster(workers, scheduler, threads) as ex, prog:
        ctx = run_context(threads, adv).with_(arc=arc)
        r = api.run(
            sc,
            games=games,
            seed=seed,
            threads=threads,
            chunk=chunk,
            per_game=per_game,
            at_skill=at_skill,
            skill_games=skill_games,
            write=True,
            out=out,
            ctx=ctx,
            executor=ex,
            on_played=prog.played,
        )
    s, folder = r.raw, r.folder
    assert folder is not None  # write=True: the report folder is written
    after_write(folder)
    if json_out:
        typer.echo(json.dumps(s, indent=2))
    else:
        typer.echo(tables.render_markdown(s))
    typer.echo(f"report written to {folder}", err=True)


def arc(
    scenario: Annotated[Path, typer.Argument(help="scenario TOML file")],
    games: Annotated[int | None, typer.Option(help="games to play (default: the scenario's)")] = None,
    sample: Annotated[int, typer.Option(help="games whose win-probability timelines are estimated (0: none)")] = 200,
    rollouts: Annotated[int, typer.Option(help="rollouts per state (round) of a sampled game")] = 32,
    seed: Annotated[int | None, typer.Option(help="master seed (default: the scenario's)")] = None,
    threads: Annotated[int | None, typer.Option(help="Numba threads (default: all cores)")] = None,
    out: Annotated[Path | None, typer.Option(help="report folder (default: reports/<scenario name>)")] = None,
    sets: Sets = None,
    skilled: Annotated[
        bool,
        typer.Option("--skilled", help="the game's learned players play the rollouts (not the table's strategies)"),
    ] = False,
):
    """Play a scenario with the game's arc and write its report.

    The report (as sim run writes it) gains the section "How the game
    unfolds": each seat's score by round (median and 5-95% band), who leads
    by round, lead changes, when the winner pulls clear, comebacks and the
    chances at half-time, with 95% intervals; and, for --sample games, each
    seat's chance of winning after every round, estimated by --rollouts
    rollouts from that state (the table's own strategies play them, or
    with --skilled the game's learned players; what no outside observer
    sees is re-dealt). Results depend only on the seed, the scenario and
    the game index. See docs/guide/arc.md.

    Example:

        sim arc scenarios/moor/4p.toml --games 20000 --sample 200 --rollouts 32
        sim arc scenarios/moor/4p.toml --sample 200 --skilled
    """
    check_run_options(games, threads, None, seed)
    from sim.api.arc import arc_run, check_arc_options
    from sim.api.options import OptionError

    usage(check_arc_options, sample, rollouts, games)  # before the game's kernels load (that can take a minute)
    sc = shared.load_scenario(scenario, sets, games, seed, command="sim arc")
    from sim.pages import arc_page

    n = sc.games if games is None else games
    usage(check_arc_options, sample, rollouts, n)
    warn_if_replacing(sc, out, games, seed)
    prog, adv = progress_bar(n, f"{sc.name}")
    said = []

    def on_sample(k: int) -> None:
        said.append(k)
        if len(said) == 1 or len(said) % max(1, sample // 10) == 0 or len(said) == sample:
            prog.say(f"{sc.name}: timelines {len(said)}/{sample} games ({rollouts} rollouts a round)")

    try:
        with interruptible(), prog:
            s, folder = arc_run(
                sc, games, sample, rollouts, seed, threads, out, run_context(threads, adv), prog.played, on_sample,
                skilled=skilled,
            )  # fmt: skip
    except OptionError as e:
        fail(str(e), EXIT_USAGE)
    after_write(folder)
    for line in arc_page.sentences(s):
        typer.echo(line)
    typer.echo(f"report written to {folder}", err=True)


def run_defaults(
    games: Annotated[
        int | None,
        typer.Option(
            help="games per scripted scenario and per sweep point (default: each file's); a scenario with a search "
            "seat keeps its own (see --search-games)"
        ),
    ] = None,
    search_games: Annotated[
        int | None,
        typer.Option(
            help="games per scenario with a search seat (default: each file's own, a few hundred: a search seat plays "
            "far slower than a scripted one)"
        ),
    ] = None,
    game: Annotated[str | None, typer.Option(help="only this game's scenarios")] = None,
    tunes: Annotated[
        bool,
        typer.Option("--tunes", help="also play the default tunes of scenarios/<game>/tunes/ (not in make run)"),
    ] = False,
):
    """Play every default scenario and sweep and write their reports (what `make run` does).

    Each scenario's report has the game's arc ("How the game unfolds", as
    sim run --arc: the win-probability timelines are sim arc's) and its
    headline figures at skill ("At skill", as sim run --at-skill: every seat
    on the game's learned player, where the game has one).

    The scenarios of scenarios/<game>/, then the sweeps of
    scenarios/<game>/sweeps/, then one small skill ladder per game (about
    6,000 games; sim ladder GAME plays a full one), with --tunes then the
    tunes of scenarios/<game>/tunes/, then reports/index.html, which links
    every report with its headline figures.

    --games N applies to the scripted scenarios and the sweeps' points: a
    scenario with a search seat (search-4p.toml) keeps the few hundred games
    of its file (a search seat plays far slower than a scripted one); give
    --search-games N for those. The tunes and ladders keep their own.

    Example:

        sim run-defaults --game moor --games 20000
        sim run-defaults --game moor --games 20000 --search-games 1000
    """
    known_game(game)
    if games is not None:
        check_run_options(games)
    from sim.model.scenario import MAX_GAMES

    in_range("search-games", search_games, 1, MAX_GAMES)
    import sim.api.public as api
    from sim.pages import skill_page, tables

    files = sorted(p for p in SCENARIOS.glob("*/*.toml") if game is None or p.parent.name == game)
    if not files:
        fail(f"no scenarios found under {SCENARIOS}" + (f"/{game}" if game else ""))
    from sim.api.warm import warm_kernels

    with interruptible():  # every game's kernels compiled first, on both cores (sim.api.warm)
        took = warm_kernels(files, say=lambda line: typer.echo(line, err=True))
    typer.echo(f"kernels ready in {took:.0f} s", err=True)
    written = []
    for f in files:
        sc = shared.load_scenario(f)
        n = default_games(sc, games, search_games)
        if n != games and games is not None:
            typer.echo(f"{f.relative_to(SCENARIOS)}: a search seat: {n:,} games (--games applies to the scripted "
                       "scenarios; --search-games sets these)", err=True)  # fmt: skip
        warn_if_replacing(sc, None, n)
        prog, adv = progress_bar(n, sc.name)
        with interruptible(), prog:
            # with the game's arc (the cheap curves: "How the game unfolds"; sim arc adds the timelines)
            ctx = run_context(None, adv).with_(arc=True)
            # and at skill: every seat on the game's learned player (the report's "At skill")
            r = api.run(sc, games=n, write=True, ctx=ctx, on_played=prog.played, at_skill=True)
        s, folder = r.raw, r.folder
        assert folder is not None  # write=True: the report folder is written
        seats = tables.one_line(s)
        g = SummaryFigures.of(s).games  # the progress line above gave the time and games/s
        typer.echo(
            f"{f.relative_to(SCENARIOS)}: {g.played:,} game{'' if g.played == 1 else 's'}"
            f"{unfinished(g)}; {seats} -> {folder}"
        )
        if at := skill_page.one_line(s):
            typer.echo(f"  {at}")
        written.append((folder, s))
    sweeps = cli_sweep.run_default_sweeps(game, games)  # scenarios/<game>/sweeps/*.toml
    cli_ladder.run_default_ladders(game)  # one small ladder per game (the index finds it on disk)
    tuned = cli_tune.run_default_tunes(game) if tunes else []  # scenarios/<game>/tunes/*.toml, their own counts
    from sim.pages import index_page

    typer.echo(f"index of the reports: {index_page.write(written, sweeps, tunes=tuned)}")


def default_games(sc, games: int | None, search_games: int | None) -> int:
    """The games `sim run-defaults` plays scenario ``sc``: a scenario with a search seat ``search_games`` (default:
    its file's own: a ``--games`` sized for scripted play would take hours there), any other ``games`` (default: its
    file's)."""
    from sim.model.search import has_search

    given = search_games if has_search(sc) else games
    return sc.games if given is None else given


def unfinished(g: GameCounts) -> str:
    """' (4,990 finished, 10 stopped at the turn cap)' for the summary's ``games`` block (truncated and errors
    counted apart: a designer raises max_turns for the one, reports a bug for the other); '' when every game
    finished."""
    if g.finished == g.played:
        return ""
    parts = [
        f"{g.truncated:,} stopped at the turn cap, max_turns" if g.truncated else "",
        f"{g.errors:,} ended in an error" if g.errors else "",
    ]
    return f" ({g.finished:,} finished, {', '.join(x for x in parts if x)})"
