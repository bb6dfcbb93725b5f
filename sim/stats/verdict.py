"""Three verdicts a designer can act on, one vocabulary for compare, check, sweep and the ladder.

A difference ``d`` (B - A, or a figure against its reference) with standard error ``se`` is judged against an
*equivalence margin* ``m`` > 0, the smallest change a designer would act on (`margin_for`):

- **unchanged within +/-m**: the equivalence test says so. Two one-sided tests (TOST; Schuirmann 1987): H0- d <= -m
  and H0+ d >= +m, each a one-sided normal test; p_equiv = the larger of the two p-values. At level alpha this is the
  (1 - 2 alpha) interval lying inside (-m, +m).
- **changed by d**: the difference is shown to lie beyond the margin: the two-sided test of d = 0 rejects *and* the
  one-sided test of |d| <= m rejects at the level the caller's multiplicity correction leaves this figure (the
  interval lies past the margin, on one side). An estimate past the margin whose interval still reaches inside it
  is not "changed": "+1.1 [+0.9, +1.3]" at a 1-point margin is "cannot tell yet".
- **cannot tell yet** otherwise, with about how many more games would decide (`games_to_decide`): a difference
  inside the margin that the interval cannot yet confine to it, or one past the margin that the interval cannot yet
  put beyond it.

"No significant difference" is never a verdict: a wide interval around 0 is "cannot tell yet". Multiplicity: the
caller passes Holm-adjusted p-values (`sim.stats.metrics.holm`) over the figures it judges together, for the
difference and for the equivalence tests alike, so the family-wise error of each kind of claim stays at alpha.

Default margins by measure kind (`sim.model.catalogue` kinds; overridable per measure, `--margin KEY=VALUE` in the
measure's own unit, percentage points for rates): rate 1 percentage point (a win rate, the first-player advantage,
a share of games); turns 2% of the reference mean (game length); count and points 5% of the reference mean, at least
0.05 per game. References: D. J. Schuirmann, A comparison of the two one-sided tests procedure and the power
approach for assessing the equivalence of average bioavailability, J. Pharmacokinet. Biopharm. 15 (1987) 657-680;
S. Wellek, Testing Statistical Hypotheses of Equivalence and Noninferiority, 2nd ed. (2010).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from sim.model.errors import SimError

# scipy is imported inside the functions that use it (as in sim.stats.metrics: the web server's memory). The
# normal's tails are scipy.special's ndtr/ndtri, what scipy.stats.norm computes, without its per-call argument
# checks (a tenth of the time: the verdict's error-rate checks call it 80,000 times).

ALPHA = 0.05
VerdictKind = Literal["unchanged", "changed", "cannot_tell"]
UNCHANGED: VerdictKind = "unchanged"
CHANGED: VerdictKind = "changed"
CANNOT_TELL: VerdictKind = "cannot_tell"
RATE_MARGIN = 0.01  # 1 percentage point
LENGTH_SHARE = 0.02  # 2% of the reference length
COUNT_SHARE = 0.05  # 5% of the reference mean ...
COUNT_FLOOR = 0.05  # ... at least 0.05 a game


class MarginError(SimError, ValueError):
    """A --margin entry that cannot be used (one line naming it)."""


@dataclass(frozen=True)
class Margin:
    """An equivalence margin: ``absolute`` in the measure's unit (a fraction for rates), or ``share`` of the reference
    mean with ``floor`` as its least value; ``source`` says where it came from ("default for rates", "--margin")."""

    absolute: float | None = None
    share: float | None = None
    floor: float = 0.0
    source: str = "default"

    def value(self, reference: float) -> float:
        """The margin in the measure's unit for a reference mean ``reference`` (> 0 always)."""
        if self.absolute is not None:
            return self.absolute
        return max(abs(reference) * (self.share or 0.0), self.floor)


DEFAULT_MARGINS = {
    "rate": Margin(absolute=RATE_MARGIN, source="default for rates: 1 point"),
    "turns": Margin(share=LENGTH_SHARE, floor=0.0, source="default for lengths: 2% of the reference"),
    "count": Margin(share=COUNT_SHARE, floor=COUNT_FLOOR, source="default for counts: 5%, at least 0.05 a game"),
    "points": Margin(share=COUNT_SHARE, floor=COUNT_FLOOR, source="default for points: 5%, at least 0.05"),
}


def margin_for(key: str, kind: str, overrides: dict[str, float] | None = None) -> Margin:
    """The margin of measure ``key`` of catalogue kind ``kind``: an override by key (in the measure's unit; a rate's
    in percentage points) else the kind's default. Raises MarginError for an unknown kind."""
    if overrides and key in overrides:
        v = overrides[key]
        return Margin(absolute=v / 100 if kind == "rate" else v, source="--margin")
    if kind not in DEFAULT_MARGINS:
        raise MarginError(f"margin: measure {key} has kind {kind!r}; allowed: {', '.join(DEFAULT_MARGINS)}")
    return DEFAULT_MARGINS[kind]


