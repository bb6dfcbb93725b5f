"""What a tune searches: its parameters (a name and a range or choices), its targets (a measure and a value or
bounds) and its budget, from a scenario file's ``[tune]`` table and the ``--param`` / ``--target`` options.

Parameters are named as `sim sweep` names them (`sim.model.overrides`: a rule parameter ``track_len``, a card
``ghost_cards.shuffle``, a seat's strategy parameter ``seats.2.w_goal``, a strategy ``seats.1.strategy``). A
range is searched, not listed, so its form says what values a trial may take::

    track_len=20..60             integers 20, 21, ..., 60 (both ends integers)
    track_len=20..60 step 5      20, 25, ..., 60 (a grid: integers, or decimals with a decimal step)
    jewel_weight=0.5..2.0        any number from 0.5 to 2.0 (an end with a decimal point: continuous)
    ghost_values=[1,2,3],[2,3,4] one of the values given (a,b,c: choices, any TOML values)
    seats.1.strategy=runner,weighted

Targets, on any measure the tune's points report (`sim.stats.sweep_table.quantities`, checked by
`sim.stats.tune_stats.resolve`)::

    first_player_advantage=0     the measure as close to 0 as possible
    team_win_rate=50%            rates as a share (0.5) or a percentage (50%)
    length.rounds=6..8           anywhere within 6 to 8 (both ends included) counts as met

``[tune]`` table (keys other than the options below are parameter names; a range is a string, an array the
choices)::

    [tune]
    trials = 30                   # trials the search plays (default 30)
    games = 2000                  # games per trial (default: the scenario's)
    target = ["team_win_rate=0.5", "length.rounds=6..9"]   # or one string
    confirm = 3                   # best candidates played again at a fresh seed (default 3)
    confirm_games = 8000          # games each of them plays then (default: 4 x games)
    batch = 4                     # trials asked of the optimiser at once (default 4; part of the study)
    ghost_cards.shuffle = "1..8"
    hauntings = "4..9"

Command-line values replace the table's: a ``--param`` replaces the table's parameter of the same name and adds to
the others; ``--target`` options replace the table's targets. Every range's ends and every choice are validated as a
sweep's points are (the scenario file with that one value set, `sim.model.scenario.from_dict`); a bad one raises
`TuneError`, one line naming the entry, before anything runs.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from sim.model import overrides as ov
from sim.model.scenario import MAX_GAMES, Scenario, ScenarioError, from_dict, toml_value
from sim.model.schema import misspelt_option, validate
from sim.model.sweep_axis import SweepError
from sim.model.sweep_spec import LOOKS_LIKE_RANGE, RANGE_RE, parse_range, split_values

DEFAULT_TRIALS = 30
DEFAULT_CONFIRM = 3
DEFAULT_BATCH = 4
CONFIRM_FACTOR = 4  # confirmation games per candidate: this many times the games of a trial, by default
MAX_TRIALS = 10_000
MAX_CONFIRM = 50
MAX_BATCH = 256
_NUM = r"[-+]?[0-9]+(?:\.[0-9]+)?%?"
TARGET_RE = re.compile(rf"^\s*(?P<lo>{_NUM})\s*(?:\.\.\s*(?P<hi>{_NUM})\s*)?$")
NOT_TUNABLE = ("name", "description", "seed", "games")
CHOICES = "two or more choices a,b,c"  # what else --param takes than a range


class TuneError(SweepError):
    """A bad tune entry; one line naming it (``--param track_len=...``, ``[tune] hauntings``, ``--target ...``).
    ``usage`` as `SweepError`'s: whether the command line is at fault (exit 2) rather than the file (exit 3)."""


_COUNT = "a positive integer"


class TuneTable(BaseModel):
    """The ``[tune]`` table's options (`sim.model.schema`); its other keys (``model_extra``) are the parameters.
    Also the command line's counts (``--trials`` ...), checked against the same bounds."""

    model_config = ConfigDict(extra="allow")
    trials: int = Field(DEFAULT_TRIALS, ge=1, le=MAX_TRIALS, description=_COUNT)
    games: int | None = Field(None, ge=1, le=MAX_GAMES, description=_COUNT)
    target: str | list[str] | None = Field(
        None, description='a string or an array of strings MEASURE=VALUE, e.g. target = "first_player_advantage=0"'
    )
    confirm: int = Field(DEFAULT_CONFIRM, ge=1, le=MAX_CONFIRM, description=_COUNT)
    confirm_games: int | None = Field(None, ge=1, le=MAX_GAMES, description=_COUNT)
    batch: int = Field(DEFAULT_BATCH, ge=1, le=MAX_BATCH, description=_COUNT)


