"""The `sim` command line: thin Typer commands over the API (sim.api.public, sim.api.*). Exit codes: 0 ok, 1 regression found,
2 usage error, 3 bad input file, 4 inconclusive (sim check), 130 interrupted (Ctrl-C), 143 terminated (SIGTERM). Data goes to stdout, progress
and errors to stderr."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Annotated

import typer
import typer.core

from sim.cli import ladder as cli_ladder  # sim ladder (typer only)
from sim.cli import serve as cli_serve  # sim serve, the web workbench (typer only; sim.web imported when it runs)
from sim.cli import sweep as cli_sweep  # sim sweep, --workers / --scheduler, default sweeps (typer only)
from sim.cli import tune as cli_tune  # sim tune, default tunes
from sim.cli.common import (  # noqa: F401  (re-exported: the exit codes are part of the CLI's interface)
    _STOP_SAID,
    EXIT_BAD_INPUT,
    EXIT_INCONCLUSIVE,
    EXIT_INTERRUPTED,
    EXIT_REGRESSION,
    EXIT_TERMINATED,
    EXIT_USAGE,
    SCENARIOS,
    _stopped,
    after_write,
    check_run_options,
    fail,
    in_range,
    interruptible,
    known_game,
    run_context,
    usage,
)
from sim.model.search import has_search

try:  # typer 0.29 (pinned) vendors click as typer._click
    from typer._click.exceptions import NoArgsIsHelpError, UsageError
except ImportError:  # pragma: no cover - a typer that uses click itself
    # ignored: click's own classes of the same names stand in for typer's vendored ones
    from click.exceptions import NoArgsIsHelpError, UsageError  # type: ignore[assignment]


_KINDS = {"integer": "a whole number", "number": "a number", "boolean": "true or false"}


def _plain_type_error(e: UsageError, argv: list[str]) -> str | None:
    """A value of the wrong type in a designer's words ("--games: 'abc' is not a whole number") instead of the
    validator's ("Input should be a valid integer, unable to parse string as an integer"); None for other errors."""
    m = re.search(r"Input should be a valid (\w+)", e.format_message())
    param = getattr(e, "param", None)
    if m is None or param is None or m.group(1) not in _KINDS:
        return None
    opts = list(getattr(param, "opts", ())) or [param.name or "value"]
    given = None
    for i, tok in enumerate(argv):
        if tok in opts and i + 1 < len(argv):
            given = argv[i + 1]
        for o in opts:
            if tok.startswith(o + "="):
                given = tok[len(o) + 1 :]
    what = f"{given!r} is not" if given is not None else "expected"
    return f"{opts[-1] if opts[-1].startswith('--') else opts[0]}: {what} {_KINDS[m.group(1)]}"


class OneLineUsage(typer.core.TyperGroup):
    """Usage errors (a bad option value, an unknown option or command, a missing argument) as one line on stderr,
    exit 2, instead of Typer's boxed multi-line panel. `sim` alone still prints the help."""

    argv: list[str] = []  # the command line being parsed (the wrong value is named from it)

    @staticmethod
    def _one_line(e: UsageError):
        if isinstance(e, NoArgsIsHelpError):
            raise e
        where = e.ctx.command_path if e.ctx is not None else "sim"
        msg = _plain_type_error(e, OneLineUsage.argv) or " ".join(e.format_message().split()).rstrip(".")
        if "unexpected extra argument" in msg and "(step " in msg:  # --set x=1..9 step 2 unquoted: the shell split it
            msg += "; a range with a step is one argument: quote it, e.g. --set 'track_len=20..60 step 5'"
        typer.echo(f"error: {msg} (see {where} --help)", err=True)
        raise typer.Exit(e.exit_code)

    PANELS = ("Play", "Compare and explore", "Regression", "Boards", "Tools")  # `sim --help`, in this order

    def list_commands(self, ctx):
        """The commands grouped by panel (what a designer does), in PANELS order; within a panel as registered."""
        names = super().list_commands(ctx)
        rank: dict[str | None, int] = {p: i for i, p in enumerate(self.PANELS)}  # a command without a panel: last
        return sorted(names, key=lambda n: rank.get(getattr(self.commands[n], "rich_help_panel", None), len(rank)))

    def make_context(self, *args, **kw):
        if len(args) > 1 and isinstance(args[1], list):
            OneLineUsage.argv = list(args[1])
        try:
            return super().make_context(*args, **kw)
        except UsageError as e:
            self._one_line(e)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except UsageError as e:
            self._one_line(e)


app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    cls=OneLineUsage,
    help="Monte Carlo balance simulator for tabletop games.\n\n"
    "Start with: sim run scenarios/moor/4p.toml, then open reports/moor-4p/summary.html.",
)


