"""One `GameSpec` per game: what the CLI, the scenario loader and the runner need to know about it.

Importing this module is cheap (no numba): kernel modules are imported lazily through `GameSpec.kernel()`.
A game is a module `sim/games/<name>.py` that calls `register(GameSpec(name=<name>, ...))`: `names()` finds the
modules without importing them and `get(name)` imports the one asked for. A game from outside the package (a test,
a plugin) calls `register` itself and is then known like the others. Generic code asks the spec for everything
game-specific (its board file, its counters, its check sizes); none of it names a game.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from types import ModuleType
from typing import Any

from sim.model.measure_entry import Entry


@dataclass(frozen=True)
class ParamSpec:
    """One designer-editable parameter: name, kind (int|float|bool|choice|int_list|str), default, domain, help.

    domain: (lo, hi) for int/float/int_list items, a tuple of allowed strings for choice, None otherwise.
    fields: ((name, help), ...) naming the positions of a fixed-length int_list (a card mix), so a scenario may
        give it as a table by name (``[params.ghost_cards] shuffle = 2``); missing names keep their default.
    labels: names of an int_list's item values (0, 1, ...), so items may be given by name (``"ghost"`` for 1).
    parts: ((key, parameter), ...) for a parameter that may be given as one table of several parameters
        (``move_die = {faces = [...], ghost = [...]}`` sets move_die and move_die_ghost).
    label: what a page calls it, in a player's words ("track length"); "" = the name (a plugin game's parameter).
    unit: what its values count ("spaces", "gold"; "" when they count nothing or are not numbers).
    rules: False for a parameter no rule reads (the playing-time estimate ``seconds_per_turn``): the kernel's
        parameter vector and the scenario digest of the regression baselines leave it out, so it never changes a
        result.
    """

    name: str
    kind: str
    default: Any
    domain: Any
    help: str
    fields: tuple[tuple[str, str], ...] = ()
    labels: tuple[str, ...] = ()
    parts: tuple[tuple[str, str], ...] = ()
    label: str = ""
    unit: str = ""
    rules: bool = True

    def title(self) -> str:
        """The label, else the name: how a page names this parameter."""
        return self.label or self.name

    def field_names(self) -> tuple[str, ...]:
        return tuple(f for f, _ in self.fields)

    def part(self, key: str) -> str | None:
        """The parameter that table key ``key`` of this parameter sets (None when it has no such part)."""
        return dict(self.parts).get(key)


def worded(params: tuple[ParamSpec, ...], words: dict) -> tuple[ParamSpec, ...]:
    """``params`` (ParamSpecs) with the label and unit ``words`` gives them: name -> label, or (label, unit).
    A name ``words`` lacks keeps its label "" (a test requires one for every shipped parameter)."""
    out = []
    for p in params:
        w = words.get(p.name, "")
        label, unit = (w, "") if isinstance(w, str) else w
        out.append(replace(p, label=label, unit=unit))
    return tuple(out)


SECONDS_PER_TURN = "seconds_per_turn"
SECONDS_HELP = (
    "playing-time estimate, no rule reads it: seconds a turn takes at the table, for the reports' game "
    "length in minutes; "
)


def seconds_per_turn(default: float, source: str) -> ParamSpec:
    """The playing-time estimate of a game: seconds a turn takes at the table (float, 1..600 s), read only by the
    reports' length in minutes (turns x seconds / 60), never by a rule (``rules=False``). ``source``: why this
    default (the box's stated time it reproduces, or the assumption made), said in the help text."""
    return ParamSpec(
        SECONDS_PER_TURN,
        "float",
        float(default),
        (1.0, 600.0),
        SECONDS_HELP + source,
        label="seconds per turn",
        unit="s",
        rules=False,
    )


def seconds_source(ps: ParamSpec) -> str:
    """Why ``seconds_per_turn`` has its default (the ``source`` given to `seconds_per_turn`)."""
    return ps.help.removeprefix(SECONDS_HELP)


@dataclass(frozen=True)
class StrategySpec:
    """A strategy usable from a scenario seat: name, kernel id, one-line description, role, its parameters."""

    name: str
    sid: int
    help: str
    role: str = "player"
    params: tuple[ParamSpec, ...] = ()


@dataclass(frozen=True)
class Learner:
    """A role of a game that has a learned player (`sim train GAME --role ROLE`).

    features: the dotted kernel module of its action features (kernels/<game>/features.py: FEATURE_SET,
        FEATURE_VERSION, FEATURE_NAMES, N_FEATURES, fill_features).
    strategy: the learned strategy's name (unique in the game: "learned", or e.g. "haunter_learned").
    versus: the role's strongest scripted strategy, what the training report measures strength against.
    players: the table size training plays and measures at.
    target: what the fit imitates at a search decision: "visits" (the search's visit share of each action: right where
        the budget tries every action several times, Moor) or "chosen" (the action the search played: where a
        decision offers more actions than the budget can tell apart, Galleon's moves, the visits are nearly even and
        the play is the signal) or "values" (a softmax of each action's rollout win rate at ``value_temperature``:
        actions the rollouts cannot tell apart share the target) or "action_values" (no imitation: each action's
        rollout win rate itself, fitted by least squares within each decision, `sim.stats.policy_fit.
        fit_action_values`: where the search's few rollouts an action make its choice mostly noise, Galleon's, the
        rollouts of every action of every decision still average into each feature's worth).
    value_temperature: the softmax temperature of the "values" target, in win-rate points.
    bootstrap: the rollout strategy of the first iteration (before there is a policy); "" for the search's default
        rollout strategy. Best the scripted strategy whose own value is among the features (Galleon: treasure, its
        `script` feature), so that the first policy can at least imitate it.
    deviate: the training search's margin, in standard errors, to overrule its rollout strategy's choice (0: play the
        most tried action). Where the budget cannot tell the actions apart, the most tried one is the luckiest, and a
        margin keeps the labels to the moves search really found better.
    root: how the training search spreads its rollouts, "ucb1" or "halving" (kernels/search.py; Treasure Hunters
        hunters: a team of UCB1 searchers overrules the team's plan on noise, docs/guide/search.md).
    team: the role's seats win or lose together (Treasure Hunters hunters): strength is the team win rate of a table
        whose every seat of the role plays the learned policy, against the same table with the role's seats on
        ``versus`` on the same games (not one learned seat against the others).
    opponent: the strategy every seat of another role plays in training and strength games ("" for that role's first
        strategy; Treasure Hunters' Head Haunter learns against `weighted` hunters).
    variants: the scenario parameters of each training table, as ((name, value), ...) per variant; training game g
        and the strength games are spread over them in turn (Treasure Hunters hunters: the basic and the advanced game,
        one policy for both). ``((),)``: the game's defaults.
    scripted: per variant, the parameters of the role's scripted strategies at that variant's tables, as
        ((name, value), ...) (each strategy takes those it has): the ``versus`` reference and the ``bootstrap``
        rollouts play them. ``()``: their defaults everywhere (Treasure Hunters hunters: the advanced game's tuned
        ``w_jewel`` 11.5 of advanced-4p.toml, the row the `script` feature plays there).
    window: how many iterations' decisions each fit uses, the newest last: 0 every iteration's so far (ExIt's data
        aggregation: right for imitation, whose labels from any iteration are the search's choices) or k the newest
        k (1: approximate policy iteration, for "action_values": an action's rollout win rate is its value under
        that iteration's rollout policy, and values under different rollout policies mixed in one fit are no one
        policy's values).
    steps: from the second iteration on, the steps a toward each fit that training tries, prev + a (fit - prev),
        keeping the one whose policy is strongest on games of their own (`sim.api.train._step`; the full step 1 is
        always tried); () takes the fit itself. A policy-iteration step can overshoot where the fit's value
        differences are small (the hunters' two-action pick-up: the full step never picks a jewel up).
    """

    role: str
    features: str
    strategy: str = "learned"
    versus: str = "weighted"
    players: int = 4
    target: str = "visits"
    bootstrap: str = ""
    deviate: float = 0.0
    value_temperature: float = 0.1
    root: str = "ucb1"
    team: bool = False
    opponent: str = ""
    variants: tuple[tuple[tuple[str, Any], ...], ...] = ((),)
    scripted: tuple[tuple[tuple[str, Any], ...], ...] = ()
    window: int = 0
    steps: tuple[float, ...] = ()

    def module(self) -> ModuleType:
        """The imported features module (numba imported; nothing compiled until a kernel is called)."""
        return importlib.import_module(self.features)

    def scripted_params(self, k: int) -> dict[str, Any]:
        """The parameters of the role's scripted strategies in variant ``k`` (`scripted`; {}: their defaults)."""
        return dict(self.scripted[k]) if k < len(self.scripted) else {}


@dataclass(frozen=True)
class BoardSpec:
    """A game's board file: how `sim board show` recognises, loads and draws it, and what a caption calls it.

    marks: TOML keys, dotted for a key inside a table (``"board.hallway"``): a file holding any one of them is this
        game's board (the marks of two games never meet in one valid board file).
    tables: what the file holds, as one phrase for the message naming every game's board kind
        (``"a Turnwall castle has [board] and [floor]"``).
    module: the dotted kernel module of the board (kernels/<game>/board.py) with ``load_board(ref) -> Board``
        (raises kernels.boardfile.BoardError, one line), ``BOARDS_DIR`` (the shipped boards) and
        ``resolve_path(ref) -> str`` (the file a reference means).
    figure: ``"module:function"``, the function drawing a loaded Board as a matplotlib figure; resolved by sim.pages
        when it draws (sim.games sits below sim.pages, so a spec names its drawing without importing it).
    noun: the board in a caption: ``"the castle"`` ("the castle played (default)").
    param: the scenario parameter holding the board reference.
    """

    marks: tuple[str, ...]
    tables: str
    module: str
    figure: str
    noun: str
    param: str = "board"

    def loader(self) -> ModuleType:
        """The board's kernel module (kernels/<game>/board.py: numpy only)."""
        return importlib.import_module(self.module)

    def holds(self, data: dict) -> bool:
        """Whether parsed TOML ``data`` carries one of this board's marks."""
        for mark in self.marks:
            node: Any = data
            for key in mark.split("."):
                node = node.get(key) if isinstance(node, dict) else None
            if node is not None:
                return True
        return False


@dataclass(frozen=True)
class BenchMode:
    """A mode of a game whose cold compile `sim bench` times apart from its bench scenario's (a mode compiles its
    own kernel: docs/dev/performance.md, "Cold compile").

    key: the figure's name in reports/bench.json (``cold_compile_<key>_s``).
    words: the mode's game in the report's words ("a Head Haunter game").
    scenario: its default scenario, repository-relative.
    """

    key: str
    words: str
    scenario: str


@dataclass(frozen=True)
class BenchSpec:
    """What `sim bench` / `make bench` measures of a game (sim.api.bench; figures in docs/dev/performance.md).

    scenario: the bench scenario, repository-relative: its games/s on 1 and 2 threads (kernel only, warm cache).
    targets: from the issues: ``games_per_s_2_threads``, and with ``startup`` ``cold_compile_s`` and
        ``first_game_warm_s`` (None: no target set), in games/s and seconds; ``learned_games_per_s_1_thread``: the
        game's own floor for its table of learned players (sim.api.bench_learned; Moor's 8,000 of issue 38).
    rank: where its figures stand in the report (smallest first); compile_rank: where its ``compiles`` stand in the
        cold-compile table. Two ranks keep the report's order as it was before the games declared their figures.
    share: the share of `sim bench --games` a timing plays (a Galleon game costs ~50 Moor games: 20).
    reps: timings per thread count, best of them (1 and 2 threads interleaved).
    startup: also time the start-up (a fresh process's cold compile, the warm start to the first game, a warm
        `sim run` of 1,000 games); False where it is the shared machinery's, measured on other games.
    modes: the game's other modes whose cold compile is shown apart; all_modes: the scenarios that one process
        plays in turn for the cold compile of every mode at once (empty: not shown).
    random_share: > 0: the same table with every seat random is timed too, at 1/random_share of the games (at least
        500), as ``<game>_random``.
    oracle: the dotted module of the game's pure-Python oracle with ``games_per_second(scenario, games)``, whose
        speed the kernel is compared with ("" for none).
    c_yardstick: the kernel against the plain C yardstick (sim.api.bench_c) on the bench scenario.
    compiles: the default scenario of every mode, for the cold compile CPU seconds (issue 20: each <= 15 s).
    short: the game's short name in the report's lines ("Moor").
    arc: a default scenario whose `sim run` `sim bench` times without and with the game's arc recorded ("": none);
        arc_rank: where it stands in that table. timelines: the win-probability timelines of the arc are timed on
        this game's bench scenario (issue 39's target; the first game by rank that says so).
    sweep: (parameter, first value): the game whose in-process against Dask sweep `sim bench` times, over that
        parameter from that value (the first game by rank that gives one); None: not this game.
    """

    scenario: str
    targets: dict
    rank: int
    compile_rank: int
    short: str = ""
    arc: str = ""
    arc_rank: int = 0
    timelines: bool = False
    share: int = 1
    reps: int = 5
    startup: bool = True
    modes: tuple[BenchMode, ...] = ()
    all_modes: tuple[str, ...] = ()
    random_share: int = 0
    oracle: str = ""
    c_yardstick: bool = False
    compiles: tuple[str, ...] = ()
    sweep: tuple[str, int] | None = None


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
    arc_len: rounds of the game's arc the kernel records when asked (each seat's score or progress by round:
        `arc_shape`, kernels/arc.py); 0 when the game records none.
    arc_round_turns(values, players): the turns of one round, in the unit of the game's ``max_turns`` (the arc's
        timelines take the state after round r as the game cut at r x that many turns); None: one turn per seat.
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
    board: the game's board file (`BoardSpec`), None when it has none.
    check_sizes: games of (the exact tier, a statistical baseline, a fresh statistical check) of `sim check` for
        this game's scenarios; None: `sim.stats.check.DEFAULT_SIZES`. search_check_sizes: the same for its scenarios
        with a search seat (None: `sim.stats.check.SEARCH_SIZES`).
    box_minutes: the playing time its box or publisher states, (lo, hi) minutes (None when none is stated);
        box_source says where, or that none is. Its ``seconds_per_turn`` parameter turns turns into minutes.
    bench: what `sim bench` measures of it (`BenchSpec`), None: nothing.
    compile_s: seconds to compile every kernel its scenario files need, roughly: `sim run-defaults` compiles the
        games costliest first (sim.api.warm); 0 for a game nobody measured (last).
    search_tiebreak(values, role): what a search seat's `tiebreak = "auto"` plays at a table with these parameter
        values ("none" or "score"; sim.model.search_spec.resolve_tiebreak); None: "none" in every game and role.
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
    arc_len: int = 0
    arc_round_turns: Callable[[dict, int], int] | None = None  # turns a round (max_turns' unit); None: players
    nobody_wins: str = "the game"  # who wins a finished game no seat won (a cooperative team's opponent)
    team_roles: tuple[str, ...] = ()
    n_sparams: int = 8
    rules_file: str = ""
    role_titles: dict = field(default_factory=dict)
    role_seats: dict = field(default_factory=dict)
    measures: tuple[Entry, ...] = ()
    seat_scope: str = ""  # why seats differ beyond the turn order (a seat's fixed place), for the scope line
    board: BoardSpec | None = None
    check_sizes: tuple[int, int, int] | None = None
    search_check_sizes: tuple[int, int, int] | None = None  # the same for a scenario with a search seat
    # a search seat's `tiebreak = "auto"` at a table: (the game's parameter values, the seat's role) -> "none" or
    # "score" (None: "none" everywhere)
    search_tiebreak: Callable[[dict, str], str] | None = None
    box_minutes: tuple[int, int] | None = None  # the playing time the box or publisher states (lo, hi minutes)
    box_source: str = ""  # where that is stated, or that none is
    learners: tuple[Learner, ...] = ()  # the roles with a learned player (`sim train`)
    # rungs a default skill ladder adds after the role's scripted strategies (`sim.model.ladder_spec.default_rungs`),
    # as `sim ladder --strategies` writes them: Turnwall's planner at one memory level
    ladder_rungs: tuple[str, ...] = ()
    bench: BenchSpec | None = None
    compile_s: float = 0.0

    def __post_init__(self) -> None:
        """A game module's measures are catalogue entries (a list, or anything else, is refused on registration,
        naming the game and the entry): TypeError."""
        allowed = (
            "allowed: a tuple of catalogue entries (sim.model.catalogue: counter, share, category, team, score, curve)"
        )
        if not isinstance(self.measures, tuple):
            raise TypeError(f"GameSpec {self.name}: measures is a {type(self.measures).__name__}; {allowed}")
        for i, e in enumerate(self.measures):
            if not isinstance(e, Entry):
                raise TypeError(f"GameSpec {self.name}: measures[{i}] is a {type(e).__name__}; {allowed}")

    def kernel(self) -> ModuleType:
        """The imported kernel module (compiles or loads the Numba cache on first call)."""
        return importlib.import_module(self.kernel_module)

    def arc_shape(self, players: int) -> tuple[int, int]:
        """The (rows, rounds) of a game's arc record: each seat's progress by round, who leads by round and the
        game's arc figures (kernels/arc.py); (0, 0) when the game records no arc."""
        return (players + 2, self.arc_len) if self.arc_len else (0, 0)  # 2: kernels.arc.ARC_EXTRA_ROWS

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
GAMES_PACKAGE = "sim.games"  # one module per game


