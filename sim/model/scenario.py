"""Scenario files: TOML -> validated, frozen `Scenario`. Strict: an unknown key, a wrong type or an out-of-range value
raises `ScenarioError` with one line naming the field and what is allowed.

Format::

    [scenario]                 # name (default: file stem), game, players, games, seed, description, skill_games
    game = "moor"
    players = 4
    [params]                   # overrides of the game's parameters (see `sim list`)
    track_len = 30
    [[seats]]                  # one per seat, in seat order
    strategy = "weighted"
    params = { w_goal = 2.0 }

A parameter that names a file (Treasure Hunters' ``board``) is looked up relative to the scenario file's folder first,
then where the game keeps its shipped files; see `FILE_PARAMS`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from sim.model import registry
from sim.model.boards import FILE_PARAMS, FILE_PATHS
from sim.model.errors import ScenarioError  # noqa: F401  (raised here; callers import it from this module)
from sim.model.values import got, out_of_range, range_text, toml_value, type_name  # (callers import some from here)
from sim.model.words import count, did_you_mean

MAX_GAMES = 10**10
INT, STR = "an integer", "a string"  # what a key of the wrong type is told (strict: a bool is no integer)


class ScenarioTable(BaseModel):
    """The [scenario] table as declared: each key's TOML type and range (`sim.model.schema` words its errors). The
    game, its player count and the name are checked against the game and the file afterwards (`_header`, `_name`)."""

    model_config = ConfigDict(extra="forbid")

    name: str | None = Field(None, description=STR)  # default: the file's stem
    game: str | None = Field(None, description=STR)
    players: int | None = Field(None, description=INT)
    games: int = Field(100_000, ge=1, le=MAX_GAMES, description=INT)
    seed: int = Field(0, ge=0, le=2**64 - 1, description=INT)
    description: str = Field("", description=STR)
    # games of the report's "At skill" table (None: its default size; sim.model.skill_spec)
    skill_games: int | None = Field(
        None, ge=0, le=MAX_GAMES, description=INT, json_schema_extra={"note": "0: no table at skill"}
    )


NAME_MAX = 100
NAME_RE = re.compile(rf"[A-Za-z0-9._-]{{1,{NAME_MAX}}}")
RESERVED_NAMES = ("baselines", "index.html")  # reports/baselines/ (sim check) and reports/index.html (make run)
SCENARIO_KEYS = tuple(ScenarioTable.model_fields)
TOP_KEYS = ("scenario", "params", "seats", "sweep", "tune")  # [sweep], [tune]: read by sim.api.sweep / .tune
SEAT_KEYS = ("strategy", "params")


def sha256_file(path: str | Path) -> str | None:
    """Hex SHA-256 of a file's bytes, or None when it cannot be read."""
    import hashlib

    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None


def input_files(sc: Scenario) -> dict[str, dict]:
    """{parameter: {"path", "sha256", "text"}} of every file a scenario's parameters read (a board file): its
    absolute path, the hex SHA-256 of its bytes and its whole content (UTF-8 text; a board file is a few KB), so a
    report carries the board it played and `sim rerun` replays it after the file was edited, moved or deleted.
    ``text`` is absent when the file cannot be read as UTF-8 text."""
    out = {}
    for (game, name), where in FILE_PATHS.items():
        if game == sc.game and name in sc.params:
            p = Path(where(sc.params[name])).resolve()
            out[name] = {"path": str(p), "sha256": sha256_file(p)}
            try:
                out[name]["text"] = p.read_bytes().decode("utf-8")
            except (OSError, UnicodeDecodeError):
                pass
    return out


def param_of(spec: registry.GameSpec, name: str) -> registry.ParamSpec:
    """Game ``spec``'s parameter ``name``, known to exist (a name taken from the game's own tables)."""
    ps = spec.param(name)
    assert ps is not None, name
    return ps