def load_scenario(
    path: Path,
    sets: list[str] | None = None,
    games: int | None = None,
    seed: int | None = None,
    more: tuple[tuple[str, list[str] | None], ...] = (),
):
    """The scenario file ``path`` with the --set overrides ``sets`` (then ``more``: further (option, texts), as
    compare's ("--set-a", [...])) and --games applied before it is validated: a bad --set, or one field given twice
    (two --set of one name, --games or --seed and --set of it), is one line and exit 2, a bad file one line and
    exit 3 (`sim.api.public.load`)."""
    from sim.api.public import load
    from sim.model.overrides import OverrideError
    from sim.model.scenario import ScenarioError
    from sim.play import progress

    try:  # loading a game imports its kernels: compiled on a first run, tens of seconds said as they pass
        with progress.said_if_slow(
            f"{path}: loading the game's kernels (compiled on a first run) ...", after_s=3.0, every_s=progress.EVERY_S
        ):
            return load(path, sets, games, seed, more)
    except OverrideError as e:
        fail(str(e), EXIT_USAGE)
    except ScenarioError as e:
        fail(str(e))


SET_HELP = (
    "NAME=VALUE: override a rule parameter, a card (ghost_cards.shuffle=2), a scenario field or a seat's "
    "strategy or strategy parameter (seats.1.strategy=runner, seats.1.w_goal=1.5); the value is TOML; "
    "repeatable"
)
Sets = Annotated[
    list[str] | None, typer.Option("--set", help=SET_HELP + ". The report goes to a folder named after the overrides")
]
# replay writes no report: its --set says nothing of a folder
ReplaySets = Annotated[list[str] | None, typer.Option("--set", help=SET_HELP)]


def progress_bar(total: float, label: str):
    """Progress on stderr (sim.play.progress: a bar on a terminal, plain lines otherwise); (context manager, advance)."""
    from sim.play import progress

    return progress.bar(total, label)


def warn_if_replacing(sc, out: Path | None, games: int | None = None, seed: int | None = None):
    """Two scenario files with one name share reports/<name> (or one --out folder is reused): replacing the report
    of another file says so in one warning line naming that file and its scenario (not refused: batch users rerun).
    Rerunning a file replaces its own report silently when made the same way, and with one warning line saying how
    the old one differed when it was made with other settings (``games``, ``seed``: this run's; the 1,000-game
    report of `make run` replaced by a 300-game run)."""
    from sim.api import core as api
    from sim.output.report import replaced_settings, replaces_other_scenario, report_owner

    final = api.report_folder(sc, out)
    other = replaces_other_scenario(final, sc.path)
    if not other:
        how = replaced_settings(
            final, sc.games if games is None else games, sc.seed if seed is None else seed, list(sc.overrides)
        )
        if how:
            typer.echo(
                f"warning: {final} holds the report of {sc.path} played with {how}; this run replaces it "
                f"(to keep both, give --out another folder)",
                err=True,
            )
        return
    name = (report_owner(final) or ("", ""))[1]
    whose = f"scenario '{name}' of {other}" if name else other
    keep = (
        "give --out another folder"
        if out is not None
        else 'give one file another name = "..." under [scenario], or use --out'
    )
    typer.echo(
        f"warning: {final} holds the report of {whose}; this run of {sc.path} (scenario '{sc.name}') "
        f"replaces it (to keep both, {keep})",
        err=True,
    )


def _writable_or_fail(folder: Path):
    """The destination folder can be written and its disk is not full, checked before any game is played."""
    from sim.output.report import OutputError, check_writable

    try:
        check_writable(folder)
    except OutputError as e:
        fail(str(e))


