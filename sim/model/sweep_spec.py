"""What a sweep plays: its axes (a parameter name and its values), grid or zip, and every point as a validated
`Scenario`, from a scenario file's ``[sweep]`` table and ``--set NAME=VALUES`` options.

``[sweep]`` table (keys other than the options below are parameter names, as `sim.model.overrides` names them: a rule
parameter ``track_len``, a card ``ghost_cards.shuffle``, a seat's strategy parameter ``seats.2.w_goal``, a strategy
``seats.1.strategy``; a TOML dotted key ``seats.2.w_goal = [...]`` is read as that name)::

    [sweep]
    mode = "grid"                   # "grid" (default): every combination; "zip": the i-th values together
    games = 20000                   # games per point (default: the scenario's)
    measures = ["first_player_advantage", "length.turns"]   # measures to plot and pair (default: per game)
    target = "first_player_advantage=0"                     # optional: highlight the points that meet it
    independent = false             # true: each point its own random streams (default: common random numbers)
    track_len = "22..40 step 2"     # a range (integers: step 1 by default)
    ghost_values = [[1, 2, 3, 4, 5, 6, 7], [2, 3, 4, 5, 6, 7, 8]]   # an array: the values themselves

On the command line, ``--set NAME=VALUES``: VALUES is one TOML value, a comma-separated list (``26,30,34``;
commas inside [..] or quotes do not split) or a range ``LO..HI`` / ``LO..HI step S`` (both ends included).
``--set`` axes replace a ``[sweep]`` axis of the same name and add to the others.

A name given one value while another has several (``--set track_len=20..40 --set players=3``) is no axis: it is a
fixed override of every point, as ``--set`` is in ``sim run`` (``Sweep.fixed``; the base scenario plays it too), so
the plots have the swept names alone on x. When every name has one value, they stay axes (a one-point sweep).

Every value is validated exactly as a scenario's is (`sim.model.overrides` applied to the file's document, then
`sim.model.scenario.from_dict`); a bad one raises `SweepError`, one line naming the sweep entry, before anything runs.
"""

from __future__ import annotations

import itertools
import re
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from sim.model import overrides as ov
from sim.model.scenario import MAX_GAMES, Scenario, ScenarioError, from_dict, toml_value
from sim.model.schema import misspelt_option, validate
from sim.model.sweep_axis import Axis, SweepError, is_numeric  # noqa: F401  (part of this module's interface)

MAX_POINTS = 10_000
_NUM = r"[-+]?[0-9]+(?:\.[0-9]+)?"  # 20, -1.5: digits on both sides of a decimal point ("20...60" is no range)
RANGE_RE = re.compile(rf"^\s*(?P<lo>{_NUM})\s*\.\.\s*(?P<hi>{_NUM})\s*(step\s+(?P<step>{_NUM}))?\s*$")
# meant as a range though none: a number then '..' (20...60, 20..), or words joined by '..' (a..b, x20..60); not a
# list, a quoted text or a path (../a.toml)
LOOKS_LIKE_RANGE = re.compile(r"^\s*[-+]?[0-9][0-9.]*\.\.|^\s*[\w+-]+\.\.[\w.+-]*(\s+step\s+\S+)?\s*$")


class SweepTable(BaseModel):
    """The ``[sweep]`` table's options (`sim.model.schema`); its other keys (``model_extra``) are the axes. Also
    the command line's ``--mode`` and ``--games``, checked against the same declaration."""

    model_config = ConfigDict(extra="allow")
    mode: Literal["grid", "zip"] = "grid"
    games: int | None = Field(None, ge=1, le=MAX_GAMES, description="a positive integer")
    measures: list[str] | None = Field(
        None, description='an array of measure names, e.g. measures = ["first_player_advantage", "length.rounds"]'
    )
    target: str | None = Field(None, description='a string MEASURE=VALUE, e.g. target = "first_player_advantage=0"')
    # a TOML boolean only: the text "false" is truthy
    independent: bool = Field(False, description="true or false")


@dataclass(frozen=True)
class Point:
    """One point of a sweep: its index, its values by axis name, and the validated scenario it plays."""

    index: int
    values: dict
    scenario: Scenario


