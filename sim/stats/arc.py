"""The game's arc from the cheap per-round curves (issue 39): integer counts folded chunk by chunk into
`Aggregates`, and the summary's ``arc`` block (each seat's progress by round as a median and 5-95% band, who leads by
round, and the arc measures with intervals).

The kernel records, for every game, each seat's progress after each round (its score if the game ended then), who
is alone ahead after each round and the game's arc figures (`kernels.arc`, via `sim.games._arc`). Here they become
counts: a histogram of each seat's progress by round (the fan chart), the games each seat leads alone after each
round, the lead changes per game, the half-time leader's and last seat's wins, the comebacks, and the round after
which the winner led alone to the end. Ties: a seat tied for the top (or the bottom) is neither leading (nor last),
and a tie between two spells of one seat's lead is no lead change.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.stats.metrics import rate

FAN_GAMES = 8192  # the progress bands are taken from the games of index below this (every run's first ones)
MAX_CHANGES = 63  # lead changes per game counted up to this (more are counted here)
SHARE_BINS = 20  # the decided-by-score share of a game's length, in 5% steps (0 .. 20)


def new_fields(players: int, arc_len: int, score_range: tuple[int, int]) -> dict[str, np.ndarray]:
    """The zeroed arc counts of an `Aggregates` (int64), empty when the game records no arc (``arc_len`` 0):
    arc_hist[seat, round, progress - score_lo] (clipped into the score range), arc_lead[round, 0] games with the top
    tied and arc_lead[round, 1 + seat] games the seat is alone ahead after the round, arc_changes[k] games with k
    lead changes, arc_half (games with a seat alone ahead at half-time, of which it won; the same for the seat alone
    behind), arc_comeback (games won by a seat that was alone behind after some round before the last),
    arc_clear[r] games whose winner led alone from round r + 1 on (r = the game's rounds: never), arc_share[b] the
    same as a share of the game's rounds, b / SHARE_BINS."""
    if not arc_len:
        return {k: np.zeros(0, np.int64) for k in _NAMES}
    v = score_range[1] - score_range[0] + 1
    return {
        "arc_hist": np.zeros((players, arc_len, v), np.int64),
        "arc_lead": np.zeros((arc_len, players + 1), np.int64),
        "arc_changes": np.zeros(MAX_CHANGES + 1, np.int64),
        "arc_half": np.zeros(4, np.int64),
        "arc_comeback": np.zeros(1, np.int64),
        "arc_clear": np.zeros(arc_len + 1, np.int64),
        "arc_share": np.zeros(SHARE_BINS + 1, np.int64),
    }


_NAMES = ("arc_hist", "arc_lead", "arc_changes", "arc_half", "arc_comeback", "arc_clear", "arc_share")


def add(agg, arc_rows: np.ndarray, fin: np.ndarray, rounds: np.ndarray, winners: np.ndarray, fan_rows) -> None:
    """Fold the arc record of a chunk (``arc_rows``: int32[games, rows, rounds] whose last two rows are every game's
    standings and figures, kernels/arc.py; never copied whole) of its finished games (mask ``fin``; ``rounds``,
    ``winners`` of every game of the chunk) into ``agg``'s counts. The progress histogram (the fan chart) and the
    leader counts take only ``fan_rows`` (int32[k, players + 2, rounds]: the full records of the chunk's first k
    games, those of index below FAN_GAMES: their bands need no more, and counting every game cost a tenth of Moor's
    run time); the figures count every finished game."""
    if not agg.arc_hist.size or not len(fin):
        return
    # (imported here: the kernels package imports numba, which `import sim` must not)
    from sim.games._arc import (
        ARC_CHANGES,
        ARC_CLEAR,
        ARC_EVER_LAST,
        ARC_HALF_LAST,
        ARC_HALF_LEAD,
        ARC_LEAD_ROW,
        figures,
        leader_of,
    )

    n = agg.players
    length = arc_rows.shape[2]
    v = agg.arc_hist.shape[2]
    fan = 0 if fan_rows is None else len(fan_rows)
    if fan > 0:
        f = fin[:fan]
        prog = np.clip(fan_rows[:, :n, :][f], agg.score_lo, agg.score_hi).astype(np.int64) - agg.score_lo
        prog += (np.arange(n)[None, :, None] * length + np.arange(length)[None, None, :]) * v
        agg.arc_hist += np.bincount(prog.ravel(), minlength=n * length * v).reshape(n, length, v)
        lead = leader_of(fan_rows[:, ARC_LEAD_ROW, :][f].astype(np.int64)) + 1  # 0: the top tied
        lead += np.arange(length)[None, :] * (n + 1)
        agg.arc_lead += np.bincount(lead.ravel(), minlength=length * (n + 1)).reshape(length, n + 1)
    fig = figures(arc_rows)[fin]
    w = winners[fin].astype(np.int64)
    agg.arc_changes += np.bincount(np.minimum(fig[:, ARC_CHANGES], MAX_CHANGES), minlength=MAX_CHANGES + 1)
    hl, hb = fig[:, ARC_HALF_LEAD], fig[:, ARC_HALF_LAST]
    agg.arc_half += [
        np.count_nonzero(hl),
        np.count_nonzero(hl & w),
        np.count_nonzero(hb),
        np.count_nonzero(hb & w),
    ]
    agg.arc_comeback[0] += np.count_nonzero(fig[:, ARC_EVER_LAST] & w)
    r = np.maximum(np.minimum(rounds[fin].astype(np.int64), length), 1)
    clear = np.clip(fig[:, ARC_CLEAR], 0, length)
    agg.arc_clear += np.bincount(clear, minlength=length + 1)
    agg.arc_share += np.bincount(np.minimum((SHARE_BINS * clear + r // 2) // r, SHARE_BINS), minlength=SHARE_BINS + 1)


def _quantile(h: np.ndarray, q: float) -> int:
    """The smallest index whose cumulative count reaches share ``q`` of the total (h non-empty)."""
    c = np.cumsum(h)
    return int(np.searchsorted(c, q * c[-1] - 1e-9))


def summary(agg, competitive: bool) -> dict | None:
    """The summary's ``arc`` block, or None when the run recorded no arc: ``rounds`` (the rounds shown: up to the
    95th percentile of the game's length), per seat ``progress`` {p05, p50, p95} by round, ``leader`` per seat the
    share of games it leads alone after each round (and ``tied`` the share tied for the top; these from the run's
    first FAN_GAMES games, ``fan_games`` of them finished), and ``measures`` (every finished game): lead
    changes per game (mean with a 95% interval), P(win | alone ahead at half-time), P(win | alone behind at
    half-time), the comeback rate (Wilson intervals) and the round from which the winner led alone for good (median,
    quartiles; also as a share of the game's length). Team games: the progress only (the seats share one result)."""
    if not agg.arc_hist.size or not agg.finished:
        return None
    n, length, _ = agg.arc_hist.shape
    shown = _shown_rounds(agg.rounds_hist, length)
    progress = []
    for s in range(n):
        h = agg.arc_hist[s]
        progress.append(
            {
                q: [_quantile(h[r], p) + agg.score_lo for r in range(shown)]
                for q, p in (("p05", 0.05), ("p50", 0.5), ("p95", 0.95))
            }
        )
    fan = int(agg.arc_lead[0].sum())
    out: dict = {"rounds": shown, "fan_games": fan, "progress": progress}
    if not competitive:
        return out
    lead = agg.arc_lead[:shown].astype(float) / max(fan, 1)
    out["leader"] = [lead[:, 1 + s].tolist() for s in range(n)]
    out["tied"] = lead[:, 0].tolist()
    ch = agg.arc_changes
    k = np.arange(len(ch))
    games = int(ch.sum())
    mean = float((ch * k).sum() / games)
    var = float((ch * k * k).sum() / games) - mean * mean
    half = 1.96 * np.sqrt(max(var, 0.0) / games) if games > 1 else 0.0
    out["measures"] = {
        "lead_changes": {"mean": mean, "ci95": [mean - half, mean + half], "games": games},
        "leader_at_half_wins": rate(int(agg.arc_half[1]), int(agg.arc_half[0])),
        "last_at_half_wins": rate(int(agg.arc_half[3]), int(agg.arc_half[2])),
        "comeback": rate(int(agg.arc_comeback[0]), games),
        "decided_by_score": _clear(agg),
    }
    return out


def _shown_rounds(rounds_hist: np.ndarray, length: int) -> int:
    """Rounds a chart shows: the 95th percentile of the game's length (at least 2), within the recorded rounds."""
    if not rounds_hist.sum():
        return length
    return int(min(max(_quantile(rounds_hist, 0.95), 2), length))


def _clear(agg) -> dict:
    """The round after which the winner led alone to the end: median and quartiles (rounds, and share of the
    game's length); the share of games where that never happened before the last round is in ``never``."""
    h, s = agg.arc_clear, agg.arc_share
    ci = _hist_median_ci(h)
    share_ci = _hist_median_ci(s)
    return {
        "p25": _quantile(h, 0.25),
        "p50": _quantile(h, 0.5),
        "p75": _quantile(h, 0.75),
        "ci95": ci,
        "share_ci95": [share_ci[0] / SHARE_BINS, share_ci[1] / SHARE_BINS],
        "share_p50": _quantile(s, 0.5) / SHARE_BINS,
        "share_p25": _quantile(s, 0.25) / SHARE_BINS,
        "share_p75": _quantile(s, 0.75) / SHARE_BINS,
        "games": int(h.sum()),
    }


def _hist_median_ci(h: np.ndarray) -> list[int]:
    """A distribution-free 95% interval of the median of the values counted by histogram ``h`` (index = value): the
    order statistics n/2 -+ 0.98 sqrt(n), as `_median_ci` takes them from the values themselves."""
    n = int(h.sum())
    if n < 2:
        m = _quantile(h, 0.5) if n else 0
        return [m, m]
    c = np.cumsum(h)
    lo = int(max(0, np.floor(n / 2 - 0.98 * np.sqrt(n))))  # 0-based ranks of the order statistics
    hi = int(min(n - 1, np.ceil(n / 2 + 0.98 * np.sqrt(n))))
    return [int(np.searchsorted(c, lo, side="right")), int(np.searchsorted(c, hi, side="right"))]


# --- win-probability timelines (sim arc): from per-state rollout estimates -----------------------------------------

DECIDED = 0.9  # the eventual winner's chance above which, for good, the game counts as decided
BEHIND = 0.2  # a winner whose chance was below this after some round came back
CAL_BINS = 10  # the reliability table's bins of estimated chance


def _upper(p: np.ndarray, n: int) -> np.ndarray:
    """The upper ends of the 95% Wilson intervals of estimates ``p`` from ``n`` rollouts each: a chance counts as
    below a line only when its interval is (the lowest of some thirty noisy estimates of one seat is biased low)."""
    z = 1.96
    c = p + z * z / (2 * n)
    h = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (c + h) / (1 + z * z / n)


def _median_ci(x: np.ndarray) -> list[float]:
    """A distribution-free 95% interval of the median of ``x`` (order statistics n/2 -+ 0.98 sqrt(n))."""
    s = np.sort(x)
    n = len(s)
    if n < 2:
        return [float(s[0]), float(s[0])] if n else [0.0, 0.0]
    lo = int(max(0, np.floor(n / 2 - 0.98 * np.sqrt(n))))
    hi = int(min(n - 1, np.ceil(n / 2 + 0.98 * np.sqrt(n))))
    return [float(s[lo]), float(s[hi])]


def _carry(p: np.ndarray, length: int) -> np.ndarray:
    """Rows 0 .. length - 1 of a game's chances by round, its last row (the result) repeated after its end."""
    if len(p) >= length:
        return p[:length]
    return np.vstack([p, np.repeat(p[-1:], length - len(p), axis=0)])


def _sides(players: int, team: dict | None) -> dict[str, list[int]]:
    """The sides whose chances the timelines follow: each seat, or a team game's teams ({label: seats}; a team with
    no seats is the game itself, whose win is a finished game no seat won: Treasure Hunters' house)."""
    return team or {f"seat {s}": [s] for s in range(players)}


def _side_chance(p: np.ndarray, seats: list[int], players: int) -> np.ndarray:
    """A side's chance by row: its seats' shares summed (a team's win is shared among its seats), or column
    ``players`` (no seat wins) for the side of no seats."""
    return p[:, seats].sum(axis=1) if seats else p[:, players]


def _side_won(winners: int, seats: list[int]) -> bool:
    return bool(winners & sum(1 << s for s in seats)) if seats else winners == 0


def _for_good(pw: np.ndarray, line: float, rounds: int) -> int:
    """The round after which chances ``pw`` (rows: after round 1, 2, ..., the last row the result) stay above
    ``line`` to the end (at most the game's ``rounds``)."""
    below = np.flatnonzero(pw <= line)
    first = int(below[-1]) + 1 if len(below) else 0  # rows from here on stay above the line
    return min(first + 1, rounds)


def _median_block(x: list[int], rounds: list[int]) -> dict:
    d = np.array(x, float)
    sh = d / np.maximum(np.array(rounds, float), 1)
    return {
        "p50": float(np.median(d)),
        "ci95": _median_ci(d),
        "p25": float(np.quantile(d, 0.25)),
        "p75": float(np.quantile(d, 0.75)),
        "share_p50": float(np.median(sh)),
        "share_ci95": _median_ci(sh),
        "rounds_p50": float(np.median(rounds)),
    }


def timeline_summary(games: list[dict], players: int, rollouts: int, team: dict | None = None) -> dict:
    """The ``arc.timeline`` block from `sim.play.arc.timelines` (each game: rounds, winners, status, p[round,
    seat], its column ``players`` the chance no seat wins): per side (each seat, or in a team game each team of
    ``team`` {label: seats}, a team of no seats being the game's house) the median, mean and 5-95% band of the
    chance of winning after each round; the measures with intervals: *decided at* (the round after which the
    eventual winner's chance stays above DECIDED, also as a share of the game's rounds; median over the sampled
    games with a 95% interval), *tips at* (the same above 50%: from then on the eventual winner is the favourite;
    in a team game, when the house tips), the *comeback rate* (games won by a side whose chance was below BEHIND
    after some round before the end, its own 95% interval's upper end below it; Wilson interval over games); the
    reliability table (every side's estimated chance against the share of those sides that won); and
    ``rollout_halfwidth`` (a single state's 95% half-width at 50%). A game that ended at its turn cap is left out."""
    from sim.stats.metrics import rate

    sides = _sides(players, team)
    nobody = any(not seats for seats in sides.values())  # a finished game no seat won is a result
    fin = [x for x in games if x["status"] == 0 and (x["winners"] or nobody)]
    lengths = np.array([len(x["p"]) for x in fin]) if fin else np.array([1])
    shown = int(max(2, np.quantile(lengths, 0.95)))
    bands = []
    for label, seats in sides.items():
        m = (
            np.array([_side_chance(_carry(x["p"], shown), seats, players) for x in fin])
            if fin
            else np.zeros((1, shown))
        )
        bands.append(
            {
                "label": label,
                "seat": seats[0] if team is None else None,
                "p05": np.quantile(m, 0.05, axis=0).tolist(),
                "p50": np.quantile(m, 0.5, axis=0).tolist(),
                "p95": np.quantile(m, 0.95, axis=0).tolist(),
                "mean": m.mean(axis=0).tolist(),
            }
        )
    decided, tipped, rounds, back = [], [], [], 0
    pred, held, won = [], [], []
    h = rollouts // 2  # the rollouts of the binning half (sim.play.arc: p_half)
    for x in fin:
        chance = np.stack([_side_chance(x["p"], seats, players) for seats in sides.values()], axis=1)
        half = np.stack([_side_chance(x["p_half"], seats, players) for seats in sides.values()], axis=1)
        w = [i for i, seats in enumerate(sides.values()) if _side_won(x["winners"], seats)]
        g = _game_figures(chance, w, x["rounds"], rollouts)
        decided.append(g["decided"])
        tipped.append(g["tipped"])
        rounds.append(x["rounds"])
        back += g["comeback"]
        for i in range(len(sides)):
            pred += half[:-1, i].tolist()
            held += ((rollouts * chance[:-1, i] - h * half[:-1, i]) / (rollouts - h)).tolist()  # the other half's
            won += [1.0 if i in w else 0.0] * (len(chance) - 1)
    out: dict = {
        "games": len(fin),
        "rollouts": rollouts,
        "rounds": shown,
        "rollout_halfwidth": float(1.96 * np.sqrt(0.25 / max(rollouts, 1))),
        "bands": bands,
        "team": team is not None,
    }
    if not fin:
        return out
    out["decided"] = _median_block(decided, rounds)
    out["tipped"] = _median_block(tipped, rounds)
    out["comeback"] = rate(back, len(fin))
    out["calibration"] = _calibration(np.array(pred), np.array(held), np.array(won))
    return out


def _game_figures(chance: np.ndarray, w: list[int], rounds: int, rollouts: int) -> dict:
    """One game's rollout measures from its sides' chances by round (``chance``[row, side], the last row the result)
    and its winning sides ``w``: decided (the round after which the winner's chance stays above DECIDED), tipped (the
    same above 50%), their shares of the game's ``rounds``, and comeback (1 when the winner's chance was clearly
    below BEHIND after some round)."""
    pw = chance[:, w].max(axis=1)  # the eventual winner's chance (of any winner, in a shared win)
    d = _for_good(pw, DECIDED, rounds)
    t = _for_good(pw, 0.5, rounds)
    r = max(rounds, 1)
    return {
        "decided": d,
        "tipped": t,
        "decided_share": d / r,
        "tipped_share": t / r,
        "comeback": int((_upper(pw[:-1], rollouts) < BEHIND).any()),
    }


def game_figures(games: list[dict], players: int, rollouts: int, team: dict | None = None) -> dict[int, dict]:
    """`_game_figures` of every finished game of `sim.play.arc.timelines` (by game index; a game at its turn cap,
    or of a competitive game won by no seat, has none)."""
    sides = _sides(players, team)
    nobody = any(not seats for seats in sides.values())
    out = {}
    for x in games:
        if x["status"] != 0 or not (x["winners"] or nobody):
            continue
        chance = np.stack([_side_chance(x["p"], seats, players) for seats in sides.values()], axis=1)
        w = [i for i, seats in enumerate(sides.values()) if _side_won(x["winners"], seats)]
        out[x["game"]] = _game_figures(chance, w, x["rounds"], rollouts)
    return out


# the rollout measures `sim compare --arc --sample` compares game by game: (key, label, kind for its margin)
ROLLOUT_MEASURES = (
    ("decided_share", "decided at (winner's chance above 90% for good), share of the game", "rate"),
    ("tipped_share", "tips at (winner's chance above 50% for good), share of the game", "rate"),
    ("comeback", "won by a side whose chance fell clearly below 20%", "rate"),
)


def rollout_measure_names() -> tuple[str, ...]:
    """The names of the rollout measures (``arc.decided_share``, ...): what ``--margin`` may name besides the
    per-game measures when `sim compare --arc --sample` compares the timelines (``arc.comeback`` names both the
    per-game comeback by score and the rollouts' comeback by chance: its margin applies to both)."""
    return tuple(f"arc.{key}" for key, _label, _kind in ROLLOUT_MEASURES)


def compare_timelines(
    a: list[dict], b: list[dict], players: int, rollouts: int, team: dict | None, alpha: float, margins: dict
) -> dict:
    """The rollout measures of A's and B's timelines (the same games and rollout seeds: common random numbers)
    compared game by game over the games both finished: per measure A's and B's means, B - A with its paired 95%
    interval, and the verdict (`sim.stats.verdict`: unchanged within the margin, changed, cannot tell yet), the
    tests Holm-corrected together. ``margins``: {measure: value in percentage points} (default 1 point)."""
    from sim.stats import verdict as V
    from sim.stats.metrics import diff_test, holm

    fa, fb = game_figures(a, players, rollouts, team), game_figures(b, players, rollouts, team)
    both = sorted(set(fa) & set(fb))
    rows: list[dict[str, Any]] = []
    for key, label, kind in ROLLOUT_MEASURES:
        xa = np.array([fa[g][key] for g in both], float)
        xb = np.array([fb[g][key] for g in both], float)
        d = xb - xa
        n = len(d)
        se = float(d.std(ddof=1) / np.sqrt(n)) if n > 1 else 0.0
        m = V.margin_for(f"arc.{key}", kind, margins).value(float(xa.mean()) if n else 0.0)
        diff = float(d.mean()) if n else 0.0
        p = diff_test(diff, se)
        rows.append(
            {
                "name": f"arc.{key}",
                "label": label,
                "n": n,
                "a": float(xa.mean()) if n else None,
                "b": float(xb.mean()) if n else None,
                "diff": diff,
                "ci95": [diff - 1.96 * se, diff + 1.96 * se],
                "se": se,
                "margin": m,
                "p": p,
                "p_equiv": V.tost_p(diff, se, m),
            }
        )
    for r, q, qe in zip(rows, holm([r["p"] for r in rows]), holm([r["p_equiv"] for r in rows])):
        r["p_holm"], r["p_equiv_holm"] = q, qe
        # (every pair equal bounds nothing while 3 / n, the share of games that may still differ, passes the margin)
        if r["n"] < 2 or (r["se"] == 0 and 3 / r["n"] > r["margin"]):
            r["verdict"], r["more_games"] = V.CANNOT_TELL, None
            continue
        v = V.judge(r["diff"], r["se"], r["margin"], r["n"], q, qe, alpha, r["p"], r["p_equiv"])
        r["verdict"], r["more_games"] = v.kind, v.more_games
    return {"games": len(both), "rollouts": rollouts, "measures": rows}


def _calibration(pred: np.ndarray, held: np.ndarray, won: np.ndarray) -> list[dict]:
    """The reliability table: the states (side x round) binned by the estimate of one half of their rollouts
    (``pred``); per bin the mean estimate of the other half (``held``: an independent estimate of the same states)
    and the share of those sides that won (Wilson interval; the states of one game are not independent, so read the
    interval as a lower bound on the uncertainty). Binning and judging by the same noisy estimate would pull the share
    that won toward the middle of the table (regression to the mean) even for honest chances: the held-out half
    does not (the halves: the first rollouts // 2 rollouts and the rest)."""
    from sim.stats.metrics import rate

    out = []
    b = np.minimum((pred * CAL_BINS).astype(int), CAL_BINS - 1)
    for i in range(CAL_BINS):
        m = b == i
        k = int(m.sum())
        if not k:
            continue
        r = rate(float(won[m].sum()), k)
        out.append({"lo": i / CAL_BINS, "hi": (i + 1) / CAL_BINS, "states": k, "estimate": float(held[m].mean()), **r})
    return out