@app.command(rich_help_panel="Play")
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
    """
    check_run_options(games, threads, chunk, seed)
    if arc and (workers or scheduler):
        fail("--arc: the game's arc is recorded in this process only; leave out --workers / --scheduler", EXIT_USAGE)
    sc = load_scenario(scenario, sets, games, seed)
    import sim.api.public as api
    from sim.pages import tables

    n = sc.games if games is None else games
    warn_if_replacing(sc, out, games, seed)
    prog, adv = progress_bar(n, f"{sc.name}")
    opts = api.RunOptions(games, seed, threads, chunk, per_game)
    with interruptible(), cli_sweep.cluster(workers, scheduler, threads) as ex, prog:
        ctx = run_context(threads, adv).with_(arc=arc)
        r = api.run(sc, opts, write=True, out=out, ctx=ctx, executor=ex, on_played=prog.played)
    s, folder = r.raw, r.folder
    assert folder is not None  # write=True: the report folder is written
    after_write(folder)
    if json_out:
        typer.echo(json.dumps(s, indent=2))
    else:
        typer.echo(tables.render_markdown(s))
    typer.echo(f"report written to {folder}", err=True)


@app.command(rich_help_panel="Play")
def arc(
    scenario: Annotated[Path, typer.Argument(help="scenario TOML file")],
    games: Annotated[int | None, typer.Option(help="games to play (default: the scenario's)")] = None,
    sample: Annotated[int, typer.Option(help="games whose win-probability timelines are estimated (0: none)")] = 200,
    rollouts: Annotated[int, typer.Option(help="rollouts per state (round) of a sampled game")] = 32,
    seed: Annotated[int | None, typer.Option(help="master seed (default: the scenario's)")] = None,
    threads: Annotated[int | None, typer.Option(help="Numba threads (default: all cores)")] = None,
    out: Annotated[Path | None, typer.Option(help="report folder (default: reports/<scenario name>)")] = None,
    sets: Sets = None,
):
    """Play a scenario with the game's arc and write its report.

    The report (as sim run writes it) gains the section "How the game
    unfolds": each seat's score by round (median and 5-95% band), who leads
    by round, lead changes, when the winner pulls clear, comebacks and the
    chances at half-time, with 95% intervals; and, for --sample games, each
    seat's chance of winning after every round, estimated by --rollouts
    rollouts from that state (the table's own strategies play them; what
    no outside observer sees is re-dealt). Results depend only on the seed,
    the scenario and the game index. See docs/guide/arc.md.

    Example:

        sim arc scenarios/moor/4p.toml --games 20000 --sample 200 --rollouts 32
    """
    check_run_options(games, threads, None, seed)
    sc = load_scenario(scenario, sets, games, seed)
    from sim.api.arc import arc_run, check_arc_options
    from sim.api.options import OptionError
    from sim.pages import arc_page

    n = sc.games if games is None else games
    usage(check_arc_options, sample, rollouts, n)
    warn_if_replacing(sc, out, games, seed)
    prog, adv = progress_bar(n, f"{sc.name}")
    said = []

    def on_sample(k: int) -> None:
        said.append(k)
        if len(said) == 1 or len(said) % max(1, sample // 10) == 0 or len(said) == sample:
            typer.echo(f"{sc.name}: timelines {len(said)}/{sample} games ({rollouts} rollouts a round)", err=True)

    try:
        with interruptible(), prog:
            s, folder = arc_run(
                sc, games, sample, rollouts, seed, threads, out, run_context(threads, adv), prog.played, on_sample
            )
    except OptionError as e:
        fail(str(e), EXIT_USAGE)
    after_write(folder)
    for line in arc_page.sentences(s):
        typer.echo(line)
    typer.echo(f"report written to {folder}", err=True)


@app.command("run-defaults", rich_help_panel="Play")
def run_defaults(
    games: Annotated[int | None, typer.Option(help="override games per scenario")] = None,
    game: Annotated[str | None, typer.Option(help="only this game's scenarios")] = None,
    tunes: Annotated[
        bool,
        typer.Option("--tunes", help="also play the default tunes of scenarios/<game>/tunes/ (not in make run)"),
    ] = False,
):
    """Play every default scenario and sweep and write their reports (what `make run` does).

    Each scenario's report has the game's arc ("How the game unfolds", as
    sim run --arc: the win-probability timelines are sim arc's).

    The scenarios of scenarios/<game>/, then the sweeps of
    scenarios/<game>/sweeps/, then one small skill ladder per game (about
    6,000 games; sim ladder GAME plays a full one), with --tunes then the
    tunes of scenarios/<game>/tunes/, then reports/index.html, which links
    every report with its headline figures.

    Example:

        sim run-defaults --game moor --games 20000
    """
    known_game(game)
    if games is not None:
        check_run_options(games)
    import sim.api.public as api
    from sim.pages import tables

    files = sorted(p for p in SCENARIOS.glob("*/*.toml") if game is None or p.parent.name == game)
    if not files:
        fail(f"no scenarios found under {SCENARIOS}" + (f"/{game}" if game else ""))
    written = []
    for f in files:
        sc = load_scenario(f)
        n = sc.games if games is None else games
        warn_if_replacing(sc, None, n)
        prog, adv = progress_bar(n, sc.name)
        with interruptible(), prog:
            # with the game's arc (the cheap curves: "How the game unfolds"; sim arc adds the timelines)
            ctx = run_context(None, adv).with_(arc=True)
            r = api.run(sc, games=n, write=True, ctx=ctx, on_played=prog.played)
        s, folder = r.raw, r.folder
        assert folder is not None  # write=True: the report folder is written
        seats = tables.one_line(s)
        g = s["games"]  # the progress line above gave the time and games/s
        typer.echo(
            f"{f.relative_to(SCENARIOS)}: {g['played']:,} game{'' if g['played'] == 1 else 's'}"
            f"{unfinished(g)}; {seats} -> {folder}"
        )
        written.append((folder, s))
    sweeps = cli_sweep.run_default_sweeps(game, games)  # scenarios/<game>/sweeps/*.toml
    cli_ladder.run_default_ladders(game)  # one small ladder per game (the index finds it on disk)
    tuned = cli_tune.run_default_tunes(game) if tunes else []  # scenarios/<game>/tunes/*.toml, their own counts
    from sim.pages import index_page

    typer.echo(f"index of the reports: {index_page.write(written, sweeps, tunes=tuned)}")


def unfinished(g: dict) -> str:
    """' (4,990 finished, 10 stopped at the turn cap)' for the summary's ``games`` block (truncated and errors
    counted apart: a designer raises max_turns for the one, reports a bug for the other); '' when every game
    finished."""
    if g["finished"] == g["played"]:
        return ""
    parts = [
        f"{g['truncated']:,} stopped at the turn cap, max_turns" if g.get("truncated") else "",
        f"{g['errors']:,} ended in an error" if g.get("errors") else "",
    ]
    return f" ({g['finished']:,} finished, {', '.join(x for x in parts if x)})"


@app.command(rich_help_panel="Play")
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
    sc = load_scenario(scenario, sets, seed=seed)
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


@app.command("list", rich_help_panel="Tools")
def list_(game: Annotated[str | None, typer.Argument(help="only this game")] = None):
    """List games, their parameters, strategies and measures.

    Each parameter with its default, the values allowed and a line of help,
    written as a scenario file writes it; each strategy with its weights; each
    measure with its definition.

    Example:

        sim list moor
    """
    from sim.model import catalogue, registry
    from sim.model.params_table import named_value, part_of
    from sim.model.scenario import toml_value as tv  # values as a TOML file writes them: copy them into one

    known_game(game)
    if game is None:
        games = registry.all_games()
    else:
        spec = registry.get(game)
        assert spec is not None, game  # known_game refused an unknown game
        games = {game: spec}
    for name, g in games.items():
        typer.echo(f"{name}: {g.title} ({g.min_players}-{g.max_players} players, rules v{g.rules_version})")
        typer.echo("  parameters:")
        inner, defaults = part_of(g), g.defaults()
        for p in g.params:
            if p.name in inner:
                continue  # listed inside its table (move_die_ghost in move_die)
            dom = (
                f"{tv(p.domain[0])}..{tv(p.domain[1])}"
                if p.kind in ("int", "float", "int_list") and p.domain
                else " | ".join(map(tv, p.domain))
                if p.kind == "choice"
                else "true | false"
                if p.kind == "bool"
                else "text"
            )
            dom += f" or names: {', '.join(p.labels)}" if p.labels else ""
            if p.fields:
                dom = f"{', '.join(p.field_names())}: integers {tv(p.domain[0])}..{tv(p.domain[1])}"
            elif p.parts:
                dom = f"{', '.join(k for k, _ in p.parts)}; or the {p.name} array alone: {dom}"
            kind = "table" if p.fields or p.parts else p.kind
            typer.echo(f"    {p.name} = {tv(named_value(g, p, defaults))}  [{kind}: {dom}]  {p.help}")
            for f, h in p.fields:
                typer.echo(f"      {p.name}.{f}: {h}")
            for key, target in p.parts:
                tp = g.param(target)
                assert tp is not None, target  # a part names one of the game's own parameters
                also = f" (also the parameter {target} on its own)" if target != p.name else ""
                typer.echo(f"      {p.name}.{key}: {tp.help}{also}")
        typer.echo("  strategies:")
        for s in g.strategies:
            role = f" [{g.role_title(s.role)}]" if s.role != "player" else ""
            typer.echo(f"    {s.name}{role}: {s.help}")
            for p in s.params:
                typer.echo(f"      {p.name} = {tv(p.default)}  {p.help}")
        typer.echo("  measures (key: label [unit; where it applies]: definition):")
        for key, e in catalogue.listing(g):
            where = [
                x
                for x in (
                    (
                        "competitive games"
                        if e.applies == "competitive"
                        else "team games"
                        if e.applies == "team"
                        else ""
                    ),
                    ("mode " + " | ".join(e.modes) if e.modes else ""),
                    ("per run" if e.level == "batch" else ""),
                )
                if x
            ]
            typer.echo(f"    {key}: {e.label} [{e.unit}{'; ' + ', '.join(where) if where else ''}]: {e.definition}")


@app.command(rich_help_panel="Tools")
def bench(
    games: Annotated[int, typer.Option(help="games per timing")] = 200_000,
    quick: Annotated[bool, typer.Option(help="smaller runs (smoke test)")] = False,
):
    """Speed benchmark: games/s, decisions/s, compile and start-up times.

    Games/s and decisions/s on 1 and 2 threads, the cold compile, the warm start
    and the kernel against the C reference program.

    Example:

        sim bench --quick
    """
    from sim.api import bench as b

    res = b.run_all(games=20_000 if quick else games)
    typer.echo(b.render(res))


# --- balance reports, A/B comparisons and regression checks (sim.pages.html_report, sim.stats.compare, sim.stats.check) -----------


@app.command(rich_help_panel="Play")
def report(
    path: Annotated[
        Path,
        typer.Argument(help="scenario TOML (play it), or a report folder / summary.json (render its report again)"),
    ],
    games: Annotated[int | None, typer.Option(help="games to play (scenario only)")] = None,
    seed: Annotated[int | None, typer.Option(help="master seed (scenario only)")] = None,
    threads: Annotated[int | None, typer.Option(help="Numba threads (default: all cores)")] = None,
    out: Annotated[
        Path | None, typer.Option(help="report folder (default: reports/<scenario name>, or the given folder)")
    ] = None,
    sets: Sets = None,
):
    """Write the designer's balance report: summary.html, balance.md, plots/.

    Given a scenario it plays it first; given a report folder (or its
    summary.json) it draws the report of that saved run again, e.g. after an
    update. summary.html is self-contained and opens offline.

    Example:

        sim report scenarios/treasure_hunters/basic-4p.toml --games 20000
        sim report reports/treasure_hunters-basic-4p
    """
    check_run_options(games, threads, seed=seed)
    if sets and path.suffix != ".toml":
        fail(
            "--set changes a scenario before it is played; give a scenario .toml (a report folder is rendered as "
            "it was played)",
            EXIT_USAGE,
        )
    if path.suffix == ".toml":
        sc = load_scenario(path, sets, games, seed)
        import sim.api.public as api

        warn_if_replacing(sc, out, games, seed)
        prog, adv = progress_bar(sc.games if games is None else games, sc.name)
        with interruptible(), prog:
            folder = api.run(
                sc,
                api.RunOptions(games, seed, threads),
                write=True,
                out=out,
                ctx=run_context(threads, adv),
                on_played=prog.played,
            ).folder
        assert folder is not None  # write=True: the report folder is written
    else:
        src = path / "summary.json" if path.is_dir() else path
        from sim.output.report import staging_run

        if staging_run(src.parent):
            fail(f"{src.parent}: an unfinished report (its run was stopped while writing it); run the scenario again")
        if not src.exists():
            from sim.api.rerun import OTHER_REPORTS, other_report

            other = other_report(src.parent)
            if other is not None:  # a sweep's, ladder's, compare's or tune's folder: not a sim run report
                fail(
                    f"{src.parent}: the folder of a {other} (its page is {other}.html, not a sim run report); to draw "
                    f"it again, run the {other} command again ({OTHER_REPORTS[other][1]})"
                )
            fail(f"{src}: no such file; give a scenario .toml, a report folder or its summary.json")
        try:
            s = json.loads(src.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            fail(f"{src}: not valid JSON ({e})")
        if not isinstance(s, dict) or s.get("schema") != 1 or "seats" not in s:
            fail(f"{src}: not a summary.json of schema 1 (written by sim run)")
        check_provenance(src.parent / "provenance.json")
        folder = redraw(src, s, out)
    after_write(folder)
    typer.echo(str(folder / "summary.html"))


def check_provenance(path: Path) -> None:
    """A report's provenance.json, which `sim report FOLDER` carries into the redrawn report unchanged: one line and
    exit 3 when it is there but damaged (not JSON, or not the object sim run writes, with its seed and games), so a
    redrawn report never passes it on as if it were sound. A report without one (a summary.json alone) is drawn."""
    if not path.exists():
        return
    try:
        pv = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        fail(f"{path}: not valid JSON ({e}); the run's record is damaged: run the scenario again to write it anew")
    except OSError as e:
        fail(f"{path}: cannot be read ({e.strerror or e})")
    if not isinstance(pv, dict) or not all(k in pv for k in ("seed", "games")):
        fail(
            f"{path}: not a provenance.json written by sim run (a JSON object with the run's seed, games and "
            "versions); run the scenario again to write it anew"
        )


def redraw(src: Path, s: dict, out: Path | None) -> Path:
    """`sim report FOLDER`: draw the report of summary ``s`` (read from ``src``) again into ``out`` or the folder
    itself, staged (`sim.api.core.redraw_report`): on an error or Ctrl-C the folder is as it was, one line says why, and
    the exit code is 3 (130 / 143)."""
    from sim.api import core as api
    from sim.play.runner import pending

    folder = Path(out or src.parent)
    here = Path.cwd().resolve()
    if out is None and (folder.resolve() == here or folder.resolve() in here.parents):
        fail(
            f"{src.parent}: the report is redrawn beside it and swapped in when complete, which cannot be done to "
            "the folder you are in; run `sim report` from outside it (or give --out)"
        )
    kept = f"nothing half-written left: {folder} is as it was" if folder.exists() else None
    with interruptible(kept):
        try:
            return api.redraw_report(s, src.parent, out)
        except OSError:  # OutputError: the folder cannot be written (one line, exit 3)
            raise
        except Exception as e:
            if pending() is not None:  # an error caused by an interrupt swallowed on its way
                raise
            where = f"{folder} is as it was" if folder.exists() else "nothing written"
            fail(f"{src}: incomplete summary, cannot draw its report ({type(e).__name__}: {e}); {where}")


@app.command(rich_help_panel="Compare and explore")
def compare(
    a: Annotated[Path, typer.Argument(help="scenario A (TOML)")],
    b: Annotated[
        Path | None, typer.Argument(help="scenario B (TOML), same game (default: A, changed by --set-b)")
    ] = None,
    games: Annotated[
        int | None,
        typer.Option(help="games each (default: A's); not with --precision or --sprt (they decide when to stop)"),
    ] = None,
    seed: Annotated[int | None, typer.Option(help="common seed (default: A's)")] = None,
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
    threads: Annotated[int | None, typer.Option(help="Numba threads (default: all cores)")] = None,
    chunk: Annotated[int, typer.Option(help="games per chunk (stopping rules are checked per chunk)")] = 10_000,
    out: Annotated[Path | None, typer.Option(help="report folder (default: reports/compare-<A>-vs-<B>)")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="print the comparison JSON to stdout")] = False,
    workers: Annotated[int | None, typer.Option(help=cli_sweep.WORKERS_HELP)] = None,
    scheduler: Annotated[str | None, typer.Option(help=cli_sweep.SCHEDULER_HELP)] = None,
    sets: Annotated[
        list[str] | None, typer.Option("--set", help="NAME=VALUE: override in both A and B (see sim run --help)")
    ] = None,
    sets_a: Annotated[list[str] | None, typer.Option("--set-a", help="NAME=VALUE: override in A only")] = None,
    arc: Annotated[
        bool, typer.Option("--arc", help="also compare the game's arc measures (lead changes, comebacks, ...)")
    ] = False,
    sets_b: Annotated[
        list[str] | None,
        typer.Option("--set-b", help="NAME=VALUE: override in B only; without B: compare A with A changed so"),
    ] = None,
    margin: Annotated[
        list[str] | None,
        typer.Option(
            "--margin",
            help="MEASURE=VALUE: the change that matters for a measure (percentage points for rates; default 1 "
            "point for rates, 2% for lengths, 5% for counts)",
        ),
    ] = None,
):
    """Did a rule change matter? Compare two scenarios on common random numbers.

    Per measure both values, B - A with its paired 95% interval and a verdict:
    unchanged within its margin (an equivalence test), changed (significant
    after Holm and beyond the margin), or cannot tell yet (with about how many
    more games would decide). Writes compare.html, compare.md and
    compare.json. One stopping rule: --games, --precision or --sprt.

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
            games,
            seed,
            precision,
            sprt,
            metric,
            two_sided,
            max_games,
            alpha,
            threads,
            chunk,
            workers,
            scheduler,
            margins=tuple(margin or ()),
        ).validate
    )
    if arc and (workers or scheduler):
        fail("--arc: the arc measures are compared in this process only; leave out --workers / --scheduler", EXIT_USAGE)
    if b is None and not sets_b:
        fail(
            "missing scenario B: give B.toml, or --set-b NAME=VALUE to compare A with A changed so (see sim "
            "compare --help)",
            EXIT_USAGE,
        )
    sa = load_scenario(a, sets, games, seed, (("--set-a", sets_a),))
    sb = load_scenario(b or a, sets, games, seed, (("--set-b", sets_b),))
    try:
        cmp.check_comparable(sa, sb)
    except cmp.CompareError as e:
        fail(str(e))
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
                    opts,
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