@dataclass
class Sweep:
    """A validated sweep: the base scenario, its axes, mode, points, games per point, chosen measures, target."""

    base: Scenario
    axes: list[Axis]
    mode: str
    points: list[Point]
    games: int
    measures: list[str] = field(default_factory=list)
    target: tuple[str, float] | None = None
    independent: bool = False
    # one-value names set on every point (not axes: nothing to plot them against), in the order given
    fixed: list[Axis] = field(default_factory=list)
    # how the measures and the target were asked for: checked against the points' measures by
    # `sim.stats.sweep_table.resolve` (statistics know the measures; the spec only reads them)
    measure_source: str = "[sweep] measures"
    target_text: str | None = None
    target_source: str = "--target"
    # equivalence margins of the verdicts against the scenario's own point (sim.stats.verdict; --margin), by measure
    margins: dict[str, float] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.base.name


def not_a_range(where: str, text: str, instead: str) -> SweepError:
    """The one wording of a text that is no range, for sweeps and tunes alike: "WHERE: 'a..b' is not a range; write
    LO..HI or LO..HI step S with a number at each end (e.g. ...), or INSTEAD" (``instead``: what else the entry
    takes there: "an array of values", "a list a,b,c", "two or more choices a,b,c")."""
    return SweepError(
        f"{where}: {text.strip()!r} is not a range; write LO..HI or LO..HI step S with a number at each end (e.g. "
        f"20..60, 0.5..2.0, 20..60 step 5), or {instead}"
    )


def parse_range(text: str, where: str, instead: str = "a list of values a,b,c") -> list:
    """``"LO..HI"`` or ``"LO..HI step S"`` -> the values LO, LO+S, ... up to HI (included when on the grid).
    Integers when LO, HI and S are; else floats computed exactly in decimal (0.5..2.0 step 0.25 gives 0.5, 0.75,
    ..., 2.0 with no rounding drift). Raises SweepError (`not_a_range` naming ``instead``, what else the entry
    takes)."""
    m = RANGE_RE.match(text)
    if not m:
        raise not_a_range(where, text, instead)
    try:
        lo, hi = Decimal(m["lo"]), Decimal(m["hi"])
        step = Decimal(m["step"]) if m["step"] else Decimal(1)
    except InvalidOperation:
        raise not_a_range(where, text, instead) from None
    if step <= 0:
        raise SweepError(f"{where}: step must be positive, got {m['step']}")
    if hi < lo:
        raise SweepError(f"{where}: {text!r} runs backwards; write the smaller end first")
    count = int((hi - lo) / step) + 1
    if count > MAX_POINTS:
        raise SweepError(f"{where}: {text!r} has {count:,} values; at most {MAX_POINTS:,}")
    ints = all("." not in (s or "1") for s in (m["lo"], m["hi"], m["step"]))
    vals = [lo + i * step for i in range(count)]
    return [int(v) for v in vals] if ints else [float(v) for v in vals]


def split_values(text: str) -> list[str]:
    """Split ``a,b,[c, d],"e,f"`` at top-level commas."""
    parts, depth, quote, cur = [], 0, None, ""
    for ch in text:
        if quote:
            quote = None if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        cur += ch
    parts.append(cur)
    return [p.strip() for p in parts]


def parse_set(text: str) -> Axis:
    """``--set NAME=VALUES`` -> Axis (see module docstring). Raises SweepError."""
    OverrideError, parse_value = ov.OverrideError, ov.parse_value
    name, eq, raw = text.partition("=")
    where = f"--set {ov.given(text)}"
    expected = f"{where}: expected NAME=VALUES (a value, a list a,b,c or a range LO..HI [step S])"
    if not eq:
        raise SweepError(expected)
    try:
        ov.check_name(name, text)  # the name's syntax, checked where overrides check it
    except OverrideError as e:
        raise SweepError(str(e)) from None
    if not raw.strip():
        raise SweepError(expected)
    if RANGE_RE.match(raw):
        return Axis(name.strip(), tuple(parse_range(raw, where)), where)
    if LOOKS_LIKE_RANGE.match(raw):  # 20...60, 20..: a typo of a range, not a text value to try
        parse_range(raw, where)
    vals = []
    for item in split_values(raw):
        try:
            vals.append(parse_value(item))
        except ValueError as e:
            raise SweepError(f"{where}: {item!r}: {e}") from None
    return Axis(name.strip(), tuple(vals), where)