def register(spec: GameSpec) -> GameSpec:
    """Make ``spec`` known by its name (a game module calls it on import; a test or plugin may call it for a game of
    its own) and its board a scenario file parameter; returns ``spec``. A second spec of the same name replaces the
    first."""
    GAMES[spec.name] = spec
    if spec.board is not None:
        from sim.model import boards

        b = spec.board.loader()
        boards.register_board_param(spec.name, b.BOARDS_DIR, b.resolve_path, spec.board.param)
    return spec


def unregister(name: str) -> None:
    """Forget game ``name`` (a test's own game, after the test); a game of sim/games comes back on the next `get`
    (its module's ``SPEC``)."""
    spec = GAMES.pop(name, None)
    if spec is not None and spec.board is not None:
        from sim.model import boards

        boards.unregister_board_param(name, spec.board.param)


def get(name: str) -> GameSpec | None:
    """The game called ``name`` (None if there is none). Imports only that game's module: its kernel helpers with
    explicit signatures compile (or load from the cache) at import, so a Moor run never compiles Treasure Hunters.
    A game already registered is returned at once, without searching for modules (`Scenario.spec` asks for every
    point of a sweep)."""
    if name in GAMES:
        return GAMES[name]
    if name in _modules():
        module = importlib.import_module(f"{GAMES_PACKAGE}.{name}")
        if name not in GAMES and isinstance(getattr(module, "SPEC", None), GameSpec):
            register(module.SPEC)  # imported before, then unregistered: its module's spec again
    return GAMES.get(name)