@app.command(rich_help_panel="Regression")
def check(
    scenarios: Annotated[
        list[Path] | None, typer.Argument(help="scenario files (default: every scenarios/*/*.toml)")
    ] = None,
    game: Annotated[str | None, typer.Option(help="only this game's default scenarios")] = None,
    tier: Annotated[str, typer.Option(help="exact | statistical | all")] = "all",
    seed: Annotated[
        int | None,
        typer.Option(
            help="fresh seed of the statistical tier (default: derived from the baselines' contents and the git "
            "commit, printed: a rerun of one commit gives the same verdict)"
        ),
    ] = None,
    games: Annotated[
        int | None, typer.Option(help="statistical-tier games per scenario (default: the baseline's check_games)")
    ] = None,
    alpha: Annotated[
        float,
        typer.Option(help="family-wise false-alarm level of the statistical tier (Holm over every test of the run)"),
    ] = 0.005,
    baselines: Annotated[Path | None, typer.Option(help="baseline folder (default: reports/baselines)")] = None,
    baseline: Annotated[Path | None, typer.Option(help="one baseline JSON for the one scenario given")] = None,
    threads: Annotated[int | None, typer.Option(help="Numba threads (default: all cores)")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="print the result JSON to stdout")] = False,
    sets: Annotated[
        list[str] | None,
        typer.Option(
            "--set", help="NAME=VALUE: check each scenario changed so against its baseline (see sim run --help)"
        ),
    ] = None,
    margins: Annotated[
        list[str] | None,
        typer.Option(
            "--margin",
            help="KEY=VALUE: equivalence margin of a headline figure's verdict, in its unit (percentage points for "
            "rates); default: rates 1 point, lengths 2%, counts and points 5%",
        ),
    ] = None,
    markdown: Annotated[
        Path | None,
        typer.Option(help="also write the summary as Markdown to this file (a CI job summary, a PR comment)"),
    ] = None,
):
    """Regression check against the committed baselines (exit 1 on a regression).

    Its first lines name what differs from each baseline's resolved scenario
    (params.track_len: 30 -> 31 (the rule's default changed)). Exact tier: the
    baseline's seed and games must give identical integer aggregates.
    Statistical tier: fresh games at a seed derived from the baselines and the
    commit, every metric tested against the baseline, Holm correction; each
    headline figure judged unchanged within its margin, changed, or cannot tell
    yet. Exit 0 pass, 1 regression, 2 usage, 3 bad input (missing, corrupt or
    another game's baseline), 4 inconclusive (no regression, but a headline
    figure moved and is not shown within its margin: rerun with more --games).

    Example:

        sim check --game moor --markdown check.md
        sim check my.toml --margin first_player_advantage=0.5
    """
    import sim.api.public as api
    from sim.stats import check as chk

    opts = usage(
        api.CheckOptions(
            tier, seed, games, alpha, baselines, baseline, tuple(sets or ()), threads, tuple(margins or ())
        ).validate
    )
    if scenarios and game:
        fail("give scenario files or --game, not both", EXIT_USAGE)
    known_game(game)
    files = list(scenarios) if scenarios else chk.default_scenarios(game)
    if not files:
        fail(f"no scenarios found under {chk.SCENARIOS}" + (f"/{game}" if game else ""))
    if not scenarios and baseline is None:
        for p in chk.stale_baselines(game, baselines or chk.BASELINES):
            typer.echo(f"note: {chk._rel(p)} has no scenario any more: delete it (or run make baselines)", err=True)
    from sim.model.overrides import OverrideError
    from sim.model.scenario import ScenarioError
    from sim.stats.verdict import MarginError

    if markdown is not None:  # refused before any game is played
        from sim.output.report import OutputError, check_writable

        if markdown.is_dir():
            fail(f"--markdown {markdown}: is a folder; give a file name (check.md)", EXIT_USAGE)
        try:
            check_writable(markdown.parent, "--markdown")
        except OutputError as e:
            fail(str(e))
    try:
        res = api.check(
            files, opts, ctx=run_context(threads), log=lambda line: typer.echo(line, err=True), bar=progress_bar
        ).raw
    except (OverrideError, MarginError) as e:
        fail(str(e), EXIT_USAGE)
    except (chk.BadBaseline, ScenarioError) as e:
        if markdown is not None:  # CI shows why the check could not run
            _write_markdown(f"## sim check: BAD INPUT\n\n{chk._md(str(e))} (exit code {EXIT_BAD_INPUT})\n", markdown)
        fail(str(e))
    if markdown is not None:
        _write_markdown(chk.render_markdown(res), markdown)
    typer.echo(json.dumps(res, indent=2) if json_out else chk.render(res))
    if res["status"] == chk.REGRESSION:
        raise typer.Exit(EXIT_REGRESSION)
    if res["status"] == chk.INCONCLUSIVE:
        raise typer.Exit(EXIT_INCONCLUSIVE)