def parse_margins(items: list[str] | None) -> dict[str, float]:
    """``--margin KEY=VALUE`` entries -> {key: value}; VALUE a positive number (percentage points for rates), one
    entry a key. Raises MarginError naming the entry."""
    out: dict[str, float] = {}
    for item in items or []:
        key, sep, raw = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise MarginError(f"--margin: {item!r}: expected KEY=VALUE, for example first_player_advantage=0.5")
        try:
            v = float(raw)
        except ValueError:
            raise MarginError(f"--margin {key}: {raw!r} is not a number; allowed: a positive number") from None
        if not math.isfinite(v) or v <= 0:
            raise MarginError(
                f"--margin {key}: {raw.strip()} is not a margin; allowed: a positive, finite number (the change that "
                "matters, e.g. 0.5)"
            )
        if key in out:
            raise MarginError(f"--margin {key}: given twice ({out[key]:g} and {v:g}); allowed: one margin a measure")
        out[key] = v
    return out


def tost_p(d: float, se: float, m: float) -> float:
    """TOST p-value of |true difference| < m for an estimate ``d`` with standard error ``se`` (normal): the larger
    of P(Z >= (d + m) / se) under d = -m and P(Z <= (d - m) / se) under d = +m. se = 0: 0 when |d| < m, else 1."""
    from scipy.special import ndtr

    if se <= 0 or not math.isfinite(se):
        return 0.0 if abs(d) < m else 1.0
    lower = float(ndtr(-(d + m) / se))  # H0-: diff <= -m
    upper = float(ndtr((d - m) / se))  # H0+: diff >= +m
    return max(lower, upper)


def p_beyond(d: float, se: float, m: float) -> float:
    """One-sided p-value of |true difference| <= m against its being beyond the margin on the side of ``d``:
    P(Z >= (|d| - m) / se). se = 0: 0 when |d| > m, else 1."""
    from scipy.special import ndtr

    if se <= 0 or not math.isfinite(se):
        return 0.0 if abs(d) > m else 1.0
    return float(ndtr(-(abs(d) - m) / se))


def games_to_decide(d: float, se: float, m: float, n: int, alpha: float = ALPHA, n_base: int = 0) -> int | None:
    """About how many games in all would decide (None when it cannot be said: no variance, or d exactly at the
    margin). Inside the margin: enough for the (1 - 2 alpha) interval to fit inside it; past it: enough for the
    one-sided test of |d| <= m to reject (the interval beyond the margin). Assumes the estimate and the per-game
    spread stay as they are. ``n_base`` > 0: a check's difference, whose fixed baseline of that many games stands
    beside its ``n`` fresh ones (se^2 = sd^2 (1 / n_base + 1 / n)): the fresh games in all, 0 when no number of them
    can decide (the baseline's part of the error alone is too wide)."""
    from scipy.special import ndtri

    if se <= 0 or n <= 0 or not math.isfinite(se) or abs(d) == m:
        return None
    z = float(-ndtri(alpha))  # one-sided: confine it inside the margin, or put it beyond
    if n_base <= 0:
        sd1 = se * math.sqrt(n)  # the spread of one game's difference
        return int(math.ceil((z * sd1 / abs(m - abs(d))) ** 2))
    sd = se / math.sqrt(1.0 / n_base + 1.0 / n)  # one game's spread, pooled
    room = (abs(m - abs(d)) / (z * sd)) ** 2 - 1.0 / n_base  # what 1 / fresh games may be
    return 0 if room <= 0 else int(math.ceil(1.0 / room))


@dataclass(frozen=True)
class Verdict:
    """One figure's verdict. ``estimate`` and ``ci95`` in the measure's unit; ``margin`` likewise; ``p_diff`` and
    ``p_equiv`` as passed (Holm-adjusted by the caller); ``more_games``: about how many more games would decide a
    "cannot tell yet" (None: it cannot be said, or nothing is left to decide)."""

    kind: VerdictKind
    estimate: float
    ci95: tuple[float, float]
    margin: float
    p_diff: float
    p_equiv: float
    games: int
    more_games: int | None


def _level(alpha: float, raw: float | None, adjusted: float) -> float:
    """The level one test of a Holm family effectively faces: alpha scaled by raw / adjusted p (its multiplier)."""
    if raw is None or adjusted <= 0 or raw <= 0:
        return alpha
    return alpha * min(1.0, raw / adjusted)


