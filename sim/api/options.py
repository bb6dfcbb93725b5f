"""The options of the API's commands as frozen keyword-only dataclasses (`RunOptions`, `CompareOptions`,
`SweepOptions`, `CheckOptions`): what a verb (`sim.run`, ...) makes of its keywords (`given`: a keyword left None
takes the field's default, declared here once), each with ``validate()``: one `OptionError` line in the words the
CLI prints for the same option (``--games: 0 is out of range; allowed 1..10,000,000,000``), so the CLI and a
notebook refuse the same values alike. The verbs take options as keywords only; these records are not passed in.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Self

from sim.model.errors import SimError
from sim.model.scenario import MAX_GAMES, out_of_range
from sim.play.runner import DEFAULT_CHUNK, MAX_CHUNK
from sim.stats import compare as C

TIERS: dict[str, tuple[str, ...]] = {
    "exact": ("exact",),
    "statistical": ("statistical",),
    "stat": ("statistical",),
    "all": ("exact", "statistical"),
}


class OptionError(SimError, ValueError):
    """A bad option value (a usage error: exit 2 on the command line); ``field`` is the option ("--games")."""


def in_range(name: str, v: int | None, lo: int = 1, hi: int | None = None, note: str = "") -> None:
    """Raise OptionError when option ``name`` (without the dashes) is outside ``lo``..``hi`` (``hi`` None: no upper
    end), in the wording scenario files get too (`sim.model.scenario.out_of_range`); ``note`` says why."""
    if v is not None and (isinstance(v, bool) or not isinstance(v, int)):  # from Python: games="many"
        raise OptionError(f"--{name}: expected an integer, got {v!r}")
    if v is not None and (v < lo or (hi is not None and v > hi)):
        raise OptionError(out_of_range(f"--{name}", v, lo, hi) + note)


class _Given:
    @classmethod
    def given(cls, **kw: Any) -> Self:
        """These options from a verb's keywords; a keyword left None takes the field's default."""
        return cls(**{k: v for k, v in kw.items() if v is not None})

    def keywords(self) -> dict[str, Any]:
        """The verb's keywords that give these options back (the field ``sets`` is the verb's ``set``)."""
        return {("set" if k == "sets" else k): v for k, v in vars(self).items()}


def check_run_options(
    games: int | None = None, threads: int | None = None, chunk: int | None = None, seed: int | None = None
) -> None:
    """The options every playing command shares: games 1..MAX_GAMES, threads >= 1, chunk 1..MAX_CHUNK, seed
    0..2^64-1. Raises OptionError. (A thread count above the cores is not refused: the run uses all of them and
    says so through `RunContext.on_note`.)"""
    in_range("games", games, 1, MAX_GAMES)
    in_range("threads", threads)
    in_range("chunk", chunk, 1, MAX_CHUNK, " (memory grows with the chunk)")
    in_range("seed", seed, 0, 2**64 - 1)


def check_cluster(workers: int | None, scheduler: str | None) -> None:
    """--workers >= 1 and --scheduler an address (`sim.play.distributed.address_problem`). Raises OptionError."""
    from sim.play.distributed import address_problem

    in_range("workers", workers)
    if scheduler is not None and not isinstance(scheduler, str):  # from Python: scheduler=5
        raise OptionError(f"--scheduler: {scheduler!r} is not an address; give one such as tcp://HOST:8786")
    if scheduler is not None and (why := address_problem(scheduler)):
        raise OptionError(f"--scheduler: {why}")


@dataclass(frozen=True, kw_only=True)
class RunOptions(_Given):
    """How to play one scenario. games, seed: default the scenario's; threads: Numba threads (None: all cores;
    1 per unit on Dask workers unless given); chunk: games per unit of work (memory bound; results do not depend
    on it); per_game: keep the per-game rows (`Result.games`, games.parquet); workers: play on a Dask
    LocalCluster of that many processes; scheduler: on an existing Dask cluster (tcp://HOST:8786). at_skill: also play
    the scenario with every seat on the game's learned player and judge each headline figure at skill (the result's
    ``at_skill``; `sim.api.skill`); skill_games: that table's games (None: the scenario's ``skill_games`` or the
    default size, `sim.model.skill_spec`; 0: none; given, it implies at_skill)."""

    games: int | None = None
    seed: int | None = None
    threads: int | None = None
    chunk: int = DEFAULT_CHUNK
    per_game: bool = False
    workers: int | None = None
    scheduler: str | None = None
    at_skill: bool = False
    skill_games: int | None = None

    def validate(self) -> RunOptions:
        """Raises OptionError for a value out of range; returns itself (workers and scheduler are checked when
        the executor is opened: `check_cluster`)."""
        check_run_options(self.games, self.threads, self.chunk, self.seed)
        in_range("skill-games", self.skill_games, 0, MAX_GAMES, " (0: no table at skill)")
        return self

    @property
    def skill(self) -> bool:
        """Whether the run plays its table at skill (`at_skill`, or `skill_games` given)."""
        return self.at_skill or self.skill_games is not None


@dataclass(frozen=True, kw_only=True)
class CompareOptions(_Given):
    """How to compare A and B. One stopping rule: ``games`` (default A's), ``precision`` (every win-rate
    difference's 95% half-width at most this) or ``sprt`` (effect size of the SPRT of ``metric``; ``two_sided``);
    ``max_games`` caps the last two (default 2,000,000). ``alpha``: family-wise level of the Holm-corrected
    verdicts. ``chunk``: games per unit (the stopping rule looks after each). threads, workers, scheduler: as
    `RunOptions`."""

    games: int | None = None
    seed: int | None = None
    precision: float | None = None
    sprt: float | None = None
    metric: str | None = None
    two_sided: bool = False
    max_games: int | None = None
    alpha: float = 0.05
    threads: int | None = None
    chunk: int = C.DEFAULT_CHUNK
    workers: int | None = None
    scheduler: str | None = None
    margins: tuple[str, ...] = ()  # "KEY=VALUE": a measure's equivalence margin (sim.stats.verdict)
    sample: int = 0  # the arc's win-probability timelines of games 0 .. sample - 1 of A and B compared (0: none)
    rollouts: int = 32  # rollouts a state of those timelines (sim.api.arc.DEFAULT_ROLLOUTS)

    @property
    def adaptive(self) -> bool:
        return self.precision is not None or self.sprt is not None

    def margin_values(self) -> dict[str, float]:
        """The --margin entries as {measure: value} (percentage points for rates); raises OptionError."""
        from sim.stats import verdict as V

        try:
            return V.parse_margins(list(self.margins))
        except V.MarginError as e:
            raise OptionError(str(e), field="--margin") from None

    def validate(self) -> CompareOptions:
        """Raises OptionError (the CLI's line for the same options); returns itself."""
        check_run_options(self.games, self.threads, self.chunk, self.seed)
        p, e = self.precision, self.sprt
        if p is not None and not 0 < p < 1:
            raise OptionError(f"--precision: {p} is out of range; allowed 0 < x < 1 (a win-rate half-width)")
        if e is not None and (e == 0 or not abs(e) < 1e9):
            raise OptionError(f"--sprt: {e} is not a usable effect size; give a non-zero difference, e.g. 0.01")
        if not 0 < self.alpha < 1:
            raise OptionError(f"--alpha: {self.alpha} is out of range; allowed 0 < alpha < 1")
        if self.metric is not None and e is None:
            raise OptionError("--metric needs --sprt", field="--metric")
        if self.two_sided and e is None:
            raise OptionError("--two-sided needs --sprt", field="--two-sided")
        if p is not None and e is not None:
            raise OptionError(
                "--precision and --sprt are two different stopping rules; give one of them", field="--sprt"
            )
        rule = "--precision" if p is not None else "--sprt"
        if self.games is not None and self.adaptive:
            raise OptionError(
                f"--games fixes the game count, {rule} decides when to stop; give one of them (cap "
                f"{rule} with --max-games)",
                field="--games",
            )
        if self.max_games is not None and not self.adaptive:
            raise OptionError(
                "--max-games caps a --precision or --sprt run; with a fixed game count use --games", field="--max-games"
            )
        in_range(
            "max-games", self.max_games, C.MIN_GAMES, MAX_GAMES, f" ({rule} first decides after {C.MIN_GAMES} games)"
        )
        self.margin_values()
        return self

    def sprt_rule(self) -> C.Sprt | None:
        """The SPRT of these options (`sim.stats.compare.Sprt`), or None."""
        return C.Sprt(self.metric, self.sprt, two_sided=self.two_sided) if self.sprt is not None else None

    def cap(self) -> int:
        return C.DEFAULT_CAP if self.max_games is None else self.max_games


@dataclass(frozen=True, kw_only=True)
class SweepOptions(_Given):
    """How to sweep. sets: "NAME=VALUES" axes (a value, a list a,b,c or a range LO..HI [step S]); mode: grid
    (default) or zip; games per point, seed; measures to plot and pair; target "MEASURE=VALUE"; independent: each
    point its own random streams; fresh: forget stored points; threads, chunk, workers, scheduler: as
    `RunOptions` (chunk None: the default)."""

    sets: tuple[str, ...] = ()
    mode: str | None = None
    games: int | None = None
    seed: int | None = None
    measures: tuple[str, ...] | None = None
    target: str | None = None
    independent: bool = False
    fresh: bool = False
    threads: int | None = None
    chunk: int | None = None
    workers: int | None = None
    scheduler: str | None = None
    margins: tuple[str, ...] = ()  # "KEY=VALUE": a measure's equivalence margin (sim.stats.verdict)

    def validate(self) -> SweepOptions:
        check_run_options(self.games, self.threads, self.chunk, self.seed)
        return self


@dataclass(frozen=True, kw_only=True)
class CheckOptions(_Given):
    """How to check scenarios against their baselines. tier: exact | statistical | all; seed of the statistical
    tier (None: random, recorded in the result); games: its games per scenario (default the baseline's
    check_games); alpha: its family-wise false-alarm level (Holm); baselines: the baseline folder (default
    reports/baselines); baseline: one baseline file for the one scenario given; sets: "NAME=VALUE" overrides
    applied to every scenario; threads: as `RunOptions`; margins: "KEY=VALUE" equivalence margins of the headline
    figures' verdicts (`sim.stats.verdict.parse_margins`: a rate's in percentage points)."""

    tier: str = "all"
    seed: int | None = None
    games: int | None = None
    alpha: float = 0.005
    baselines: Path | None = None
    baseline: Path | None = None
    sets: tuple[str, ...] = field(default_factory=tuple)
    threads: int | None = None
    margins: tuple[str, ...] = field(default_factory=tuple)  # "KEY=VALUE" equivalence margins (sim.stats.verdict)

    def tiers(self) -> tuple[str, ...]:
        """The tiers to run; raises OptionError for an unknown tier."""
        t = TIERS.get(self.tier)
        if t is None:
            raise OptionError(f"--tier: unknown tier '{self.tier}'; allowed: exact, statistical, all")
        return t

    def validate(self) -> CheckOptions:
        self.tiers()
        check_run_options(self.games, self.threads, seed=self.seed)
        if not 0 < self.alpha < 1:
            raise OptionError(f"--alpha: {self.alpha} is out of range; allowed 0 < alpha < 1")
        self.margin_values()
        return self

    def margin_values(self) -> dict[str, float]:
        """The --margin entries by key; raises OptionError naming a bad one."""
        from sim.stats.verdict import MarginError, parse_margins

        try:
            return parse_margins(list(self.margins))
        except MarginError as e:
            raise OptionError(str(e)) from None
