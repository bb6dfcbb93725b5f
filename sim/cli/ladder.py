"""`sim ladder`: thin over `sim.api.ladder` (kept out of sim/cli/main.py, which registers it)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from sim.cli.sweep import SCHEDULER_HELP, UNIT_CHUNK_HELP, UNIT_THREADS_HELP, WORKERS_HELP
from sim.model import registry


def ladder(
    game: Annotated[str, typer.Argument(help=f"a game ({', '.join(registry.names())}) or a scenario file")],
    players: Annotated[int | None, typer.Option(help="players at every table (default: 4, or the file's)")] = None,
    strategies: Annotated[
        str | None,
        typer.Option(
            help="rungs: NAME or NAME:PARAM=VALUE,..., separated by ';' (or ','), e.g. "
            "'random;planner:recall_own=0.5' (default: random, every scripted strategy and, where the game has a "
            "learned player, learned and search at budgets 16, 64, 256 with learned rollouts)"
        ),
    ] = None,
    games: Annotated[
        int | None,
        typer.Option(
            help="games at each table, not in all: the ladder plays many tables (the default Turnwall ladder 225), and "
            "its first line says the games in all (default: 40,000 over the mixed tables, at least 200 a table; "
            "rounded up to a multiple of the players)"
        ),
    ] = None,
    balance_games: Annotated[
        int | None,
        typer.Option(
            help="games of each rung's own table, whose balance figures say whether balance holds for skill "
            "(default 16,000: a first-player advantage within +/-1 point of the reference decided at 4 players; --games when a rung is a search player)"
        ),
    ] = None,
    seed: Annotated[int | None, typer.Option(help="master seed (default: the scenario's)")] = None,
    margin: Annotated[
        list[str] | None,
        typer.Option(
            "--margin",
            help="FIGURE=VALUE: the change that matters for a balance figure (first_player_advantage, seat_spread "
            "in percentage points, default 1; length_turns in turns, default 2% of the reference)",
        ),
    ] = None,
    workers: Annotated[int | None, typer.Option(help=WORKERS_HELP)] = None,
    scheduler: Annotated[str | None, typer.Option(help=SCHEDULER_HELP)] = None,
    threads: Annotated[int | None, typer.Option(help=UNIT_THREADS_HELP)] = None,
    chunk: Annotated[int | None, typer.Option(help=UNIT_CHUNK_HELP)] = None,
    out: Annotated[Path | None, typer.Option(help="ladder folder (default: reports/ladder-<game>-<N>p)")] = None,
    fresh: Annotated[bool, typer.Option("--fresh", help="forget stored tables and play every table")] = False,
    json_out: Annotated[bool, typer.Option("--json", help="print ladder.json to stdout")] = False,
):
    """How much does skill matter? Rate strategies against each other.

    Every rung (a strategy, with parameters: planner:recall_own=0.5) plays every
    other in every seat and turn position equally often, all tables on the same
    games (common random numbers). Writes Elo ratings with 95% intervals
    (random = 0), the head-to-head matrix, the luck-versus-skill figures and
    whether each balance figure holds for skilled play to ladder.json,
    ladder.parquet and ladder.html. Co-operative Treasure Hunters: team win rate
    per rung; Head Haunter: Head Haunter rung x hunter rung. Resumable: rerun the
    command to finish an interrupted ladder.

    Example:

        sim ladder moor --games 2000 --strategies "random;runner;weighted:w_goal=1.5"
    """
    from sim.api.ladder import LadderError, build, with_margins
    from sim.api.ladder import ladder as api_ladder
    from sim.cli.common import EXIT_USAGE, check_run_options, fail, interruptible, run_context
    from sim.cli.sweep import cluster
    from sim.model.ladder_spec import split_rungs
    from sim.model.scenario import ScenarioError
    from sim.output.sweep_output import SweepOutputError

    check_run_options(games, threads, chunk, seed)
    if strategies is not None and any(not t.strip() for t in strategies.replace(";", ",").split(",")):
        fail(f"--strategies: empty rung in {strategies!r}; give NAME or NAME:PARAM=VALUE separated by ';'", EXIT_USAGE)
    rungs = split_rungs(strategies) if strategies is not None else None
    try:
        ld = with_margins(build(game, players, rungs, games, seed, balance_games), margin)
    except LadderError as e:
        fail(str(e), EXIT_USAGE)
    except ScenarioError as e:
        fail(str(e))
    from sim.output.ladder_output import folder_for, prepare
    from sim.play.ladder import stored_tables
    from sim.play.ladder_progress import Watch
    from sim.play.progress import bar

    total = ld.total_games
    folder = folder_for(ld, out)
    try:
        prepare(folder)  # a bad --out refused before the plan line and before any game
    except SweepOutputError as e:
        fail(str(e))
    typer.echo(opening_line(ld), err=True)
    stored = [] if fresh else stored_tables(ld, folder)
    if stored:  # a run of the same ladder stopped before its end: the bar counts the rest
        typer.echo(kept_line(ld, stored, folder), err=True)
        total -= sum(t.scenario.games for t in stored)
    prog, adv = bar(max(total, 1), ld.title())

    def watch(tables):
        w = Watch(tables, [r.text for r in ld.rungs], len(ld.tables))
        prog.lines.watch = w
        return w

    kept = (
        f"no ladder.json written; the tables finished so far are kept in {folder / 'points'}: "
        "the same command again plays only the missing ones"
    )
    try:
        with interruptible(kept), cluster(workers, scheduler, threads) as ex, prog:
            r = api_ladder(
                game,
                players=players,
                strategies=rungs,
                games=games,
                seed=seed,
                balance_games=balance_games,
                margin=margin,
                threads=threads,
                chunk=chunk,
                out=out,
                fresh=fresh,
                ctx=run_context(threads),
                executor=ex,
                advance=adv,
                on_played=getattr(prog, "played", None),
                command="sim ladder " + " ".join(_argv()),
                watch=watch,
                stored=[t.index for t in stored],
            )
    except SweepOutputError as e:
        fail(str(e))
    from sim.cli.common import after_write

    after_write(r.folder)
    if json_out:
        import json

        typer.echo(json.dumps(r.raw, indent=1))
    else:
        typer.echo(summary_text(r.raw))
    from sim.model.words import count

    typer.echo(
        f"ladder written to {r.folder} ({count(len(r.played), 'table')} played, {len(r.reused)} reused)", err=True
    )


def kept_line(ld, kept, folder) -> str:
    """'29 of 225 tables kept from an earlier run in FOLDER/points (8,700 games): playing the other 196 (58,800
    games; ...)': the ``kept`` tables (`sim.play.ladder.stored_tables`) of a run of the same ladder that stopped."""
    g = sum(t.scenario.games for t in kept)
    rest = len(ld.tables) - len(kept)
    return (
        f"{len(kept)} of {len(ld.tables)} tables kept from an earlier run in {folder / 'points'} ({g:,} games): "
        f"playing the other {rest} ({ld.total_games - g:,} games; --fresh plays them all again)"
    )