def _flatten(table: dict, prefix: str = "") -> list[tuple[str, Any]]:
    out = []
    for k, v in table.items():
        name = f"{prefix}{k}"
        if isinstance(v, dict):
            out += _flatten(v, name + ".")
        else:
            out.append((name, v))
    return out


def table_axes(table: Any) -> tuple[list[Axis], SweepTable]:
    """The ``[sweep]`` table -> (axes, options). Raises SweepError naming the entry."""
    opts = validate(SweepTable, table, lambda k: f"[sweep] {k}".rstrip(), SweepError)
    axes = []
    for name, v in _flatten(opts.model_extra or {}):
        where = f"[sweep] {name}"
        if isinstance(v, str):
            vals = parse_range(v, where, "an array of values")
        elif isinstance(v, list):
            vals = v
        else:
            raise SweepError(
                f'{where}: expected an array of values or a range string "LO..HI [step S]", got {toml_value(v)}'
            )
        axes.append(Axis(name, tuple(vals), where))
    return axes, opts


def _same(v: Any, w: Any) -> bool:
    return v == w and type(v) is type(w)  # 1 and 1.0 (and true and 1) are different values


def _no_point_twice(axes: list[Axis], mode: str, mode_where: str = "--mode") -> None:
    """A point played twice (its curve drawn back over itself) is refused: in grid mode a value repeated within an
    axis; in zip mode the same values at two points (one axis may repeat a value while another changes)."""
    if mode == "zip":
        rows = list(zip(*(a.values for a in axes)))
        for i, r in enumerate(rows):
            for j in range(i):
                if all(_same(v, w) for v, w in zip(r, rows[j])):
                    vals = ", ".join(f"{a.name}={toml_value(v)}" for a, v in zip(axes, r))
                    where = "--mode zip" if mode_where.startswith("--") else '[sweep] mode = "zip"'
                    raise SweepError(
                        f"{where}: point {i + 1} ({vals}) is point {j + 1} again; give each point once",
                        usage=all(a.source.startswith("--") for a in axes) or None,
                    )
        return
    for a in axes:
        for i, v in enumerate(a.values):
            if any(_same(w, v) for w in a.values[:i]):
                raise SweepError(f"{a.source}: value {toml_value(v)} is given twice; give each value once")


def _points(axes: list[Axis], mode: str, mode_where: str = "[sweep] mode") -> list[dict]:
    if not axes:
        return [{}]
    if mode == "zip":
        lens = {len(a.values) for a in axes}
        if len(lens) > 1:
            desc = ", ".join(f"{a.name} has {len(a.values)}" for a in axes)
            where = "--mode zip" if mode_where.startswith("--") else '[sweep] mode = "zip"'
            raise SweepError(
                f"{where}: every axis needs the same number of values ({desc})",
                usage=all(a.source.startswith("--") for a in axes) or None,
            )
        combos: Iterable[tuple] = zip(*(a.values for a in axes))
    else:
        combos = itertools.product(*(a.values for a in axes))
    return [dict(zip((a.name for a in axes), c)) for c in combos]


