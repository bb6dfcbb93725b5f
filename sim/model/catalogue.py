"""The one catalogue of measures: every number the tool reports, declared once with its key, a human label, unit,
kind, the games and modes it applies to and a one-line definition. Summary, reports, compare, check and sweeps read
names, units and definitions from here; none of them spells a measure's label itself.

Keys are the measure names of `sim.stats.measures` (one value per game: ``win.seat0``, ``team.hunter``, ``length.turns``,
``extra.<counter>``, ``extra.<counter>=<value>`` for a categorical counter's share) and the batch measures computed
over a whole run (``first_player_advantage``, ``seat_spread``, ``close_games``, ``team_win_rate``). A generic entry
may be a pattern with ``{seat}``, ``{strategy}`` or ``{role}`` in its key and text; a game may override it.

Game-specific counters are declared next to the game's registration (``sim/games/<game>.py``) as
``GameSpec.measures``, built with `counter`, `category`, `share`, `team`, `score` and `curve`, so a new game declares its own
without touching this file. `missing(spec)` names every counter column a game emits without an entry (a test keeps
it empty for every registered game).

Applicability: an entry applies to every game unless ``games`` names some, to every mode (the game's ``mode``
parameter) unless ``modes`` names some, and to competitive or team games as ``applies`` says ("any", "competitive",
"team"). A measure that cannot apply to a scenario (a Head Haunter counter in a basic game, first-player advantage in
a team game) is not shown at all; ``shown=False`` marks bookkeeping (the seat rotation), kept in the data but never
shown or compared.

Kinds: "rate" (a share of games, in %), "count" (how many per game), "points" (a score or a margin), "turns" (a
length in turns or rounds).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

# the record type and its allowed values (re-exported): in sim.model.measure_entry, so the registry can type with it
from sim.model.measure_entry import APPLIES, KINDS, LEVELS, RATE_UNIT, Entry  # noqa: F401

# --- the shared API for game modules (sim/games/*.py) -------------------------------------------------------------


def counter(
    col: str,
    label: str,
    definition: str,
    unit: str = "per game",
    kind: str = "count",
    modes: tuple[str, ...] = (),
    shown: bool = True,
) -> Entry:
    """A numeric game counter (kernel extra column ``col``): its mean per finished game is reported."""
    return Entry(f"extra.{col}", label, unit, kind, definition, modes=tuple(modes), shown=shown)


def share(
    col: str,
    value: str,
    label: str,
    definition: str,
    modes: tuple[str, ...] = (),
    shown: bool = True,
    headline: bool = False,
) -> Entry:
    """One value of a categorical game counter (an outcome, a loss cause): the share of finished games with it."""
    return Entry(
        f"extra.{col}={value}", label, RATE_UNIT, "rate", definition, modes=tuple(modes), shown=shown, headline=headline
    )


def category(col: str, label: str, definition: str, modes: tuple[str, ...] = ()) -> Entry:
    """A categorical game counter as a whole (its values are declared with `share`): its label heads their shares."""
    return Entry(f"extra.{col}", label, RATE_UNIT, "rate", definition, modes=tuple(modes))


def team(role: str, label: str, definition: str, modes: tuple[str, ...] = ()) -> Entry:
    """The win rate of the team of ``role`` (team games)."""
    return Entry(
        f"team.{role}", label, RATE_UNIT, "rate", definition, modes=tuple(modes), applies="team", headline=True
    )


def score(label: str, unit: str, definition: str, role_units: dict[str, str] | None = None) -> Entry:
    """What a seat's score is in this game (label and definition may use {seat}); ``role_units``: the unit of the
    seats of a role whose score counts something else ({"haunter": "hauntings"}: the Head Haunter's seat)."""
    return Entry("score.seat{seat}", label, unit, "points", definition, role_units=tuple((role_units or {}).items()))


def curve(name: str, label: str, unit: str, definition: str, modes: tuple[str, ...] = ()) -> Entry:
    """A per-round curve the kernel writes (``GameSpec.curves``): its mean by round over the games still running."""
    return Entry(f"curve.{name}", label, unit, "count", definition, modes=tuple(modes))


# --- the generic measures (every game) ----------------------------------------------------------------------------

SCORE_UNIT = "{score unit}"  # a generic entry's unit that is the game's score unit (its own score entry's)

GENERIC: tuple[Entry, ...] = (
    Entry(
        "win.seat{seat}",
        "seat {seat} ({strategy}) wins",
        RATE_UNIT,
        "rate",
        "Share of finished games seat {seat} wins; a win shared by k players counts 1/k, so the seats add up to 100%.",
        applies="competitive",
        headline=True,
    ),
    Entry(
        "win.{strategy}",
        "a {strategy} seat wins",
        RATE_UNIT,
        "rate",
        "Mean win rate of the seats playing {strategy} (strategies mixed, one of them at several seats).",
        applies="competitive",
    ),
    Entry(
        "first_player.win",
        "the start player wins",
        RATE_UNIT,
        "rate",
        "Share of finished games won by the player who took the first turn (the start rotates: game g starts "
        "with seat g mod players), a shared win counting 1/k.",
        applies="competitive",
        headline=True,
    ),
    Entry(
        "tie",
        "shared wins (tie rate)",
        RATE_UNIT,
        "rate",
        "Share of finished games whose win is shared between players.",
        applies="competitive",
    ),
    Entry(
        "margin",
        "winner's margin (decisiveness)",
        SCORE_UNIT,  # the game's score unit (`lookup`): Moor's "score points", Turnwall's "body parts"
        "points",
        "Winner's score minus the best score of a non-winner, finished games (0: top score tied, settled by the "
        "tie-break or shared).",
        applies="competitive",
    ),
    Entry(
        "team.{role}",
        "team win rate ({role})",
        RATE_UNIT,
        "rate",
        "Share of finished games the {role} team wins (one result per game for the whole team).",
        applies="team",
        headline=True,
    ),
    Entry("score.seat{seat}", "seat {seat}'s score", "points", "points", "Seat {seat}'s final score."),
    Entry(
        "length.turns",
        "game length (turns)",
        "turns",
        "turns",
        "Turns of a finished game (one turn: one player's turn).",
    ),
    Entry(
        "length.rounds",
        "game length (rounds)",
        "rounds",
        "turns",
        "Rounds of a finished game (a round: every player once).",
        headline=True,
    ),
    Entry(
        "truncated",
        "games stopped at the turn cap",
        "% of games played",
        "rate",
        "Share of all games played that hit the turn cap (max_turns): counted, never scored.",
    ),
    Entry(
        "extra.first_seat",
        "start seat",
        "seat",
        "count",
        "The seat that took the first turn (the seat rotation): bookkeeping, kept in games.parquet, not a game "
        "statistic.",
        shown=False,
    ),
    Entry(
        "extra.decisions",
        "decisions made",
        "decisions per game",
        "count",
        "Choices the strategies made in a game (a step with one legal action is no decision).",
    ),
    # the game's arc (issue 39): from each seat's progress by round, which the kernel records (sim.stats.arc);
    # "alone ahead" / "alone behind": a seat tied for the top (bottom) is neither
    Entry(
        "arc.lead_changes",
        "lead changes",
        "per game",
        "count",
        "Times per finished game the lead passed to another seat: after a round a seat is alone ahead (highest "
        "score so far) that was not the last seat alone ahead; a tie for the top changes nothing.",
        applies="competitive",
    ),
    Entry(
        "arc.decided_by_score",
        "winner ahead for good from",
        "rounds",
        "turns",
        "Rounds played before the eventual winner was alone ahead for good (it then led alone after every later "
        "round): 0 when it led from the first round, the game's length when it never led alone at the end "
        "(a tie-break win).",
        applies="competitive",
    ),
    Entry(
        "arc.decided_by_score_share",
        "winner ahead for good from (share of the game)",
        "share of the rounds",
        "count",
        "The rounds before the eventual winner was alone ahead for good, as a share of the game's rounds (0: it "
        "led from the start; 1: only at the end, or never).",
        applies="competitive",
    ),
    Entry(
        "arc.comeback",
        "comebacks (winner was last)",
        RATE_UNIT,
        "rate",
        "Share of finished games won by a seat that was alone in last place after some round before the last.",
        applies="competitive",
    ),
    Entry(
        "arc.leader_at_half_wins",
        "the half-time leader wins",
        "% of games with a leader at half-time",
        "rate",
        "Among finished games with a seat alone ahead after half the game's rounds (rounds // 2), the share that "
        "seat won (a shared win counts).",
        applies="competitive",
    ),
    Entry(
        "arc.last_at_half_wins",
        "the child last at half-time wins",
        "% of games with one seat last at half-time",
        "rate",
        "Among finished games with a seat alone in last place after half the game's rounds (rounds // 2), the "
        "share that seat still won (a shared win counts).",
        applies="competitive",
    ),
    # batch measures: computed over the finished games of a run
    Entry(
        "first_player_advantage",
        "first-player advantage",
        "percentage points",
        "rate",
        "Win rate of the start player minus the fair share 1/players (95% Wilson interval of that win rate, "
        "shifted). Seats rotate the start, so this isolates the turn-order effect.",
        level="batch",
        applies="competitive",
        headline=True,
    ),
    Entry(
        "seat_spread",
        "seat spread (highest seat win rate minus the lowest)",
        "percentage points",
        "rate",
        "Highest minus lowest seat win rate, with a 95% interval from simultaneous Wilson intervals of the seats' "
        "win rates (each at 1 - 0.05 / seats; it holds the true spread at least 95% of the time, equal seats too, "
        "where an interval of the two extreme seats' difference does not); read it with the chi-square test of "
        "equal seats. The same figure and interval in Balance at a glance, At skill and the ladder; sim compare judges "
        "its B - A by a paired bootstrap over the games. When seats play different strategies it also measures "
        "strategy strength.",
        level="batch",
        applies="competitive",
    ),
    Entry(
        "close_games",
        "close games",
        RATE_UNIT,
        "rate",
        "Share of finished games won by at most 1 point (95% Wilson interval).",
        level="batch",
        applies="competitive",
    ),
    Entry(
        "team_win_rate",
        "team win rate",
        RATE_UNIT,
        "rate",
        "Win rate of the team with the most seats (team games).",
        level="batch",
        applies="team",
    ),
)

_FIELD = re.compile(r"\{(seat|strategy|role)\}")


def _pattern(key: str) -> re.Pattern:
    """A regex for a pattern key: {seat} digits, {strategy}/{role} a name."""
    out, pos = "", 0
    for m in _FIELD.finditer(key):
        out += re.escape(key[pos : m.start()])
        out += rf"(?P<{m.group(1)}>\d+)" if m.group(1) == "seat" else rf"(?P<{m.group(1)}>[A-Za-z0-9_\-]+)"
        pos = m.end()
    return re.compile("^" + out + re.escape(key[pos:]) + "$")


def _spec(game: str | None) -> Any:
    """The game's spec; None for no game or one whose code is not here (a summary read back elsewhere: generic
    entries only). A game module that fails to import raises: a broken game is never read as generic labels."""
    if not game:
        return None
    from sim.model import registry

    return registry.get(game)


def entries(game: str | None = None) -> list[Entry]:
    """Every entry that may describe a measure of ``game``: the game's own declarations (GameSpec.measures) first,
    then the generic ones (a game's entry overrides a generic one with the same key)."""
    spec = _spec(game)
    own = list(spec.measures) if spec is not None else []
    keys = {e.key for e in own}
    return own + [e for e in GENERIC if e.key not in keys]


def _fill(e: Entry, key: str, fields: dict) -> Entry:
    fmt = lambda t: _FIELD.sub(lambda m: str(fields.get(m.group(1), m.group(0))), t)  # noqa: E731
    return replace(e, key=key, label=fmt(e.label), definition=fmt(e.definition), unit=fmt(e.unit))


def lookup(key: str, game: str | None = None, seats: list[str] | None = None) -> Entry | None:
    """The entry describing measure ``key`` of ``game`` with its fields filled in (``seats``: the strategy per seat,
    for the labels of per-seat measures); None when the catalogue has none (`fallback` then makes one)."""
    es = entries(game)
    for e in es:
        if e.key == key:
            return _score_unit(e, es)
    for e in es:
        if "{" in e.key:
            m = _pattern(e.key).match(key)
            if m:
                f = m.groupdict()
                if "seat" in f and seats is not None and int(f["seat"]) < len(seats):
                    f["strategy"] = seats[int(f["seat"])]
                if "seat" in f and "strategy" not in f:
                    f["strategy"] = "?"
                if "{strategy}" in e.label and "strategy" not in f:
                    continue
                out = _fill(e, key, f)
                role = _role(game, f.get("strategy")) if e.role_units else None
                return replace(out, unit=dict(e.role_units)[role]) if role in dict(e.role_units) else out
    return None


def _score_unit(e: Entry, es: list[Entry]) -> Entry:
    """``e`` with a unit "{score unit}" (the generic winner's margin) in the unit of the game's own score entry
    (a difference of two scores is in the scores' unit), "points" for a game that declares none."""
    if e.unit != SCORE_UNIT:
        return e
    own = next((x.unit for x in es if x.key == "score.seat{seat}"), "points")
    return replace(e, unit=own)


def _role(game: str | None, strategy: str | None) -> str | None:
    """The role of ``strategy`` in ``game`` (a seat's role, for `Entry.role_units`); None when unknown."""
    spec = _spec(game)
    st = spec.strategy(strategy) if spec is not None and strategy else None
    return None if st is None else st.role


def fallback(key: str) -> Entry:
    """An entry for a key the catalogue does not know (a counter of a summary read back without its game's code):
    the key itself as label."""
    if key.startswith("extra.") and "=" in key:
        col, _, value = key[len("extra.") :].partition("=")
        return Entry(key, f"{col} = {value}", RATE_UNIT, "rate", f"Share of finished games with {col} = {value}.")
    if key.startswith("extra."):
        return Entry(key, key[len("extra.") :], "per game", "count", "A game counter (mean per finished game).")
    return Entry(key, key, "", "count", "")


def describe(key: str, game: str | None = None, seats: list[str] | None = None) -> Entry:
    """`lookup`, or `fallback` when the catalogue has no entry."""
    return lookup(key, game, seats) or fallback(key)


def applies(e: Entry, game: str | None, mode: str | None, team_game: bool) -> bool:
    """Whether entry ``e`` can apply to a scenario of ``game`` in ``mode`` (team or competitive game)."""
    if e.games and game not in e.games:
        return False
    if e.modes and mode is not None and mode not in e.modes:
        return False
    if e.applies == "competitive" and team_game:
        return False
    if e.applies == "team" and not team_game:
        return False
    return True


class View:
    """The catalogue as it applies to one scenario (game, mode, seats' strategies, team or competitive): labels,
    units and definitions by key, and which measures are shown."""

    def __init__(
        self, game: str | None, mode: str | None, seats: list[str], team_game: bool, recorded: dict | None = None
    ):
        self.game, self.mode, self.seats, self.team_game = game, mode, list(seats), team_game
        self.recorded = recorded or {}  # a summary's own measures block (read back without the code)

    def entry(self, key: str) -> Entry:
        e = lookup(key, self.game, self.seats)
        if e is None and key in self.recorded:
            r = self.recorded[key]
            return Entry(
                key,
                r.get("label", key),
                r.get("unit", ""),
                r.get("kind", "count") if r.get("kind") in KINDS else "count",
                r.get("definition", ""),
            )
        return e or fallback(key)

    def label(self, key: str) -> str:
        return self.entry(key).label

    def unit(self, key: str) -> str:
        return self.entry(key).unit

    def definition(self, key: str) -> str:
        return self.entry(key).definition

    def generic_definition(self, pattern: str) -> str:
        """The definition of a per-seat pattern entry ('score.seat{seat}') said of every seat ('Each seat's final
        score.')."""
        e = next((x for x in entries(self.game) if x.key == pattern), None)
        if e is None:
            return ""
        d = re.sub(
            r"\b[Ss]eat \{seat\}'s", lambda m: "Each seat's" if m.group(0)[0] == "S" else "each seat's", e.definition
        )
        return d.replace("seat {seat}", "the seat").replace("{seat}", "the seat")

    def applies(self, key: str) -> bool:
        """Whether measure ``key`` can apply here (an undeclared key: yes)."""
        e = lookup(key, self.game, self.seats)
        return True if e is None else applies(e, self.game, self.mode, self.team_game)

    def shown(self, key: str) -> bool:
        """Whether measure ``key`` is shown here: it applies and is not bookkeeping."""
        e = lookup(key, self.game, self.seats)
        return True if e is None else (e.shown and applies(e, self.game, self.mode, self.team_game))

    def counter_shown(self, col: str) -> bool:
        """Whether game counter ``col`` (a numeric one, or a categorical one with any value shown) is shown."""
        if lookup(f"extra.{col}", self.game, self.seats) is not None:
            return self.shown(f"extra.{col}")
        own = [e for e in entries(self.game) if e.key.startswith(f"extra.{col}=")]
        if own:
            return any(self.shown(e.key) for e in own)
        return col not in BOOKKEEPING_COLUMNS

    def category_values(self, col: str, counts: dict) -> list[tuple[str, int]]:
        """(value, games) of categorical counter ``col`` for every value shown here, the catalogue's order first
        (values no game reached included, with 0: "the Head Haunter traps every hunter" 0% says something), then
        any other counted value shown; ``counts``: value -> games."""
        own = [e.key.split("=", 1)[1] for e in entries(self.game) if e.key.startswith(f"extra.{col}=")]
        vals = own + [v for v in counts if v not in own]
        return [(v, int(counts.get(v, 0))) for v in vals if self.shown(f"extra.{col}={v}")]

    def batch(self) -> list[Entry]:
        """The batch measures that apply here."""
        return [
            e
            for e in entries(self.game)
            if e.level == "batch" and e.shown and applies(e, self.game, self.mode, self.team_game)
        ]


BOOKKEEPING_COLUMNS = tuple(e.key[len("extra.") :] for e in GENERIC if e.key.startswith("extra.") and not e.shown)


def for_scenario(sc: Any) -> View:
    """The catalogue view of a `sim.model.scenario.Scenario`."""
    return View(sc.game, sc.params.get("mode"), [s.strategy for s in sc.seats], bool(sc.spec.team_roles))


def for_summary(s: dict) -> View:
    """The catalogue view of a summary dict (sim.stats.summary, schema 1), also of one read back from summary.json."""
    sc = s.get("scenario") or {}
    params = sc.get("params") or {}
    seats = [x.get("strategy", "?") for x in sc.get("seats") or []]
    return View(sc.get("game"), params.get("mode"), seats, bool(s.get("team")), s.get("measures"))


def block(sc: Any, keys: list[str]) -> dict:
    """The summary.json ``measures`` block: every measure ``keys`` of scenario ``sc`` that is shown, then the batch
    measures that apply, each as {label, unit, kind, definition}."""
    v = for_scenario(sc)
    out = {k: v.entry(k).describe() for k in keys if v.shown(k)}
    for e in v.batch():
        out[e.key] = e.describe()
    for c in sc.spec.curves:
        k = f"curve.{c}"
        if v.shown(k):
            out[k] = v.entry(k).describe()
    return out


def missing(spec: Any) -> list[str]:
    """Counter columns (and categorical values, and curves) that game ``spec`` emits without a catalogue entry."""
    out = []
    for col in spec.extra_columns:
        if col in spec.categorical:
            for value in spec.categorical[col]:
                if lookup(f"extra.{col}={value}", spec.name) is None:
                    out.append(f"extra.{col}={value}")
        elif lookup(f"extra.{col}", spec.name) is None:
            out.append(f"extra.{col}")
    for c in spec.curves:
        if lookup(f"curve.{c}", spec.name) is None:
            out.append(f"curve.{c}")
    return out


def stale(spec: Any) -> list[str]:
    """Keys of game ``spec``'s own entries (``GameSpec.measures``) that name no counter column, categorical value or
    curve it emits: the counters are named once, by the kernel's ``EXTRA_COLUMNS``, and every entry follows them."""
    emitted = {f"curve.{c}" for c in spec.curves}
    for col in spec.extra_columns:
        emitted.add(f"extra.{col}")
        emitted |= {f"extra.{col}={v}" for v in spec.categorical.get(col, ())}
    return [e.key for e in spec.measures if e.key.startswith(("extra.", "curve.")) and e.key not in emitted]


def listing(spec: Any) -> list[tuple[str, Entry]]:
    """Every measure of game ``spec`` as `sim list GAME` shows it: (key, entry), generic ones first, then the game's
    counters in kernel order; bookkeeping left out."""
    team_game = bool(spec.team_roles)
    own_teams = [e.key for e in getattr(spec, "measures", ()) if e.key.startswith("team.")]
    keys: list[str] = []
    for e in GENERIC:
        if not e.shown or (e.applies == "competitive" and team_game) or (e.applies == "team" and not team_game):
            continue
        keys += own_teams if (e.key == "team.{role}" and own_teams) else [e.key]
    for col in spec.extra_columns:
        if col in spec.categorical:
            keys += ([f"extra.{col}"] if lookup(f"extra.{col}", spec.name) else []) + [
                f"extra.{col}={v}" for v in spec.categorical[col]
            ]
        else:
            keys.append(f"extra.{col}")
    keys += [f"curve.{c}" for c in spec.curves]
    out = []
    for k in dict.fromkeys(keys):
        e = lookup(k, spec.name) or (next((g for g in entries(spec.name) if g.key == k), None)) or fallback(k)
        if e.shown:
            out.append((k, e))
    return out