def all_games() -> dict[str, GameSpec]:
    """Every game, by name in `names()` order (imports every game module)."""
    for n in names():
        get(n)
    return {n: GAMES[n] for n in names() if n in GAMES}


def _modules() -> tuple[str, ...]:
    """The game modules of the sim.games package, by name (their files, listed without importing them; sim.games
    sits above this layer, so it is found by name)."""
    package = importlib.util.find_spec(GAMES_PACKAGE)
    where = package.submodule_search_locations if package is not None else None
    return tuple(sorted(m.name for m in pkgutil.iter_modules(where or []) if not m.name.startswith("_")))


def names() -> tuple[str, ...]:
    """Every game: the modules `sim/games/<name>.py` (alphabetical, without importing them), then the games
    registered from outside the package, in the order they were registered."""
    found = _modules()
    return found + tuple(n for n in GAMES if n not in found)


def unknown_game(name: str) -> str:
    """How a check of a game's name says it is none: "unknown game 'mooor'; did you mean 'moor'? allowed: galleon,
    moor, treasure_hunters, turnwall" (the guess only for a close name, `sim.model.words.did_you_mean`); the caller
    puts the field's name before it."""
    from sim.model.words import did_you_mean

    games = names()
    return f"unknown game '{name}'; {did_you_mean(name, games)}allowed: {', '.join(games)}"