@dataclass(frozen=True)
class Param:
    """One searched name: ``kind`` "int" (low..high, ``step``), "float" (low..high; ``step`` None: continuous) or
    "choice" (``choices``); ``source``: where it was given, for messages."""

    name: str
    kind: str
    source: str
    low: float = 0
    high: float = 0
    step: float | None = None
    choices: tuple[Any, ...] = ()

    @property
    def labels(self) -> tuple[str, ...]:
        """The choices as TOML text (what the optimiser picks among: its categories must be plain values)."""
        return tuple(toml_value(c) for c in self.choices)

    def grid(self) -> list[Any] | None:
        """Every value the parameter may take, or None for a continuous range."""
        if self.kind == "choice":
            return list(self.choices)
        if self.step is None:
            return None if self.kind == "float" else list(range(int(self.low), int(self.high) + 1))
        return _grid(f"{self.low}..{self.high} step {self.step}", self.source)

    def extremes(self) -> list[Any]:
        """The values validated before anything runs: both ends of a range, every choice."""
        if self.kind == "choice":
            return list(self.choices)
        g = self.grid()
        return [g[0], g[-1]] if g else [self.low, self.high]

    def words(self) -> str:
        """The range in the syntax it was given: "20..60", "0.5..2.0 step 0.25", "runner, weighted"."""
        if self.kind == "choice":
            return ", ".join(self.labels)
        return f"{toml_value(self.low)}..{toml_value(self.high)}" + (
            f" step {toml_value(self.step)}"
            if self.step is not None and not (self.kind == "int" and self.step == 1)
            else ""
        )


@dataclass(frozen=True)
class Target:
    """A target on measure ``measure``: its value within ``low``..``high`` (equal for a point target)."""

    measure: str
    low: float
    high: float
    text: str
    source: str

    def distance(self, v: float) -> float:
        """How far value ``v`` is from the target (0 within its bounds), in the measure's unit."""
        return max(self.low - v, 0.0, v - self.high)

    def distance_interval(self, lo: float, hi: float) -> tuple[float, float]:
        """The distance's range over a measure's interval ``lo``..``hi``: 0 at the low end when they overlap."""
        near = 0.0 if lo <= self.high and hi >= self.low else min(self.distance(lo), self.distance(hi))
        return near, max(self.distance(lo), self.distance(hi))

    def words(self) -> str:
        return f"{self.measure}={self.text}"


@dataclass
class Tune:
    """A validated tune: the base scenario (games and seed as each trial plays them), the file's document (its
    ``[sweep]`` and ``[tune]`` tables removed), parameters, targets and the budget."""

    base: Scenario
    path: Path
    doc: dict
    params: list[Param]
    targets: list[Target]
    trials: int
    games: int
    confirm: int
    confirm_games: int
    batch: int
    probes: list[Scenario] = field(default_factory=list)  # the validated extremes (their measures are checked)

    @property
    def name(self) -> str:
        return self.base.name

    @property
    def seed(self) -> int:
        return self.base.seed

    @property
    def confirm_seed(self) -> int:
        """The fresh seed of the confirmation games: other random numbers than the search's, so a candidate that
        looked best by luck is not confirmed by the same luck."""
        return self.base.seed + 1

    def grid_points(self) -> int | None:
        """Points in the full grid of the same ranges (None when a range is continuous)."""
        n = 1
        for p in self.params:
            g = p.grid()
            if g is None:
                return None
            n *= len(g)
        return n

    def scenario_at(self, values: dict[str, Any], where: str = "trial") -> Scenario:
        """The validated scenario of the file with ``values`` {name: value} set (games and seed the tune's).
        Raises TuneError naming the parameter whose value is refused."""
        src = {p.name: p.source for p in self.params}
        try:
            raw, fields = ov.apply_traced(self.doc, list(values.items()))
            sc = from_dict(raw, name=self.path.stem, path=str(self.path))
        except ov.OverrideError as e:
            name = str(e).split("=", 1)[0].removeprefix("--set ")
            raise TuneError(f"{src.get(name, where)}: {str(e).split(': ', 1)[-1]}") from None
        except ScenarioError as e:
            o = ov.field_of(str(e), fields)
            at = f"{src[o[0]]}: value {toml_value(o[1])}" if o and o[0] in src else where
            said = str(e)
            if o and o[0] in src and src[o[0]].startswith("--"):  # an option's example, not the file's TOML
                said = ov.option_example(said, e, src[o[0]].split(" ", 1)[0], o[0])
            raise TuneError(f"{at}: {said}") from None
        return sc.with_changes(games=self.games, seed=self.base.seed, name=self.base.name)

    def fingerprint(self) -> dict:
        """What the study's trials depend on: the scenario as played (its name and description aside), games per
        trial, parameters, targets and batch (a rerun with another one starts a new study; more trials, other
        confirmation counts continue it)."""
        return {
            "scenario": {k: v for k, v in self.base.to_dict().items() if k not in ("name", "description")},
            "params": [[p.name, p.kind, p.words()] for p in self.params],
            "targets": [t.words() for t in self.targets],
            "batch": self.batch,
        }