def opening_line(ld) -> str:
    """'ladder turnwall-4p: 225 tables, 450,000 games in all (2,000 a table, 2,000 at each rung's own table)':
    what --games adds up to, said before anything plays."""
    from sim.model.words import count

    mono = sum(1 for t in ld.tables if t.kind == "mono")
    own = f", {ld.balance_games:,} at each rung's own table" if mono and ld.balance_games != ld.games else ""
    return (
        f"{ld.title()}: {count(len(ld.tables), 'table')}, {ld.total_games:,} games in all ({ld.games:,} a table{own})"
    )


def _argv() -> list[str]:
    import shlex
    import sys

    args = sys.argv[1:]
    if args and args[0] == "ladder":
        args = args[1:]
    return [shlex.quote(a) for a in args]


def summary_text(d: dict) -> str:
    """What the terminal shows: ratings strongest first (or team rates / the matrix), the luck figures, verdicts."""
    from sim.model.words import count

    lines = [
        f"{d['title']}, {d['players']} players: {count(len(d['tables']), 'table')} x "
        f"{count(d['games_per_table'], 'game', grouped=True)}"
    ]
    from sim.pages.ladder_page import elo_interval, rate_with_interval
    from sim.stats.records import Estimate

    rt = d.get("rating")
    if rt:
        for i in rt["order"]:
            r = rt["ratings"][i]
            lines.append(f"  {r['rung']:<40} {r['elo']:+7.0f} Elo  ({elo_interval(d, i)})")
        lk = rt["luck"]
        if rt.get("never_won"):
            lines.append(
                f"note: {', '.join(rt['never_won'])} won no game at the mixed tables: its distance below the others "
                "is not measured; ratings measured from it are lower bounds"
            )
        if rt.get("tied_with_best"):
            from sim.pages.ladder_page import names_and, tie_words, top_rungs

            lines.append(f"tied for strongest: {names_and(top_rungs(d))} ({tie_words(d)})")

        def pct(k: str) -> str:
            v = Estimate.of(lk[k]).value
            return "n/a" if v is None else f"{100 * v:.1f}%"

        spread = Estimate.of(lk["spread_elo"]).value
        lines.append(
            f"best vs {d['anchor']}: {pct('best_vs_random')}; best vs next: {pct('best_vs_next')}; spread "
            f"{'n/a' if spread is None else f'{spread:.0f}'} Elo (stronger wins {pct('stronger_wins')}); variance "
            f"explained {pct('explained')}"
        )
    for t in d.get("team") or []:
        lines.append(f"  {t['rung']:<40} team wins {rate_with_interval(Estimate.of(t, 'win_rate'))}")
    m = d.get("matrix")
    if m:
        for c in m["cells"]:
            lines.append(f"  {c['row']} vs hunters {c['col']}: hunters win {100 * c['hunters_win_rate']:.1f}%")
    from sim.stats.budget_steps import step_words

    for s in (d.get("budget") or {}).get("steps", []):
        lines.append(f"more budget: {step_words(s)}")
    for f in (d.get("balance") or {}).get("figures", {}).values():
        lines.append(f"{f['words']}: {f['skill']['verdict']}")
    if (d.get("balance") or {}).get("note"):
        lines.append(d["balance"]["note"])
    return "\n".join(lines)


