"""One `GameSpec` per game: what the CLI, the scenario loader and the runner need to know about it.

Importing this module is cheap (no numba): kernel modules are imported lazily through `GameSpec.kernel()`.
A game registers itself by adding one `GameSpec` to `GAMES` (see `sim/games/*.py`).
"""
from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any


@dataclass(frozen=True)
class ParamSpec:
    """One designer-editable parameter: name, kind (int|float|bool|choice|int_list|str), default, domain, help.

    domain: (lo, hi) for int/float/int_list items, a tuple of allowed strings for choice, None otherwise.
    fields: ((name, help), ...) naming the positions of a fixed-length int_list (a card mix), so a scenario may
        give it as a table by name (``[params.ghost_cards] shuffle = 2``); missing names keep their default.
    labels: names of an int_list's item values (0, 1, ...), so items may be given by name (``"ghost"`` for 1).
    parts: ((key, parameter), ...) for a parameter that may be given as one table of several parameters
        (``move_die = {faces = [...], ghost = [...]}`` sets move_die and move_die_ghost).
    """
    name: str
    kind: str
    default: Any
    domain: Any
    help: str
    fields: tuple[tuple[str, str], ...] = ()
    labels: tuple[str, ...] = ()
    parts: tuple[tuple[str, str], ...] = ()

    def field_names(self) -> tuple[str, ...]:
        return tuple(f for f, _ in self.fields)

    def part(self, key: str) -> str | None:
        """The parameter that table key ``key`` of this parameter sets (None when it has no such part)."""
        return dict(self.parts).get(key)


@dataclass(frozen=True)
class StrategySpec:
    """A strategy usable from a scenario seat: name, kernel id, one-line description, role, its parameters."""
    name: str
    sid: int
    help: str
    role: str = "player"
    params: tuple[ParamSpec, ...] = ()


@dataclass(frozen=True)
class GameSpec:
    """Everything the Python side knows about one game.

    kernel_module: dotted module with `play_batch` (kernels/README.md contract) and `EXTRA_COLUMNS`.
    check(values, players, given) -> one error line or None (cross-field checks after type/domain checks).
    pack(values, players) -> int64 parameter vector for the kernel.
    roles(values, players) -> role name per seat (e.g. all "player", or "haunter" + "hunter"s).
    score_range: (lo, hi) of possible scores, for histograms (values are clipped into it).
    categorical: extra columns whose values are codes, with a label per code (counted, not averaged).
    curves: names of per-round curves the kernel writes (curves[g, c, r]); curve_len rounds each.
    replay(scenario, game_index) -> list of lines describing that game turn by turn.
    team_roles: roles that win together (cooperative); win rates are then reported per team as well as per seat.
    role_titles: how messages name a role (e.g. "haunter" -> "Head Haunter"); the role itself when not listed.
    role_seats: where a role sits, for a message about a strategy put at another role's seat (e.g. "haunter" ->
        'seat 0 of a mode = "head_haunter" game').
    seat_scope: one phrase for the report's scope line when a seat keeps something of its own in every game (a
        start corner), so seat figures include it; empty when only the turn order tells seats apart.
    measures: the game's own entries of the catalogue of measures (`sim.model.catalogue`: counter, share, team, score,
        curve): a label, unit and one-line definition for every counter column, categorical value and curve it
        emits, and the modes each applies to (a test requires one for every column).
    check(values, players, given) also gets the names of the parameters the scenario set (``given``), so an error
    between two parameters can name the one the designer changed.
    """
    name: str
    title: str
    rules_version: int
    min_players: int
    max_players: int
    params: tuple[ParamSpec, ...]
    strategies: tuple[StrategySpec, ...]
    kernel_module: str
    check: Callable[[dict, int, frozenset], str | None]
    pack: Callable[[dict, int], Any]
    replay: Callable[..., list[str]]
    extra_columns: tuple[str, ...]
    score_range: tuple[int, int] = (-100, 200)
    roles: Callable[[dict, int], list[str]] = field(default=lambda values, players: ["player"] * players)
    categorical: dict = field(default_factory=dict)
    curves: tuple[str, ...] = ()
    curve_len: int = 0
    team_roles: tuple[str, ...] = ()
    n_sparams: int = 8
    rules_file: str = ""
    role_titles: dict = field(default_factory=dict)
    role_seats: dict = field(default_factory=dict)
    measures: tuple = ()
    seat_scope: str = ""     # why seats differ beyond the turn order (a seat's fixed place), for the scope line

    def kernel(self) -> ModuleType:
        """The imported kernel module (compiles or loads the Numba cache on first call)."""
        return importlib.import_module(self.kernel_module)

    def role_title(self, role: str) -> str:
        return self.role_titles.get(role, role)

    def strategy(self, name: str) -> StrategySpec | None:
        for s in self.strategies:
            if s.name == name:
                return s
        return None

    def param(self, name: str) -> ParamSpec | None:
        for p in self.params:
            if p.name == name:
                return p
        return None

    def defaults(self) -> dict:
        return {p.name: p.default for p in self.params}


GAMES: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> GameSpec:
    GAMES[spec.name] = spec
    return spec


def get(name: str) -> GameSpec | None:
    """The game called ``name`` (None if there is none). Imports only that game's module: its kernel helpers with
    explicit signatures compile (or load from the cache) at import, so a Moor run never compiles Treasure Hunters.
    A game already registered is returned at once, without searching for modules (`Scenario.spec` asks for every
    point of a sweep)."""
    if name in GAMES:
        return GAMES[name]
    if name in names():
        importlib.import_module(f"sim.games.{name}")
    return GAMES.get(name)


def all_games() -> dict[str, GameSpec]:
    """Every game, by name (imports every game module)."""
    for n in names():
        get(n)
    return {n: GAMES[n] for n in names()}


_GAME_NAMES = ("moor", "treasure_hunters", "turnwall", "galleon")


def names() -> tuple[str, ...]:
    """The games present in this checkout, without importing them (a module `sim/games/<name>.py` each)."""
    return tuple(n for n in _GAME_NAMES if importlib.util.find_spec(f"sim.games.{n}") is not None)