def build(
    path: str | Path,
    sets: Sequence[str] = (),
    mode: str | None = None,
    games: int | None = None,
    seed: int | None = None,
    measures: list[str] | None = None,
    target: str | None = None,
    independent: bool | None = None,
) -> Sweep:
    """Read scenario file ``path`` (its ``[sweep]`` table, if any) and the ``--set`` axes, validate every point.
    Command-line values win over the table's. Raises SweepError / ScenarioError (one line)."""
    from sim.model.scenario import load

    p = Path(path)
    base = load(p)  # the file alone (its own errors first, with its path)
    doc = tomllib.loads(p.read_text(encoding="utf-8"))
    table = doc.pop("sweep", {})
    if line := misspelt_option(SweepTable, table, "sweep", lambda k: ov.names_a_setting(doc, k)):
        raise SweepError(f"{p}: {line}")
    axes, opts = table_axes(table)
    axes = _with_set_axes(axes, sets)
    _check_axes(axes, p)
    given_order = axes  # the order the overrides apply in (seats.0.strategy before seats.0.budget)
    fixed = [a for a in axes if len(a.values) == 1] if any(len(a.values) > 1 for a in axes) else []
    axes = [a for a in axes if a not in fixed]
    mode_where = "--mode" if mode else "[sweep] mode"
    given = {k: v for k, v in (("mode", mode), ("games", games)) if v is not None}
    # the options against the table's declaration (the table's own were checked also where these replace them)
    validate(SweepTable, given, lambda k: f"--{k}", SweepError)
    mode = mode or opts.mode
    _no_point_twice(axes, mode, mode_where)
    games = games if games is not None else opts.games if opts.games is not None else base.games
    base = base.with_changes(games=games, seed=base.seed if seed is None else seed)
    fixed_ov = [(a.name, a.values[0]) for a in fixed]
    combos = _points(axes, mode, mode_where)
    if len(combos) > MAX_POINTS:
        raise SweepError(
            f"sweep: {len(combos):,} points; at most {MAX_POINTS:,}", usage=all(a.source.startswith("--") for a in axes)
        )
    at = _At(doc, p, given_order, dict(fixed_ov), axes, mode)
    points = [
        Point(i, values, at.scenario(values).with_changes(games=games, seed=base.seed, name=base.name))
        for i, values in enumerate(combos)
    ]
    if fixed_ov:
        base = _with_fixed(base, doc, p, fixed_ov)
    ms = measures if measures else opts.measures
    indep = opts.independent if independent is None else independent
    sw = Sweep(base, axes, mode, points, games, list(ms) if ms else [], None, indep, fixed)
    sw.measure_source = "--measure" if measures else "[sweep] measures"
    sw.target_text = (opts.target if target is None else target) or None
    sw.target_source = "--target" if target is not None else "[sweep] target"
    return sw


def _with_set_axes(axes: list[Axis], sets: Sequence[str]) -> list[Axis]:
    """The ``[sweep]`` axes with the ``--set`` axes: each replaces the table's of the same name and adds to the
    others; a name given twice, or an axis a later one covers (every value replaced), is refused."""
    canonical, covers = ov.canonical, ov.covers
    given = set()
    for text in sets:
        ax = parse_set(text)
        if canonical(ax.name) in given:  # the last one silently won (also track_len, then params.track_len)
            raise SweepError(
                f"--set {ax.name}: given twice; give all its values in one --set (e.g. --set "
                f"'{ax.name}=a,b,c' or a range)"
            )
        given.add(canonical(ax.name))
        axes = [a for a in axes if canonical(a.name) != canonical(ax.name)] + [ax]
    for i, a in enumerate(axes):  # an axis whose every value a later one replaces plays nothing new
        for b in axes[:i]:
            if covers(canonical(a.name), canonical(b.name)):
                both_set = a.source.startswith("--") and b.source.startswith("--")
                if canonical(a.name) == canonical(b.name):
                    raise SweepError(f"{a.source}: the same parameter as {b.source}; sweep it once")
                raise SweepError(
                    f"{a.source}: replaces every value of {b.source} ({a.name} covers {b.name}); sweep "
                    f"only one of them{f', or give {a.name} first' if both_set else ''}"
                )
    return axes


def _check_axes(axes: list[Axis], p: Path) -> None:
    """Something to sweep, and each axis a setting of the game with values (not the name, seed or games)."""
    if not axes:  # a "sweep" of the scenario alone is a sim run: refused, not played
        raise SweepError(
            f"{p}: nothing to sweep; give --set NAME=VALUES (e.g. --set 'track_len=20..60 step 5') or "
            "a [sweep] table in the scenario file (see sim sweep --help)",
            usage=True,
        )
    for a in axes:
        if a.name.removeprefix("scenario.") in ("name", "description"):  # every point the same games, twice
            raise SweepError(
                f"{a.source}: the scenario's {a.name.removeprefix('scenario.')} does not change the "
                "games; sweep a rule parameter or a seat's strategy or parameter (sim list GAME)"
            )
        if a.name.removeprefix("scenario.") in ("seed", "games"):  # each point plays the sweep's own, so such
            key = a.name.removeprefix("scenario.")  # an axis would change nothing: refused
            how = "--seed, or run one sweep per seed" if key == "seed" else "--games or [sweep] games"
            raise SweepError(
                f"{a.source}: every point plays the sweep's {key} (common random numbers); give it once with {how}"
            )
        if not a.values:
            raise SweepError(f"{a.source}: no values")


