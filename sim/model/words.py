"""Small pieces of English shared by every text `sim` writes (replays, reports, the CLI)."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Sequence

# A difference of two rates (or a rate from its fair share) is in percentage points: after its number it is written
# "points" everywhere, in sentences, verdicts and table cells alike (never "percentage points", "pts" or "pp" after a
# number: "+0.4 points [-0.2, +1.0]", "unchanged within ±1.0 points"); "percentage points" in full only names the unit
# where it stands alone ("B - A (percentage points)"). A game's score is never bare "points": Moor's is in "score
# points" (its rulebook's word), the winner's margin in the game's score unit (`sim.model.catalogue`).
POINTS = "points"
POINTS_UNIT = "percentage points"  # the unit of a figure that is itself a difference of rates (the seat spread)


def rate_text(v: float, unit: str = "", digits: int = 2) -> str:
    """A rate (a share) as a value: "25.20%", or "3.20 points" where its ``unit`` is `POINTS_UNIT` (the seat spread,
    highest minus lowest seat win rate, as every report says it)."""
    return f"{100 * v:.{digits}f}" + (f" {POINTS}" if unit == POINTS_UNIT else "%")


CLOSE = 0.75  # difflib ratio from which a name reads as a misspelt one ("targt"/"target" 0.91, "mdoe"/"mode" 0.75)


def count(n: int, noun: str, plural: str | None = None, grouped: bool = False) -> str:
    """``n`` and its noun in the right number: count(1, "ghost") -> "1 ghost", count(0, "ghost") -> "0 ghosts",
    count(2, "hunter player") -> "2 hunter players" (``plural``: an irregular plural, default ``noun + "s"``;
    ``grouped``: thousands separators, "20,000 games"). Instead of "1 ghost(s)" or "1 games"."""
    return (f"{n:,}" if grouped else f"{n}") + f" {noun if n == 1 else plural or noun + 's'}"


TYPE_WORDS = {"integer": "a whole number", "number": "a number", "boolean": "true or false"}  # a wrong type, said


def not_a(name: str, given: str, kind: str = "integer") -> str:
    """A value of the wrong type in a designer's words, the CLI's and the workbench's alike: not_a("--games",
    "abc") -> "--games: 'abc' is not a whole number" (``kind``: a key of `TYPE_WORDS`)."""
    return f"{name}: {given!r} is not {TYPE_WORDS[kind]}"


def value_text(v: object) -> str:
    """A parameter's value as a scenario file writes it, for reading: 0.5, 2, true, [1, 2], { spook = 13 }."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return f"{v:g}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(value_text(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {value_text(x)}" for k, x in v.items()) + " }"
    return str(v)


def p_value(p: float | None, digits: int = 2) -> str:
    """A p-value as every page, table and message writes it: "< 1e-9" far in the tail (never "0", which a
    p-value cannot be), else with ``digits`` significant digits ("0.0031"); "1" for None (no test: nothing
    differs)."""
    if p is None:
        return "1"
    if p < 1e-9:
        return "< 1e-9"
    return f"{p:.{digits}g}"


def ending(
    status: int,
    turns: int,
    rounds: int,
    scores: Sequence[int],
    wseat: int,
    who: Callable[[int], str],
    score_text: Callable[[int], str],
    decided: Sequence[str] = (),
) -> list[str]:
    """ "TRUNCATED ..." when the game hit the turn cap (status 1), "final after T turns, R rounds: seat 0 ..." with
    each seat's ``score_text(score)`` (the score with its unit: "4 points"), the lines ``decided`` (how a tied top
    score was settled: the game's tie-break rule) and "winner: ..." naming the seats of the bitmask ``wseat`` with
    ``who``."""
    n = len(scores)
    lines = [f"TRUNCATED at the turn cap ({count(turns, 'turn')})"] if status == 1 else []
    lines.append(
        f"final after {count(turns, 'turn')}, {count(rounds, 'round')}: "
        + ", ".join(f"seat {s} {score_text(int(scores[s]))}" for s in range(n))
    )
    lines += list(decided)
    winners = [s for s in range(n) if (wseat >> s) & 1]
    lines.append("winner: " + (", ".join(who(s) for s in winners) if winners else "none (truncated)"))
    return lines


def with_sign(x: float, digits: int) -> str:
    """``x`` with its sign and ``digits`` decimals, as differences and intervals are written ("+1.3", "-0.4"); a value
    that rounds to zero is "0.0", never "-0.0" or "+0.0" (an interval reads "[0.0, +0.2]", not "[-0.0, +0.2]")."""
    text = f"{x:+.{digits}f}"
    return text[1:] if float(text) == 0 else text


def rounds_text(lo: float, hi: float) -> str:
    """A span of whole rounds: "rounds 12-15", or "round 1" when both ends are the same round (never "rounds 1-1")."""
    a, b = f"{lo:.0f}", f"{hi:.0f}"
    return f"round {a}" if a == b else f"rounds {a}-{b}"


def near_name(name: str, allowed: Iterable[str]) -> str | None:
    """The one of ``allowed`` that ``name`` reads as a misspelling of (`difflib`, ratio at least CLOSE), else None."""
    near = difflib.get_close_matches(name, list(allowed), n=1, cutoff=CLOSE)
    return near[0] if near else None


def did_you_mean(name: str, allowed: Iterable[str], shown: Callable[[str], str] = repr) -> str:
    """ "did you mean 'target'? " (``shown`` writes the name: default quoted) when ``name`` reads as a misspelling of
    one of ``allowed`` (`near_name`), else "": put before a message's "allowed: ..." list."""
    near = near_name(name, allowed)
    return f"did you mean {shown(near)}? " if near is not None else ""