def coerce(spec: registry.ParamSpec, value: Any, where: str, written: Callable[[str, str], str] | None = None) -> Any:
    """Check ``value`` against ``spec`` and return it in the declared type (ints stay ints, so no recompiles).
    ``written(name, value)``: how a value is written where it came from, for the example a bad choice's error gives
    (default: a scenario file's TOML, 'a quoted string, e.g. rollout = "runner"'; `sim ladder --strategies`:
    'search:rollout=runner'). The error's ``choice_hint`` holds (that example's text, the first allowed value), so
    an override's error can give its own (`sim.model.overrides.load`: 'e.g. --set seats.0.rollout=runner')."""
    if spec.kind == "choice":
        return _choice(spec, value, where, written)
    check = _COERCE.get(spec.kind)
    if check is None:
        raise ScenarioError(f"{where}: unknown parameter kind {spec.kind}")
    return check(spec, value, where)


def _bool(spec: registry.ParamSpec, value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise ScenarioError(f"{where}: expected true or false, got {got(value)}")
    return value


def _int(spec: registry.ParamSpec, value: Any, where: str) -> int:
    if isinstance(value, bool) or not (isinstance(value, int) or (isinstance(value, float) and value.is_integer())):
        raise ScenarioError(f"{where}: expected an integer in {range_text(*spec.domain)}, got {got(value)}")
    value = int(value)
    lo, hi = spec.domain
    if not lo <= value <= hi:
        raise ScenarioError(out_of_range(where, value, lo, hi))
    return value


def _float(spec: registry.ParamSpec, value: Any, where: str) -> float:
    rng = f" in {toml_value(float(spec.domain[0]))}..{toml_value(float(spec.domain[1]))}" if spec.domain else ""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ScenarioError(f"{where}: expected a number{rng}, got {got(value)}")
    if not math.isfinite(value):
        big = " (infinite: inf, or a number too large to store)" if math.isinf(value) else ""
        raise ScenarioError(f"{where}: must be a finite number{rng}, got {toml_value(float(value))}{big}")
    value = float(value)
    if spec.domain is not None:
        lo, hi = spec.domain
        if not lo <= value <= hi:
            raise ScenarioError(out_of_range(where, value, lo, hi))
    return value


def _choice(spec: registry.ParamSpec, value: Any, where: str, written: Callable[[str, str], str] | None) -> str:
    first = spec.domain[0]
    eg = (
        f"(e.g. {written(spec.name, first)})"
        if written
        else f"(a quoted string, e.g. {spec.name} = {toml_value(first)})"
    )
    err = None
    if not isinstance(value, str):
        err = ScenarioError(f"{where}: expected a string, got {got(value)}; allowed: {', '.join(spec.domain)} {eg}")
    elif value not in spec.domain:
        err = ScenarioError(f"{where}: {value!r} is not allowed; allowed: {', '.join(spec.domain)} {eg}")
    if err is not None:
        err.choice_hint = (eg, first)  # an override's error gives its own example (sim.model.overrides.load)
        raise err
    return value


def _str(spec: registry.ParamSpec, value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise ScenarioError(f"{where}: expected a string, got {got(value)}")
    return value


def _int_list(spec: registry.ParamSpec, value: Any, where: str) -> list[int]:
    lo, hi = spec.domain
    names = f" or a name ({', '.join(spec.labels)})" if spec.labels else ""
    if not isinstance(value, list):
        raise ScenarioError(f"{where}: expected an array of integers in {range_text(lo, hi)}{names}, got {got(value)}")
    out = []
    for i, v in enumerate(value):
        if spec.labels and isinstance(v, str):
            if v not in spec.labels:
                raise ScenarioError(
                    f"{where}[{i}]: unknown name {toml_value(v)}; {did_you_mean(v, spec.labels, toml_value)}allowed: "
                    f"{', '.join(spec.labels)} (or the integers {range_text(lo, hi)})"
                )
            v = spec.labels.index(v)
        if isinstance(v, bool) or not isinstance(v, int):
            raise ScenarioError(f"{where}[{i}]: expected an integer in {range_text(lo, hi)}{names}, got {got(v)}")
        if not lo <= v <= hi:
            raise ScenarioError(out_of_range(f"{where}[{i}]", v, lo, hi))
        out.append(v)
    return out


# a parameter kind -> its check (a choice's also takes how its example is written: `_choice`)
_COERCE: dict[str, Callable[[registry.ParamSpec, Any, str], Any]] = {
    "bool": _bool,
    "int": _int,
    "float": _float,
    "str": _str,
    "int_list": _int_list,
}


@dataclass(frozen=True)
class Seat:
    strategy: str
    params: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Scenario:
    """A validated scenario. ``params`` holds every game parameter (defaults filled in)."""

    name: str
    game: str
    players: int
    games: int
    seed: int
    params: dict
    seats: tuple[Seat, ...]
    description: str = ""
    path: str = ""
    overrides: tuple = ()  # ((name, value), ...) applied to the file (`sim.model.overrides`), in order
    skill_games: int | None = None  # games of the "At skill" table (None: its default size; sim.model.skill_spec)

    @property
    def spec(self) -> registry.GameSpec:
        spec = registry.get(self.game)
        assert spec is not None, self.game  # load() refuses an unknown game before a Scenario exists
        return spec

    def prm(self) -> np.ndarray:
        """int64 parameter vector for the kernel."""
        return np.ascontiguousarray(self.spec.pack(self.params, self.players), dtype=np.int64)

    def sids(self) -> np.ndarray:
        """int64[players]: strategy id per seat."""
        return np.array([self._strategy(s.strategy).sid for s in self.seats], dtype=np.int64)

    def sparams(self) -> np.ndarray:
        """float64[players, n_sparams]: each seat's strategy parameters (defaults filled in)."""
        spec = self.spec
        out = np.zeros((self.players, spec.n_sparams), dtype=np.float64)
        for i, seat in enumerate(self.seats):
            st = self._strategy(seat.strategy)
            for j, ps in enumerate(st.params):
                v = seat.params.get(ps.name, ps.default)
                out[i, j] = ps.domain.index(v) if ps.kind == "choice" else v  # a choice by its index
        from sim.model.search_spec import SEARCH_SID, TIEBREAKS, resolve_tiebreak

        for i, seat in enumerate(self.seats):  # a search seat's tie-break "auto" as the game resolves it for the table
            st = self._strategy(seat.strategy)
            if st.sid == SEARCH_SID:
                j = next(j for j, ps in enumerate(st.params) if ps.name == "tiebreak")
                out[i, j] = TIEBREAKS.index(resolve_tiebreak(spec, self.params, st, seat.params))
        return out

    def _strategy(self, name: str) -> registry.StrategySpec:
        st = self.spec.strategy(name)
        assert st is not None, name  # load() refuses an unknown strategy
        return st

    def with_changes(self, **kw: object) -> Scenario:
        """This scenario with fields ``kw`` replaced (name=..., games=..., seats=...; not validated again)."""
        d = dict(self.__dict__)
        d.update(kw)
        return Scenario(**d)

    @classmethod
    def from_dict(cls, data: dict, name: str = "scenario", path: str = "") -> Scenario:
        """The validated scenario of a parsed document, laid out as a scenario file is ([scenario], [params],
        [[seats]]: {"scenario": {"game": "moor", "players": 4, ...}, "seats": [{"strategy": "runner"}, ...]}).
        ``name``: the name when the document gives none; ``path``: the file it stands for ("" for none; a board
        named relative to it). Raises ScenarioError (one line: the field and what is allowed)."""
        return from_dict(data, name, path)

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "description": self.description,
            "params": dict(self.params),
            "seats": [{"strategy": s.strategy, "params": dict(s.params)} for s in self.seats],
            **({"overrides": [{"name": n, "value": v} for n, v in self.overrides]} if self.overrides else {}),
            **({"skill_games": self.skill_games} if self.skill_games is not None else {}),
        }


def _unknown(where: str, key: str, allowed: Iterable[str]) -> ScenarioError:
    names = sorted(allowed)
    return ScenarioError(f"{where}: unknown key '{key}'; {did_you_mean(key, names)}allowed: {', '.join(names)}")


def _named_forms(
    spec: registry.GameSpec, ps: registry.ParamSpec, value: Any, where: str
) -> Iterator[tuple[str, Any, str]]:
    """(parameter, value, where) for what ``value`` given for ``ps`` sets: itself as given, or, given as a table,
    a card mix by name (missing names keep their default) or several parameters at once (``ps.parts``)."""
    if not isinstance(value, dict) or not (ps.fields or ps.parts):
        yield ps.name, value, where
        return
    if ps.parts:
        for key, v in value.items():
            target = ps.part(key)
            if target is None:
                raise _unknown(where, key, [k for k, _ in ps.parts])
            yield target, v, f"{where}.{key}"
        return
    names = ps.field_names()
    out = list(ps.default)
    item = registry.ParamSpec(ps.name, "int", 0, ps.domain, "")
    for key, v in value.items():
        if key not in names:
            raise ScenarioError(f"{where}: unknown name '{key}'; {did_you_mean(key, names)}allowed: {', '.join(names)}")
        out[names.index(key)] = coerce(item, v, f"{where}.{key}")
    yield ps.name, out, where


def from_dict(data: dict, name: str = "scenario", path: str = "") -> Scenario:
    """Validate a parsed TOML document. Raises ScenarioError (one line) on the first problem, in this order: the
    [scenario] table, [params], [[seats]], the name."""
    t = _scenario_table(data)
    spec, players = _header(t)
    values = _params(data, spec, players, path)
    seats = _seats(data, spec, values, players)
    return Scenario(
        name=_name(t, name, path),
        game=spec.name,
        players=players,
        games=t.games,
        seed=t.seed,
        params=values,
        seats=tuple(seats),
        description=t.description,
        path=path,
        skill_games=t.skill_games,
    )


def _scenario_table(data: Any) -> ScenarioTable:
    """The [scenario] table (`ScenarioTable`) of a document whose top level holds only `TOP_KEYS`."""
    if not isinstance(data, dict):
        raise ScenarioError("scenario: expected a table")
    for k in data:
        if k not in TOP_KEYS:
            raise _unknown("top level", k, TOP_KEYS)
    sc = data.get("scenario")
    if not isinstance(sc, dict):
        raise ScenarioError("[scenario]: missing table; it needs at least game and players")
    from sim.model.schema import validate

    return validate(ScenarioTable, sc, lambda k: f"scenario.{k}" if k else "scenario", ScenarioError, shown=got)


def _header(t: ScenarioTable) -> tuple[registry.GameSpec, int]:
    """(game, players) of a [scenario] table: a known game and a player count it takes."""
    if t.game is None:
        raise ScenarioError(f"scenario.game: missing; allowed: {', '.join(registry.names())}")
    spec = registry.get(t.game)
    if spec is None:
        raise ScenarioError(f"scenario.game: {registry.unknown_game(t.game)}")
    if t.players is None:
        raise ScenarioError(f"scenario.players: missing; allowed {spec.min_players}..{spec.max_players}")
    if not spec.min_players <= t.players <= spec.max_players:
        raise ScenarioError(
            f"scenario.players: {t.players} is out of range for {spec.name}; "
            f"allowed {spec.min_players}..{spec.max_players}"
        )
    return spec, t.players


def _params(data: dict, spec: registry.GameSpec, players: int, path: str) -> dict:
    """Every game parameter: the defaults, with [params] applied (each parameter once, in its declared type, a
    board file found beside the scenario file) and the game's own cross-parameter check passed."""
    raw = data.get("params", {})
    if not isinstance(raw, dict):
        raise ScenarioError(f"[params]: expected a table, got {type_name(raw)}")
    values = spec.defaults()
    given: dict[str, str] = {}  # parameter -> where the scenario set it
    for k, v in raw.items():
        ps = spec.param(k)
        if ps is None:
            raise _unknown("params", k, [p.name for p in spec.params])
        for name, val, where in _named_forms(spec, ps, v, f"params.{k}"):
            if name in given:
                raise ScenarioError(f"{where}: params.{name} is given twice (also as {given[name]}); give it once")
            given[name] = where
            values[name] = coerce(param_of(spec, name), val, where)
            resolve = FILE_PARAMS.get((spec.name, name))
            if resolve is not None and path:
                values[name] = resolve(values[name], Path(path).resolve().parent)
    err = spec.check(values, players, frozenset(given))
    if err:
        raise ScenarioError(err)
    return values


def _seats(data: dict, spec: registry.GameSpec, values: dict, players: int) -> list[Seat]:
    """The [[seats]]: exactly ``players`` of them, each a strategy of its seat's role with valid parameters."""
    seats_raw = data.get("seats")
    roles = spec.roles(values, players)
    if not isinstance(seats_raw, list) or not seats_raw:
        raise ScenarioError(
            f"[[seats]]: missing; give {players} seats, each with a strategy "
            f"(allowed: {', '.join(s.name for s in spec.strategies if s.role == roles[0])})"
        )
    if len(seats_raw) != players:
        raise ScenarioError(
            f"[[seats]]: {count(len(seats_raw), 'seat')} for players = {players}; give exactly {players}"
        )
    return [_seat(spec, roles, i, s) for i, s in enumerate(seats_raw)]


def _seat(spec: registry.GameSpec, roles: list[str], i: int, s: Any) -> Seat:
    where = f"seats[{i}]"
    if not isinstance(s, dict):
        raise ScenarioError(f"{where}: expected a table with a strategy")
    for k in s:
        if k not in SEAT_KEYS:
            raise _unknown(where, k, SEAT_KEYS)
    allowed = [st.name for st in spec.strategies if st.role == roles[i]]
    sname = s.get("strategy")
    if not isinstance(sname, str):
        raise ScenarioError(f"{where}.strategy: missing or not a string; allowed: {', '.join(allowed)}")
    st = spec.strategy(sname)
    if st is None:
        raise ScenarioError(
            f"{where}.strategy: unknown {roles[i]} strategy '{sname}'; {did_you_mean(sname, allowed)}"
            f"allowed: {', '.join(allowed)}"
        )
    if st.role != roles[i]:
        raise _role_clash(spec, roles, i, st, allowed)
    sp_raw = s.get("params", {})
    if not isinstance(sp_raw, dict):
        raise ScenarioError(f"{where}.params: expected a table")
    sp = {}
    for k, v in sp_raw.items():
        ps = next((p for p in st.params if p.name == k), None)
        if ps is None:
            names = [p.name for p in st.params]
            raise ScenarioError(
                f"{where}.params: unknown key '{k}' for strategy {sname}; {did_you_mean(str(k), names)}"
                f"allowed: {', '.join(names) if names else 'none (it takes no parameters)'}"
            )
        sp[k] = coerce(ps, v, f"{where}.params.{k}")
    from sim.model.search_spec import unused_with_root

    unused = unused_with_root(st, sp)  # explore with root halving: a sweep of it plays one point again and again
    if unused is not None:
        raise ScenarioError(f"{where}.params.{unused[0]}: {unused[1]}")
    return Seat(sname, sp)


def _role_clash(
    spec: registry.GameSpec, roles: list[str], i: int, st: registry.StrategySpec, allowed: list[str]
) -> ScenarioError:
    """A strategy of another role at seat ``i``: say whose it is and where it may sit (``role_clash`` holds the
    parts, for an override's own wording)."""
    sname = st.name
    seats_of = [j for j, r in enumerate(roles) if r == st.role]
    sits = (
        f"seat{'s' if len(seats_of) > 1 else ''} {', '.join(map(str, seats_of))} of this scenario"
        if seats_of
        else spec.role_seats.get(st.role, "another role")
    )
    clash = ScenarioError(
        f"seats[{i}].strategy: unknown {roles[i]} strategy '{sname}'; allowed: "
        f"{', '.join(allowed)} ('{sname}' is a {spec.role_title(st.role)} strategy, for "
        f"{sits}, not a {spec.role_title(roles[i])} strategy)"
    )
    clash.role_clash = (i, roles[i], spec.role_title(roles[i]), allowed, sname, spec.role_title(st.role))
    return clash


def _name(t: ScenarioTable, name: str, path: str) -> str:
    """The scenario's name (``name`` when the table gives none): it names the report folder, so the letters every
    system spells alike, not reserved, not hidden."""
    sname = name if t.name is None else t.name
    if NAME_RE.fullmatch(sname) and sname not in RESERVED_NAMES and not sname.startswith("."):
        return sname
    rule = (
        "use the letters a-z and A-Z without accents, digits, '.', '_' and '-' (it names the report folder "
        "under reports/, which every system must spell alike; 'baselines' is reserved)"
    )
    if isinstance(sname, str) and len(sname) > NAME_MAX:
        rule = f"it has {len(sname)} characters; at most {NAME_MAX} (it names the report folder under reports/)"
    elif sname == "index.html":
        rule = "it is the index of the reports (reports/index.html); choose another name"
    elif isinstance(sname, str) and sname.startswith("."):
        rule = (
            "a name starting with '.' names a hidden folder under reports/ (where runs stage their reports, "
            "as .NAME.partial-PID); start it with a letter or digit"
        )
    if t.name is None and path:  # taken from the file name: say so, and how to fix it
        fix = re.sub(r"[^A-Za-z0-9._-]+", "-", sname).strip("-.")[:100] or "my-scenario"
        fix = "my-scenario" if fix in RESERVED_NAMES else fix
        raise ScenarioError(
            f"scenario.name: {toml_value(sname[:NAME_MAX])}, taken from the file name (the file has no "
            f'name = "..." line), is not allowed; {rule}; add name = {toml_value(fix)} under '
            f"[scenario] or rename the file"
        )
    shown = toml_value(sname) if len(sname) <= NAME_MAX else toml_value(sname[:40]) + "..."
    raise ScenarioError(f"scenario.name: {shown} is not allowed; {rule}")


EXAMPLE_FILE = "scenarios/moor/4p.toml"


def read(path: str | Path) -> dict:
    """The parsed TOML document of scenario file ``path`` (not validated). Raises ScenarioError (one line)."""
    if not str(path).strip():  # Path("") is ".": the error would name the current folder
        raise ScenarioError(
            f"scenario file: {str(path)!r} is empty; give a .toml scenario file (e.g. {EXAMPLE_FILE})",
            given=repr(str(path)),
        )
    p = Path(path)
    if not p.exists():
        raise ScenarioError(f"{p}: no such scenario file")
    if p.is_dir():
        raise ScenarioError(f"{p}: is a folder; give a .toml scenario file")
    from kernels.boardfile import read_toml  # (at call time: importing kernels loads numba)

    try:
        return read_toml(p)
    except ValueError as e:
        raise ScenarioError(f"{p}: {e}") from None


def load(path: str | Path) -> Scenario:
    """Read and validate scenario file ``path`` as it is. Raises ScenarioError (one line naming the file and the field)
    for a missing or bad file. With --set overrides or --games: `sim.model.overrides.load`."""
    p = Path(path)
    doc = read(path)  # its errors name the file already: not wrapped twice
    try:
        return from_dict(doc, name=p.stem, path=str(p))
    except ScenarioError as e:
        raise ScenarioError(f"{p}: {e}") from None
