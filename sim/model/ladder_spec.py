"""The skill ladder's design (`sim ladder`): rungs (``strategy[:param=value,...]``) and the tables they play.

A *rung* is one strategy with fixed strategy parameters, written as the command line takes it: ``random``,
``planner:recall_own=0.5,recall_table=0.5``, later ``search:budget=64``. Rungs are parsed here and validated by the
seat-strategy machinery scenario files use (`sim.model.scenario.coerce` against the strategy's `ParamSpec`), so
a strategy with parameters becomes a rung with no change to the ladder.

The design (`build`), on the base scenario's rules and board (its seats are replaced):

* competitive games (every seat one role, no team): *mixed tables* -- with R rungs and N seats, R >= N: every set
  of N distinct rungs in every seat order (N! tables a set); R < N: every assignment of rungs to seats with at least
  two distinct rungs -- plus one *mono table* per rung (every seat that rung), for the balance figures at each skill
  level. Every order, not only the N rotations of one: with rotations only, a rung always sat just before the same
  rival (at 4 Turnwall players a planner and its exact copy under another name rated 20 Elo apart, its turn
  just before the copy's); with every order the design is unchanged by swapping two rungs, so two copies of one
  strategy play mirrored tables on the same games and get the same rating. Where every set would need more than
  `MAX_TABLES` tables (the default 9 rungs of a game with a learned player at 4 players: 126 sets, 3,024 tables),
  the sets are cyclic instead (`cyclic_blocks`: every two rungs still meet and each rung sits in as many sets, each
  set in every seat order: 9 sets, 216 tables), which keeps every seat and turn position equal but not the
  swap symmetry between two rungs;
* co-operative games (every seat on the one team, Treasure Hunters basic and advanced): mono tables only (the team
  plays one strategy);
* asymmetric games (Head Haunter): every (Head Haunter rung, hunter rung) pair, every hunter on the same rung.

Every table plays the same seed, RNG point id 0 and game indices (common random numbers: the chance stream and
each seat's stream are the same at every table, so dice are shared where the rules allow). ``games`` is rounded up
to a multiple of the players, so the start player, which rotates with the game index, is each seat equally often.
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sim.model import registry
from sim.model.errors import SimError
from sim.model.paths import SCENARIOS
from sim.model.scenario import MAX_GAMES, Scenario, ScenarioError, Seat, coerce
from sim.model.words import did_you_mean

MAX_TABLES = 400  # a population whose design needs more tables is refused before anything runs
# rungs of one ladder: the Head Haunter ladder's default population has 17 (each role's scripted strategies, its
# learned player and search at 16, 64, 256; 8 x 9 matrix tables), and MAX_TABLES bounds what the rungs cost
MAX_RUNGS = 20


class LadderError(SimError, ValueError):
    """A bad ladder option (a rung, a player count, the population); one line naming the option."""


@dataclass(frozen=True)
class Rung:
    """One rung: ``strategy`` with strategy parameters ``params`` (the others at their defaults); ``text`` as given
    (whitespace dropped), which names the rung everywhere (ratings, tables, plots)."""

    text: str
    strategy: str
    params: tuple[tuple[str, Any], ...] = ()
    role: str = "player"

    def seat(self) -> Seat:
        return Seat(self.strategy, dict(self.params))


@dataclass(frozen=True)
class Table:
    """One table of the design: ``rungs[s]`` is the index (into `Ladder.rungs`) of the rung at seat s; ``kind`` is
    "mixed" (rated), "mono" (every seat one rung: balance figures) or "matrix" (Head Haunter x hunters)."""

    index: int
    rungs: tuple[int, ...]
    kind: str
    scenario: Scenario


@dataclass(frozen=True)
class Ladder:
    """A validated ladder: the base scenario, its rungs, the tables, games per table and the seed. ``mode``:
    "competitive", "cooperative" or "asymmetric" (see the module docstring); ``label``: the report folder's game
    part (``moor``, ``treasure_hunters-advanced``)."""

    base: Scenario
    rungs: tuple[Rung, ...]
    tables: tuple[Table, ...]
    games: int
    seed: int
    mode: str
    label: str
    variant: str = ""  # rungs other than the default ones: their names, so such a ladder gets a folder of its own
    balance_games: int = 0  # games of each rung's own (mono) table, for the balance figures (0: ``games``)
    margins: tuple[tuple[str, float], ...] = ()  # --margin: a balance figure's equivalence margin (sim.stats.verdict)

    @property
    def total_games(self) -> int:
        """Games over every table (the mono tables play ``balance_games``)."""
        return sum(t.scenario.games for t in self.tables)

    @property
    def players(self) -> int:
        return self.base.players

    def folder_name(self) -> str:
        """``ladder-<game>-<N>p`` for the default rungs, ``ladder-<game>-<N>p-<rungs>`` for others (a short hash of
        them when their names run long), so a ladder of chosen rungs never replaces the default one."""
        return f"ladder-{self.label}-{self.players}p" + (f"-{self.variant}" if self.variant else "")

    def title(self) -> str:
        """How a terminal line names the ladder: ``ladder moor-4p`` (`folder_name` without its own "ladder-", which
        the line's "ladder " would double: "ladder ladder-mo…" at 80 columns)."""
        return "ladder " + self.folder_name().removeprefix("ladder-")


def parse_rung(spec: registry.GameSpec, text: str, roles: tuple[str, ...]) -> Rung:
    """The rung of ``text`` (``name`` or ``name:param=value,...``; values are TOML: ``0.5``, ``64``, ``true``) for a
    seat of one of ``roles``. Raises LadderError naming the rung and what is allowed."""
    from sim.model.overrides import parse_value

    t = "".join(text.split())
    name, sep, rest = t.partition(":")
    allowed = [s.name for s in spec.strategies if s.role in roles]
    st = spec.strategy(name)
    if st is not None and st.role not in roles:  # a strategy of the game, of another role (a fresh user)
        raise LadderError(
            f"--strategies {t}: '{name}' is a {st.role} strategy in {spec.name}, and this ladder's rungs are "
            f"{' or '.join(roles)} strategies; allowed: {', '.join(allowed)}"
        )
    if st is None:
        raise LadderError(
            f"--strategies {t or repr(text)}: unknown strategy '{name}' for {spec.name}; "
            f"{did_you_mean(name, allowed)}allowed: {', '.join(allowed)}"
            " (with parameters: name:param=value,...)"
        )
    params: dict[str, Any] = {}
    if sep and not rest:  # "search:" was played as a rung of its own named "search_"
        raise LadderError(f"--strategies '{t}': nothing after the ':'; give {name}:param=value,... or {name} alone")
    if rest:
        for item in rest.split(","):
            k, eq, raw = item.partition("=")
            ps = next((p for p in st.params if p.name == k), None)
            names = [p.name for p in st.params]
            if not eq or not raw:
                raise LadderError(f"--strategies {t}: expected param=value after '{name}:', got '{item}'")
            if ps is None:
                raise LadderError(
                    f"--strategies {t}: unknown parameter '{k}' for strategy {name}; allowed: "
                    f"{', '.join(names) if names else 'none (it takes no parameters)'}"
                )
            if k in params:
                raise LadderError(f"--strategies {t}: parameter '{k}' given twice; give it once")
            try:
                value = parse_value(raw)
            except ValueError:  # the TOML parser's words ("write arrays as [1, 2]") do not fit a rung
                raise LadderError(
                    f"--strategies {t}: {k}: '{raw}' is not a value; give a number, true or false, or a name "
                    f"(e.g. {name}:{k}={_example(ps)})"
                ) from None
            try:
                params[k] = coerce(ps, value, f"--strategies {t}: {k}", written=lambda n, v: f"{name}:{n}={v}")
            except ValueError as e:
                raise LadderError(str(e) if isinstance(e, ScenarioError) else f"--strategies {t}: {k}: {e}") from None
    from sim.model.search_spec import unused_with_root

    unused = unused_with_root(st, params)
    if unused is not None:
        raise LadderError(f"--strategies {t}: {unused[0]}: {unused[1]}")
    return Rung(t, name, tuple(params.items()), st.role)


def _example(ps: registry.ParamSpec) -> str:
    """A value of parameter ``ps`` as a rung writes it (its default)."""
    from sim.model.scenario import toml_value

    v = ps.default
    return v if isinstance(v, str) else toml_value(v)


SEARCH_BUDGETS = (16, 64, 256)  # the default ladder's search rungs: doubling budgets twice over, learned rollouts
NO_SEARCH = "no-search"  # the folder suffix of the default ladder without its search rungs (make run's first look)


def default_rungs(spec: registry.GameSpec, role: str, search: bool = True) -> list[str]:
    """The default population of a role: random first, then every other scripted strategy of the role at its
    defaults, then the game's own extra rungs (`GameSpec.ladder_rungs`); where the role has a learned player
    (`GameSpec.learners`), then that player and, when ``search``, the search player at budgets `SEARCH_BUDGETS`
    with the learned player as its rollout strategy (``search:budget=16,rollout=learned``, ...): the ladder then
    says how much stronger the learned player is than the scripted ones and how close to search, and draws the
    rating-against-budget plot. A role without a learned player gets no search rung (a search game costs hundreds
    of scripted ones): ask for one as a rung, ``search:budget=64``."""
    from sim.model.search_spec import SEARCH_SID

    learned = [lr.strategy for lr in spec.learners if lr.role == role and spec.strategy(lr.strategy) is not None]
    names = [s.name for s in spec.strategies if s.role == role and s.sid != SEARCH_SID and s.name not in learned]
    rnd = [n for n in names if n == "random" or n.endswith("_random")]
    out = rnd + [n for n in names if n not in rnd]
    out += [r for r in spec.ladder_rungs if r.split(":")[0] in names] + learned[:1]
    searcher = next((s for s in spec.strategies if s.role == role and s.sid == SEARCH_SID), None)
    rollout = next((p for p in searcher.params if p.name == "rollout"), None) if searcher else None
    if search and learned and searcher and rollout is not None and learned[0] in (rollout.domain or ()):
        out += [f"{searcher.name}:budget={b},rollout={learned[0]}" for b in SEARCH_BUDGETS]
    return out


def is_search_rung(spec: registry.GameSpec, text: str) -> bool:
    """Whether rung ``text`` is a search player (by its strategy's kernel id)."""
    from sim.model.search_spec import SEARCH_SID

    st = spec.strategy(text.split(":")[0].strip())
    return st is not None and st.sid == SEARCH_SID


def search_budget(spec: registry.GameSpec, rung: Rung) -> int:
    """Rollouts a decision of a search rung (its ``budget``, else its strategy's default), 0 for another rung."""
    from sim.model.search_spec import SEARCH_SID

    st = spec.strategy(rung.strategy)
    if st is None or st.sid != SEARCH_SID:
        return 0
    default = next((p.default for p in st.params if p.name == "budget"), 0)
    return int(dict(rung.params).get("budget", default))


def mixed_sets(r: int, n: int) -> list[tuple[int, ...]]:
    """The sets of ``n`` of the rungs 0..r-1 the mixed tables seat (each in every order): every set, or the cyclic
    sets (`cyclic_blocks`) where every set would need more than `MAX_TABLES` tables with the mono ones."""
    combos = list(itertools.combinations(range(r), n))
    return combos if len(combos) * math.factorial(n) + r <= MAX_TABLES else cyclic_blocks(r, n)


def cyclic_blocks(r: int, n: int) -> list[tuple[int, ...]]:
    """Sets of ``n`` of the rungs 0..r-1 in which every two rungs meet at least once, each rung equally often: the
    r cyclic shifts (mod r) of base blocks chosen greedily (the lexicographically first block covering the most
    rung distances not yet covered, until every distance 1..r//2 is), deduplicated and sorted. With 9 rungs at 4
    players: the shifts of {0, 1, 2, 4}, 9 sets instead of the 126 of every set."""
    need = set(range(1, r // 2 + 1))

    def covers(b: tuple[int, ...]) -> set[int]:
        return {min((y - x) % r, (x - y) % r) for x, y in itertools.combinations(b, 2)}

    cands = [(0,) + c for c in itertools.combinations(range(1, r), n - 1)]
    bases = []
    while need:
        best = max(cands, key=lambda b: len(covers(b) & need))  # the first of the most covering
        bases.append(best)
        need -= covers(best)
    return sorted({tuple(sorted((x + k) % r for x in b)) for b in bases for k in range(r)})


def base_scenario(game: str, players: int | None) -> Path:
    """The scenario file a game's ladder takes its rules from: scenarios/<game>/<N>p.toml (Treasure Hunters:
    basic-<N>p.toml). Raises LadderError for an unknown game or a player count without such a file."""
    spec = registry.get(game)
    if spec is None:
        raise LadderError(f"GAME: unknown game '{game}'; allowed: {', '.join(registry.names())} or a scenario file")
    n = 4 if players is None else players
    if not spec.min_players <= n <= spec.max_players:
        raise LadderError(f"--players: {n} is out of range for {game}; allowed {spec.min_players}..{spec.max_players}")
    folder = SCENARIOS / game
    for stem in (f"{n}p", f"basic-{n}p"):
        if (folder / f"{stem}.toml").is_file():
            return folder / f"{stem}.toml"
    have = sorted(p.stem for p in folder.glob("*.toml"))
    raise LadderError(
        f"--players: {game} has no scenario for {n} players to take the rules from ({', '.join(have)}); "
        "give a scenario file as GAME"
    )


def mode_of(base: Scenario) -> str:
    roles = base.spec.roles(base.params, base.players)
    if len(set(roles)) > 1:
        return "asymmetric"
    return "cooperative" if base.spec.team_roles and roles[0] in base.spec.team_roles else "competitive"


def label_of(base: Scenario) -> str:
    mode = base.params.get("mode")
    return f"{base.game}-{mode}" if isinstance(mode, str) and mode else base.game


DEFAULT_TOTAL = 40_000  # games over the mixed tables when --games is not given
MIN_DEFAULT_GAMES = 200


BALANCE_GAMES = 16_000  # a rung's own table by default: a first-player advantage within +/-1 point of the
# reference table's decided at 4 players (Moor: about 13,000 games a table)


def build(
    base: Scenario,
    strategies: list[str] | None,
    games: int | None,
    seed: int | None = None,
    balance_games: int | None = None,
) -> Ladder:
    """The ladder of ``strategies`` (rung texts; None: `default_rungs`) on ``base``'s rules, ``games`` games per
    table (None: `DEFAULT_TOTAL` spread over the mixed tables, at least `MIN_DEFAULT_GAMES`, 2,000 a team or matrix
    table; rounded up to a multiple of the players). Each rung's own (mono) table, whose balance figures say whether
    balance holds for skill, plays ``balance_games`` (None: `BALANCE_GAMES`, or ``games`` when a rung is a search
    player or ``games`` is larger). Raises LadderError (one line) before anything is played."""
    spec = base.spec
    n = base.players
    roles = tuple(spec.roles(base.params, n))
    mode = mode_of(base)
    texts = strategies if strategies else [t for r in dict.fromkeys(roles) for t in default_rungs(spec, r)]
    rungs = [parse_rung(spec, t, tuple(set(roles))) for t in texts]
    seen: dict[str, int] = {}
    for r in rungs:
        if r.text in seen:
            raise LadderError(
                f"--strategies: rung '{r.text}' given twice; give each rung once",
                allowed="each rung once",
                given=r.text,
            )
        seen[r.text] = 1
    if len(rungs) > MAX_RUNGS:
        raise LadderError(f"--strategies: {len(rungs)} rungs; allowed at most {MAX_RUNGS}")
    for name, v in (("--games", games), ("--balance-games", balance_games)):  # from Python: games="10"
        if v is not None and (isinstance(v, bool) or not isinstance(v, int)):
            raise LadderError(f"{name}: expected an integer, got {v!r}")
    if games is not None and not 1 <= games <= MAX_GAMES:
        raise LadderError(f"--games: {games} is out of range; allowed 1..{MAX_GAMES:,}")
    if balance_games is not None and not 1 <= balance_games <= MAX_GAMES:
        raise LadderError(f"--balance-games: {balance_games} is out of range; allowed 1..{MAX_GAMES:,}")
    layouts = _layouts(spec, roles, rungs, mode, n)
    if len(layouts) > MAX_TABLES:
        raise LadderError(
            f"--strategies: {len(rungs)} rungs at {n} players need {len(layouts)} tables; allowed at most "
            f"{MAX_TABLES} (give fewer rungs)"
        )
    if games is None:
        mixed = sum(1 for _, k in layouts if k == "mixed")
        games = max(MIN_DEFAULT_GAMES, DEFAULT_TOTAL // mixed) if mixed else 2000
    games = -(-games // n) * n
    if balance_games is None:
        searching = any(r.strategy == "search" for r in rungs)
        balance_games = games if searching else max(games, BALANCE_GAMES)
    balance_games = -(-balance_games // n) * n
    seed = base.seed if seed is None else seed
    if isinstance(seed, bool) or not isinstance(seed, int):  # from Python: seed="x"
        raise LadderError(f"--seed: expected an integer, got {seed!r}")
    if not 0 <= seed < 2**64:
        raise LadderError(f"--seed: {seed} is out of range; allowed 0..2^64-1")
    tables = tuple(
        Table(
            i,
            lay,
            kind,
            base.with_changes(
                name=f"{base.name}-t{i}",
                games=balance_games if kind == "mono" else games,
                seed=seed,
                seats=tuple(rungs[r].seat() for r in lay),
            ),
        )
        for i, (lay, kind) in enumerate(layouts)
    )
    defaults = [t for r in dict.fromkeys(roles) for t in default_rungs(spec, r)]
    cheap = [t for r in dict.fromkeys(roles) for t in default_rungs(spec, r, search=False)]
    return Ladder(
        base, tuple(rungs), tables, games, seed, mode, label_of(base), variant_of(rungs, defaults, cheap), balance_games
    )


def _layouts(
    spec: registry.GameSpec, roles: tuple[str, ...], rungs: list[Rung], mode: str, n: int
) -> list[tuple[tuple[int, ...], str]]:
    """The tables of a ladder, (rung index per seat, kind): asymmetric, each lead-role rung against each rung of
    the other role ("matrix"); competitive, every arrangement of distinct rungs ("mixed"), then each rung alone
    ("mono"); cooperative, each rung alone. Raises LadderError when the rungs cannot make such tables."""
    idx = list(range(len(rungs)))
    layouts: list[tuple[tuple[int, ...], str]] = []
    if mode == "asymmetric":
        lead = [i for i in idx if rungs[i].role == roles[0]]
        rest = [i for i in idx if rungs[i].role != roles[0]]
        if not lead or not rest:
            need = roles[0] if not lead else next(r for r in roles if r != roles[0])
            raise LadderError(
                f"--strategies: no {spec.role_title(need)} strategy given; an asymmetric ladder needs at least one "
                f"for each role (allowed: {', '.join(s.name for s in spec.strategies if s.role == need)})"
            )
        layouts = [((a,) + (b,) * (n - 1), "matrix") for a in lead for b in rest]
    else:
        if mode == "competitive":
            if len(rungs) < 2:
                raise LadderError(
                    "--strategies: a ladder needs at least 2 rungs (e.g. 'random;collector')",
                    allowed="at least 2 rungs",
                    given=str(len(rungs)),
                )
            if len(rungs) >= n:
                for combo in mixed_sets(len(rungs), n):
                    layouts += [(perm, "mixed") for perm in itertools.permutations(combo)]
            else:
                layouts += [(t, "mixed") for t in itertools.product(idx, repeat=n) if len(set(t)) > 1]
        layouts += [((i,) * n, "mono") for i in idx]
    return layouts


def variant_of(rungs: list[Rung], defaults: list[str], no_search: list[str] | None = None) -> str:
    """The folder suffix of a ladder of ``rungs``: "" when they are the default rungs, `NO_SEARCH` when they are the
    default rungs without their search rungs (``no_search``, when that differs), else their names joined by
    '-' (characters other than letters, digits and '.' as '_'), or a 10-digit hash of them past 60 characters."""
    import hashlib

    texts = [r.text for r in rungs]
    if sorted(texts) == sorted("".join(t.split()) for t in defaults):
        return ""
    if no_search is not None and no_search != defaults and sorted(texts) == sorted(no_search):
        return NO_SEARCH
    slug = "-".join(re.sub(r"[^A-Za-z0-9.]+", "_", t) for t in texts)
    return slug if len(slug) <= 60 else hashlib.sha256(";".join(texts).encode()).hexdigest()[:10]


def split_rungs(text: str) -> list[str]:
    """Rung texts from --strategies: separated by ';', or by ',' where the next piece is not param=value (so
    ``random,planner:recall_own=0.5,recall_table=0.5,spoiler`` is three rungs)."""
    if ";" in text:
        return [t.strip() for t in text.split(";") if t.strip()]
    out: list[str] = []
    for piece in (p.strip() for p in text.split(",")):
        if out and "=" in piece and ":" not in piece and ":" in out[-1]:
            out[-1] += "," + piece
        elif piece:
            out.append(piece)
    return out
