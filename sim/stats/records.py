"""Typed records of the statistics, read by attribute in pages, output and the API: a win rate (`Rate`), an
estimate with its 95% interval (`Estimate`) and the run summary's win rates (`SummaryRates`).

The JSON documents on disk stay the dicts they always were (summary.json schema 1, sweep.json, tune.json,
ladder.json): a record is read from such a dict by ``of`` (so a document written by any earlier version reads the
same) and ``to_dict`` gives that dict back, field for field and value for value (tests/stats/test_records.py): the
dicts are the files' contract, the records how code reads them; a page reads ``r.rate`` and ``r.lo``, never
``r["ci95"][0]``.
"""

from __future__ import annotations

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