def _grid(text: str, where: str, instead: str = CHOICES) -> list[Any]:
    """`sim.model.sweep_spec.parse_range` (its checks and words: a range, a positive step, not backwards, not too
    many values), its error as a TuneError."""
    try:
        return parse_range(text, where, instead)
    except SweepError as e:
        raise TuneError(str(e), e.usage) from None


def parse_param(text: str) -> Param:
    """``--param NAME=RANGE`` -> Param (see module docstring). Raises TuneError."""
    name, eq, raw = text.partition("=")
    where = f"--param {text}"
    name = name.strip()
    try:
        ov.parse_set(f"{name}=0")  # the name's syntax, checked where overrides check it
    except ov.OverrideError as e:
        raise TuneError(f"--param {str(e).removeprefix('--set ')}") from None
    if not eq or not raw.strip():
        raise TuneError(f"{where}: expected NAME=RANGE (LO..HI, LO..HI step S, or choices a,b,c)")
    return _param(name, raw, where, from_table=False)


def _param(name: str, raw: Any, where: str, from_table: bool) -> Param:
    if isinstance(raw, list):
        return _choices(name, list(raw), where)
    if not isinstance(raw, str):
        raise TuneError(
            f'{where}: expected a range string "LO..HI [step S]" or an array of choices, got {toml_value(raw)}'
        )
    m = RANGE_RE.match(raw)
    if m:
        lo, hi, step = m["lo"], m["hi"], m["step"]
        if step:  # a grid: the sweep's own parse (its checks: positive step, not backwards, not too many)
            vals = _grid(raw, where)
            kind = "int" if isinstance(vals[0], int) else "float"
            return Param(name, kind, where, vals[0], vals[-1], int(step) if kind == "int" else float(step))
        ints = "." not in lo and "." not in hi
        low, high = (int(lo), int(hi)) if ints else (float(lo), float(hi))
        if high < low:
            raise TuneError(f"{where}: {raw.strip()!r} runs backwards; write the smaller end first")
        if low == high:
            raise TuneError(f"{where}: {raw.strip()!r} is one value; give a range LO..HI with LO < HI, or choices")
        return Param(name, "int" if ints else "float", where, low, high, 1 if ints else None)
    if from_table or LOOKS_LIKE_RANGE.match(raw):  # 20...60, a..b: a range meant (not "one choice")
        _grid(raw, where, "an array of choices" if from_table else CHOICES)
    vals = []
    for item in split_values(raw):
        try:
            vals.append(ov.parse_value(item))
        except ValueError as e:
            raise TuneError(f"{where}: {item!r}: {e}") from None
    return _choices(name, vals, where)


def _choices(name: str, vals: list[Any], where: str) -> Param:
    if len(vals) < 2:
        given = f" ({toml_value(vals[0])})" if vals else ""
        raise TuneError(f"{where}: one choice{given}; give two or more (a,b,c) or a range LO..HI")
    labels = [toml_value(v) for v in vals]
    for i, lab in enumerate(labels):
        if lab in labels[:i]:
            raise TuneError(f"{where}: choice {lab} is given twice; give each choice once")
    return Param(name, "choice", where, choices=tuple(vals))


def parse_target(text: str, where: str) -> Target:
    """``MEASURE=VALUE`` or ``MEASURE=LO..HI`` (a rate also as 50% or 40%..60%) -> Target; the measure's name is
    checked later, against the points' measures (`sim.stats.tune_stats.resolve`). Raises TuneError."""
    name, eq, val = str(text).partition("=")
    name = name.strip()
    if not eq or not name or not val.strip():
        raise TuneError(
            f"{where}: expected MEASURE=VALUE or MEASURE=LO..HI (e.g. first_player_advantage=0, "
            "team_win_rate=50%, length.rounds=6..8)"
        )
    m = TARGET_RE.match(val)
    if not m:
        raise TuneError(f"{where}: {val.strip()!r} is not a number or a range LO..HI of numbers")

    def number(s: str) -> float:
        return float(s.rstrip("%")) / (100 if s.endswith("%") else 1)

    lo = number(m["lo"])
    hi = number(m["hi"]) if m["hi"] else lo
    if not (math.isfinite(lo) and math.isfinite(hi)):
        raise TuneError(f"{where}: must be finite numbers")
    if hi < lo:
        raise TuneError(f"{where}: {val.strip()!r} runs backwards; write the smaller end first")
    return Target(name, lo, hi, val.strip(), where)