@dataclass
class _At:
    """Validating the points of a sweep: the file's document, the axes in the order given (``src``: where each was
    given), the fixed values, the swept axes and the mode (for where a bad point's error says it is)."""

    doc: dict
    p: Path
    given_order: list[Axis]
    one: dict
    axes: list[Axis]
    mode: str

    def scenario(self, values: dict) -> Scenario:
        """The validated scenario of the point with ``values``; raises SweepError naming the entry to blame."""
        here = [(a.name, self.one[a.name] if a.name in self.one else values[a.name]) for a in self.given_order]
        src = {a.name: a.source for a in self.given_order}
        try:
            raw, fields = ov.apply_traced(self.doc, here)
            return from_dict(raw, name=self.p.stem, path=str(self.p))
        except ov.OverrideError as e:
            name = str(e).split("=", 1)[0].removeprefix("--set ")
            said = str(e).split(": ", 1)[1]
            if e.override is not None and name in src and "=" in src[name]:  # a fix it suggests: every value
                shown = ov.show(*e.override).partition("=")[2]
                said = said.replace(f".{name}={shown} ", f".{name}={src[name].split('=', 1)[1]} ")
            raise SweepError(f"{src.get(name, 'sweep')}: {said}") from None
        except ScenarioError as e:
            raise self._blame(e, values, here, fields, src) from None

    def _blame(self, e: ScenarioError, values: dict, here: list, fields: Any, src: dict) -> SweepError:
        if _blamed(str(e), fields) is None and (role := ov.role_blame(self.doc, here, e)) is not None:
            assert role.override is not None  # role_blame names the override it blames
            name, value = role.override
            said = str(role).split(": ", 1)[1]
            return SweepError(f"{src[name]}: {_at(values, name, value)}: {said}")
        o = _blamed(str(e), fields)
        where = f"{src[o[0]]}: {_at(values, *o)}" if o else f"sweep: {_at(values, '', None)}" if values else "sweep"
        said = str(e)
        if o is not None and src[o[0]].startswith("--"):  # an option's example, not the file's TOML
            said = ov.option_example(said, e, src[o[0]].split(" ", 1)[0], o[0])
        if o is not None:
            said += ov.same_name_note(self.doc, o[0])
        if len(self.axes) > 1 and self.mode == "grid" and (o is None or o[0] in values):
            said += " (a grid plays every combination of the values; --mode zip pairs them instead)"
        return SweepError(f"{where}: {said}")


def in_file(path: str | Path, e: SweepError) -> SweepError:
    """Error ``e`` of a scenario file's ``[sweep]`` or ``[tune]`` table ("[tune] games: ...") naming the file
    first, as every other error of the file does ("my.toml: [tune] games: ..."), of the same type (a TuneError
    stays one); any other error as it is."""
    if str(e).startswith(("[sweep]", "[tune]")) or (str(e).startswith("sweep: ") and not e.usage):
        return type(e)(f"{path}: {e}", usage=e.usage)
    return e


def _with_fixed(base: Scenario, doc: dict, p: Path, fixed: list[tuple[str, Any]]) -> Scenario:
    """The base scenario with the sweep's fixed overrides (what its own point plays, what its axes are named after,
    what provenance records as overrides); the file's alone when they do not make a scenario by themselves (a seat
    that ``players`` adds takes its strategy from an axis): every point was validated already."""
    try:
        sc = from_dict(ov.apply_overrides(doc, fixed), name=p.stem, path=str(p))
    except ScenarioError:
        return base
    return sc.with_changes(games=base.games, seed=base.seed, name=base.name, overrides=tuple(fixed))


def _at(values: dict, name: str, value: Any) -> str:
    """Where a point's error is: "value 2" of the one axis ``name`` (at ``value``), or, the point having other
    values, the whole point "at seats.0.root=halving, seats.0.explore=2" (a grid's combination: the value alone is
    fine at other points), a fixed ``name`` after its axes."""
    if not any(k != name for k in values):
        return f"value {toml_value(value)}"
    shown = [ov.show(k, v) for k, v in values.items()] + ([ov.show(name, value)] if name and name not in values else [])
    return "at " + ", ".join(shown)


def _blamed(message: str, fields: Any) -> tuple[str, Any] | None:
    return ov.field_of(message, fields)