def judge(
    d: float,
    se: float,
    m: float,
    n: int,
    p_diff: float,
    p_equiv: float,
    alpha: float = ALPHA,
    raw_p_diff: float | None = None,
    raw_p_equiv: float | None = None,
    beyond: float | None = None,
) -> Verdict:
    """The verdict of a difference ``d`` (standard error ``se``, ``n`` games) at margin ``m`` > 0, from the
    (Holm-adjusted) two-sided p-value ``p_diff`` and TOST p-value ``p_equiv``; the raw p-values, when given, size
    the games that would decide at the level the correction leaves each test. ``beyond``: the one-sided p-value of
    |d| <= m where it comes from elsewhere (a bootstrap, `sim.stats.spread_compare`); None: the normal's
    (`p_beyond`). Raises ValueError for m <= 0."""
    if not m > 0:
        raise ValueError(f"equivalence margin must be positive, got {m}")
    h = 1.959963984540054 * se
    ci = (d - h, d + h)
    kind: VerdictKind
    beyond = p_beyond(d, se, m) if beyond is None else beyond
    if p_equiv <= alpha:
        kind = UNCHANGED
    elif p_diff <= alpha and abs(d) > m and beyond <= _level(alpha, raw_p_diff, p_diff):
        kind = CHANGED
    else:
        kind = CANNOT_TELL
    more = None
    if kind == CANNOT_TELL:
        level = _level(alpha, raw_p_equiv, p_equiv) if abs(d) < m else _level(alpha, raw_p_diff, p_diff)
        total = games_to_decide(d, se, m, n, level)
        more = None if total is None or total <= n else total - n
    return Verdict(kind, d, ci, m, p_diff, p_equiv, n, more)


def round_games(n: int) -> int:
    """``n`` rounded up to two significant digits ("about 34,000 more games")."""
    if n < 100:
        return n
    e = 10 ** (len(str(n)) - 2)
    return -(-n // e) * e


FAR_BEYOND = 10**12  # more games than this is said in words, not as a 30-digit number


def games_words(n: int) -> str:
    """A count of games that would decide, as every line, page and table cell says it: rounded up to two
    significant digits (`round_games`: "34,000", "1,200,000"), billions in words ("69 billion", not
    "69,000,000,000"), "more than a trillion" past `FAR_BEYOND`: no run plays that many."""
    if n > FAR_BEYOND:
        return "more than a trillion"
    r = round_games(n)
    if r >= 10**12:
        return "a trillion"
    return f"{r / 10**9:g} billion" if r >= 10**9 else f"{r:,}"


def about_games(n: int) -> str:
    """ "about 34,000", "about 69 billion", or "more than a trillion" (`games_words`) in a sentence."""
    said = games_words(n)
    return said if n > FAR_BEYOND else f"about {said}"


def more_games_cell(n: int) -> str:
    """A table cell's "+34,000 games", "+69 billion games", or "more than a trillion more games" (`games_words`)."""
    return "more than a trillion more games" if n > FAR_BEYOND else f"+{games_words(n)} games"


IMPRACTICAL_FACTOR = 50  # more games than this many times those played ...
IMPRACTICAL_MIN = 1_000_000  # ... and at least this many: the estimate sits at its margin


def more_games_words(more: int, games: int, what: str = "") -> str:
    """ "about 34,000 more games would decide" for ``more`` games beyond the ``games`` played; where that is
    impractical (over `IMPRACTICAL_FACTOR` times the games played and at least `IMPRACTICAL_MIN`) it also says why:
    the estimate sits about at its margin, where no practical number of games settles which side it is on. ``what``
    follows "decide" ("them all")."""
    text = f"{about_games(more)} more games would decide" + (f" {what}" if what else "")
    return text + at_margin_words(more, games)


AT_MARGIN = "; the figure sits about at its margin, where no practical number of games settles which side"


def at_margin_words(more: int, games: int) -> str:
    """`AT_MARGIN` where ``more`` games (beyond or in all) are impractical against the ``games`` played (over
    `IMPRACTICAL_FACTOR` times them and at least `IMPRACTICAL_MIN`), else ""."""
    return AT_MARGIN if more >= IMPRACTICAL_MIN and more > IMPRACTICAL_FACTOR * max(games, 1) else ""


def words(v: Verdict, fmt) -> str:
    """The verdict in the designer's words; ``fmt`` formats a value of the measure with its unit and sign
    ("+0.8 points")."""
    if v.kind == UNCHANGED:
        return f"unchanged within +/-{fmt(v.margin, signed=False)}"
    if v.kind == CHANGED:
        return f"changed by {fmt(v.estimate, signed=True)}"
    if v.more_games is None:
        return "cannot tell yet"
    return f"cannot tell yet: {more_games_words(v.more_games, v.games)}"