def _write_markdown(text: str, path: Path) -> None:
    """`sim check --markdown FILE`: written atomically (a full disk: one line, exit 3, the file as it was)."""
    from sim.stats import check as chk

    try:
        chk.write_markdown(text, path)
    except OSError as e:
        fail(f"cannot write the Markdown summary {path}: {e.strerror or e}; it was not written")


@app.command("baselines", rich_help_panel="Regression")
def baselines_(
    scenarios: Annotated[
        list[Path] | None, typer.Argument(help="scenario files (default: every scenarios/*/*.toml)")
    ] = None,
    game: Annotated[str | None, typer.Option(help="only this game's default scenarios")] = None,
    out: Annotated[Path | None, typer.Option(help="baseline folder (default: reports/baselines)")] = None,
    exact_games: Annotated[
        int | None, typer.Option(help="games of the exact tier (default: by game, its GameSpec.check_sizes)")
    ] = None,
    stat_games: Annotated[int | None, typer.Option(help="games behind the statistical baseline")] = None,
    check_games: Annotated[int | None, typer.Option(help="fresh games the statistical tier plays")] = None,
    threads: Annotated[int | None, typer.Option(help="Numba threads (default: all cores)")] = None,
):
    """(Re)generate the regression baselines (what `make baselines` does).

    One JSON per scenario, stamped with the rules version and RNG contract:
    after an intended change of behaviour, or once for a scenario of your own
    (then sim check my.toml).

    Example:

        sim baselines my.toml
    """
    from sim.api import check as chk_play
    from sim.stats import check as chk

    for name, v in (("exact-games", exact_games), ("stat-games", stat_games), ("check-games", check_games)):
        in_range(name, v)
    check_run_options(threads=threads)
    if scenarios and game:
        fail("give scenario files or --game, not both", EXIT_USAGE)
    known_game(game)
    files = list(scenarios) if scenarios else chk.default_scenarios(game)
    if not files:
        fail(f"no scenarios found under {chk.SCENARIOS}" + (f"/{game}" if game else ""))
    scs = [(f, load_scenario(f)) for f in files]
    for f, _sc in scs:  # refused before any game is played: another file's baseline, no place to write
        dest = chk.baseline_path(f, out or chk.BASELINES)
        other = chk.owner_clash(dest, f)
        if other:
            fail(
                f"{chk._rel(dest)} is the baseline of {other}, not of {f}; nothing written (give --out another folder)"
            )
        _writable_or_fail(dest.parent)
    for f, sc in scs:
        e0, s0, _ = chk.sizes(sc.game, has_search(sc))
        prog, adv = progress_bar(max(stat_games or s0, exact_games or e0), sc.name)
        with prog:
            b = chk_play.make_baseline(sc, exact_games, stat_games, check_games, ctx=run_context(threads, adv))
        dest = chk.baseline_path(f, out or chk.BASELINES)
        try:
            chk.write_baseline(b, dest)
        except OSError as e:  # a full disk: one line naming the file; the baselines written before stay
            fail(f"cannot write the baseline {chk._rel(dest)}: {e.strerror or e}; it was not written")
        typer.echo(
            f"{chk._rel(f)}: rules v{b['rules_version']}, RNG contract v{b['rng_contract']}, exact "
            f"{b['exact']['games']} games, statistical {b['statistical']['games']} games (checks play "
            f"{b['statistical']['check_games']}) -> {chk._rel(dest)}"
        )


