"""The skill ladder (`sim ladder`, ``sim.ladder``): a population of strategies (rungs) played against each other in a
balanced design on one game's rules, rated on an Elo scale with 95% intervals, with the luck-versus-skill figures
and the balance figures at each rung.

    import sim
    r = sim.ladder("moor", players=4, games=2000)
    r.ratings           # one row per rung: rung, elo, ci_low, ci_high, pairs
    r.luck              # best vs random, best vs next, spread, stronger wins, variance explained
    r.balance           # each balance figure at each rung, with its interval; r.verdicts: one line per figure

Design: `sim.model.ladder_spec`; play and storage: `sim.play.ladder` (the sweep store: resumable, Ctrl-C-safe);
statistics: `sim.stats.ladder_fit`; report folder: `sim.output.ladder_output`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim.model.ladder_spec import Ladder, LadderError
from sim.model.words import did_you_mean
from sim.play.context import RunContext
from sim.play.ladder_progress import TableClock, Watch

if TYPE_CHECKING:
    import polars as pl

    from sim.play.work import Executor

Doc = dict[str, Any]

__all__ = ["ladder", "build", "LadderResult", "LadderError"]


@dataclass(frozen=True)
class LadderResult:
    """A played ladder. raw: the ladder.json dict; folder: its report folder (always written: its tables are stored
    there and reused by the next run); played / reused: the table indices played now or found stored.
    Frames (Polars, from ladder.parquet's rows): ``ratings``, ``head_to_head``, ``luck``, ``team``, ``matrix``,
    ``balance``; ``verdicts``: one line per balance figure."""

    raw: Doc
    folder: Path
    played: tuple[int, ...] = ()
    reused: tuple[int, ...] = ()

    def frame(self) -> pl.DataFrame:
        """Every figure, one row each: section, rung, opponent, figure, value, ci_low, ci_high, n."""
        import polars as pl

        return pl.read_parquet(self.folder / "ladder.parquet")

    def _section(self, name: str) -> pl.DataFrame:
        import polars as pl

        return self.frame().filter(pl.col("section") == name).drop("section")

    @property
    def ratings(self) -> pl.DataFrame:
        """rung, elo (random = 0), ci_low, ci_high (95% bootstrap), pairs (decided pairs it played), strongest
        first; empty for a co-operative or asymmetric ladder."""
        import polars as pl

        f = self._section("rating")
        return f.select("rung", pl.col("value").alias("elo"), "ci_low", "ci_high", pl.col("n").alias("pairs")).sort(
            "elo", descending=True
        )

    @property
    def head_to_head(self) -> pl.DataFrame:
        """rung, opponent, value (share of decided pairs the rung won), ci_low, ci_high, n (decided pairs)."""
        return self._section("head_to_head").drop("figure")

    @property
    def luck(self) -> pl.DataFrame:
        """figure (best_vs_random, best_vs_next, spread_elo, stronger_wins, explained), value, ci_low, ci_high."""
        return self._section("luck").select("figure", "value", "ci_low", "ci_high")

    @property
    def team(self) -> pl.DataFrame:
        """Co-operative: rung, value (team win rate), ci_low, ci_high (Wilson), n (games)."""
        return self._section("team").drop("opponent", "figure")

    @property
    def matrix(self) -> pl.DataFrame:
        """Asymmetric: rung (Head Haunter), opponent (hunters' rung), value (hunters' win rate), ci_low, ci_high."""
        return self._section("matrix").drop("figure")

    @property
    def balance(self) -> pl.DataFrame:
        """rung, figure, value, ci_low, ci_high: the balance figures at each rung's mono table."""
        return self._section("balance").drop("opponent", "n")

    @property
    def verdicts(self) -> list[str]:
        """One line per balance figure: whether it holds for skill (unchanged within its margin / changes /
        cannot tell yet, at the strongest rung against the scenario's own players: `sim.stats.ladder_fit`)."""
        figs = self.raw.get("balance", {}).get("figures", {})
        return [f"{f['words']}: {f['skill']['verdict']}" for f in figs.values()]


def build(
    game: str | Path,
    players: int | None = None,
    strategies: Sequence[str] | None = None,
    games: int | None = None,
    seed: int | None = None,
    balance_games: int | None = None,
) -> Ladder:
    """The validated ladder of ``game`` (a game name: its scenarios/<game>/<N>p.toml, Treasure Hunters
    basic-<N>p.toml; or a scenario file, whose rules and board are kept and seats replaced); ``balance_games``: each
    rung's own table (`sim.model.ladder_spec.build`). Raises LadderError, ScenarioError or OverrideError (one line)
    before anything is played."""
    from sim.api.public import load
    from sim.model import ladder_spec, registry

    if players is not None and (isinstance(players, bool) or not isinstance(players, int)):
        raise LadderError(f"--players: expected a whole number, got {players!r}")
    g = str(game)
    if registry.get(g) is not None:
        sc = load(ladder_spec.base_scenario(g, players))
    else:
        p = Path(g)
        if not p.is_file():
            guess = did_you_mean(g, registry.names()).strip()
            raise LadderError(
                f"GAME: '{g}' is neither a game ({', '.join(registry.names())}) nor a scenario file"
                + (f"; {guess}" if guess else ""),
                allowed=f"{', '.join(registry.names())} or a scenario file",
                given=g,
            )
        sc = load(p)
        spec = sc.spec
        if players is not None and spec is not None and not spec.min_players <= players <= spec.max_players:
            raise LadderError(
                f"--players: {players} is out of range for {sc.game}; allowed {spec.min_players}..{spec.max_players}"
            )
        if players is not None:
            sc = load(p, set={"players": players})
    return ladder_spec.build(sc, list(strategies) if strategies else None, games, seed, balance_games)


def ladder(
    game: str | Path,
    *,
    players: int | None = None,
    strategies: Sequence[str] | str | None = None,
    games: int | None = None,
    seed: int | None = None,
    balance_games: int | None = None,
    margin: Sequence[str] | str | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    threads: int | None = None,
    chunk: int | None = None,
    out: str | Path | None = None,
    fresh: bool = False,
    ctx: RunContext | None = None,
    executor: Executor | None = None,
    advance: Callable[[float], None] | None = None,
    on_played: Callable[[], None] | None = None,
    command: str = "",
    watch: Callable[[list[TableClock]], Watch] | None = None,
    stored: Sequence[int] | None = None,
) -> LadderResult:
    """Play the ladder of ``game`` (`build`) and write its folder (``out``, default reports/ladder-<game>-<N>p:
    ladder.json, ladder.parquet, ladder.html, the stored tables). ``games``: per table (default: 40,000 over the mixed
    tables, at least 200 a table; 2,000 a team or matrix table; rounded up to a multiple of the players);
    ``balance_games``: each rung's own table (default 16,000, or ``games`` with a search rung); ``strategies``: rung texts (``random``, ``planner:recall_own=0.5``; default: random
    and every scripted strategy at its defaults, then the learned player and search at 16, 64, 256 with learned
    rollouts where the game has one: `sim.model.ladder_spec.default_rungs`); ``advance(games)`` as games end;
    ``watch(tables)``: makes the `sim.play.ladder_progress.Watch` timing each table (the time left from each
    table's own games/s, the table now playing); ``fresh``: forget stored tables; ``stored``: the indices of the
    tables the caller found stored (`sim.play.ladder.stored_tables`, read before the run), not read again. Runs in this process, on a LocalCluster of ``workers`` or at ``scheduler`` with the same numbers.
    Raises LadderError, ScenarioError, OptionError, ExecutionError, LadderOutputError (one line each);
    KeyboardInterrupt leaves the finished tables stored."""
    import shutil

    from sim.api.basics import _executor_for
    from sim.api.options import check_cluster, check_run_options
    from sim.output import ladder_output as output
    from sim.play import ladder as engine
    from sim.play import runner
    from sim.play.provenance import provenance

    check_run_options(threads=threads, chunk=chunk)  # threads 0, chunk 0 and odd types, as sim.run refuses them
    if out is not None and not str(out).strip():
        raise output.LadderOutputError("out: an empty path; give a folder (or leave it out for the default)")
    ld = with_margins(build(game, players, rung_texts(strategies), games, seed, balance_games), margin)
    check_cluster(workers, scheduler)
    folder = output.folder_for(ld, out)
    output.prepare(folder)
    if fresh:
        shutil.rmtree(folder / "points", ignore_errors=True)
    ctx = ctx or RunContext(threads=threads)
    ch = chunk or runner.DEFAULT_CHUNK
    with _executor_for(executor, workers, scheduler, threads, ctx) as ex:
        played = engine.play(ld, folder, ex, ch, advance, ctx, watch, None if fresh else stored)
        t = ex.unit_threads(ctx)
        desc = ex.description
    if on_played is not None:
        on_played()
    prov = provenance(ld.base, ld.games, ld.seed, played.wall_s, t, ch)
    prov.update(
        {
            "executor": desc,
            "tables_played": len(played.played),
            "tables_reused": len(played.reused),
            "command": command or _command(ld),
        }
    )
    doc = output.document(ld, engine.collect(ld, folder), prov)
    output.write(folder, doc)
    return LadderResult(doc, folder, tuple(played.played), tuple(played.reused))


def rung_texts(strategies: Sequence[str] | str | None) -> list[str] | None:
    """``strategies=`` as rung texts: a list as given, one text split as the command line's --strategies
    ("random;weighted", "random,weighted"), not into its letters. Raises LadderError for an item that is not text."""
    from sim.model.ladder_spec import split_rungs

    if strategies is None:
        return None
    if isinstance(strategies, str):
        if not strategies.strip():  # as the command line refuses --strategies "" (None plays the default rungs)
            raise LadderError(
                "strategies: '' names no rung; give texts such as 'random;weighted', or leave it out for the default "
                "rungs",
                field="strategies",
            )
        return split_rungs(strategies)
    if not isinstance(strategies, Sequence):  # from Python: strategies=5
        raise LadderError(
            f"strategies: {strategies!r} is not a list of rungs; give texts such as 'random' or 'planner:recall_own=0.5'",
            field="strategies",
        )
    if not strategies:  # [] played the whole default ladder, search at 256 included (a fresh user)
        raise LadderError(
            "strategies: [] names no rung; give texts such as ['random', 'weighted'], or leave it out for the default "
            "rungs",
            field="strategies",
        )
    bad = [x for x in strategies if not isinstance(x, str)]
    if bad:
        raise LadderError(
            f"strategies: {bad[0]!r} is not a rung; give texts such as 'random' or 'planner:recall_own=0.5'"
        )
    return list(strategies)


FIGURES = ("first_player_advantage", "seat_spread", "length_turns", "comeback", "last_at_half_wins")


def with_margins(ld: Ladder, margin: Sequence[str] | None) -> Ladder:
    """``ld`` with the --margin entries ("FIGURE=VALUE": percentage points for the rates and the seat spread, turns
    for the length) of its balance verdicts. Raises LadderError naming a bad entry."""
    import dataclasses

    from sim.api.basics import margin_texts
    from sim.api.options import OptionError
    from sim.stats import verdict as V

    try:
        m = V.parse_margins(list(margin_texts(margin or (), "margin", "FIGURE")))
    except (V.MarginError, OptionError) as e:
        raise LadderError(str(e)) from None
    for k in m:
        if k not in FIGURES and not k.startswith("team_win_rate."):
            raise LadderError(
                f"--margin: '{k}' is not a balance figure; {did_you_mean(k, FIGURES)}allowed: {', '.join(FIGURES)}"
            )
    return dataclasses.replace(ld, margins=tuple(m.items()))


def _command(ld: Ladder) -> str:
    """The `sim ladder` command that plays ``ld`` again (its margins included)."""
    margins = "".join(f" --margin {k}={v:g}" for k, v in ld.margins)
    return (
        f"sim ladder {ld.base.path or ld.base.game} --players {ld.players} --games {ld.games} "
        f"--balance-games {ld.balance_games} --seed {ld.seed} --strategies '{';'.join(r.text for r in ld.rungs)}'"
        + margins
    )
