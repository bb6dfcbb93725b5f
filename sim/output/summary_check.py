"""Is a summary.json (schema 1, `sim.stats.summary`) whole enough to draw its report? `sim report FOLDER` reads a
file a person may have edited or a disk damaged: a field of the wrong type gave a Python TypeError text. `problem`
names the first bad field (a path such as ``seats[1].win.rate``), what is allowed there and what the file holds."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sim.model import registry

Check = tuple[str, Callable[[Any], bool], str]  # (path, test, what is allowed)


def _count(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and v == v


def _share(v: Any) -> bool:
    return _number(v) and 0 <= v <= 1


def _interval(v: Any) -> bool:
    return isinstance(v, list) and len(v) == 2 and all(_number(x) for x in v)


def _obj(v: Any) -> bool:
    return isinstance(v, dict)


def _obj_or_none(v: Any) -> bool:
    return v is None or isinstance(v, dict)


TOP: tuple[Check, ...] = (
    ("scenario", _obj, "an object (the scenario as played)"),
    ("scenario.game", lambda v: isinstance(v, str) and bool(v), "a game's name"),
    ("scenario.players", lambda v: _count(v) and v >= 1, "a whole number of players, 1 or more"),
    ("games", _obj, "an object (played, finished, truncated, errors)"),
    ("games.played", _count, "a whole number, 0 or more"),
    ("games.finished", _count, "a whole number, 0 or more"),
    ("games.truncated", _count, "a whole number, 0 or more"),
    ("games.errors", _count, "a whole number, 0 or more"),
    ("games.truncated_rate", _share, "a share from 0 to 1"),
    ("seats", lambda v: isinstance(v, list) and bool(v) and all(_obj(x) for x in v), "a list of seat objects"),
    ("length", _obj, "an object (turns, rounds)"),
    ("length.turns", _obj, "an object (the distribution of the game's turns)"),
    ("length.rounds", _obj, "an object (the distribution of the game's rounds)"),
    ("ties", _obj, "an object"),
    ("first_player", _obj, "an object"),
    ("team", _obj_or_none, "an object, or null for a competitive game"),
    ("arc", _obj_or_none, "an object, or null for a run without the game's arc"),
    ("extras", lambda v: _obj(v) and all(_obj(x) for x in v.values()), "an object of counter objects"),
    ("curves", lambda v: _obj(v) and all(_obj(x) for x in v.values()), "an object of per-round curve objects"),
    ("provenance", _obj, "an object (how and where the run was played)"),
)
# absent from a summary written before they were, or by a test's hand (drawn without them)
OPTIONAL = ("team", "arc", "extras", "curves", "provenance")
SEAT: tuple[Check, ...] = (
    ("strategy", lambda v: isinstance(v, str) and bool(v), "a strategy's name"),
    ("win", _obj, "an object (wins, games, rate, ci95)"),
    ("win.wins", lambda v: _number(v) and v >= 0, "a number of wins, 0 or more"),
    ("win.games", _count, "a whole number, 0 or more"),
    ("win.rate", _share, "a share from 0 to 1"),
    ("win.ci95", lambda v: _interval(v) and -1e-9 <= v[0] <= v[1] <= 1 + 1e-9, "two shares [low, high] from 0 to 1"),
    ("sole_wins", _count, "a whole number, 0 or more"),
    ("shared_wins", _count, "a whole number, 0 or more"),
    ("score", _obj, "an object (the distribution of its score)"),
)
_MISSING = object()


def _get(d: Any, path: str) -> Any:
    for k in path.split("."):
        if not isinstance(d, dict) or k not in d:
            return _MISSING
        d = d[k]
    return d


def _given(v: Any) -> str:
    if v is _MISSING:
        return "it is missing"
    text = repr(v) if not isinstance(v, (dict, list)) else ("an object" if isinstance(v, dict) else "a list")
    return f"got {text if len(text) <= 40 else text[:37] + '...'}"


def problem(s: dict) -> str | None:
    """The first field of summary ``s`` that its report cannot be drawn from: "field seats[1].win.rate: a share
    from 0 to 1; got 'abc'" (None when every field checked holds what `sim run` writes there)."""
    for path, ok, allowed in TOP:
        v = _get(s, path)
        if v is _MISSING and path in OPTIONAL:
            continue
        if v is _MISSING or not ok(v):
            return f"field {path}: {allowed}; {_given(v)}"
    game = s["scenario"]["game"]
    if game not in registry.names():  # drawn, it would pass for a game with generic labels
        return f"field scenario.game: unknown game {game!r}; allowed: {', '.join(registry.names())}"
    players = s["scenario"]["players"]
    if len(s["seats"]) != players:
        return f"field seats: one object per seat ({players}, scenario.players); got {len(s['seats'])}"
    for i, seat in enumerate(s["seats"]):
        for path, ok, allowed in SEAT:
            v = _get(seat, path)
            if v is _MISSING or not ok(v):
                return f"field seats[{i}].{path}: {allowed}; {_given(v)}"
    return None