# ---- sim board show (board files of every game with a board) ---------------------------------------------------------
board_app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    cls=OneLineUsage,
    help="Board files: validate one and draw it to check it by eye.",
)
app.add_typer(board_app, name="board", rich_help_panel="Boards")


def stdout_is_terminal() -> bool:
    """Whether stdout is a terminal (not a pipe or a file)."""
    import sys

    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


@board_app.command("show")
def board_show(
    file: Annotated[Path, typer.Argument(help="board TOML file of any game with a board")],
    out: Annotated[
        Path | None,
        typer.Option(
            help="write the SVG here (default: stdout when it is "
            "redirected, else GAME-NAME.board.svg in the current "
            "folder)"
        ),
    ] = None,
):
    """Validate a board file and draw it as SVG.

    The game's board is recognised by the tables it holds (a Turnwall castle, a
    Treasure Hunters house, the Galleon bay); a file of no game's board is one
    line naming every kind. Without --out the SVG goes to stdout when that is a
    pipe or a file (sim board show F > f.svg), and to GAME-NAME.board.svg in the
    current folder when it is a terminal (raw SVG on a screen is unreadable; the
    current folder, not the board's, which may be the shipped scenarios/),
    saying where.

    Example:

        sim board show scenarios/turnwall/boards/default.toml --out castle.svg
    """
    from sim.pages.board_svg import BoardFileError, show

    try:
        game, svg = show(file)
    except BoardFileError as e:
        fail(str(e))
    if out is None:
        if not stdout_is_terminal():
            typer.echo(svg)
            return
        out = Path.cwd() / f"{game}-{file.stem}.board.svg"  # every game ships a default.toml
    if out.is_dir():
        fail(f"--out: {out} is a folder; give a file name for the SVG (e.g. {out / 'board.svg'})")
    if not out.parent.is_dir():
        fail(f"--out: {out}: the folder {out.parent} does not exist")
    try:
        out.write_text(svg + "\n", encoding="utf-8")
    except OSError as e:
        fail(f"--out: cannot write {out} ({e.strerror or e})")
    typer.echo(f"{file}: a valid {game} board; drawn to {out}", err=True)