def _params(table: dict, params: Sequence[str]) -> list[Param]:
    """The ``[tune]`` table's parameters (``TuneTable.model_extra``; a TOML dotted key is one name), each replaced
    by a ``--param`` of the same name, the others added; a name given twice, a scenario key, or two that overlap
    (one covers the other) are refused."""
    flat: list[tuple[str, Any]] = []

    def walk(t: dict, prefix: str) -> None:
        for k, v in t.items():
            if isinstance(v, dict):
                walk(v, f"{prefix}{k}.")
            else:
                flat.append((f"{prefix}{k}", v))

    walk(table, "")
    ps = [_param(n, v, f"[tune] {n}", from_table=True) for n, v in flat]
    given: set[tuple[str, ...]] = set()
    for text in params:
        q = parse_param(text)
        c = ov.canonical(q.name)
        if c in given:
            raise TuneError(f"--param {q.name}: given twice; give its range once")
        given.add(c)
        ps = [x for x in ps if ov.canonical(x.name) != c] + [q]
    for i, a in enumerate(ps):
        if a.name.removeprefix("scenario.") in NOT_TUNABLE:
            raise TuneError(
                f"{a.source}: the scenario's {a.name.removeprefix('scenario.')} is not a setting of the game; tune a "
                "rule parameter or a seat's strategy or parameter (sim list GAME)"
            )
        for b in ps[:i]:
            if ov.covers(ov.canonical(a.name), ov.canonical(b.name)) or ov.covers(
                ov.canonical(b.name), ov.canonical(a.name)
            ):
                raise TuneError(f"{a.source}: overlaps {b.source}; tune each setting once")
    return ps


def _targets(table: TuneTable, targets: Sequence[str]) -> list[Target]:
    """The ``--target`` texts, else the ``[tune]`` table's target (a string or an array of them); at least one,
    one per measure."""
    ts_text = list(targets) if targets else table.target
    if isinstance(ts_text, str):
        ts_text = [ts_text]
    if not ts_text:
        raise TuneError(
            "--target: no target; give --target MEASURE=VALUE (e.g. first_player_advantage=0) or "
            "[tune] target in the scenario file",
            usage=True,
        )
    src = "--target" if targets else "[tune] target"
    ts = [parse_target(t, f"{src} {t}") for t in ts_text]
    for i, t in enumerate(ts):
        if any(t.measure == u.measure for u in ts[:i]):
            raise TuneError(f"{t.source}: a second target on {t.measure}; give one (a range LO..HI for bounds)")
    return ts


def build(
    path: str | Path,
    params: Sequence[str] = (),
    targets: Sequence[str] = (),
    trials: int | None = None,
    games: int | None = None,
    seed: int | None = None,
    confirm: int | None = None,
    confirm_games: int | None = None,
    batch: int | None = None,
) -> Tune:
    """Read scenario file ``path`` (its ``[tune]`` table, if any) and the ``--param`` / ``--target`` texts, and
    validate every parameter's extremes and every option. Command-line values win over the table's. Raises
    TuneError / ScenarioError (one line); target measures are checked by `sim.stats.tune_stats.resolve`."""
    from sim.model.scenario import load

    p = Path(path)
    load(p)  # the file alone (its own errors first, with its path)
    doc = tomllib.loads(p.read_text(encoding="utf-8"))
    doc.pop("sweep", None)
    raw_table = doc.pop("tune", {})
    if line := misspelt_option(TuneTable, raw_table, "tune", lambda k: ov.names_a_setting(doc, k)):
        raise TuneError(f"{p}: {line}")
    table = validate(TuneTable, raw_table, lambda k: f"[tune] {k}".rstrip(), TuneError)
    counts = {"trials": trials, "games": games, "confirm": confirm, "confirm_games": confirm_games, "batch": batch}
    given = {k: v for k, v in counts.items() if v is not None}
    validate(TuneTable, given, lambda k: f"--{k.replace('_', '-')}", TuneError)  # the table's bounds
    opts = table.model_copy(update=given)
    ps = _params(table.model_extra or {}, params)
    if not ps:
        raise TuneError(
            f"{p}: nothing to tune; give --param NAME=RANGE (e.g. --param track_len=20..60) or a [tune] table in "
            "the scenario file (see sim tune --help)",
            usage=True,
        )
    ts = _targets(table, targets)
    base0 = load(p)
    g = base0.games if opts.games is None else opts.games
    cg = min(CONFIRM_FACTOR * g, MAX_GAMES) if opts.confirm_games is None else opts.confirm_games
    if seed is not None and not 0 <= seed < 2**64:
        raise TuneError(f"--seed: {seed} is out of range; allowed 0..2^64-1")
    base = base0.with_changes(games=g, seed=base0.seed if seed is None else seed)
    tune = Tune(base, p, doc, ps, ts, opts.trials, g, opts.confirm, cg, opts.batch)
    for q in ps:
        for v in q.extremes():
            tune.probes.append(tune.scenario_at({q.name: v}, q.source))
    return tune
