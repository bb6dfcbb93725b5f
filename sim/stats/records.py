"""Typed records of the statistics, read by attribute in pages, output and the API: a win rate (`Rate`), an
estimate with its 95% interval (`Estimate`), the run summary's win rates (`SummaryRates`) and its counts and
distributions (`SummaryFigures`: games, ties, length and playing time, scores, the winner's margin).

The JSON documents on disk stay the dicts they always were (summary.json schema 1, sweep.json, tune.json,
ladder.json): a record is read from such a dict by ``of`` (so a document written by any earlier version reads the
same) and ``to_dict`` gives that dict back, field for field and value for value (tests/stats/test_records.py): the
dicts are the files' contract, the records how code reads them; a page reads ``r.rate``, ``r.lo`` and
``f.length.turns.median``, never ``r["ci95"][0]`` or ``s["length"]["turns"]["quantiles"]["p50"]``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

Interval = tuple[float, float]  # (lo, hi), in the record's own unit


def interval(x: Any) -> Interval | None:
    """A JSON interval ``[lo, hi]`` (or None) as a pair; the numbers are kept as stored (no cast: bit-identical)."""
    if x is None:
        return None
    lo, hi = x
    return lo, hi


def _bounds(ci: Interval | None, what: str) -> Interval:
    if ci is None:
        raise ValueError(f"{what}: no interval (no game counts toward it)")
    return ci


@dataclass(frozen=True, slots=True)
class Rate:
    """A win rate: ``wins`` (float: a win shared by k seats counts 1/k) of ``games`` finished games, ``rate`` =
    wins / games (0.0 when games = 0) and its 95% Wilson interval ``ci95`` (0.0 <= lo <= hi <= 1.0; (0, 1) when
    games = 0). summary.json's ``{wins, games, rate, ci95}``."""

    wins: float
    games: int
    rate: float
    ci95: Interval

    @classmethod
    def of(cls, d: Mapping[str, Any]) -> Rate:
        """The record of a JSON rate ``{wins, games, rate, ci95}`` (``games`` 0 where the record leaves it out, as a
        summary written by hand does). Errors: KeyError naming a missing wins, rate or ci95."""
        return cls(d["wins"], d.get("games", 0), d["rate"], _bounds(interval(d["ci95"]), "rate"))

    @property
    def lo(self) -> float:
        return self.ci95[0]

    @property
    def hi(self) -> float:
        return self.ci95[1]

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (summary.json): {wins, games, rate, ci95: [lo, hi]}."""
        return {"wins": self.wins, "games": self.games, "rate": self.rate, "ci95": list(self.ci95)}


@dataclass(frozen=True, slots=True)
class Estimate:
    """A number with its 95% interval: ``value`` (None where no game counts toward it), ``ci95`` (lo, hi) or None,
    ``n`` the games it is over (0 where not stored). Read from any JSON record that holds its value under ``key``
    (``value`` in sweep.json and tune.json, ``elo`` / ``win_rate`` in a ladder's rows) beside ``ci95``."""

    value: float | None
    ci95: Interval | None
    n: int = 0

    @classmethod
    def of(cls, d: Mapping[str, Any], key: str = "value") -> Estimate:
        """The estimate stored in ``d`` as ``d[key]`` and ``d["ci95"]`` (``n`` where present). Errors: KeyError
        naming a missing field."""
        return cls(d[key], interval(d["ci95"]), d.get("n", 0))

    @property
    def lo(self) -> float:
        """The interval's lower end. Errors: ValueError where there is no interval (``ci95`` None)."""
        return _bounds(self.ci95, "estimate")[0]

    @property
    def hi(self) -> float:
        """The interval's upper end. Errors: ValueError where there is no interval (``ci95`` None)."""
        return _bounds(self.ci95, "estimate")[1]

    @property
    def known(self) -> float:
        """``value``, where some game counts. Errors: ValueError where none does (value None)."""
        if self.value is None:
            raise ValueError("estimate: no value (no game counts toward it)")
        return self.value

    def contains(self, x: float) -> bool:
        """Whether the 95% interval contains ``x`` (False without an interval)."""
        return self.ci95 is not None and self.ci95[0] <= x <= self.ci95[1]

    def overlaps(self, low: float, high: float) -> bool:
        """Whether the 95% interval meets the range [low, high] (False without an interval): a tune target met."""
        return self.ci95 is not None and self.ci95[0] <= high and self.ci95[1] >= low

    def to_dict(self) -> dict[str, Any]:
        """The JSON form of sweep.json's measures: {value, ci95: [lo, hi] or None, n}."""
        return {"value": self.value, "ci95": None if self.ci95 is None else list(self.ci95), "n": self.n}


@dataclass(frozen=True, slots=True)
class SeatRate:
    """summary.json ``seats[i]``'s win: the seat, its strategy and role, its win rate (a team game: the team's)
    and its sole and shared wins."""

    seat: int
    strategy: str
    role: str
    win: Rate
    sole_wins: int
    shared_wins: int


@dataclass(frozen=True, slots=True)
class StrategyRate:
    """summary.json ``strategies[i]``: a (strategy, role)'s seats and win rate per seat (a team game: the team's)."""

    strategy: str
    role: str
    seats: tuple[int, ...]
    win: Rate


@dataclass(frozen=True, slots=True)
class PositionRate:
    """summary.json ``positions[q]``: the win rate of turn position ``position`` (0 = the start player)."""

    position: int
    win: Rate


@dataclass(frozen=True, slots=True)
class FirstPlayer:
    """summary.json ``first_player`` where it is defined (a competitive game with a finished game): the start
    player's win rate, the fair share 1/players and the advantage (rate - fair share) with its 95% interval."""

    win: Rate
    fair_share: float
    advantage: float
    advantage_ci95: Interval

    @classmethod
    def of(cls, d: Mapping[str, Any] | None) -> FirstPlayer | None:
        """The record of ``first_player`` ``d``; None where the summary states no advantage (a team game, no
        finished game, a summary without the block)."""
        d = d or {}
        if d.get("win") is None or d.get("advantage") is None or d.get("fair_share") is None:
            return None
        return cls(
            Rate.of(d["win"]), d["fair_share"], d["advantage"], _bounds(interval(d["advantage_ci95"]), "advantage")
        )


@dataclass(frozen=True)
class SummaryRates:
    """The win rates of a run summary (summary.json schema 1, of this or any earlier version) as records: by
    seat, by strategy, by turn position (empty in a team game), the start player's (None where not stated) and by
    team (a team game: {role: Rate}; empty otherwise). Built once per summary by `SummaryRates.of`."""

    seats: tuple[SeatRate, ...]
    strategies: tuple[StrategyRate, ...]
    positions: tuple[PositionRate, ...]
    first_player: FirstPlayer | None  # None where no advantage is stated (`FirstPlayer.of`)
    team: dict[str, Rate] = field(default_factory=dict)

    @classmethod
    def of(cls, s: Mapping[str, Any]) -> SummaryRates:
        """The records of summary dict ``s``. What only some pages read may be absent, as in a summary written by
        hand (a test's) or before roles: a seat's role is then "" and its sole and shared wins 0, and no strategy
        rows. Errors: KeyError naming a missing seat, strategy or win rate."""
        return cls(
            seats=tuple(
                SeatRate(
                    r["seat"],
                    r["strategy"],
                    r.get("role", ""),
                    Rate.of(r["win"]),
                    r.get("sole_wins", 0),
                    r.get("shared_wins", 0),
                )
                for r in s["seats"]
            ),
            strategies=tuple(
                StrategyRate(r["strategy"], r.get("role", ""), tuple(r["seats"]), Rate.of(r["win"]))
                for r in s.get("strategies") or ()
            ),
            positions=tuple(PositionRate(p["position"], Rate.of(p["win"])) for p in s.get("positions") or ()),
            first_player=FirstPlayer.of(s.get("first_player")),
            team={role: Rate.of(r) for role, r in (s.get("team") or {}).items()},
        )


@dataclass(frozen=True, slots=True)
class Distribution:
    """summary.json's distribution of a whole-number quantity (a seat's score, a game's turns or rounds, a counter,
    the winner's margin; `sim.stats.metrics.distribution`) over ``n`` finished games: ``mean`` and ``std`` (None
    when n = 0), ``min`` and ``max`` (None when n = 0), ``quantiles`` {"p05", "p25", "p50", "p75", "p95": value or
    None} and the trimmed histogram, ``counts[i]`` games at value ``lo + i``. A field a hand-written summary (a
    test's) leaves out reads as "nothing observed" (n 0, None, an empty histogram)."""

    n: int
    mean: float | None
    std: float | None
    min: int | None
    max: int | None
    quantiles: Mapping[str, float | None]
    lo: int
    counts: tuple[int, ...]

    @classmethod
    def of(cls, d: Mapping[str, Any] | None) -> Distribution:
        """The record of JSON distribution ``d`` ({n, mean, std, min, max, quantiles, hist: {lo, counts}})."""
        d = d or {}
        h = d.get("hist") or {}
        return cls(
            d.get("n", 0),
            d.get("mean"),
            d.get("std"),
            d.get("min"),
            d.get("max"),
            dict(d.get("quantiles") or {}),
            h.get("lo", 0),
            tuple(h.get("counts") or ()),
        )

    @property
    def known_mean(self) -> float:
        """``mean``, where some game was observed. Errors: ValueError where none was (mean None)."""
        if self.mean is None:
            raise ValueError("distribution: no mean (no game observed)")
        return self.mean

    @property
    def p05(self) -> float | None:
        return self.quantiles.get("p05")

    @property
    def median(self) -> float | None:
        return self.quantiles.get("p50")

    @property
    def p95(self) -> float | None:
        return self.quantiles.get("p95")

    def half_width(self) -> float:
        """The normal 95% half-width of the mean, z * std / sqrt(n), in the quantity's unit (0.0 for n <= 1)."""
        from sim.stats.metrics import z_value

        return z_value() * self.std / math.sqrt(self.n) if self.n > 1 and self.std is not None else 0.0

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (summary.json): {n, mean, std, min, max, quantiles, hist: {lo, counts}}."""
        return {
            "n": self.n,
            "mean": self.mean,
            "std": self.std,
            "min": self.min,
            "max": self.max,
            "quantiles": dict(self.quantiles),
            "hist": {"lo": self.lo, "counts": list(self.counts)},
        }


@dataclass(frozen=True, slots=True)
class GameCounts:
    """summary.json ``games``: games played, finished (the games every figure counts), truncated at the turn cap
    (max_turns), ended in an error, and the truncated share of those played. ``played`` reads as ``finished`` in a
    summary without it (the index reads summaries of earlier versions); the others as 0."""

    played: int
    finished: int
    truncated: int
    errors: int
    truncated_rate: float

    @classmethod
    def of(cls, d: Mapping[str, Any] | None) -> GameCounts:
        d = d or {}
        fin = d.get("finished", 0)
        return cls(d.get("played", fin), fin, d.get("truncated", 0), d.get("errors", 0), d.get("truncated_rate", 0.0))


@dataclass(frozen=True, slots=True)
class Ties:
    """summary.json ``ties``: games won by more than one seat (``shared_games``) and their share of the finished
    games (``tie_rate``); a team game has no tie rate (None, with the ``note`` saying why). Where the game breaks
    ties by a rule, the games it decided (``tiebreak_decided``) and their share (``tiebreak_rate``), else None."""

    tie_rate: float | None
    shared_games: int
    note: str | None
    tiebreak_decided: int | None
    tiebreak_rate: float | None

    @classmethod
    def of(cls, d: Mapping[str, Any] | None) -> Ties:
        d = d or {}
        return cls(
            d.get("tie_rate"),
            d.get("shared_games", 0),
            d.get("note"),
            d.get("tiebreak_decided"),
            d.get("tiebreak_rate"),
        )


@dataclass(frozen=True, slots=True)
class PlayingTime:
    """summary.json ``length.minutes``: a finished game's playing time estimated as turns x ``seconds_per_turn`` /
    60, in minutes (mean, median, 5% and 95% quantiles; None where no game finished), whether seconds_per_turn is
    the game's default and where its value comes from (``source``), and the playing time the box states
    (``box_minutes`` (lo, hi) or None, with its ``box_source``)."""

    mean: float | None
    median: float | None
    p05: float | None
    p95: float | None
    seconds_per_turn: float
    default: bool
    source: str
    box_minutes: tuple[float, float] | None
    box_source: str | None

    @classmethod
    def of(cls, d: Mapping[str, Any] | None) -> PlayingTime | None:
        """The record of ``length.minutes`` ``d``; None where the summary has none (a game without a
        seconds_per_turn parameter, a summary from before it)."""
        if not d:
            return None
        box = d.get("box") or {}
        lo_hi = box.get("minutes")
        return cls(
            d.get("mean"),
            d.get("median"),
            d.get("p05"),
            d.get("p95"),
            d["seconds_per_turn"],
            bool(d.get("default")),
            d.get("source", ""),
            None if not lo_hi else (lo_hi[0], lo_hi[1]),
            box.get("source"),
        )


@dataclass(frozen=True, slots=True)
class Length:
    """summary.json ``length``: the distributions of a finished game's turns and rounds and, for a game with a
    seconds_per_turn parameter, its estimated playing time (`PlayingTime`, else None)."""

    turns: Distribution
    rounds: Distribution
    minutes: PlayingTime | None

    @classmethod
    def of(cls, d: Mapping[str, Any] | None) -> Length:
        d = d or {}
        return cls(Distribution.of(d.get("turns")), Distribution.of(d.get("rounds")), PlayingTime.of(d.get("minutes")))


@dataclass(frozen=True, slots=True)
class Decisiveness:
    """summary.json ``decisiveness`` (a competitive game): the distribution of the winner's ``margin``, the normal
    95% interval of its mean (None when no game finished), and the games won by at most ``close_margin`` (a
    `Rate`, None where the block leaves it out)."""

    margin: Distribution
    mean_ci95: Interval | None
    close_margin: int | None
    close: Rate | None

    @classmethod
    def of(cls, d: Mapping[str, Any] | None) -> Decisiveness | None:
        """The record of ``decisiveness`` ``d``; None where the summary has no such block (a team game)."""
        if not d:
            return None
        close = d.get("close")
        return cls(
            Distribution.of(d.get("margin")),
            interval(d.get("mean_ci95")),
            d.get("close_margin"),
            None if close is None else Rate.of(close),
        )


@dataclass(frozen=True)
class SummaryFigures:
    """The counts and distributions of a run summary (summary.json schema 1, of this or any earlier version) as
    records: the games (`GameCounts`), ties (`Ties`), length (`Length`), each seat's final score (a `Distribution`
    per seat, in seat order) and the winner's margin (`Decisiveness`, None in a team game). A block a hand-written
    summary leaves out reads as empty (checked whole by `sim.output.summary_check` before `sim report` draws)."""

    games: GameCounts
    ties: Ties
    length: Length
    scores: tuple[Distribution, ...]
    decisiveness: Decisiveness | None

    @classmethod
    def of(cls, s: Mapping[str, Any]) -> SummaryFigures:
        return cls(
            GameCounts.of(s.get("games")),
            Ties.of(s.get("ties")),
            Length.of(s.get("length")),
            tuple(Distribution.of(r.get("score")) for r in s.get("seats") or ()),
            Decisiveness.of(s.get("decisiveness")),
        )