@app.command(rich_help_panel="Regression")
def rerun(
    folder: Annotated[
        Path,
        typer.Argument(help="report folder written by sim run / sim report (its summary.json and provenance.json)"),
    ],
    threads: Annotated[int | None, typer.Option(help="Numba threads (results do not depend on it)")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="print the result JSON to stdout")] = False,
):
    """Play a report again from what it recorded and say whether the result is identical.

    It replays the recorded scenario, overrides, seed, games and board, and
    names what differs and what changed since (code version, board content,
    scenario file). Exit 0 identical, 1 different, 3 not a report folder.

    Example:

        sim rerun reports/moor-4p
    """
    check_run_options(threads=threads)
    from sim.api import rerun as rr

    try:
        s, prov = rr.read_report(folder)
        prog, adv = progress_bar(prov["games"], f"rerun {s['scenario'].get('name', '')}")
        with interruptible(), prog:
            res = rr.rerun(folder, ctx=run_context(threads, adv))
    except rr.RerunError as e:
        fail(str(e))
    typer.echo(json.dumps(res, indent=2) if json_out else rr.render(res))
    if not res["identical"]:
        raise typer.Exit(EXIT_REGRESSION)


app.command(rich_help_panel="Compare and explore")(cli_sweep.sweep)  # sim sweep (sim.cli.sweep)
app.command(rich_help_panel="Compare and explore")(cli_tune.tune)  # sim tune (sim.cli.tune)
app.command(rich_help_panel="Compare and explore")(cli_ladder.ladder)  # sim ladder (sim.cli.ladder)
app.command(rich_help_panel="Tools")(cli_serve.serve)  # sim serve (sim.cli.serve)