DEFAULT_LADDER_GAMES = 6_000  # games of each game's ladder in `sim run-defaults` (make run): a first look, seconds
DEFAULT_BALANCE_FACTOR = 4  # its rungs' own tables play 4 times a mixed table's games (their verdicts say how many
# more games would decide: make run's 5 minutes cannot afford +/-1 point for every game)


def run_default_ladders(game: str | None, games: int | None = None) -> list[tuple[Path, dict]]:
    """One small ladder per game (`sim run-defaults`, what make run plays): its default rungs at 4 players without
    the search rungs (folder ladder-<game>-4p-no-search where the defaults have some; Treasure Hunters: the basic
    game's team rungs), about ``games`` games in all (default DEFAULT_LADDER_GAMES; at least
    the game's number of players a table), in this process. Returns [(folder, ladder.json dict)]. A designer asks
    for a full ladder with `sim ladder GAME`."""
    from sim.api.ladder import LadderError, build
    from sim.api.ladder import ladder as api_ladder
    from sim.cli.common import fail, interruptible, run_context
    from sim.model import registry
    from sim.model.ladder_spec import is_search_rung
    from sim.model.scenario import ScenarioError
    from sim.pages.index_page import ladder_headline
    from sim.play.progress import bar

    total = games or DEFAULT_LADDER_GAMES
    out: list[tuple[Path, dict]] = []
    for g in [game] if game else registry.names():
        try:
            spec = registry.get(g)
            assert spec is not None  # registry.names() lists known games
            # the default rungs without search (a search table costs what hundreds of scripted ones do: `sim ladder
            # GAME` plays them); the learned player stays (it plays about as fast as the scripted ones)
            rungs = [r.text for r in build(g).rungs if not is_search_rung(spec, r.text)]
            ld = build(g, strategies=rungs)
            per = max(ld.players, -(-total // len(ld.tables)))
            ld = build(g, strategies=rungs, games=per, balance_games=per * DEFAULT_BALANCE_FACTOR)
        except (LadderError, ScenarioError) as e:
            fail(str(e))
        prog, adv = bar(ld.total_games, ld.title())
        with interruptible(), prog:
            r = api_ladder(
                g,
                strategies=rungs,
                games=ld.games,
                balance_games=ld.balance_games,
                ctx=run_context(None),
                advance=adv,
                on_played=getattr(prog, "played", None),
                command=f"sim ladder {g} --games {ld.games} --balance-games {ld.balance_games}"
                + (f" --strategies '{';'.join(rungs)}'" if ld.variant else ""),
            )
        typer.echo(f"ladder {g}: {ladder_headline(r.raw)} -> {r.folder}")
        out.append((r.folder, r.raw))
    return out