def main() -> None:
    """Console entry point: no tracebacks for user errors, clean Ctrl-C and SIGTERM."""
    from sim.output.report import OutputError
    from sim.play.runner import Terminated, pending, stop_on_sigterm

    stop_on_sigterm()
    try:
        try:
            app()
        except Exception as e:
            stop = pending()  # an error caused by an interrupt that was swallowed on its way
            if stop is not None:
                sys.exit(_stopped(stop))
            from sim.output.report import os_error

            oe = os_error(e)  # a Polars I/O error (a full disk) no writer turned into its line
            if oe is None or isinstance(e, OSError):
                raise
            typer.echo(f"error: {oe.strerror or oe} (writing with Polars: {' '.join(str(e).split())})", err=True)
            sys.exit(EXIT_BAD_INPUT)
    except KeyboardInterrupt as e:
        sys.exit(_stopped(e))
    except SystemExit as e:
        if e.code == 1 and isinstance(e.__context__, BrokenPipeError):
            sys.exit(0)  # click's exit 1 when the reader left (`sim list | head -1`)
        # Typer turns an interrupt it catches itself into a silent exit 130 (after SIGTERM that is 143): say it
        if e.code == EXIT_INTERRUPTED and not _STOP_SAID:
            cause, seen, hops = e.__context__, None, 0
            while cause is not None and hops < 20:
                hops += 1
                if isinstance(cause, KeyboardInterrupt):
                    seen = cause
                    if isinstance(cause, Terminated):
                        break
                cause = cause.__cause__ or cause.__context__
            sys.exit(_stopped(seen if seen is not None else KeyboardInterrupt()))
        raise
    except BrokenPipeError:  # `sim run ... | head`: the reader left; nothing to say
        sys.exit(0)
    except OutputError as e:
        typer.echo(f"error: {e}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    except OSError as e:
        typer.echo(f"error: {e.strerror or e}: {e.filename or ''}".rstrip(": "), err=True)
        sys.exit(EXIT_BAD_INPUT)


if __name__ == "__main__":
    main()
